import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { JWK } from 'jose';
import type { Db } from '../../db/client.js';
import { companies, companyMembers, revokedTokens, sessions, users, type User } from '../../db/schema.js';
import { type Claims, createClaimsReader, signPartnerToken, signSessionToken, type TokenKind } from '../tokens/jwt.js';
import type { SigningKey } from '../tokens/keys.js';
import type { SessionFlags, SessionMemory } from './memory.js';

// "Is this session valid?": the one answer, for every request, partner token and administrator check.

export interface VerifiedToken {
  user: User;
  jti: string;
  /** The session row (`sessions.id`) the token belongs to: its own `jti` for a session, `sid` for a partner token. */
  sessionId: string;
  expiresAt: Date;
  kind: TokenKind;
  /** The session's sign-in proved a second factor, or one was set up in it (sessions.second_factor). */
  secondFactor: boolean;
  /** How the session was signed in (sessions.method): 'contrasena', 'google', 'apple', 'llave', 'empresa'; null before. */
  method: string | null;
  /** For 'empresa': the company whose provider signed the session in (sessions.sso_company_id). */
  ssoCompanyId: number | null;
  /** Partner tokens only: the target's origin (web) or deep-link scheme (mobile). */
  audience?: string;
  /** Whether the user and session were read from the database for this check (else from this instance's memory). */
  readFromDatabase: boolean;
}

export interface VerifyOptions {
  /**
   * Read the user and the session from the database whatever the memory holds (the memory is then refreshed from
   * the answer): requests that change something and administrator checks (docs/decisions/0003).
   */
  fresh?: boolean;
}

export interface PartnerToken {
  token: string;
  audience: string;
  expiresIn: number;
}

export interface TokenService {
  readonly jwks: { keys: JWK[] };
  /**
   * The portal token of one session row: `jti` is the row's id and `exp` its expiry. Only `startSession`
   * (domain/sessions/sessions.ts) calls it, right after writing the row: a token without its row is refused.
   */
  sign(
    user: Pick<User, 'id' | 'role' | 'tokenVersion'>,
    session: { id: string; issuedAt: Date; expiresAt: Date },
  ): Promise<string>;
  /**
   * A token for one partner target, minted from a verified portal session: `aud` the target's audience, `iss` the
   * API's public URL, `sid` the session's `jti` (its logout ends it), `tv` the user's token version, and a lifetime
   * that never outlasts the session.
   */
  signPartner(session: VerifiedToken, audience: string): Promise<PartnerToken>;
  /**
   * The token's user, or null for any token that must not be accepted (bad, expired, revoked, outdated, or of a kind
   * not in `accept`: portal sessions only unless the caller says so). Answered without a promise when everything it
   * needs is in memory (most signed-in reads): a promise per step was a visible share of such a request.
   */
  verify(
    token: string,
    accept?: readonly TokenKind[],
    options?: VerifyOptions,
  ): VerifiedToken | null | Promise<VerifiedToken | null>;
  /**
   * For a token `verify` refused: whether it was a live session when its account was suspended (signed, not expired,
   * not logged out, one token version behind a suspended account), so the caller can be told why.
   */
  refusedForSuspension(token: string, accept?: readonly TokenKind[]): Promise<boolean>;
}

export interface TokenLifetimes {
  /** Portal sessions. */
  ttlSeconds: number;
  /** Partner tokens (at most the rest of the session they are minted from). */
  partnerTtlSeconds: number;
  /** `iss` of partner tokens: the API's public URL. */
  issuer: string;
}

const touchEveryMs = 60_000;
const sessionOnly: readonly TokenKind[] = ['session'];

