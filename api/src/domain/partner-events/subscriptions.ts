// The event subscriptions of a connected app (whatever its protocol), managed by platform administrators: an endpoint
// and the event types it takes, a signing secret per subscription (Standard Webhooks `whsec_…`, shown once, kept
// sealed), rotated with an overlap during which both secrets sign.
import { randomBytes, randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  connectedApps,
  oidcClients,
  type PartnerEventType,
  partnerEventTypes,
  partnerSubscriptions,
  samlApps,
} from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { isLocalName, isSpecialUseAddress } from '../../lib/outbound/special-use.js';
import { seal, unseal } from '../../lib/sealed.js';
import { type AuditActor, recordAudit } from '../audit/log.js';
import type { AuditAction } from '../audit/actions.js';
import { clientNotFound } from '../identity-provider/oidc/clients.js';
import { connectedAppNotFound } from '../identity-provider/connected-apps.js';
import { partnerEventMessages as M } from './messages.js';

const maxUrlLength = 2_000;
const maxSubscriptionsPerClient = 10;
/** After a rotation the previous secret keeps signing this long, beside the new one, while the receiver switches. */
export const secretOverlapMs = 24 * 60 * 60_000;

export interface SubscriptionInput {
  url: string;
  eventos: string[];
}

export interface SubscriptionView {
  id: string;
  url: string;
  eventos: PartnerEventType[];
  estado: 'activa' | 'desactivada';
  motivoDesactivacion: string | null;
  /** Until when the previous secret still signs beside the current one (after a rotation), else null. */
  secretoAnteriorHasta: string | null;
  creadaEn: string;
}

/** Where the sealed secrets of a subscription are bound: a value copied to another row does not open. */
const boundTo = (subscriptionId: string) => `partner-subscription:${subscriptionId}`;

/** A fresh secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

const loopbackNames = new Set(['localhost', 'localhost.localdomain']);

/**
 * The endpoint as typed, or a Spanish 400: an absolute https URL without credentials or fragment; http, a loopback
 * name or a private address only when the operator lets partner traffic reach the private network (the rule of the
 * back-channel logouts, OIDC_BACKCHANNEL_PRIVATE_NETWORK). The connection itself is checked again when delivering
 * (a name that resolves to a private address is cut there).
 */
export function validEndpoint(raw: unknown, privateNetwork: boolean): string {
  const value = typeof raw === 'string' ? raw.trim() : '';
  const fail = (message: string): never => {
    throw new HttpError(400, message, 'INVALID_SUBSCRIPTION');
  };
  if (!value) return fail(M.urlRequired);
  if (value.length > maxUrlLength) fail(M.urlTooLong(maxUrlLength));
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail(M.urlInvalid(value));
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') fail(M.urlInvalid(value));
  if (url.username || url.password) fail(M.urlWithCredentials);
  if (url.hash || value.includes('#')) fail(M.urlWithFragment);
  if (url.protocol === 'http:' && !privateNetwork) fail(M.urlHttpsOnly);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const local = loopbackNames.has(host.toLowerCase()) || isLocalName(host);
  if (!privateNetwork && (local || (isIP(host) !== 0 && isSpecialUseAddress(host)))) fail(M.urlPrivate(host));
  return url.href;
}

export function validEvents(raw: unknown): PartnerEventType[] {
  const list = Array.isArray(raw) ? raw.filter((item): item is string => typeof item === 'string') : [];
  const names = [...new Set(list.map((item) => item.trim()).filter(Boolean))];
  if (names.length === 0) throw new HttpError(400, M.eventsRequired, 'INVALID_SUBSCRIPTION');
  const unknown = names.filter((name) => !(partnerEventTypes as readonly string[]).includes(name));
  if (unknown.length > 0) throw new HttpError(400, M.unknownEvents(unknown), 'INVALID_SUBSCRIPTION');
  return partnerEventTypes.filter((type) => names.includes(type));
}

type SubscriptionRow = typeof partnerSubscriptions.$inferSelect;

export function subscriptionView(row: SubscriptionRow, now: number): SubscriptionView {
  const overlap = row.previousSecretUntil && row.previousSecretUntil.getTime() > now ? row.previousSecretUntil : null;
  return {
    id: row.id,
    url: row.url,
    eventos: row.eventos,
    estado: row.status,
    motivoDesactivacion: row.disabledReason,
    secretoAnteriorHasta: overlap?.toISOString() ?? null,
    creadaEn: row.createdAt.toISOString(),
  };
}

