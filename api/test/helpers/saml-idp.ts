// A company's SAML identity provider for the tests: a key and self-signed certificate of its own, its metadata, and
// responses written field by field (every field a test may get wrong on purpose), signed with xml-crypto (the signer
// under samlify; RSA-SHA256 unless told, exclusive canonicalization) on the Response, the Assertion, both or neither.
import { randomBytes, webcrypto } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import * as x509 from '@peculiar/x509';
import { SignedXml } from 'xml-crypto';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export interface SigningKey {
  privateKeyPem: string;
  certificatePem: string;
  /** The certificate's DER in base64, as metadata and KeyInfo carry it. */
  certificate: string;
}

const algorithm = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};

const pem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trim()}\n-----END ${label}-----\n`;

/** A fresh RSA key and a self-signed certificate for it, valid for a year (or until `notAfter`). */
export async function signingKey(name = 'idp.test', notAfter = new Date(Date.now() + 365 * 86_400_000)) {
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(8).toString('hex'),
    name: `CN=${name}`,
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter,
    signingAlgorithm: algorithm,
    keys,
  });
  return {
    privateKeyPem: pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)),
    certificatePem: certificate.toString('pem'),
    certificate: Buffer.from(certificate.rawData).toString('base64'),
  } satisfies SigningKey;
}

/** An IdP's metadata as AD FS or Entra ID export it, in the parts the portal reads. */
export function idpMetadata(options: {
  entityId: string;
  ssoUrl: string;
  certificates: string[];
  wantAuthnRequestsSigned?: boolean;
  redirect?: boolean;
}): string {
  const keys = options.certificates
    .map(
      (certificate) =>
        `<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`,
    )
    .join('');
  const binding = options.redirect === false ? 'HTTP-POST' : 'HTTP-Redirect';
  return `<?xml version="1.0" encoding="utf-8"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${options.entityId}"><md:IDPSSODescriptor${options.wantAuthnRequestsSigned ? ' WantAuthnRequestsSigned="true"' : ''} protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${keys}<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat><md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="${options.ssoUrl}"/></md:IDPSSODescriptor></md:EntityDescriptor>`;
}

/** The AuthnRequest an address to the IdP carries (HTTP-Redirect): its ID, its ACS and the whole XML. */
export function readAuthnRequest(location: string): { id: string; acs: string; destination: string; xml: string } {
  const url = new URL(location);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  const attribute = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(xml)?.[1] ?? '';
  return {
    id: attribute('ID'),
    acs: attribute('AssertionConsumerServiceURL'),
    destination: attribute('Destination'),
    xml,
  };
}

export interface ResponseFields {
  issuer: string;
  audience: string;
  acsUrl: string;
  inResponseTo: string;
  nameId: string;
  nameIdFormat?: string;
  attributes?: Record<string, string>;
  /** The Response's Destination; null leaves it out. */
  destination?: string | null;
  /** The confirmation's Recipient (else acsUrl). */
  recipient?: string;
  /** The confirmation's InResponseTo (else inResponseTo). */
  confirmationInResponseTo?: string;
  /** Conditions' NotBefore and NotOnOrAfter, and the confirmation's NotOnOrAfter. */
  notBefore?: Date;
  notOnOrAfter?: Date;
  confirmationNotOnOrAfter?: Date;
  status?: string;
  responseId?: string;
  assertionId?: string;
  /** The AuthnStatement's class (else PasswordProtectedTransport): how the IdP says the person signed in. */
  authnContextClassRef?: string;
}

