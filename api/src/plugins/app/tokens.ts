import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { calculateJwkThumbprint, errors, exportJWK, jwtVerify, SignJWT, type JWK, type JWTPayload } from 'jose';
import { ConfigError } from '../../config.js';
import type { Db } from '../../db/client.js';
import { revokedTokens, sessions, users, type User } from '../../db/schema.js';
import { createSessionStateCache, type SessionStateCache } from './session-state.js';

const algorithm = 'ES256';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The public half as published in the JWKS, with `kid`, `alg` and `use`. */
  publicJwk: JWK;
}

/** A portal session (signed in at the portal) or a partner-scoped token minted from one for one target. */
export type TokenKind = 'session' | 'partner';

export interface VerifiedToken {
  user: User;
  jti: string;
  /** The session row (`sessions.id`) the token belongs to: its own `jti` for a session, `sid` for a partner token. */
  sessionId: string;
  expiresAt: Date;
  kind: TokenKind;
  /** Issue 20: the session's sign-in proved a second factor, or one was set up in it (sessions.second_factor). */
  secondFactor: boolean;
  /** Partner tokens only: the target's origin (web) or deep-link scheme (mobile). */
  audience?: string;
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
   * (plugins/app/sessions.ts) calls it, right after writing the row: a token without its row is refused.
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
   * not in `accept`: portal sessions only unless the caller says so).
   */
  verify(token: string, accept?: readonly TokenKind[]): Promise<VerifiedToken | null>;
  /**
   * For a token `verify` refused: whether it was a live session when its account was suspended (signed, not expired,
   * not logged out, one token version behind a suspended account), so the caller can be told why.
   */
  refusedForSuspension(token: string, accept?: readonly TokenKind[]): Promise<boolean>;
}

/** The JWT `typ` of partner tokens (explicit typing, RFC 8725 §3.11): never mistaken for a portal session. */
export const partnerTokenType = 'partner+jwt';

declare module 'fastify' {
  interface FastifyInstance {
    tokens: TokenService;
    /** Issue 19: the session state kept in memory while the invalidation channel is up (session-state.ts). */
    sessionState: SessionStateCache<User, SessionFlags, unknown>;
    /** The server's secret key; the code service derives its own key from it. */
    signingKey: SigningKey;
  }
}

/** Reads the key kept in `keysDir`, creating it on first start so restarts keep issued tokens valid. */
function readOrCreateKeyFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey } = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(path, privateKey, { mode: 0o600, flag: 'wx' });
    return privateKey;
  } catch (error) {
    // Another instance sharing the directory created it first: use that one so both sign with the same key.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(path, 'utf8');
    throw error;
  }
}

export async function loadSigningKey(options: {
  privateKeyPem: string | undefined;
  keysDir: string;
}): Promise<SigningKey> {
  const keyFile = join(options.keysDir, 'jwt-es256.pem');
  const source = options.privateKeyPem ? 'JWT_PRIVATE_KEY' : keyFile;
  const pem = options.privateKeyPem ?? readOrCreateKeyFile(keyFile);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    throw new ConfigError(source, 'no es una clave privada PEM legible');
  }
  if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new ConfigError(source, 'debe ser una clave EC de la curva P-256 (ES256)');
  }
  const publicKey = createPublicKey(privateKey);
  const jwk = await exportJWK(publicKey);
  // Derived from the key itself, so the kid stays the same across restarts and instances sharing the key.
  const kid = await calculateJwkThumbprint(jwk);
  return { kid, privateKey, publicKey, publicJwk: { ...jwk, kid, alg: algorithm, use: 'sig' } };
}

const maxUserId = 2_147_483_647;

/** What a token's signature vouches for; a pure function of the token and the key, so it may be remembered. */
interface Claims {
  kind: TokenKind;
  userId: number;
  jti: string;
  exp: number;
  tv: number;
  /** The portal session whose logout ends this token: its own `jti` for a session, `sid` for a partner token. */
  sessionJti: string;
  audience?: string;
}

/** Signature checks remembered per instance; the oldest are forgotten first past this many. */
export const verifiedTokensKept = 10_000;

