// The event subscriptions of an OpenID Connect client, managed by platform administrators: an endpoint and the event
// types it takes, a signing secret per subscription (Standard Webhooks `whsec_…`, shown once, kept sealed), rotated
// with an overlap during which both secrets sign.
import { randomBytes, randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { oidcClients, type PartnerEventType, partnerEventTypes, partnerSubscriptions } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { isSpecialUseAddress } from '../../lib/outbound/special-use.js';
import { seal, unseal } from '../../lib/sealed.js';
import { type AuditActor, recordAudit } from '../audit/log.js';
import { clientNotFound } from '../identity-provider/clients.js';
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
  const local = loopbackNames.has(host.toLowerCase()) || host.toLowerCase().endsWith('.localhost');
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

async function clientRow(db: Db, clientId: string) {
  const [client] = await db
    .select({ id: oidcClients.id, name: oidcClients.name })
    .from(oidcClients)
    .where(eq(oidcClients.clientId, clientId));
  if (!client) throw clientNotFound();
  return client;
}

export interface SubscriptionDeps {
  db: Db;
  sealingKey: Buffer;
  privateNetwork: boolean;
  now: () => number;
}

export async function createSubscription(
  deps: SubscriptionDeps,
  actor: AuditActor,
  clientId: string,
  input: SubscriptionInput,
): Promise<{ id: string; secreto: string }> {
  const client = await clientRow(deps.db, clientId);
  const url = validEndpoint(input.url, deps.privateNetwork);
  const eventos = validEvents(input.eventos);
  const id = randomUUID();
  const secret = newWebhookSecret();
  await deps.db.transaction(async (tx) => {
    // The client row's lock makes the count and the insert one step for concurrent creations.
    await tx.execute(sql`SELECT 1 FROM oidc_clients WHERE id = ${client.id} FOR UPDATE`);
    const [existing] = await tx
      .select({ value: count() })
      .from(partnerSubscriptions)
      .where(eq(partnerSubscriptions.clientId, clientId));
    if (Number(existing?.value ?? 0) >= maxSubscriptionsPerClient)
      throw new HttpError(409, M.tooManySubscriptions(maxSubscriptionsPerClient), 'TOO_MANY_SUBSCRIPTIONS');
    await tx.insert(partnerSubscriptions).values({
      id,
      clientId,
      url,
      eventos,
      secretSealed: seal(deps.sealingKey, boundTo(id), secret),
      createdBy: actor.user.id,
    });
    await recordAudit(tx, actor, [
      {
        action: 'oidc_client.subscription_create',
        target: { type: 'oidc_client', id: client.id },
        details: { clientId, cliente: client.name, suscripcion: id, url, eventos },
      },
    ]);
  });
  return { id, secreto: secret };
}

export async function listSubscriptions(deps: SubscriptionDeps, clientId: string): Promise<SubscriptionView[]> {
  await clientRow(deps.db, clientId);
  const rows = await deps.db
    .select()
    .from(partnerSubscriptions)
    .where(eq(partnerSubscriptions.clientId, clientId))
    .orderBy(asc(partnerSubscriptions.createdAt), asc(partnerSubscriptions.id));
  const now = deps.now();
  return rows.map((row) => subscriptionView(row, now));
}

/** The Spanish 404 of a subscription the client does not have. */
export const subscriptionNotFound = () => new HttpError(404, M.subscriptionNotFound, 'SUBSCRIPTION_NOT_FOUND');

/** Deletes a subscription with its pending and past deliveries (nothing more is sent to it). */
export async function deleteSubscription(deps: SubscriptionDeps, actor: AuditActor, clientId: string, id: string) {
  const client = await clientRow(deps.db, clientId);
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(partnerSubscriptions)
      .where(and(eq(partnerSubscriptions.id, id), eq(partnerSubscriptions.clientId, clientId)))
      .returning();
    if (!row) throw subscriptionNotFound();
    await recordAudit(tx, actor, [
      {
        action: 'oidc_client.subscription_delete',
        target: { type: 'oidc_client', id: client.id },
        details: { clientId, cliente: client.name, suscripcion: id, url: row.url },
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
  clientId: string,
  id: string,
): Promise<{ id: string; secreto: string; secretoAnteriorHasta: string }> {
  const client = await clientRow(deps.db, clientId);
  const secret = newWebhookSecret();
  const until = new Date(deps.now() + secretOverlapMs);
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(partnerSubscriptions)
      .where(and(eq(partnerSubscriptions.id, id), eq(partnerSubscriptions.clientId, clientId)))
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
        action: 'oidc_client.subscription_rotate_secret',
        target: { type: 'oidc_client', id: client.id },
        details: { clientId, cliente: client.name, suscripcion: id },
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