export function createTokenService(
  db: Db,
  key: SigningKey,
  lifetimes: TokenLifetimes,
  state?: SessionMemory,
): TokenService {
  const { issuer } = lifetimes;
  // The signature is remembered per token (tokens/jwt.ts). Revocation, token version, status and the session row
  // come from `state`, which forgets a user's entries as soon as any instance changes them and is bypassed while it
  // cannot know (its channel is down): a logout, password change or suspension made through any instance is refused
  // by every other one at once. A request
  // that changes something and an administrator check pass `fresh` and read the database whatever the memory says, so
  // a channel that died silently can at worst delay what a read sees (state-cache.ts), never let a write through.
  // One statement, prepared once (a named statement on PostgreSQL): the user with its revocation flag and the state
  // of the session row the token belongs to (a token whose row is missing or ended is refused).
  const session = db
    .select({
      user: users,
      // A partner token dies with its own jti and with the logout of the session it was minted from.
      revoked: sql<boolean>`exists (select 1 from ${revokedTokens} where ${revokedTokens.jti} in (${sql.placeholder('jti')}, ${sql.placeholder('sessionJti')}))`,
      live: sql<boolean>`(${sessions.id} is not null and ${sessions.endedAt} is null)`,
      secondFactor: sql<boolean>`coalesce(${sessions.secondFactor}, false)`,
      method: sessions.method,
      ssoCompanyId: sessions.ssoCompanyId,
      // Seconds since last seen and since the session started, by the database's clock (the instances' clocks may
      // differ from it).
      seenAgo: sql<number>`coalesce(extract(epoch from now() - ${sessions.lastSeenAt}), 0)::float8`,
      startedAgo: sql<number>`coalesce(extract(epoch from now() - ${sessions.createdAt}), 0)::float8`,
      // The strictest session limits of the person's companies (docs/decisions/0103-company-rules.md), in the same
      // statement: the session check reads them from memory with the rest.
      maxHours: sql<
        number | null
      >`(select min(${companies.sessionMaxHours}) from ${companyMembers} join ${companies} on ${companies.id} = ${companyMembers.companyId} where ${companyMembers.userId} = ${users.id} and ${companyMembers.status} = 'active' and ${companies.status} = 'active')`,
      idleMinutes: sql<
        number | null
      >`(select min(${companies.idleMinutes}) from ${companyMembers} join ${companies} on ${companies.id} = ${companyMembers.companyId} where ${companyMembers.userId} = ${users.id} and ${companyMembers.status} = 'active' and ${companies.status} = 'active')`,
    })
    .from(users)
    .leftJoin(sessions, and(eq(sessions.id, sql.placeholder('sessionJti')), eq(sessions.userId, users.id)))
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('auth_session');

  /** Last seen, written at most once a minute per session so a busy client does not write on every call. */
  async function touch(sessionId: string) {
    await db
      .update(sessions)
      .set({ lastSeenAt: sql`now()` })
      .where(
        and(
          eq(sessions.id, sessionId),
          isNull(sessions.endedAt),
          lt(sessions.lastSeenAt, sql`now() - interval '1 minute'`),
        ),
      );
  }

  /**
   * The user and the session's flags from the database, kept in memory for the next requests (under the ticket's
   * ordering rules: a read that raced a notification is answered but not kept).
   */
  async function readSessionState(
    claims: Claims,
    cacheKey: string,
  ): Promise<{ user: User; flags: SessionFlags; readFromDatabase: boolean } | undefined> {
    const ticket = state?.ticket();
    const [row] = await session.execute({ userId: claims.userId, jti: claims.jti, sessionJti: claims.sessionJti });
    if (!row) return undefined;
    const now = Date.now();
    const maxHours = row.maxHours === null ? null : Number(row.maxHours);
    const idleMinutes = row.idleMinutes === null ? null : Number(row.idleMinutes);
    const flags: SessionFlags = {
      revoked: row.revoked === true,
      live: row.live === true,
      secondFactor: row.secondFactor === true,
      method: row.method,
      ssoCompanyId: row.ssoCompanyId,
      touchAt: now + Math.max(0, touchEveryMs - Number(row.seenAgo) * 1000),
      endsAt: maxHours === null ? null : now - Number(row.startedAgo) * 1000 + maxHours * 3_600_000,
      idleMs: idleMinutes === null ? null : idleMinutes * 60_000,
      usedAt: now - Number(row.seenAgo) * 1000,
    };
    const user = state && ticket ? state.storeSession(ticket, claims.userId, row.user, cacheKey, flags) : row.user;
    return { user, flags, readFromDatabase: true };
  }

  const claimsOf = createClaimsReader(key, issuer);

  /** The verdict on a token whose session's state is known; last seen is written first when it is due. */
  function judge(
    claims: Claims,
    user: User,
    flags: SessionFlags,
    readFromDatabase: boolean,
  ): VerifiedToken | null | Promise<VerifiedToken> {
    // Password changes and suspensions bump token_version, which ends every session issued before.
    if (flags.revoked || !flags.live || user.status === 'suspended' || user.tokenVersion !== claims.tv) return null;
    // The person's companies' session limits, from memory: past the longest a session lasts, or unused too long.
    const now = Date.now();
    if (flags.endsAt !== null && now >= flags.endsAt) return null;
    if (flags.idleMs !== null && now - flags.usedAt >= flags.idleMs) return null;
    flags.usedAt = now;
    const verified: VerifiedToken = {
      user,
      jti: claims.jti,
      sessionId: claims.sessionJti,
      expiresAt: new Date(claims.exp * 1000),
      kind: claims.kind,
      secondFactor: flags.secondFactor,
      method: flags.method,
      ssoCompanyId: flags.ssoCompanyId,
      ...(claims.audience === undefined ? {} : { audience: claims.audience }),
      readFromDatabase,
    };
    if (now < flags.touchAt) return verified;
    // Claimed before the write, so that concurrent requests of one session write once.
    flags.touchAt = now + touchEveryMs;
    return touch(claims.sessionJti).then(() => verified);
  }

  /** The session's state from memory when kept there (unless `fresh`), else from the database. */
  function verifyClaims(
    claims: Claims | null,
    accept: readonly TokenKind[],
    fresh: boolean,
  ): VerifiedToken | null | Promise<VerifiedToken | null> {
    if (!claims || !accept.includes(claims.kind)) return null;
    const cacheKey = `${claims.jti} ${claims.sessionJti}`;
    const kept = fresh ? undefined : state?.session(claims.userId, cacheKey);
    if (kept && !('oidc' in kept.session)) return judge(claims, kept.user, kept.session, false);
    return readSessionState(claims, cacheKey).then((found) =>
      found ? judge(claims, found.user, found.flags, found.readFromDatabase) : null,
    );
  }

  return {
    jwks: { keys: [key.publicJwk] },

    sign(user, session) {
      return signSessionToken(key, user, session);
    },

    signPartner(from, audience) {
      return signPartnerToken(
        key,
        { userId: from.user.id, tokenVersion: from.user.tokenVersion, sessionJti: from.jti, expiresAt: from.expiresAt },
        audience,
        lifetimes,
      );
    },

    verify(token, accept = sessionOnly, options = {}) {
      const fresh = options.fresh === true;
      const claims = claimsOf(token);
      return claims instanceof Promise
        ? claims.then((read) => verifyClaims(read, accept, fresh))
        : verifyClaims(claims, accept, fresh);
    },

    async refusedForSuspension(token, accept = sessionOnly) {
      const claims = await claimsOf(token);
      if (!claims || !accept.includes(claims.kind)) return false;
      // Rare (a refused token): always from the database.
      const [row] = await session.execute({ userId: claims.userId, jti: claims.jti, sessionJti: claims.sessionJti });
      // Suspension bumps the version once: a token one version behind a suspended account was live until then.
      return Boolean(
        row && !row.revoked && row.live && row.user.status === 'suspended' && row.user.tokenVersion === claims.tv + 1,
      );
    },
  };
}
