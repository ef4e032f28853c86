// What a server app checks in the tokens the portal signs, with node:crypto only: the ES256 signature against the
// issuer's published keys, then the claims each kind of token must carry (OpenID Connect Core §3.1.3.7 for the ID
// token, Back-Channel Logout 1.0 §2.6 for the logout token).
import { createPublicKey, type JsonWebKey, verify } from 'node:crypto';

export type Claims = Record<string, unknown>;

const BACKCHANNEL_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** How far a token's clock may be off from the app's, in seconds. */
const LEEWAY = 60;

export class TokenRejected extends Error {}

/** The issuer's signing keys, fetched again when a token names a key not seen yet (a rotation). */
export class IssuerKeys {
  private keys = new Map<string, JsonWebKey>();

  constructor(private readonly issuer: string) {}

  async find(kid: string): Promise<JsonWebKey | undefined> {
    if (!this.keys.has(kid)) {
      const response = await fetch(`${this.issuer}/.well-known/jwks.json`);
      const { keys } = (await response.json()) as { keys: (JsonWebKey & { kid: string })[] };
      this.keys = new Map(keys.map((key) => [key.kid, key]));
    }
    return this.keys.get(kid);
  }
}

const decode = (part: string): Claims => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Claims;

/** The header and claims of a JWS whose ES256 signature verifies against one of the issuer's keys. */
async function verifiedParts(jwt: string, keys: IssuerKeys): Promise<{ header: Claims; claims: Claims }> {
  const parts = jwt.split('.');
  if (parts.length !== 3) throw new TokenRejected('not a JWS');
  const [header = '', payload = '', signature = ''] = parts;
  const head = decode(header);
  if (head.alg !== 'ES256') throw new TokenRejected(`unexpected alg ${String(head.alg)}`);
  const jwk = await keys.find(String(head.kid));
  if (!jwk) throw new TokenRejected('signed with a key the issuer does not publish');
  const valid = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!valid) throw new TokenRejected('bad signature');
  return { header: head, claims: decode(payload) };
}

function audienceIncludes(aud: unknown, clientId: string): boolean {
  return aud === clientId || (Array.isArray(aud) && aud.includes(clientId));
}

function checkIssuedFor(claims: Claims, issuer: string, clientId: string): void {
  if (claims.iss !== issuer) throw new TokenRejected('another issuer');
  if (!audienceIncludes(claims.aud, clientId)) throw new TokenRejected('another audience');
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.iat !== 'number' || claims.iat > now + LEEWAY) throw new TokenRejected('bad iat');
  if (claims.exp !== undefined && (typeof claims.exp !== 'number' || claims.exp < now - LEEWAY))
    throw new TokenRejected('expired');
}

export async function verifyIdToken(jwt: string, keys: IssuerKeys, issuer: string, clientId: string): Promise<Claims> {
  const { claims } = await verifiedParts(jwt, keys);
  checkIssuedFor(claims, issuer, clientId);
  if (claims.exp === undefined) throw new TokenRejected('no exp');
  if (typeof claims.sub !== 'string') throw new TokenRejected('no sub');
  return claims;
}

/** A logout token: signed, for this app, with the back-channel event, a sid to end, and never a nonce. */
export async function verifyLogoutToken(
  jwt: string,
  keys: IssuerKeys,
  issuer: string,
  clientId: string,
): Promise<Claims & { sid: string; jti: string }> {
  const { header, claims } = await verifiedParts(jwt, keys);
  if (header.typ !== undefined && header.typ !== 'logout+jwt') throw new TokenRejected('not a logout token');
  checkIssuedFor(claims, issuer, clientId);
  const events = claims.events as Record<string, unknown> | undefined;
  if (!events || typeof events[BACKCHANNEL_EVENT] !== 'object') throw new TokenRejected('no back-channel event');
  if ('nonce' in claims) throw new TokenRejected('a nonce in a logout token');
  if (typeof claims.sid !== 'string') throw new TokenRejected('no sid');
  if (typeof claims.jti !== 'string') throw new TokenRejected('no jti');
  return claims as Claims & { sid: string; jti: string };
}
