// A partner app that speaks SAML, as the suites of the portal's identity provider meet one: samlify's ServiceProvider
// for its metadata and for reading the portal's answer, and AuthnRequests written by hand the way mod_auth_mellon
// sends them (HTTP-Redirect, deflated, signed RSA-SHA256 over the query when it signs).
import { createPrivateKey, randomBytes, sign } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import * as samlify from 'samlify';
import { certificateBody, generateSamlIdpPem } from '../../src/domain/tokens/saml-key.js';
import { installSamlGuard } from '../../src/lib/saml/xml.js';

const post = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const soap = 'urn:oasis:names:tc:SAML:2.0:bindings:SOAP';
const redirect = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const rsaSha256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

export interface Partner {
  entityId: string;
  acs: string[];
  metadata: string;
  sp: samlify.ServiceProviderInstance;
  privateKeyPem: string;
  certificatePem: string;
}

let pairs: Promise<string>[] = [];
/** A few key pairs made once per process (RSA generation is slow), handed out in turn. */
async function keyPair(index: number): Promise<{ key: string; certificate: string }> {
  if (pairs.length === 0) pairs = [0, 1, 2].map(() => generateSamlIdpPem('Socio de prueba'));
  const pem = await (pairs[index % pairs.length] as Promise<string>);
  const key = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/.exec(pem)?.[0] ?? '';
  const certificate = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem)?.[0] ?? '';
  return { key, certificate };
}

/** A partner app named `name` (its entityID and ACS under https://<name>.example.com/mellon/). */
export async function partner(
  name: string,
  options: {
    signs?: boolean;
    emailOnly?: boolean;
    keyIndex?: number;
    slo?: boolean;
    sloUrl?: string;
    /** Publish only the Redirect SingleLogoutService, as mod_auth_mellon's own generated metadata does. */
    redirectSloOnly?: boolean;
  } = {},
): Promise<Partner> {
  installSamlGuard();
  const { key, certificate } = await keyPair(options.keyIndex ?? 0);
  const base = `https://${name}.example.com/mellon`;
  const acs = [`${base}/postResponse`, `${base}/postResponse2`];
  const sp = samlify.ServiceProvider({
    entityID: `${base}/metadata`,
    authnRequestsSigned: options.signs ?? false,
    wantAssertionsSigned: true,
    privateKey: key,
    signingCert: certificateBody(certificate),
    assertionConsumerService: acs.map((Location) => ({ Binding: post, Location })),
    singleLogoutService:
      options.slo === false
        ? []
        : options.redirectSloOnly
          ? [{ Binding: redirect, Location: `${base}/logout` }]
          : [
              { Binding: soap, Location: options.sloUrl ?? `${base}/logout` },
              { Binding: redirect, Location: `${base}/logout` },
            ],
    nameIDFormat: options.emailOnly
      ? ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress']
      : ['urn:oasis:names:tc:SAML:2.0:nameid-format:persistent'],
  });
  return {
    entityId: `${base}/metadata`,
    acs,
    metadata: sp.getMetadata(),
    sp,
    privateKeyPem: key,
    certificatePem: certificate,
  };
}

export interface RequestOptions {
  id?: string;
  issuer?: string;
  acs?: string;
  relayState?: string;
  /** Sign the query with this key (PKCS#8 PEM), as mellon does. */
  signWith?: string;
  destination?: string;
  /** ForceAuthn="true", or the attribute as written (xs:boolean: " true ", "1"). */
  forceAuthn?: boolean | string;
  /** IsPassive, the attribute as written. */
  isPassive?: string;
  /** A RequestedAuthnContext naming these classes, compared as `comparison` (absent: the default, exact). */
  authnContext?: { classes: string[]; comparison?: string };
}

export function authnRequestXml(partnerApp: Partner, options: RequestOptions = {}): { id: string; xml: string } {
  const id = options.id ?? `_${randomBytes(16).toString('hex')}`;
  const acs = options.acs === undefined ? '' : ` AssertionConsumerServiceURL="${options.acs}"`;
  const destination = options.destination === undefined ? '' : ` Destination="${options.destination}"`;
  const forceValue = options.forceAuthn === true ? 'true' : options.forceAuthn || undefined;
  const force = forceValue === undefined ? '' : ` ForceAuthn="${forceValue}"`;
  const passive = options.isPassive === undefined ? '' : ` IsPassive="${options.isPassive}"`;
  const context = options.authnContext;
  const comparison = context?.comparison === undefined ? '' : ` Comparison="${context.comparison}"`;
  const requested = context
    ? `<samlp:RequestedAuthnContext${comparison}>${context.classes
        .map((name) => `<saml:AuthnContextClassRef>${name}</saml:AuthnContextClassRef>`)
        .join('')}</samlp:RequestedAuthnContext>`
    : '';
  const xml =
    `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${new Date().toISOString()}"${destination}${acs}${force}${passive} ProtocolBinding="${post}">` +
    `<saml:Issuer>${options.issuer ?? partnerApp.entityId}</saml:Issuer>` +
    '<samlp:NameIDPolicy Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent" AllowCreate="true"/>' +
    requested +
    '</samlp:AuthnRequest>';
  return { id, xml };
}