/**
 * Whose subscriptions: a connected app, by its registry id (/admin/aplicaciones-conectadas/:idApp, any protocol) or,
 * as the older paths name it, by its OpenID Connect client's `client_id` (/admin/clientes-oidc/:clientId).
 */
export type SubscriptionOwner = { connectedAppId: number } | { clientId: string };

/** A connected app as its subscriptions' changes are audited: its registry id, name and audit target. */
export interface OwnerApp {
  connectedAppId: number;
  name: string;
  target: { type: 'oidc_client' | 'saml_app'; id: number };
  /** What names the app in an audit row's details, beside its name. */
  key: { clientId: string } | { samlAppId: number };
}

const ownerColumns = {
  connectedAppId: connectedApps.id,
  protocol: connectedApps.protocol,
  name: connectedApps.name,
  clientRowId: oidcClients.id,
  clientId: oidcClients.clientId,
  samlAppId: samlApps.id,
};

function ownerApp(row: {
  connectedAppId: number;
  name: string;
  clientRowId: number | null;
  clientId: string | null;
  samlAppId: number | null;
}): OwnerApp {
  return row.clientId !== null && row.clientRowId !== null
    ? {
        connectedAppId: row.connectedAppId,
        name: row.name,
        target: { type: 'oidc_client', id: row.clientRowId },
        key: { clientId: row.clientId },
      }
    : {
        connectedAppId: row.connectedAppId,
        name: row.name,
        target: { type: 'saml_app', id: row.samlAppId as number },
        key: { samlAppId: row.samlAppId as number },
      };
}

const ownerRows = (db: Db) =>
  db
    .select(ownerColumns)
    .from(connectedApps)
    .leftJoin(oidcClients, eq(oidcClients.connectedAppId, connectedApps.id))
    .leftJoin(samlApps, eq(samlApps.connectedAppId, connectedApps.id));

/** The connected app `owner` names, or the Spanish 404 of the path's kind (no such client, no such app). */
export async function ownerOf(db: Db, owner: SubscriptionOwner): Promise<OwnerApp> {
  const [row] = await ownerRows(db).where(
    'clientId' in owner ? eq(oidcClients.clientId, owner.clientId) : eq(connectedApps.id, owner.connectedAppId),
  );
  if (!row) throw 'clientId' in owner ? clientNotFound() : connectedAppNotFound();
  return ownerApp(row);
}

/** The connected app of a subscription's registry id (for what the worker audits), or undefined once it is gone. */
export async function ownerOfApp(db: Db, connectedAppId: number): Promise<OwnerApp | undefined> {
  const [row] = await ownerRows(db).where(eq(connectedApps.id, connectedAppId));
  return row ? ownerApp(row) : undefined;
}

/** The audit action of a subscription change, under its app's protocol (`oidc_client.…`, `saml_app.…`). */
export const subscriptionAction = (
  app: OwnerApp,
  change:
    | 'subscription_create'
    | 'subscription_delete'
    | 'subscription_rotate_secret'
    | 'subscription_disabled'
    | 'delivery_resend',
): AuditAction => `${app.target.type}.${change}`;

export interface SubscriptionDeps {
  db: Db;
  sealingKey: Buffer;
  privateNetwork: boolean;
  now: () => number;
}

export async function createSubscription(
  deps: SubscriptionDeps,
  actor: AuditActor,
  owner: SubscriptionOwner,
  input: SubscriptionInput,
): Promise<{ id: string; secreto: string }> {
  const app = await ownerOf(deps.db, owner);
  const url = validEndpoint(input.url, deps.privateNetwork);
  const eventos = validEvents(input.eventos);
  const id = randomUUID();
  const secret = newWebhookSecret();
  await deps.db.transaction(async (tx) => {
    // The app's row lock makes the count and the insert one step for concurrent creations.
    await tx.execute(sql`SELECT 1 FROM connected_apps WHERE id = ${app.connectedAppId} FOR UPDATE`);
    const [existing] = await tx
      .select({ value: count() })
      .from(partnerSubscriptions)
      .where(eq(partnerSubscriptions.connectedAppId, app.connectedAppId));
    if (Number(existing?.value ?? 0) >= maxSubscriptionsPerClient)
      throw new HttpError(409, M.tooManySubscriptions(maxSubscriptionsPerClient), 'TOO_MANY_SUBSCRIPTIONS');
    await tx.insert(partnerSubscriptions).values({
      id,
      connectedAppId: app.connectedAppId,
      url,
      eventos,
      secretSealed: seal(deps.sealingKey, boundTo(id), secret),
      createdBy: actor.user.id,
    });
    await recordAudit(tx, actor, [
      {
        action: subscriptionAction(app, 'subscription_create'),
        target: app.target,
        details: { ...app.key, cliente: app.name, suscripcion: id, url, eventos },
      },
    ]);
  });
  return { id, secreto: secret };
}

