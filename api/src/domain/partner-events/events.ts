// What a partner app receives: the Standard Webhooks message of one event for one app ({type, timestamp, data}),
// built at fan-out (a profile change with the values it wrote; a plan event with the plan the person has then) with
// the subject that app knows (an OpenID Connect `sub`, a SAML NameID) and only what it is given at sign-in (a
// client's scopes and, for a third-party app, the person's consent; a SAML app's attributes); and when a failed
// delivery is tried again.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  type OidcClientRow,
  oidcConsents,
  type PartnerEventType,
  type SamlAppRow,
  type User,
} from '../../db/schema.js';
import { accountClaims, planClaim, rolesClaim } from '../identity-provider/claims.js';
import { type OidcScope, scopeClaims } from '../identity-provider/scopes.js';
import { subjectFor } from '../identity-provider/subjects.js';

/**
 * The Standard Webhooks retry schedule: the first try at once, then these waits after each failure (5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h). After the tenth failed try the delivery is failed.
 */
export const retryDelaysMs = [5_000, 5 * 60_000, 30 * 60_000, 2, 5, 10, 14, 20, 24].map((value, index) =>
  index < 3 ? value : value * 60 * 60_000,
);
export const maxAttempts = retryDelaysMs.length + 1;
/** A receiver's Retry-After longer than the scheduled wait is honoured, up to a day. */
const maxRetryAfterMs = 24 * 60 * 60_000;

/** When to try again after `attempts` failed tries (undefined: no more tries), with the receiver's Retry-After. */
export function nextRetryDelayMs(attempts: number, retryAfterMs?: number): number | undefined {
  const scheduled = retryDelaysMs[attempts - 1];
  if (scheduled === undefined) return undefined;
  if (retryAfterMs === undefined || !(retryAfterMs > scheduled)) return scheduled;
  return Math.min(retryAfterMs, maxRetryAfterMs);
}

/** A Retry-After header (seconds or an HTTP date) in milliseconds from `now`, or undefined. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  if (/^\d{1,9}$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The subject `client` knows the person by, made as their ID tokens' is (subjects.ts), or undefined for an event
 * without the person's public id (none is written without one while the account exists).
 */
export function subjectForClient(
  client: Pick<OidcClientRow, 'sujeto' | 'subjectSalt'>,
  event: Pick<PartnerEventRow, 'userId' | 'publicId'>,
): string | undefined {
  const rule = { kind: client.sujeto, salt: client.subjectSalt };
  if (rule.kind === 'numerico') return subjectFor(rule, { id: event.userId, publicId: '' });
  return event.publicId ? subjectFor(rule, { id: event.userId, publicId: event.publicId }) : undefined;
}

