// The two metadata documents of the portal as a SAML identity provider: its own (GET /saml/idp/metadata), and the
// service provider's an administrator registers, from which every address and key of the app is read, never from a
// request.
import { X509Certificate } from 'node:crypto';
import * as samlify from 'samlify';
import { HttpError } from '../../../lib/errors.js';
import { checkSamlXml, installSamlGuard, maxMetadataBytes, SamlXmlRefused } from '../../../lib/saml/xml.js';
import { certificateBody, type SamlIdpKey } from '../../tokens/saml-key.js';
import type { SamlNameIdFormat } from '../../../db/schema.js';
import { samlIdpMessages as M } from './messages.js';

export const bindings = {
  post: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
  redirect: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
  soap: 'urn:oasis:names:tc:SAML:2.0:bindings:SOAP',
} as const;

export const nameIdFormats: Readonly<Record<SamlNameIdFormat, string>> = {
  persistent: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  emailAddress: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
};

/** Where the identity provider answers on the API's public address. */
export const samlIdpPaths = {
  metadata: '/saml/idp/metadata',
  sso: '/saml/idp/sso',
  slo: '/saml/idp/slo',
  delivery: '/saml/idp/enviar',
} as const;

/** The identity provider's entityID: the address of its metadata, as most identity providers name themselves. */
export const samlIdpEntityId = (apiPublicUrl: string) => `${apiPublicUrl}${samlIdpPaths.metadata}`;

const escapeXml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char] ?? char,
  );
export { escapeXml };

/**
 * The IDPSSODescriptor: the current certificate and, during a rotation, the previous one (both for signing: a partner
 * that reads metadata again keeps trusting responses while it catches up), the two sign-in bindings, the logout
 * address and the NameID formats given.
 */
export function idpMetadataXml(apiPublicUrl: string, key: SamlIdpKey): string {
  const certificates = [key.certificatePem, ...(key.previousCertificatePem ? [key.previousCertificatePem] : [])];
  const keyDescriptors = certificates
    .map(
      (pem) =>
        `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificateBody(pem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`,
    )
    .join('');
  const at = (path: string) => escapeXml(`${apiPublicUrl}${path}`);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${escapeXml(samlIdpEntityId(apiPublicUrl))}">` +
    '<md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">' +
    keyDescriptors +
    `<md:SingleLogoutService Binding="${bindings.redirect}" Location="${at(samlIdpPaths.slo)}"/>` +
    `<md:NameIDFormat>${nameIdFormats.persistent}</md:NameIDFormat>` +
    `<md:NameIDFormat>${nameIdFormats.emailAddress}</md:NameIDFormat>` +
    `<md:SingleSignOnService Binding="${bindings.redirect}" Location="${at(samlIdpPaths.sso)}"/>` +
    `<md:SingleSignOnService Binding="${bindings.post}" Location="${at(samlIdpPaths.sso)}"/>` +
    '</md:IDPSSODescriptor></md:EntityDescriptor>'
  );
}

/** What the portal keeps of a service provider's metadata. */
export interface SpFacts {
  entityId: string;
  /** The HTTP-POST AssertionConsumerServices, the default (isDefault, else lowest index, else first) first. */
  acsUrls: string[];
  /** Where its single logout is delivered without a browser (SOAP binding), or null. */
  sloUrl: string | null;
  /** Where the browser carries its single logout (HTTP-Redirect binding), or null. */
  sloRedirectUrl: string | null;
  nameIdFormat: SamlNameIdFormat;
  authnRequestsSigned: boolean;
  /** Its signing certificates, as base64 DER bodies. */
  signingCertificates: string[];
}

const list = <T>(value: T | T[] | null | undefined): T[] =>
  value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];

const refused = (why: string) => new HttpError(400, M.metadataUnreadable(why), 'INVALID_SAML_METADATA');

/**
 * An address a browser is sent to with a signed assertion: https; http only on this machine (a developer's SP) or when
 * the portal itself is served over http (a trial, where no address is private anyway).
 */