export async function listSubscriptions(deps: SubscriptionDeps, owner: SubscriptionOwner): Promise<SubscriptionView[]> {
  const app = await ownerOf(deps.db, owner);
  const rows = await deps.db
    .select()
    .from(partnerSubscriptions)
    .where(eq(partnerSubscriptions.connectedAppId, app.connectedAppId))
    .orderBy(asc(partnerSubscriptions.createdAt), asc(partnerSubscriptions.id));
  const now = deps.now();
  return rows.map((row) => subscriptionView(row, now));
}

/** The Spanish 404 of a subscription the client does not have. */
export const subscriptionNotFound = () => new HttpError(404, M.subscriptionNotFound, 'SUBSCRIPTION_NOT_FOUND');

/** Deletes a subscription with its pending and past deliveries (nothing more is sent to it). */
export async function deleteSubscription(
  deps: SubscriptionDeps,
  actor: AuditActor,
  owner: SubscriptionOwner,
  id: string,
) {
  const app = await ownerOf(deps.db, owner);
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(partnerSubscriptions)
      .where(and(eq(partnerSubscriptions.id, id), eq(partnerSubscriptions.connectedAppId, app.connectedAppId)))
      .returning();
    if (!row) throw subscriptionNotFound();
    await recordAudit(tx, actor, [
      {
        action: subscriptionAction(app, 'subscription_delete'),
        target: app.target,
        details: { ...app.key, cliente: app.name, suscripcion: id, url: row.url },
      },
    ]);
  });
}

/**
 * A new secret, shown once; the one it replaces keeps signing beside it for `secretOverlapMs` (a receiver that
 * still knows only the old one keeps verifying). Rotating again within the overlap drops the oldest.
 */
export async function rotateSubscriptionSecret(
  deps: SubscriptionDeps,
  actor: AuditActor,
  owner: SubscriptionOwner,
  id: string,
): Promise<{ id: string; secreto: string; secretoAnteriorHasta: string }> {
  const app = await ownerOf(deps.db, owner);
  const secret = newWebhookSecret();
  const until = new Date(deps.now() + secretOverlapMs);
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(partnerSubscriptions)
      .where(and(eq(partnerSubscriptions.id, id), eq(partnerSubscriptions.connectedAppId, app.connectedAppId)))
      .for('update');
    if (!row) throw subscriptionNotFound();
    await tx
      .update(partnerSubscriptions)
      .set({
        secretSealed: seal(deps.sealingKey, boundTo(id), secret),
        previousSecretSealed: row.secretSealed,
        previousSecretUntil: until,
        updatedAt: new Date(deps.now()),
      })
      .where(eq(partnerSubscriptions.id, id));
    await recordAudit(tx, actor, [
      {
        action: subscriptionAction(app, 'subscription_rotate_secret'),
        target: app.target,
        details: { ...app.key, cliente: app.name, suscripcion: id },
      },
    ]);
  });
  return { id, secreto: secret, secretoAnteriorHasta: until.toISOString() };
}

/** The secrets that sign a subscription's messages now: the current one, and the previous one during its overlap. */
export function signingSecrets(
  sealingKey: Buffer,
  row: Pick<SubscriptionRow, 'id' | 'secretSealed' | 'previousSecretSealed' | 'previousSecretUntil'>,
  now: number,
): string[] {
  const secrets = [unseal(sealingKey, boundTo(row.id), row.secretSealed)];
  if (row.previousSecretSealed && row.previousSecretUntil && row.previousSecretUntil.getTime() > now)
    secrets.push(unseal(sealingKey, boundTo(row.id), row.previousSecretSealed));
  return secrets;
}
