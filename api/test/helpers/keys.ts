import { generateKeyPairSync } from 'node:crypto';

/** A fresh EC P-256 private key as PKCS#8 PEM, the form `JWT_PRIVATE_KEY` takes. */
export function generateEcKeyPem(): string {
  return generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
}
