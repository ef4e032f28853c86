// A company's SAML identity provider as its metadata describes it, and the portal's service provider for that company
// (docs/decisions/0099-company-saml-sign-in.md): the addresses its IT registers, and the metadata it imports.
import { X509Certificate } from 'node:crypto';
import * as samlify from 'samlify';
import { HttpError } from '../../../lib/errors.js';
import { outboundFetch } from '../../../lib/outbound/special-use.js';
import { checkSamlXml, installSamlGuard, maxMetadataBytes } from '../../../lib/saml/xml.js';
import { failureReason, idpTimeoutSeconds, issuerAllowed, privateNetworkRefused } from './discovery.js';
import { ssoMessages as M } from './messages.js';

const redirectBinding = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const postBinding = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
export const nameIdEmail = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
export const nameIdPersistent = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
export const nameIdTransient = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
/** The most signing certificates kept of one provider (a current one and a few during a rollover). */
const maxCertificates = 10;

/** What the portal keeps of a company's SAML identity provider, read from its metadata. */
export interface SamlIdp {
  entityId: string;
  ssoUrl: string;
  /** Signing certificates, base64 DER as the metadata carries them. */
  certificates: string[];
}

/** The portal's service provider for one company: its entity ID (= its metadata's address) and its ACS. */
export interface SamlSpAddresses {
  entityId: string;
  acsUrl: string;
  metadataUrl: string;
}

export function samlSpAddresses(apiPublicUrl: string, companyId: number): SamlSpAddresses {
  const base = `${apiPublicUrl}/auth/empresa/saml/${companyId}`;
  return { entityId: `${base}/metadata`, acsUrl: `${base}/acs`, metadataUrl: `${base}/metadata` };
}

const list = (value: unknown): unknown[] => (value == null ? [] : Array.isArray(value) ? value : [value]);
const invalid = (reason: string) => new HttpError(400, M.samlMetadataInvalid(reason), 'METADATOS_SAML_INVALIDOS');
const certificateText = (value: string) => value.replace(/\s+/g, '');

/** The certificate as an X509Certificate, or undefined when it cannot be read. */
export function readCertificate(base64: string): X509Certificate | undefined {
  try {
    return new X509Certificate(Buffer.from(base64, 'base64'));
  } catch {
    return undefined;
  }
}

/**
 * Reads an identity provider's metadata (AD FS, Entra ID, Okta, Google Workspace, SimpleSAMLphp): one
 * EntityDescriptor with an IDPSSODescriptor, an HTTP-Redirect SingleSignOnService and at least one signing certificate
 * (a KeyDescriptor with use="signing" or without `use`). 400 METADATOS_SAML_INVALIDOS otherwise, and
 * SOLICITUDES_FIRMADAS when the provider wants signed requests (the portal does not sign them).
 */
export function parseIdpMetadata(xml: string): SamlIdp {
  try {
    checkSamlXml(xml, maxMetadataBytes);
  } catch {
    throw invalid(M.samlMetadataNotXml);
  }
  installSamlGuard();
  const descriptor = ['EntityDescriptor', 'IDPSSODescriptor'];
  let found: Record<string, unknown>;
  try {
    found = samlify.Extractor.extract(xml, [
      { key: 'entityId', localPath: ['EntityDescriptor'], attributes: ['entityID'] },
      { key: 'idp', localPath: descriptor, attributes: [], context: true },
      { key: 'wantSigned', localPath: descriptor, attributes: ['WantAuthnRequestsSigned'] },
      { key: 'sso', localPath: [...descriptor, 'SingleSignOnService'], attributes: ['Binding', 'Location'] },
      { key: 'keys', localPath: [...descriptor, 'KeyDescriptor'], attributes: [], context: true },
    ]) as Record<string, unknown>;
  } catch {
    throw invalid(M.samlMetadataNotXml);
  }
  const entityId = typeof found.entityId === 'string' ? found.entityId.trim() : '';
  if (!entityId || entityId.length > 500) throw invalid(M.samlMetadataNoEntity);
  const idp = list(found.idp);
  if (idp.length !== 1) throw invalid(M.samlMetadataNoIdp);
  const sso = list(found.sso) as { binding?: string; location?: string }[];
  const ssoUrl = sso.find((service) => service.binding === redirectBinding)?.location?.trim() ?? '';
  if (!ssoUrl || !/^https?:\/\/[^\s]+$/i.test(ssoUrl) || ssoUrl.length > 1000) throw invalid(M.samlMetadataNoSso);
  if (String(found.wantSigned).trim() === 'true' || String(found.wantSigned).trim() === '1')
    throw new HttpError(400, M.samlSignedRequests, 'SOLICITUDES_FIRMADAS');

  const certificates: string[] = [];
  for (const key of list(found.keys) as string[]) {
    const parts = samlify.Extractor.extract(key, [
      { key: 'use', localPath: ['KeyDescriptor'], attributes: ['use'] },
      {
        key: 'certificates',
        localPath: ['KeyDescriptor', 'KeyInfo', 'X509Data', 'X509Certificate'],
        attributes: [],
      },
    ]) as { use?: string; certificates?: string | string[] | null };
    if (parts.use !== undefined && parts.use !== 'signing') continue;
    for (const raw of list(parts.certificates) as string[]) {
      const base64 = certificateText(raw);
      if (!readCertificate(base64)) throw invalid(M.samlMetadataBadCertificate);
      if (!certificates.includes(base64)) certificates.push(base64);
    }
  }
  if (certificates.length === 0) throw invalid(M.samlMetadataNoCertificate);
  if (certificates.length > maxCertificates) throw invalid(M.samlMetadataTooManyCertificates(maxCertificates));
  return { entityId, ssoUrl, certificates };
}