const xmlText = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The Assertion element of a response, unsigned. */
export function assertionXml(fields: ResponseFields): string {
  const now = Date.now();
  const iso = (date: Date) => date.toISOString();
  const notBefore = fields.notBefore ?? new Date(now - 60_000);
  const notOnOrAfter = fields.notOnOrAfter ?? new Date(now + 5 * 60_000);
  const attributes = Object.entries(fields.attributes ?? {})
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${xmlText(name)}"><saml:AttributeValue>${xmlText(value)}</saml:AttributeValue></saml:Attribute>`,
    )
    .join('');
  return `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${fields.assertionId ?? `_a${randomBytes(16).toString('hex')}`}" Version="2.0" IssueInstant="${iso(new Date(now))}"><saml:Issuer>${xmlText(fields.issuer)}</saml:Issuer><saml:Subject><saml:NameID Format="${fields.nameIdFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'}">${xmlText(fields.nameId)}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${xmlText(fields.confirmationInResponseTo ?? fields.inResponseTo)}" NotOnOrAfter="${iso(fields.confirmationNotOnOrAfter ?? notOnOrAfter)}" Recipient="${xmlText(fields.recipient ?? fields.acsUrl)}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${xmlText(fields.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(new Date(now))}" SessionIndex="_s${randomBytes(8).toString('hex')}"><saml:AuthnContext><saml:AuthnContextClassRef>${xmlText(fields.authnContextClassRef ?? 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport')}</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>${attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : ''}</saml:Assertion>`;
}

/** A Response around `assertion` (any XML put where the assertion goes). */
export function responseXml(fields: ResponseFields, assertion: string): string {
  const destination = fields.destination === undefined ? fields.acsUrl : fields.destination;
  return `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${fields.responseId ?? `_r${randomBytes(16).toString('hex')}`}" Version="2.0" IssueInstant="${new Date().toISOString()}"${destination === null ? '' : ` Destination="${xmlText(destination)}"`} InResponseTo="${xmlText(fields.inResponseTo)}"><saml:Issuer>${xmlText(fields.issuer)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="${fields.status ?? 'urn:oasis:names:tc:SAML:2.0:status:Success'}"/></samlp:Status>${assertion}</samlp:Response>`;
}

const assertionPath = "/*[local-name(.)='Response']/*[local-name(.)='Assertion']";
const responsePath = "/*[local-name(.)='Response']";

/** The algorithms of a signature: its SignatureMethod and its references' DigestMethod. */
export interface SigningAlgorithms {
  signature: string;
  digest: string;
}
export const rsaSha256: SigningAlgorithms = {
  signature: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  digest: 'http://www.w3.org/2001/04/xmlenc#sha256',
};
/** What old AD FS and Shibboleth set-ups still send: RSA-SHA1 over SHA-1 digests. */
export const rsaSha1: SigningAlgorithms = {
  signature: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
  digest: 'http://www.w3.org/2000/09/xmldsig#sha1',
};

/** An enveloped signature (exclusive canonicalization, the certificate in KeyInfo) of `target`, after its Issuer. */
function sign(xml: string, key: SigningKey, target: string, algorithms: SigningAlgorithms): string {
  const signer = new SignedXml({
    privateKey: key.privateKeyPem,
    publicCert: key.certificatePem,
    signatureAlgorithm: algorithms.signature,
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signer.addReference({
    xpath: target,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: algorithms.digest,
  });
  signer.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: `${target}/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return signer.getSignedXml();
}

/** The assertion signed on its own (enveloped signature after its Issuer), inside the response's XML. */
export function signAssertion(response: string, key: SigningKey, algorithms = rsaSha256): string {
  return sign(response, key, assertionPath, algorithms);
}

/** The whole response signed (enveloped signature after its Issuer). */
export function signResponse(response: string, key: SigningKey, algorithms = rsaSha256): string {
  return sign(response, key, responsePath, algorithms);
}

/** A response as an IdP sends it: the assertion signed (and the response too, with `signed: 'both'`). */
export function signedResponse(
  fields: ResponseFields,
  key: SigningKey,
  signed: 'assertion' | 'response' | 'both' | 'none' = 'assertion',
  algorithms = rsaSha256,
): string {
  const unsigned = responseXml(fields, assertionXml(fields));
  if (signed === 'none') return unsigned;
  if (signed === 'response') return signResponse(unsigned, key, algorithms);
  const withAssertion = signAssertion(unsigned, key, algorithms);
  return signed === 'both' ? signResponse(withAssertion, key, algorithms) : withAssertion;
}

export const base64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
