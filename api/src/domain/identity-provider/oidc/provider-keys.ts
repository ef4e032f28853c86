// The provider's keys: it signs with the portal's own signing key, and its cookies with keys derived from it.
import { hkdfSync } from 'node:crypto';
import { exportJWK } from 'jose';
import type { Configuration } from 'oidc-provider';
import type { SigningKey } from '../../tokens/keys.js';
import { algorithm } from '../../tokens/keys.js';

/** The library's `jwks`: the portal's signing key (its public half is the JWKS the portal already publishes). */
export async function signingJwks(signingKey: SigningKey): Promise<NonNullable<Configuration['jwks']>> {
  const privateJwk = {
    ...(await exportJWK(signingKey.privateKey)),
    kid: signingKey.kid,
    alg: algorithm,
    use: 'sig',
  };
  return { keys: [privateJwk] };
}

/** Cookie keys derived from the signing key: every instance sharing JWT_PRIVATE_KEY verifies the others' cookies. */
function cookieKeys(key: SigningKey): string[] {
  const secret = key.privateKey.export({ format: 'der', type: 'pkcs8' });
  return [Buffer.from(hkdfSync('sha256', secret, 'portal-oidc', 'cookies', 32)).toString('base64url')];
}

/** The library's `cookies`: the portal's names, signed, lax. */
export function cookieSettings(signingKey: SigningKey): NonNullable<Configuration['cookies']> {
  return {
    keys: cookieKeys(signingKey),
    names: {
      session: 'portal_oidc_sesion',
      interaction: 'portal_oidc_interaccion',
      resume: 'portal_oidc_reanudar',
    },
    long: { signed: true, httpOnly: true, sameSite: 'lax' },
    short: { signed: true, httpOnly: true, sameSite: 'lax' },
  };
}