async function verifySignature(token: string, key: SigningKey, issuer: string): Promise<Claims | null> {
  let payload: JWTPayload;
  let typ: string | undefined;
  try {
    ({
      payload,
      protectedHeader: { typ },
    } = await jwtVerify(
      token,
      (header) => {
        if (header.kid !== key.kid) throw new errors.JWKSNoMatchingKey();
        return key.publicKey;
      },
      { algorithms: [algorithm], requiredClaims: ['sub', 'jti', 'iat', 'exp'] },
    ));
  } catch (error) {
    if (error instanceof errors.JOSEError) return null;
    throw error;
  }
  const { sub, jti, exp, tv, aud, iss, sid } = payload;
  const userId = Number(sub);
  if (
    !Number.isInteger(userId) ||
    userId < 1 ||
    userId > maxUserId ||
    typeof jti !== 'string' ||
    typeof exp !== 'number' ||
    typeof tv !== 'number'
  ) {
    return null;
  }
  if (typ === partnerTokenType) {
    if (typeof aud !== 'string' || iss !== issuer || typeof sid !== 'string') return null;
    return { kind: 'partner', userId, jti, exp, tv, sessionJti: sid, audience: aud };
  }
  // A portal session has no audience: anything else carrying one is no session.
  if ((typ !== undefined && typ !== 'JWT') || aud !== undefined) return null;
  return { kind: 'session', userId, jti, exp, tv, sessionJti: jti };
}

export interface TokenLifetimes {
  /** Portal sessions. */
  ttlSeconds: number;
  /** Partner tokens (at most the rest of the session they are minted from). */
  partnerTtlSeconds: number;
  /** `iss` of partner tokens: the API's public URL. */
  issuer: string;
}

/** What `verify` keeps of a token's session row (and revocation) between requests, per instance. */
export interface SessionFlags {
  revoked: boolean;
  live: boolean;
  secondFactor: boolean;
  /** When (Date.now()) last seen is next due to be written. */
  touchAt: number;
}

const touchEveryMs = 60_000;