/** How often metadata read from an address is read again. */
export const METADATA_REFRESH_MS = 24 * 60 * 60 * 1000;

/** Why reading metadata from an address failed: a short Spanish reason, nothing the server sent back verbatim. */
export class MetadataUnreachable extends Error {
  constructor(
    readonly reason: string,
    readonly privateNetwork = false,
  ) {
    super(reason);
    this.name = 'MetadataUnreachable';
  }
}

/** Whether `url` may be read for metadata: https (http only on loopback, for tests), no credentials or fragment. */
export const metadataUrlAllowed = (url: string) => issuerAllowed(url.replace(/\?.*$/, ''));

/**
 * Reads an IdP's metadata from `url` (Entra ID's and AD FS's federation metadata addresses) through the outbound guard
 * (no loopback, private or reserved address unless `privateNetwork`; redirects not followed), in 5 s and 1 MiB at
 * most. Throws MetadataUnreachable; what it answers is still to be read by parseIdpMetadata.
 */
export async function fetchIdpMetadata(url: string, privateNetwork: boolean): Promise<string> {
  let response: Response;
  try {
    response = await outboundFetch(privateNetwork)(url, {
      headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
      signal: AbortSignal.timeout(idpTimeoutSeconds * 1000),
    });
  } catch (error) {
    throw new MetadataUnreachable(failureReason(error), privateNetworkRefused(error));
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new MetadataUnreachable(`respondió ${response.status}`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > maxMetadataBytes) {
        await response.body?.cancel();
        throw new MetadataUnreachable('los metadatos pasan de 1 MiB');
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof MetadataUnreachable) throw error;
    throw new MetadataUnreachable(failureReason(error));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A certificate as the company's administrators read it: its SHA-256 fingerprint and when it expires. */
export function certificateView(base64: string): { huella: string; venceEn: string } {
  const certificate = readCertificate(base64);
  if (!certificate) return { huella: '', venceEn: new Date(0).toISOString() };
  return { huella: certificate.fingerprint256.toUpperCase(), venceEn: new Date(certificate.validTo).toISOString() };
}

/** The portal's service provider for a company, as samlify's entity (signs nothing: requests go unsigned). */
export function samlServiceProvider(addresses: SamlSpAddresses) {
  installSamlGuard();
  return samlify.ServiceProvider({
    entityID: addresses.entityId,
    assertionConsumerService: [{ Binding: postBinding, Location: addresses.acsUrl }],
    wantAssertionsSigned: true,
    authnRequestsSigned: false,
    nameIDFormat: [nameIdEmail, nameIdPersistent],
    // saml-core §1.3.4: the clocks of two sites never agree exactly; two minutes either way and no more.
    clockDrifts: [-120_000, 120_000],
  });
}

const attributeText = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The company's identity provider as samlify's entity, with one certificate: built from metadata the portal writes of
 * what it read (never the company's document itself), so samlify sees exactly what was checked.
 */
export function samlIdentityProvider(idp: SamlIdp, certificate: string) {
  installSamlGuard();
  const metadata = `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${attributeText(idp.entityId)}"><md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor><md:SingleSignOnService Binding="${redirectBinding}" Location="${attributeText(idp.ssoUrl)}"/></md:IDPSSODescriptor></md:EntityDescriptor>`;
  return samlify.IdentityProvider({ metadata, wantAuthnRequestsSigned: false });
}

/** The SP metadata the company's IT imports into its identity provider. */
export function spMetadataXml(addresses: SamlSpAddresses): string {
  return samlServiceProvider(addresses).getMetadata();
}