export interface PartnerEventRow {
  id: number;
  userId: number;
  publicId: string | null;
  tipo: PartnerEventType;
  appId: number | null;
  clientId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** The scopes that bound what `client` learns of the person: its own, narrowed by the consent of a third-party app. */
export async function scopesFor(db: Db, client: OidcClientRow, userId: number): Promise<Set<OidcScope>> {
  const own = new Set(client.scopes as OidcScope[]);
  if (client.firstParty) return own;
  const [consent] = await db
    .select({ scopes: oidcConsents.scopes })
    .from(oidcConsents)
    .where(and(eq(oidcConsents.userId, userId), eq(oidcConsents.clientId, client.clientId)));
  const allowed = new Set(consent?.scopes ?? ['openid']);
  return new Set([...own].filter((scope) => allowed.has(scope)));
}

/** The account's columns a trigger names in `cambios`, as the claims they change. */
const claimsOfColumn: Record<string, readonly string[]> = {
  name: ['name', 'given_name'],
  last_name: ['name', 'family_name'],
  email: ['email'],
  phone: ['phone_number'],
};

/**
 * The `data` of the message for `client`, or null when the client may not learn of this event at all (a profile
 * change only in what its scopes do not release; a plan event for a client without the `plan` scope).
 */
export async function eventData(
  db: Db,
  client: OidcClientRow,
  event: PartnerEventRow,
): Promise<Record<string, unknown> | null> {
  const sub = subjectForClient(client, event);
  if (sub === undefined) return null;
  switch (event.tipo) {
    case 'usuario.eliminado':
    case 'usuario.suspendido':
    case 'usuario.reactivado':
      return { sub };
    case 'consentimiento.revocado':
      return { sub, scopes: event.data.scopes_retirados ?? [] };
    case 'usuario.actualizado': {
      const scopes = await scopesFor(db, client, event.userId);
      const released = new Set([...scopes].flatMap((scope) => scopeClaims[scope as keyof typeof scopeClaims] ?? []));
      const changed = [
        ...new Set(((event.data.cambios as string[]) ?? []).flatMap((column) => claimsOfColumn[column] ?? [])),
      ].filter((claim) => released.has(claim));
      if (changed.length === 0) return null;
      // The values the change wrote (the trigger keeps them), not whatever the account says by the time of fan-out.
      const values = (event.data.valores ?? {}) as Record<string, string>;
      const claims = accountClaims(
        {
          id: event.userId,
          name: values.name ?? '',
          lastName: values.last_name ?? '',
          email: values.email ?? '',
          phone: values.phone ?? '',
        } as User,
        sub,
        undefined,
      ) as Record<string, unknown>;
      const data: Record<string, unknown> = { sub, cambios: changed };
      for (const claim of released) if (claim !== 'sub' && claims[claim] !== undefined) data[claim] = claims[claim];
      return data;
    }
    case 'roles.cambiados': {
      // The keys the person holds in the client's app now (read at fan-out, as a plan event's plan is).
      if (client.appId === null || client.appId !== event.appId) return null;
      const scopes = await scopesFor(db, client, event.userId);
      if (!scopes.has('roles')) return null;
      return {
        sub,
        roles: await rolesClaim(db, event.userId, client.appId, await planClaim(db, event.userId, client.appId)),
      };
    }
    default: {
      // plan.*: the person's plan in the client's app now, by the one plan rule (their own or a company seat). The
      // triggers write these events without data (docs/triggers.md); `vence` is the expiry job's, for plan.vencido.
      if (client.appId === null || client.appId !== event.appId) return null;
      const scopes = await scopesFor(db, client, event.userId);
      if (!scopes.has('plan')) return null;
      const data: Record<string, unknown> = { sub, plan: await planClaim(db, event.userId, client.appId) };
      if (event.tipo === 'plan.vencido') data.vencio = event.data.vence ?? null;
      return data;
    }
  }
}

/** The account's columns a trigger names in `cambios`, as the SAML attributes they change (saml/sign-in.ts). */
const attributeOfColumn: Record<string, string> = { name: 'nombre', last_name: 'apellido', email: 'email' };
const valueColumnOf: Record<string, string> = { nombre: 'name', apellido: 'last_name', email: 'email' };

/**
 * The `data` of the message for a SAML app that knows the person by `nameId` (the NameID it was last sent), or null
 * when it may not learn of this event: a profile change only in what its assertions do not carry; a plan event of
 * another catalogue app. `sub` is that NameID; a profile change names the SAML attributes (email, nombre, apellido).
 * Consents taken back at a SAML app are told by its single logout, not by an event.
 */
export async function samlEventData(
  db: Db,
  app: Pick<SamlAppRow, 'appId'>,
  nameId: string,
  event: PartnerEventRow,
): Promise<Record<string, unknown> | null> {
  const sub = nameId;
  switch (event.tipo) {
    case 'usuario.eliminado':
    case 'usuario.suspendido':
    case 'usuario.reactivado':
      return { sub };
    case 'consentimiento.revocado':
      return null;
    case 'usuario.actualizado': {
      const changed = [
        ...new Set(((event.data.cambios as string[]) ?? []).flatMap((column) => attributeOfColumn[column] ?? [])),
      ];
      if (changed.length === 0) return null;
      const values = (event.data.valores ?? {}) as Record<string, string>;
      const data: Record<string, unknown> = { sub, cambios: changed };
      for (const attribute of changed) data[attribute] = values[valueColumnOf[attribute] as string] ?? '';
      return data;
    }
    case 'roles.cambiados': {
      // Every assertion for an app tied to a catalogue app carries the `roles` attribute: so does this event.
      if (app.appId === null || app.appId !== event.appId) return null;
      return {
        sub,
        roles: await rolesClaim(db, event.userId, app.appId, await planClaim(db, event.userId, app.appId)),
      };
    }
    default: {
      if (app.appId === null || app.appId !== event.appId) return null;
      const data: Record<string, unknown> = { sub, plan: await planClaim(db, event.userId, app.appId) };
      if (event.tipo === 'plan.vencido') data.vencio = event.data.vence ?? null;
      return data;
    }
  }
}

/**
 * The Standard Webhooks message: `type`, `timestamp` (when it happened) and `data`, plus `seq`, the message's number
 * in its subscription: in the signed body, so a receiver compares it with the last one it applied without parsing the
 * webhook-id (which ends in it too).
 */
export function message(event: PartnerEventRow, seq: number, data: Record<string, unknown>): Record<string, unknown> {
  return { type: event.tipo, timestamp: event.createdAt.toISOString(), seq, data };
}
