// The SAML messages the portal signs: a sign-in's Response (its Assertion signed, then the Response around it, both
// RSA-SHA256 with the current key only), a refusal's Response, and a single logout's LogoutRequest. Built from a
// fixed template where every value is escaped, then signed with samlify's own signing (xml-crypto underneath); a
// LogoutRequest by the browser carries the Redirect binding's detached signature instead.
import { createSign, randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import * as samlify from 'samlify';
import { certificateBody, type SamlIdpKey } from '../../tokens/saml-key.js';
import { escapeXml as x } from './metadata.js';

const rsaSha256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const ns = 'xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"';
const status = {
  success: 'urn:oasis:names:tc:SAML:2.0:status:Success',
  responder: 'urn:oasis:names:tc:SAML:2.0:status:Responder',
  requestDenied: 'urn:oasis:names:tc:SAML:2.0:status:RequestDenied',
  noAuthnContext: 'urn:oasis:names:tc:SAML:2.0:status:NoAuthnContext',
  noPassive: 'urn:oasis:names:tc:SAML:2.0:status:NoPassive',
} as const;

/** Why a Response says no: the person refused, the authentication context asked cannot be met, or not passively. */
export type DeniedWhy = 'requestDenied' | 'noAuthnContext' | 'noPassive';

/** A SAML ID: must not start with a digit (xs:ID), unguessable. */
export const samlId = () => `_${randomBytes(20).toString('hex')}`;

/** How long an assertion may be used: long enough for a slow page, short enough that a copy soon means nothing. */
export const assertionLifetimeMs = 5 * 60_000;

/** How far before its issue an assertion is already valid. */
const notBeforeSlackMs = 30_000;

const instant = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The place of the signature: after the Issuer of the element signed, as SAML's schema wants it. */
function sign(key: SamlIdpKey, xml: string, what: 'assertion' | 'response'): string {
  const assertion = "/*[local-name(.)='Response']/*[local-name(.)='Assertion']";
  return samlify.SamlLib.constructSAMLSignature({
    rawSamlMessage: xml,
    privateKey: key.privateKeyPem,
    signatureAlgorithm: rsaSha256,
    signingCert: certificateBody(key.certificatePem),
    isBase64Output: false,
    ...(what === 'assertion'
      ? {
          referenceTagXPath: assertion,
          signatureConfig: {
            prefix: 'ds',
            location: { reference: `${assertion}/*[local-name(.)='Issuer']`, action: 'after' },
          },
        }
      : {
          isMessageSigned: true,
          signatureConfig: {
            prefix: 'ds',
            location: { reference: "/*[local-name(.)='Response']/*[local-name(.)='Issuer']", action: 'after' },
          },
        }),
  });
}

export interface LoginResponseInput {
  key: SamlIdpKey;
  issuer: string;
  audience: string;
  acsUrl: string;
  inResponseTo: string;
  nameId: string;
  nameIdFormat: string;
  sessionIndex: string;
  /** When the person signed in to the portal. */
  authnInstant: Date;
  /** How (saml/authn-context.ts `answeringClass`): the AuthnContextClassRef. */
  authnContextClassRef: string;
  /** Each attribute's values (an attribute without values is left out). */
  attributes: Record<string, string[]>;
  now?: Date;
}

/** A signed sign-in Response for one service provider: its XML (the POST binding sends it base64). */
export function loginResponse(input: LoginResponseInput): string {
  const now = input.now ?? new Date();
  const until = instant(new Date(now.getTime() + assertionLifetimeMs));
  const issued = instant(now);
  // A partner whose clock runs a little behind must not see an assertion from the future (SimpleSAMLphp does the same).
  const notBefore = instant(new Date(now.getTime() - notBeforeSlackMs));
  const attributes = Object.entries(input.attributes)
    .filter(([, values]) => values.length > 0)
    .map(
      ([name, values]) =>
        `<saml:Attribute Name="${x(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values
          .map((value) => `<saml:AttributeValue xsi:type="xs:string">${x(value)}</saml:AttributeValue>`)
          .join('')}</saml:Attribute>`,
    )
    .join('');
  const assertion =
    `<saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" ID="${samlId()}" Version="2.0" IssueInstant="${issued}">` +
    `<saml:Issuer>${x(input.issuer)}</saml:Issuer>` +
    '<saml:Subject>' +
    `<saml:NameID Format="${x(input.nameIdFormat)}" SPNameQualifier="${x(input.audience)}">${x(input.nameId)}</saml:NameID>` +
    '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">' +
    `<saml:SubjectConfirmationData NotOnOrAfter="${until}" Recipient="${x(input.acsUrl)}" InResponseTo="${x(input.inResponseTo)}"/>` +
    '</saml:SubjectConfirmation></saml:Subject>' +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${until}">` +
    `<saml:AudienceRestriction><saml:Audience>${x(input.audience)}</saml:Audience></saml:AudienceRestriction>` +
    '</saml:Conditions>' +
    `<saml:AuthnStatement AuthnInstant="${instant(input.authnInstant)}" SessionIndex="${x(input.sessionIndex)}">` +
    `<saml:AuthnContext><saml:AuthnContextClassRef>${x(input.authnContextClassRef)}</saml:AuthnContextClassRef></saml:AuthnContext>` +
    '</saml:AuthnStatement>' +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
    '</saml:Assertion>';
  const response =
    `<samlp:Response ${ns} ID="${samlId()}" Version="2.0" IssueInstant="${issued}" Destination="${x(input.acsUrl)}" InResponseTo="${x(input.inResponseTo)}">` +
    `<saml:Issuer>${x(input.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="${status.success}"/></samlp:Status>` +
    assertion +
    '</samlp:Response>';
  return sign(input.key, sign(input.key, response, 'assertion'), 'response');
}

/**
 * A signed Response with status Responder and no assertion, its second-level status saying why: RequestDenied (the
 * person said no), NoAuthnContext (the app's RequestedAuthnContext cannot be met), NoPassive (IsPassive).
 */
export function deniedResponse(input: {
  key: SamlIdpKey;
  issuer: string;
  acsUrl: string;
  inResponseTo: string;
  why: DeniedWhy;
  now?: Date;
}): string {
  const why = status[input.why];
  const response =
    `<samlp:Response ${ns} ID="${samlId()}" Version="2.0" IssueInstant="${instant(input.now ?? new Date())}" Destination="${x(input.acsUrl)}" InResponseTo="${x(input.inResponseTo)}">` +
    `<saml:Issuer>${x(input.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="${status.responder}"><samlp:StatusCode Value="${why}"/></samlp:StatusCode></samlp:Status>` +
    '</samlp:Response>';
  return sign(input.key, response, 'response');
}

export interface LogoutRequestInput {
  key: SamlIdpKey;
  issuer: string;
  destination: string;
  nameId: string;
  nameIdFormat: string;
  spEntityId: string;
  sessionIndex: string;
  /** Its ID, when the caller keeps it (a LogoutResponse by the browser must answer it). */
  id?: string;
  now?: Date;
}

/** A LogoutRequest naming the person as the app knows them and the session it was given, unsigned. */
export function logoutRequestXml(input: LogoutRequestInput): string {
  const now = input.now ?? new Date();
  return (
    `<samlp:LogoutRequest ${ns} ID="${x(input.id ?? samlId())}" Version="2.0" IssueInstant="${instant(now)}" Destination="${x(input.destination)}" NotOnOrAfter="${instant(new Date(now.getTime() + assertionLifetimeMs))}">` +
    `<saml:Issuer>${x(input.issuer)}</saml:Issuer>` +
    `<saml:NameID Format="${x(input.nameIdFormat)}" SPNameQualifier="${x(input.spEntityId)}">${x(input.nameId)}</saml:NameID>` +
    `<samlp:SessionIndex>${x(input.sessionIndex)}</samlp:SessionIndex>` +
    '</samlp:LogoutRequest>'
  );
}

/** A LogoutRequest with its enveloped signature, as the SOAP binding carries it. */
export function logoutRequest(input: LogoutRequestInput): string {
  return samlify.SamlLib.constructSAMLSignature({
    rawSamlMessage: logoutRequestXml(input),
    privateKey: input.key.privateKeyPem,
    signatureAlgorithm: rsaSha256,
    signingCert: certificateBody(input.key.certificatePem),
    isBase64Output: false,
    isMessageSigned: true,
    signatureConfig: {
      prefix: 'ds',
      location: { reference: "/*[local-name(.)='LogoutRequest']/*[local-name(.)='Issuer']", action: 'after' },
    },
  });
}

/**
 * The query of a LogoutRequest by the HTTP-Redirect binding (SAML bindings §3.4.4.1): deflated, base64, with the
 * RelayState and the detached RSA-SHA256 signature over `SAMLRequest=…&RelayState=…&SigAlg=…` as sent.
 */
export function redirectLogoutQuery(input: LogoutRequestInput & { relayState: string }): string {
  const encoded = deflateRawSync(Buffer.from(logoutRequestXml(input))).toString('base64');
  const signed = `SAMLRequest=${encodeURIComponent(encoded)}&RelayState=${encodeURIComponent(input.relayState)}&SigAlg=${encodeURIComponent(rsaSha256)}`;
  const signature = createSign('sha256').update(signed).sign(input.key.privateKeyPem, 'base64');
  return `${signed}&Signature=${encodeURIComponent(signature)}`;
}
