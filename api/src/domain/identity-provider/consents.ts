// The third-party apps a person allowed (their consent, remembered per app): asked for when a request needs more than
// was allowed, never for a first-party app; listed in /perfil and taken back there.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Client, Configuration } from 'oidc-provider';
import type { Db } from '../../db/client.js';
import { connectedApps, oidcClients, oidcConsents, oidcLogoutDeliveries, oidcPayloads } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { accountIdOf } from './claims.js';
import { portalFacts } from './client-facts.js';
import { identityProviderMessages as M } from './messages.js';
import { listSamlConsents, revokeSamlConsent, samlAppOfConsentId } from './saml/consents.js';
import { describeScopes, knownScopes, type OidcScope } from './scopes.js';

/** The scopes a person already allowed a third-party app (their answer on the consent screen), or none. */
export async function rememberedScopes(db: Db, userId: number, clientId: string): Promise<Set<string>> {
  const [row] = await db
    .select({ scopes: oidcConsents.scopes })
    .from(oidcConsents)
    .where(and(eq(oidcConsents.userId, userId), eq(oidcConsents.clientId, clientId)));
  return new Set(row?.scopes ?? []);
}

/** The scopes of a request that the client may have: what the consent screen lists and a grant holds. */
export function requestedScopes(client: Client, scope: unknown): OidcScope[] {
  const allowed = new Set(String(client.scope ?? '').split(' '));
  return knownScopes(
    String(scope ?? '')
      .split(' ')
      .filter((item) => allowed.has(item)),
  );
}

/**
 * Whether the person's answer is needed: never for a first-party client; for a third-party one, unless they already
 * allowed every scope asked for.
 */
export function consentNeeded(firstParty: boolean, asked: readonly string[], remembered: Set<string>): boolean {
  return !firstParty && asked.some((scope) => scope !== 'openid' && !remembered.has(scope));
}

/**
 * The library's `loadExistingGrant`, the portal's answer: a first-party app needs no consent, and a third-party app keeps
 * what the person allowed; otherwise the interaction asks.
 */
export function grantLoader(db: Db): NonNullable<Configuration['loadExistingGrant']> {
  return async (ctx) => {
    const { client, session } = ctx.oidc;
    if (!client || !session?.accountId) return undefined;
    const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
    const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
    // The portal's own answer: first-party apps need no consent, and a third-party app keeps what the person allowed.
    const facts = portalFacts(client);
    const asked = requestedScopes(client, ctx.oidc.params?.scope);
    const userId = Number(session.accountId);
    const remembered = facts.firstParty ? new Set<string>() : await rememberedScopes(db, userId, client.clientId);
    if (consentNeeded(facts.firstParty, asked, remembered)) return existing;
    const grant = existing ?? new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
    const missing = asked.filter((scope) => !grant.getOIDCScope().split(' ').includes(scope));
    if (missing.length > 0 || !existing) {
      grant.addOIDCScope(asked.join(' '));
      await grant.save();
    }
    return grant;
  };
}

export interface AuthorizedAppView {
  clientId: string;
  nombre: string;
  permisos: { scope: string; descripcion: string }[];
  autorizadaEn: string;
}

/** The OpenID Connect apps and the SAML apps (`saml-<id>`) the person allowed, the latest first. */
export async function listAuthorizedApps(db: Db, userId: number): Promise<AuthorizedAppView[]> {
  const [oidc, saml] = await Promise.all([listOidcAuthorizedApps(db, userId), listSamlConsents(db, userId)]);
  return [...oidc, ...saml].sort((a, b) => b.autorizadaEn.localeCompare(a.autorizadaEn));
}

async function listOidcAuthorizedApps(db: Db, userId: number): Promise<AuthorizedAppView[]> {
  const rows = await db
    .select({
      clientId: oidcConsents.clientId,
      name: connectedApps.name,
      scopes: oidcConsents.scopes,
      grantedAt: oidcConsents.grantedAt,
    })
    .from(oidcConsents)
    .innerJoin(oidcClients, eq(oidcClients.clientId, oidcConsents.clientId))
    .innerJoin(connectedApps, eq(connectedApps.id, oidcClients.connectedAppId))
    .where(eq(oidcConsents.userId, userId))
    .orderBy(desc(oidcConsents.grantedAt));
  return rows.map((row) => ({
    clientId: row.clientId,
    nombre: row.name,
    permisos: describeScopes(row.scopes),
    autorizadaEn: row.grantedAt.toISOString(),
  }));
}

/**
 * Takes back what the person allowed an app: the consent is forgotten (the next sign-in there asks again), every
 * grant, code and token the app holds for them is revoked, and the app is told of each of its sessions by a
 * back-channel logout. 404 when the app had no access.
 */
export async function revokeAuthorizedApp(db: Db, userId: number, clientId: string): Promise<void> {
  const samlAppId = samlAppOfConsentId(clientId);
  if (samlAppId !== undefined) {
    if (!(await revokeSamlConsent(db, userId, samlAppId)))
      throw new HttpError(404, M.authorizedAppNotFound, 'AUTHORIZED_APP_NOT_FOUND');
    return;
  }
  const accountId = accountIdOf(userId);
  const revoked = await db.transaction(async (tx) => {
    // Emits `consentimiento.revocado` and the client no longer learns of the person (trigger
    // `oidc_consents_partner_events`, docs/triggers.md).
    const forgotten = await tx
      .delete(oidcConsents)
      .where(and(eq(oidcConsents.userId, userId), eq(oidcConsents.clientId, clientId)))
      .returning({ clientId: oidcConsents.clientId });
    if (forgotten.length === 0) return false;
    const [client] = await tx
      .select({ backchannel: oidcClients.backchannelLogoutUri })
      .from(oidcClients)
      .where(eq(oidcClients.clientId, clientId));
    if (client?.backchannel) {
      const sessionsWithApp = await tx
        .select({ sid: sql<string | null>`${oidcPayloads.payload}->'authorizations'->${clientId}->>'sid'` })
        .from(oidcPayloads)
        .where(
          and(
            eq(oidcPayloads.kind, 'Session'),
            eq(oidcPayloads.accountId, accountId),
            sql`${oidcPayloads.payload}->'authorizations' ? ${clientId}`,
          ),
        );
      const sids = sessionsWithApp.map((row) => row.sid).filter((sid): sid is string => Boolean(sid));
      if (sids.length > 0)
        await tx
          .insert(oidcLogoutDeliveries)
          .values(sids.map((sid) => ({ clientId, accountId, sid, reason: 'access_revoked' })))
          .onConflictDoNothing({ target: [oidcLogoutDeliveries.clientId, oidcLogoutDeliveries.sid] });
    }
    await tx
      .delete(oidcPayloads)
      .where(
        and(
          eq(oidcPayloads.accountId, accountId),
          inArray(oidcPayloads.kind, ['Grant', 'AuthorizationCode', 'AccessToken', 'RefreshToken']),
          sql`${oidcPayloads.payload}->>'clientId' = ${clientId}`,
        ),
      );
    return true;
  });
  if (!revoked) throw new HttpError(404, M.authorizedAppNotFound, 'AUTHORIZED_APP_NOT_FOUND');
}
