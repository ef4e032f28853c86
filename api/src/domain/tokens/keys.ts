import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { calculateJwkThumbprint, exportJWK, type JWK } from 'jose';
import { ConfigError } from '../../config.js';

/** The one signing algorithm of the portal's tokens. */
export const algorithm = 'ES256';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The public half as published in the JWKS, with `kid`, `alg` and `use`. */
  publicJwk: JWK;
}

/** The folder of DATA_DIR that keeps the key generated at first start when JWT_PRIVATE_KEY is unset. */
export const keysDirOf = (dataDir: string): string => join(dataDir, 'keys');

/** The generated key's file in that folder: what a backup of the embedded database carries with it. */
export const generatedKeyFile = (keysDir: string): string => join(keysDir, 'jwt-es256.pem');

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
  const keyFile = generatedKeyFile(options.keysDir);
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