/** The query of an HTTP-Redirect AuthnRequest, signed when `signWith` is given. */
export function redirectQuery(partnerApp: Partner, options: RequestOptions = {}): { id: string; query: string } {
  const { id, xml } = authnRequestXml(partnerApp, options);
  let query = `SAMLRequest=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64'))}`;
  if (options.relayState !== undefined) query += `&RelayState=${encodeURIComponent(options.relayState)}`;
  if (options.signWith) {
    query += `&SigAlg=${encodeURIComponent(rsaSha256)}`;
    const signature = sign('sha256', Buffer.from(query), createPrivateKey(options.signWith)).toString('base64');
    query += `&Signature=${encodeURIComponent(signature)}`;
  }
  return { id, query };
}

/** The portal's continuation id from the SSO endpoint's 303, or throws with what came instead. */
export function continuationOf(response: LightMyRequestResponse, portalUrl: string): string {
  const location = String(response.headers.location ?? '');
  const prefix = `${portalUrl}/saml/continuar?solicitud=`;
  if (response.statusCode !== 303 || !location.startsWith(prefix))
    throw new Error(`no continuation: ${response.statusCode} ${location} ${response.body.slice(0, 300)}`);
  return decodeURIComponent(location.slice(prefix.length));
}

/** What the one-time page posts: the form's action, SAMLResponse and RelayState. */
export function postedForm(html: string): { action: string; samlResponse: string; relayState: string | undefined } {
  const fromHtml = (text: string) =>
    text
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1];
  const samlResponse = /name="SAMLResponse" value="([^"]*)"/.exec(html)?.[1];
  const relayState = /name="RelayState" value="([^"]*)"/.exec(html)?.[1];
  if (!action || !samlResponse) throw new Error(`not a posting page: ${html.slice(0, 300)}`);
  return {
    action: fromHtml(action),
    samlResponse: fromHtml(samlResponse),
    relayState: relayState === undefined ? undefined : fromHtml(relayState),
  };
}

/** The identity provider as the partner knows it: from the portal's published metadata. */
export async function portalAsPartnerSees(app: FastifyInstance): Promise<samlify.IdentityProviderInstance> {
  const metadata = await app.inject({ method: 'GET', url: '/saml/idp/metadata' });
  return samlify.IdentityProvider({ metadata: metadata.body });
}

export interface LogoutResponseOptions {
  inResponseTo: string;
  relayState?: string;
  issuer?: string;
  destination?: string;
  status?: string;
  /** Sign the query with this key (PKCS#8 PEM); unsigned without it. */
  signWith?: string;
}

/** The query of an HTTP-Redirect LogoutResponse as mod_auth_mellon sends it back, signed when `signWith` is given. */
export function logoutResponseQuery(partnerApp: Partner, options: LogoutResponseOptions): string {
  const destination = options.destination === undefined ? '' : ` Destination="${options.destination}"`;
  const xml =
    `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomBytes(16).toString('hex')}" InResponseTo="${options.inResponseTo}" Version="2.0" IssueInstant="${new Date().toISOString()}"${destination}>` +
    `<saml:Issuer>${options.issuer ?? partnerApp.entityId}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="${options.status ?? 'urn:oasis:names:tc:SAML:2.0:status:Success'}"/></samlp:Status>` +
    '</samlp:LogoutResponse>';
  let query = `SAMLResponse=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64'))}`;
  if (options.relayState !== undefined) query += `&RelayState=${encodeURIComponent(options.relayState)}`;
  if (options.signWith) {
    query += `&SigAlg=${encodeURIComponent(rsaSha256)}`;
    const signature = sign('sha256', Buffer.from(query), createPrivateKey(options.signWith)).toString('base64');
    query += `&Signature=${encodeURIComponent(signature)}`;
  }
  return query;
}

export interface SoapLogoutResponseOptions {
  inResponseTo: string;
  issuer?: string;
  status?: string;
  /** Signed with the partner's key unless false. */
  signed?: boolean;
}

/** A SOAP envelope around the LogoutResponse a partner answers a SOAP LogoutRequest with, as mod_auth_mellon does. */
export function soapLogoutResponse(partnerApp: Partner, options: SoapLogoutResponseOptions): string {
  const xml =
    `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomBytes(16).toString('hex')}" InResponseTo="${options.inResponseTo}" Version="2.0" IssueInstant="${new Date().toISOString()}">` +
    `<saml:Issuer>${options.issuer ?? partnerApp.entityId}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="${options.status ?? 'urn:oasis:names:tc:SAML:2.0:status:Success'}"/></samlp:Status>` +
    '</samlp:LogoutResponse>';
  const message =
    options.signed === false
      ? xml
      : samlify.SamlLib.constructSAMLSignature({
          rawSamlMessage: xml,
          privateKey: partnerApp.privateKeyPem,
          signatureAlgorithm: rsaSha256,
          signingCert: certificateBody(partnerApp.certificatePem),
          isBase64Output: false,
          isMessageSigned: true,
          signatureConfig: {
            prefix: 'ds',
            location: { reference: "/*[local-name(.)='LogoutResponse']/*[local-name(.)='Issuer']", action: 'after' },
          },
        });
  return (
    '<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Body>' +
    message +
    '</soap-env:Body></soap-env:Envelope>'
  );
}
