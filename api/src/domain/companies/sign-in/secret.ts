// The client secret of a company's provider, kept sealed: AES-256-GCM under a key HKDF-derived from the API's signing
// key, bound to the company (its id is the additional data, so a sealed value copied to another company's row does
// not open). Only the sign-in and the save's discovery open it; no answer, log line or audit row carries it.
import { createCipheriv, createDecipheriv, hkdfSync, type KeyObject, randomBytes } from 'node:crypto';

const version = 'v1';

export function providerSecretKey(signingKey: KeyObject): Buffer {
  return Buffer.from(
    hkdfSync(
      'sha256',
      signingKey.export({ type: 'pkcs8', format: 'der' }),
      Buffer.alloc(0),
      'portal company provider secret',
      32,
    ),
  );
}

const additionalData = (companyId: number) => Buffer.from(`company:${companyId}`);

/** `v1.<iv>.<tag>.<ciphertext>`, each base64url. */
export function sealSecret(key: Buffer, companyId: number, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(additionalData(companyId));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [version, ...[iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url'))].join('.');
}

/** The secret, or an error when the value was not sealed by this key for this company. */
export function openSecret(key: Buffer, companyId: number, sealed: string): string {
  const [tag, iv, authTag, data, ...rest] = sealed.split('.');
  if (tag !== version || !iv || !authTag || data === undefined || rest.length > 0)
    throw new Error('sealed secret malformed');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(additionalData(companyId));
  decipher.setAuthTag(Buffer.from(authTag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