function checkedAddress(url: string, httpAllowed: boolean): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refused(M.badAddress(url));
  }
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && (local || httpAllowed)))
    throw refused(M.badAddress(url));
  if (url.length > 2048 || parsed.username || parsed.password || parsed.hash) throw refused(M.badAddress(url));
  return url;
}

/**
 * Reads a service provider's metadata; a 400 in Spanish for anything the portal cannot use. `httpAllowed`: the portal
 * is itself served over http, so its partners may be too.
 */
export function readSpMetadata(xml: unknown, httpAllowed = false): SpFacts {
  if (typeof xml !== 'string' || xml.trim() === '')
    throw new HttpError(400, M.metadataRequired, 'INVALID_SAML_METADATA');
  try {
    checkSamlXml(xml, maxMetadataBytes);
  } catch (error) {
    if (!(error instanceof SamlXmlRefused)) throw error;
    throw refused(
      error.message === 'too large' ? M.tooLarge : error.message === 'document type' ? M.documentType : M.notXml,
    );
  }
  installSamlGuard();
  let meta: ReturnType<typeof samlify.SPMetadata>;
  try {
    meta = samlify.SPMetadata(xml);
  } catch {
    throw refused(M.notXml);
  }
  const bag = meta.meta as Record<string, unknown>;
  const descriptor = bag.spSSODescriptor;
  if (!descriptor || (Array.isArray(descriptor) && descriptor.length === 0)) throw refused(M.noSpDescriptor);
  const entityId = meta.getEntityID();
  if (typeof entityId !== 'string' || entityId.trim() === '') throw refused(M.noEntityId);
  if (entityId.length > 1024) throw refused(M.entityIdTooLong);

  type Service = { binding?: string; location?: string; index?: string; isDefault?: string };
  const posts = list(bag.assertionConsumerService as Service | Service[])
    .filter((service) => service.binding === bindings.post && typeof service.location === 'string')
    .sort((a, b) => {
      const byDefault = Number(b.isDefault === 'true') - Number(a.isDefault === 'true');
      return byDefault || Number(a.index ?? 0) - Number(b.index ?? 0);
    });
  if (posts.length === 0) throw refused(M.noPostAcs);
  const acsUrls = [...new Set(posts.map((service) => checkedAddress(String(service.location), httpAllowed)))];

  const logoutServices = list(bag.singleLogoutService as Service | Service[]);
  const logoutAt = (binding: string) => {
    const service = logoutServices.find((one) => one.binding === binding && typeof one.location === 'string');
    return service ? checkedAddress(String(service.location), httpAllowed) : null;
  };
  const sloUrl = logoutAt(bindings.soap);
  const sloRedirectUrl = logoutAt(bindings.redirect);

  const certificateBag = (bag.certificate ?? {}) as Record<string, string | string[]>;
  const signingCertificates = [...list(certificateBag.signing), ...list(bag.sharedCertificate as string | null)]
    .map((body) => String(body).replace(/\s+/g, ''))
    .filter((body, index, all) => body && all.indexOf(body) === index);
  for (const body of signingCertificates) {
    try {
      new X509Certificate(Buffer.from(body, 'base64'));
    } catch {
      throw refused(M.badCertificate);
    }
  }
  const authnRequestsSigned = meta.isAuthnRequestSigned();
  if (authnRequestsSigned && signingCertificates.length === 0) throw refused(M.signedWithoutCertificate);

  const formats = list(bag.nameIDFormat as string | string[]).map((format) => String(format).trim());
  const nameIdFormat: SamlNameIdFormat =
    formats.includes(nameIdFormats.emailAddress) && !formats.includes(nameIdFormats.persistent)
      ? 'emailAddress'
      : 'persistent';
  return { entityId, acsUrls, sloUrl, sloRedirectUrl, nameIdFormat, authnRequestsSigned, signingCertificates };
}
