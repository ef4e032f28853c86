// Secrets the API must read back (a company provider's client secret, a partner subscription's signing secret), kept
// sealed: AES-256-GCM under a key HKDF-derived from the API's signing key for one purpose, bound to the row that
// holds it (the additional data), so a sealed value copied to another row, or another purpose's table, does not open.
import { createCipheriv, createDecipheriv, hkdfSync, type KeyObject, randomBytes } from 'node:crypto';

const version = 'v1';

/** The sealing key of one purpose ('portal company provider secret', …), derived from the API's signing key. */
export function sealingKey(signingKey: KeyObject, purpose: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', signingKey.export({ type: 'pkcs8', format: 'der' }), Buffer.alloc(0), purpose, 32),
  );
}

/** `v1.<iv>.<tag>.<ciphertext>`, each base64url. */
export function seal(key: Buffer, boundTo: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(boundTo));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [version, ...[iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url'))].join('.');
}

/** The secret, or an error when the value was not sealed by this key for this row. */
export function unseal(key: Buffer, boundTo: string, sealed: string): string {
  const [tag, iv, authTag, data, ...rest] = sealed.split('.');
  if (tag !== version || !iv || !authTag || data === undefined || rest.length > 0)
    throw new Error('sealed secret malformed');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(boundTo));
  decipher.setAuthTag(Buffer.from(authTag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