export function createTokenService(
  db: Db,
  key: SigningKey,
  lifetimes: TokenLifetimes,
  state?: SessionStateCache<User, SessionFlags, unknown>,
): TokenService {
  const { partnerTtlSeconds, issuer } = lifetimes;
  // The signature (an ES256 verify costs more than the rest of a request) is remembered as a pure function of the
  // token. Revocation, token version, status and the session row come from `state` (issue 19), which forgets a user's
  // entries as soon as any instance changes them and is bypassed while it cannot know (its channel is down): a
  // logout, password change or suspension made through any instance is refused by every other one at once.
  const verified = new Map<string, Claims>();
  // One statement, prepared once (a named statement on PostgreSQL): the user with its revocation flag and the state
  // of the session row the token belongs to (issue 20: a token whose row is missing or ended is refused).
  const session = db
    .select({
      user: users,
      // A partner token dies with its own jti and with the logout of the session it was minted from.
      revoked: sql<boolean>`exists (select 1 from ${revokedTokens} where ${revokedTokens.jti} in (${sql.placeholder('jti')}, ${sql.placeholder('sessionJti')}))`,
      live: sql<boolean>`(${sessions.id} is not null and ${sessions.endedAt} is null)`,
      secondFactor: sql<boolean>`coalesce(${sessions.secondFactor}, false)`,
      // Seconds since last seen, by the database's clock (the instances' clocks may differ from it).
      seenAgo: sql<number>`coalesce(extract(epoch from now() - ${sessions.lastSeenAt}), 0)::float8`,
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

  /** The user and the session's flags: from memory when kept there, else from the database (and then kept). */
  async function sessionState(claims: Claims): Promise<{ user: User; flags: SessionFlags } | undefined> {
    const cacheKey = `${claims.jti} ${claims.sessionJti}`;
    const kept = state?.session(claims.userId, cacheKey);
    if (kept) return { user: kept.user, flags: kept.session };
    const ticket = state?.ticket();
    const [row] = await session.execute({ userId: claims.userId, jti: claims.jti, sessionJti: claims.sessionJti });
    if (!row) return undefined;
    const flags: SessionFlags = {
      revoked: row.revoked === true,
      live: row.live === true,
      secondFactor: row.secondFactor === true,
      touchAt: Date.now() + Math.max(0, touchEveryMs - Number(row.seenAgo) * 1000),
    };
    const user = state && ticket ? state.storeSession(ticket, claims.userId, row.user, cacheKey, flags) : row.user;
    return { user, flags };
  }

  async function claimsOf(token: string): Promise<Claims | null> {
    let claims = verified.get(token);
    if (!claims) {
      claims = (await verifySignature(token, key, issuer)) ?? undefined;
      if (!claims) return null;
      const oldest = verified.size >= verifiedTokensKept ? verified.keys().next().value : undefined;
      if (oldest !== undefined) verified.delete(oldest);
      verified.set(token, claims);
    }
    // jose's own rule: valid while now < exp.
    if (claims.exp <= Math.floor(Date.now() / 1000)) {
      verified.delete(token);
      return null;
    }
    return claims;
  }

  return {
    jwks: { keys: [key.publicJwk] },

    sign(user, { id, issuedAt, expiresAt }) {
      return new SignJWT({ role: user.role, tv: user.tokenVersion })
        .setProtectedHeader({ alg: algorithm, kid: key.kid, typ: 'JWT' })
        .setSubject(String(user.id))
        .setJti(id)
        .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key.privateKey);
    },

    async signPartner(from, audience) {
      const now = Math.floor(Date.now() / 1000);
      const exp = Math.min(now + partnerTtlSeconds, Math.floor(from.expiresAt.getTime() / 1000));
      const token = await new SignJWT({ tv: from.user.tokenVersion, sid: from.jti })
        .setProtectedHeader({ alg: algorithm, kid: key.kid, typ: partnerTokenType })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(String(from.user.id))
        .setJti(randomUUID())
        .setIssuedAt(now)
        .setExpirationTime(exp)
        .sign(key.privateKey);
      return { token, audience, expiresIn: exp - now };
    },

    async verify(token, accept = ['session']) {
      const claims = await claimsOf(token);
      if (!claims || !accept.includes(claims.kind)) return null;
      const found = await sessionState(claims);
      if (!found) return null;
      const { user, flags } = found;
      // Password changes and suspensions bump token_version, which ends every session issued before.
      if (flags.revoked || !flags.live || user.status === 'suspended' || user.tokenVersion !== claims.tv) return null;
      if (Date.now() >= flags.touchAt) {
        // Claimed before the write, so that concurrent requests of one session write once.
        flags.touchAt = Date.now() + touchEveryMs;
        await touch(claims.sessionJti);
      }
      return {
        user,
        jti: claims.jti,
        sessionId: claims.sessionJti,
        expiresAt: new Date(claims.exp * 1000),
        kind: claims.kind,
        secondFactor: flags.secondFactor,
        ...(claims.audience === undefined ? {} : { audience: claims.audience }),
      };
    },

    async refusedForSuspension(token, accept = ['session']) {
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

export interface TokensPluginOptions {
  /** Signing key already loaded (tests reuse one); otherwise it comes from the configuration or `DATA_DIR/keys`. */
  signingKey?: SigningKey;
}

export default fp<TokensPluginOptions>(
  async (app, options) => {
    const key =
      options.signingKey ??
      (await loadSigningKey({
        privateKeyPem: app.config.jwtPrivateKey,
        keysDir: join(app.config.dataDir, 'keys'),
      }));
    app.decorate('signingKey', key);
    const state = createSessionStateCache<User, SessionFlags, unknown>(
      app.database,
      (channel, payload) => app.db.execute(sql`select pg_notify(${channel}, ${payload})`),
      app.log,
    );
    app.addHook('onClose', () => state.stop());
    // A request that may have changed something answers only once this instance has applied its changes, so the
    // person's next request here never sees the state from before (session-state.ts, `sync`).
    // A callback hook, not an async one: the reads (most requests) go on without a promise of their own.
    // Not after a 5xx: such an answer promises nothing (a timed-out handler's transaction may even commit later), and a
    // barrier behind a stuck database would keep the Spanish 503 past REQUEST_TIMEOUT_MS.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (
        request.method === 'GET' ||
        request.method === 'HEAD' ||
        request.method === 'OPTIONS' ||
        reply.statusCode >= 500
      )
        return done(null, payload);
      state.sync().then(() => done(null, payload), done);
    });
    // Waits for LISTEN once at start (a failure only leaves the memory unused until it reconnects).
    await state.start();
    app.decorate('sessionState', state);
    app.decorate(
      'tokens',
      createTokenService(
        app.db,
        key,
        {
          ttlSeconds: app.config.tokenTtlSeconds,
          partnerTtlSeconds: app.config.partnerTokenTtlSeconds,
          issuer: app.config.apiPublicUrl,
        },
        state,
      ),
    );
  },
  { name: 'tokens' },
);
