// The portal's key as a SAML identity provider (docs/decisions/0100-saml-identity-provider.md): RSA, because SAML
// partners (mod_auth_mellon, SimpleSAMLphp, most historians' Java stacks) verify RSA-SHA256 and rarely ECDSA, with a
// self-signed X.509 certificate, which is how SAML metadata carries a key. From the configuration, or generated at
// first start and kept beside the JWT key in DATA_DIR/keys (a backup of the embedded database carries it).
import { createPrivateKey, createPublicKey, webcrypto } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as x509 from '@peculiar/x509';
import { ConfigError } from '../../config.js';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export interface SamlIdpKey {
  /** PKCS#8 PEM of the RSA key that signs every response and logout request. */
  privateKeyPem: string;
  /** The current certificate (PEM): the one whose key signs. */
  certificatePem: string;
  /** A previous certificate still published during a rotation, never used to sign. */
  previousCertificatePem: string | undefined;
}

/** The generated key's file in DATA_DIR/keys: its private key and its certificate, both PEM, one after the other. */
export const generatedSamlKeyFile = (keysDir: string): string => join(keysDir, 'saml-idp.pem');

const keyAlgorithm = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 3072,
} as const;

const pemBlock = (label: string, der: ArrayBuffer) => {
  const body = Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n');
  return `-----BEGIN ${label}-----\n${body.replace(/\n$/, '')}\n-----END ${label}-----\n`;
};

/** A new RSA key and its self-signed certificate (ten years: a SAML certificate is a key's envelope, not a trust). */
export async function generateSamlIdpPem(commonName = 'Portal de aplicaciones'): Promise<string> {
  const keys = (await webcrypto.subtle.generateKey(keyAlgorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const notBefore = new Date(Date.now() - 60_000);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)))
      .toString('hex')
      .replace(/^[89a-f]/, '1'),
    name: `CN=${commonName.replace(/[,+="\\<>;#]/g, ' ')}`,
    notBefore,
    notAfter: new Date(notBefore.getTime() + 10 * 365 * 24 * 60 * 60_000),
    signingAlgorithm: keyAlgorithm,
    keys,
    extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return `${pemBlock('PRIVATE KEY', pkcs8)}${certificate.toString('pem')}\n`;
}

/** Reads the pair kept in `path`, creating it at first start; instances sharing the folder end up with the same one. */
async function readOrCreatePairFile(path: string): Promise<string> {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const pem = await generateSamlIdpPem();
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(path, pem, { mode: 0o600, flag: 'wx' });
    return pem;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(path, 'utf8');
    throw error;
  }
}

const block = (pem: string, label: string) =>
  new RegExp(`-----BEGIN ${label}-----[\\s\\S]+?-----END ${label}-----`).exec(pem)?.[0];

function readCertificate(pem: string | undefined, source: string): x509.X509Certificate {
  try {
    if (!pem) throw new Error('missing');
    return new x509.X509Certificate(pem);
  } catch {
    throw new ConfigError(source, 'no es un certificado X.509 PEM legible');
  }
}

/** The certificate's body as SAML metadata and signatures carry it: base64 of its DER, no header, no line breaks. */
export const certificateBody = (pem: string): string =>
  pem
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
    .replace(/\s+/g, '')
    .trim();

/**
 * The SAML identity provider's key: SAML_IDP_PRIVATE_KEY with SAML_IDP_CERTIFICATE (both or neither), else the pair
 * kept in `keysDir`. The key must be RSA of 2048 or 3072 bits and the certificate must carry its public half.
 */
export async function loadSamlIdpKey(options: {
  privateKeyPem: string | undefined;
  certificatePem: string | undefined;
  previousCertificatePem: string | undefined;
  keysDir: string;
}): Promise<SamlIdpKey> {
  const configured = options.privateKeyPem !== undefined || options.certificatePem !== undefined;
  if (configured && options.privateKeyPem === undefined)
    throw new ConfigError('SAML_IDP_PRIVATE_KEY', 'falta: SAML_IDP_CERTIFICATE necesita su clave privada');
  if (configured && options.certificatePem === undefined)
    throw new ConfigError('SAML_IDP_CERTIFICATE', 'falta: SAML_IDP_PRIVATE_KEY necesita su certificado');
  const keyFile = generatedSamlKeyFile(options.keysDir);
  const pair = configured ? undefined : await readOrCreatePairFile(keyFile);
  const keySource = configured ? 'SAML_IDP_PRIVATE_KEY' : keyFile;
  const certificateSource = configured ? 'SAML_IDP_CERTIFICATE' : keyFile;
  const keyPem = configured ? options.privateKeyPem : pair && block(pair, 'PRIVATE KEY');
  const certificatePem = configured ? options.certificatePem : pair && block(pair, 'CERTIFICATE');
  let privateKey: ReturnType<typeof createPrivateKey>;
  try {
    privateKey = createPrivateKey(keyPem ?? '');
  } catch {
    throw new ConfigError(keySource, 'no es una clave privada PEM legible');
  }
  const bits = privateKey.asymmetricKeyDetails?.modulusLength;
  if (privateKey.asymmetricKeyType !== 'rsa' || (bits !== 2048 && bits !== 3072))
    throw new ConfigError(keySource, 'debe ser una clave RSA de 2048 o 3072 bits');
  const certificate = readCertificate(certificatePem, certificateSource);
  const certificateKey = createPublicKey({
    key: Buffer.from(certificate.publicKey.rawData),
    format: 'der',
    type: 'spki',
  }).export({
    type: 'spki',
    format: 'der',
  });
  const ownKey = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  if (!certificateKey.equals(ownKey))
    throw new ConfigError(certificateSource, 'no es el certificado de la clave privada de SAML');
  const previous = options.previousCertificatePem;
  if (previous !== undefined) readCertificate(previous, 'SAML_IDP_PREVIOUS_CERTIFICATE');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    certificatePem: certificate.toString('pem'),
    previousCertificatePem: previous === undefined ? undefined : readCertificate(previous, '').toString('pem'),
  };
}
