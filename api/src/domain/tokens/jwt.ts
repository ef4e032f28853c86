import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { algorithm, type SigningKey } from './keys.js';

/** A portal session (signed in at the portal) or a partner-scoped token minted from one for one target. */
export type TokenKind = 'session' | 'partner';

/** The JWT `typ` of partner tokens (explicit typing, RFC 8725 §3.11): never mistaken for a portal session. */
export const partnerTokenType = 'partner+jwt';

const maxUserId = 2_147_483_647;

/** What a token's signature vouches for; a pure function of the token and the key, so it may be remembered. */
export interface Claims {
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

export async function verifySignature(token: string, key: SigningKey, issuer: string): Promise<Claims | null> {
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

/** A portal session's JWT: `jti` is its session row's id, `tv` the user's token version. */
export function signSessionToken(
  key: SigningKey,
  user: { id: number; role: number; tokenVersion: number },
  session: { id: string; issuedAt: Date; expiresAt: Date },
): Promise<string> {
  return new SignJWT({ role: user.role, tv: user.tokenVersion })
    .setProtectedHeader({ alg: algorithm, kid: key.kid, typ: 'JWT' })
    .setSubject(String(user.id))
    .setJti(session.id)
    .setIssuedAt(Math.floor(session.issuedAt.getTime() / 1000))
    .setExpirationTime(Math.floor(session.expiresAt.getTime() / 1000))
    .sign(key.privateKey);
}

/** A partner token for `audience`, minted from a session and never outliving it (`sid` names the session). */
export async function signPartnerToken(
  key: SigningKey,
  from: { userId: number; tokenVersion: number; sessionJti: string; expiresAt: Date },
  audience: string,
  lifetime: { partnerTtlSeconds: number; issuer: string },
): Promise<{ token: string; audience: string; expiresIn: number }> {
  const now = Math.floor(Date.now() / 1000);
  const exp = Math.min(now + lifetime.partnerTtlSeconds, Math.floor(from.expiresAt.getTime() / 1000));
  const token = await new SignJWT({ tv: from.tokenVersion, sid: from.sessionJti })
    .setProtectedHeader({ alg: algorithm, kid: key.kid, typ: partnerTokenType })
    .setIssuer(lifetime.issuer)
    .setAudience(audience)
    .setSubject(String(from.userId))
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(exp)
    .sign(key.privateKey);
  return { token, audience, expiresIn: exp - now };
}

/**
 * The claims of a token signed with `key` and not expired, or null. The signature check (an ES256 verify costs more
 * than the rest of a request) is remembered per token, a pure function of the token and the key; a remembered one is
 * answered without a promise.
 */
export function createClaimsReader(
  key: SigningKey,
  issuer: string,
): (token: string) => Claims | null | Promise<Claims | null> {
  const verified = new Map<string, Claims>();
  // jose's own rule: valid while now < exp.
  const unexpired = (token: string, claims: Claims) => {
    if (claims.exp > Math.floor(Date.now() / 1000)) return claims;
    verified.delete(token);
    return null;
  };
  return function claimsOf(token) {
    const remembered = verified.get(token);
    if (remembered) return unexpired(token, remembered);
    return verifySignature(token, key, issuer).then((claims) => {
      if (!claims) return null;
      const oldest = verified.size >= verifiedTokensKept ? verified.keys().next().value : undefined;
      if (oldest !== undefined) verified.delete(oldest);
      verified.set(token, claims);
      return unexpired(token, claims);
    });
  };
}
