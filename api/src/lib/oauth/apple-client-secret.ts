import { createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';
import type { AppleConfig } from '../../config.js';

/** Apple accepts a client secret for up to six months; one made per sign-in needs only minutes. */
const lifetimeSeconds = 5 * 60;

/**
 * Apple's client secret is not a fixed string but an ES256 JWT signed with the Sign in with Apple key: issued by the
 * team, about the Services ID, for Apple's issuer, with the key id in the header.
 */
export function appleClientSecret(apple: AppleConfig, now = Date.now()): Promise<string> {
  const issuedAt = Math.floor(now / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: apple.keyId })
    .setIssuer(apple.teamId)
    .setSubject(apple.clientId)
    .setAudience(apple.issuer)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + lifetimeSeconds)
    .sign(createPrivateKey(apple.privateKey));
}
