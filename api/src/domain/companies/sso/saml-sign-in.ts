// A company's own sign-in through its SAML identity provider (docs/decisions/0099-company-saml-sign-in.md): the
// AuthnRequest the browser carries there, and the response it POSTs back to the ACS, believed only for what the
// signature covers and only once.
import { randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import * as samlify from 'samlify';
import type { Db } from '../../../db/client.js';
import { samlAssertionsUsed, companySamlRequests } from '../../../db/schema.js';
import { emailDomain, isEmailAddress, normalizeEmail } from '../../../lib/email-address.js';
import {
  checkSamlXml,
  elementsNamed,
  installSamlGuard,
  maxMessageBytes,
  refusedSignatureAlgorithm,
  samlDocument,
} from '../../../lib/saml/xml.js';
import type { CompanyProfile, CompanySignInRefusal } from './accounts.js';
import type { SamlSignInConnection } from './connections.js';
import { ssoMessages as M } from './messages.js';
import { classProvesSecondFactor } from './provider-second-factor.js';
import {
  nameIdEmail,
  nameIdTransient,
  type SamlIdp,
  type SamlSpAddresses,
  samlIdentityProvider,
  samlServiceProvider,
} from './saml-metadata.js';

/** A sign-in must come back from the identity provider within this time. */
export const SAML_REQUEST_TTL_MS = 10 * 60 * 1000;
/** The clocks of the two sites may differ by this much, no more. */
export const SAML_CLOCK_SKEW_MS = 2 * 60 * 1000;

const bearer = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const success = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const assertionNamespace = 'urn:oasis:names:tc:SAML:2.0:assertion';
// The names AD FS and Entra ID give, the LDAP names, and the urn:oid names of the SAML2 attribute profiles that
// Shibboleth, SimpleSAMLphp and pysaml2 send (eduPerson / X.520: mail, givenName, sn, displayName; SimpleSAMLphp's
// name2oid sends `email` as PKCS #9's emailAddress).
const emailAttributes = [
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'email',
  'mail',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'urn:oid:1.2.840.113549.1.9.1',
];
const givenNameAttributes = [
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
  'givenName',
  'urn:oid:2.5.4.42',
];
const surnameAttributes = ['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname', 'sn', 'urn:oid:2.5.4.4'];
const displayNameAttributes = [
  'http://schemas.microsoft.com/identity/claims/displayname',
  'displayName',
  'urn:oid:2.16.840.1.113730.3.1.241',
];
// The request's NameIDPolicy names no format: AD FS refuses a request for a format its claim rules do not issue.
const requestTemplate =
  '<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="{ID}" Version="2.0" IssueInstant="{IssueInstant}" Destination="{Destination}" ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" AssertionConsumerServiceURL="{AssertionConsumerServiceURL}"><saml:Issuer>{Issuer}</saml:Issuer><samlp:NameIDPolicy Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified" AllowCreate="true"/></samlp:AuthnRequest>';

/**
 * The address of the company's identity provider carrying a new AuthnRequest (HTTP-Redirect, unsigned). Its ID is
 * kept with the tab's binding and destination for 10 minutes: the response must answer it.
 */
export async function startSamlSignIn(
  db: Db,
  connection: SamlSignInConnection,
  addresses: SamlSpAddresses,
  tab: { binding: string; redirectUrl: string | null },
): Promise<string> {
  const id = `_${randomBytes(20).toString('hex')}`;
  const sp = samlServiceProvider(addresses);
  const idp = samlIdentityProvider(connection.saml, connection.saml.certificates[0] as string);
  const { context } = sp.createLoginRequest(idp, 'redirect', () => ({
    id,
    context: samlify.SamlLib.replaceTagsByValue(requestTemplate, {
      ID: id,
      IssueInstant: new Date().toISOString(),
      Destination: connection.saml.ssoUrl,
      AssertionConsumerServiceURL: addresses.acsUrl,
      Issuer: addresses.entityId,
    }),
  }));
  await db.delete(companySamlRequests).where(lt(companySamlRequests.expiresAt, sql`now()`));
  await db.insert(companySamlRequests).values({
    id,
    companyId: connection.companyId,
    binding: tab.binding,
    redirectUrl: tab.redirectUrl,
    expiresAt: new Date(Date.now() + SAML_REQUEST_TTL_MS),
  });
  return context;
}

/** A refused response: the code /login shows, the reason logged, and the text recorded for the company's IT. */
export interface SamlRefusal {
  refused: CompanySignInRefusal;
  reason: string;
  /** When the company's IT can fix it: the connection's last error. */
  connectionError?: string;
  /** The tab's destination, when the response answered a request of this company. */
  redirectUrl: string | null;
  /** The request's binding, when the response answered a request of this company ('prueba:<link>' for a test). */
  binding: string | null;
}

export interface SamlAccepted {
  profile: CompanyProfile;
  binding: string;
  redirectUrl: string | null;
}

class SamlReplay extends Error {}

const list = (value: unknown): unknown[] => (value == null ? [] : Array.isArray(value) ? value : [value]);
const first = (value: unknown): string => {
  const found = list(value).find((item) => typeof item === 'string');
  return typeof found === 'string' ? found.trim() : '';
};
const attribute = (attributes: Record<string, unknown>, names: string[], max: number) => {
  for (const name of names) {
    const value = first(attributes[name]);
    if (value) return value.slice(0, max);
  }
  return '';
};
/** The person's names; a provider that sends only a display name has it taken whole as the first name. */
const names = (attributes: Record<string, unknown>) => {
  const name = attribute(attributes, givenNameAttributes, 100);
  const lastName = attribute(attributes, surnameAttributes, 100);
  return name || lastName ? { name, lastName } : { name: attribute(attributes, displayNameAttributes, 100), lastName };
};
const time = (value: unknown) => (typeof value === 'string' && value ? Date.parse(value) : Number.NaN);

/**
 * Verifies the XML's signature (samlify over xml-crypto) with one of the provider's certificates: the assertion the
 * signature covers, as signed, or why not.
 */
export function verifiedAssertion(xml: string, saml: SamlIdp): string | 'wrapping' | 'unsigned' {
  for (const certificate of saml.certificates) {
    const idp = samlIdentityProvider(saml, certificate);
    try {
      const [verified, assertion] = samlify.SamlLib.verifySignature(xml, {
        metadata: idp.entityMeta,
        signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      });
      if (verified && typeof assertion === 'string') return assertion;
    } catch (error) {
      if ((error as Error).message === 'ERR_POTENTIAL_WRAPPING_ATTACK') return 'wrapping';
      // Another certificate of the metadata (a signature naming one in its KeyInfo) or a malformed signature.
    }
  }
  return 'unsigned';
}

/**
 * The response POSTed to the company's ACS, checked from the verified assertion only: exactly one assertion, signed
 * (the Response or the Assertion) by a certificate of the company's metadata, issued by its identity provider, for
 * this service provider (Audience, Destination, Recipient), within its time window (2 minutes of skew), answering a
 * live request of this company (consumed here, so once) and never seen before (the replay cache); the email at one of
 * the connection's domains. Writes nothing but the request consumed and the assertion remembered, and those only once
 * everything else holds.
 */
export async function acceptSamlResponse(
  db: Db,
  connection: SamlSignInConnection,
  addresses: SamlSpAddresses,
  encoded: string,
): Promise<SamlAccepted | SamlRefusal> {
  installSamlGuard();
  let redirectUrl: string | null = null;
  let binding: string | null = null;
  const refuse = (reason: string, connectionError?: string, refused: CompanySignInRefusal = 'auth_failed') => ({
    refused,
    reason,
    redirectUrl,
    binding,
    ...(connectionError && { connectionError }),
  });

  if (encoded.length > (maxMessageBytes * 4) / 3 + 4 || !/^[A-Za-z0-9+/=\s]+$/.test(encoded))
    return refuse('not base64, or too large');
  const xml = Buffer.from(encoded, 'base64').toString('utf8');
  try {
    checkSamlXml(xml, maxMessageBytes);
  } catch (error) {
    return refuse(`refused XML: ${(error as Error).message}`);
  }
  let envelope: Record<string, unknown>;
  try {
    envelope = samlify.Extractor.extract(xml, [
      { key: 'response', localPath: ['Response'], attributes: ['InResponseTo', 'Destination'] },
      { key: 'status', localPath: ['Response', 'Status', 'StatusCode'], attributes: ['Value'] },
    ]) as Record<string, unknown>;
  } catch {
    return refuse('not XML');
  }
  const response = list(envelope.response)[0] as { inResponseTo?: string; destination?: string } | undefined;
  if (!response) return refuse('not a Response');

  // Unsolicited (IdP-initiated) responses are refused: only a live request of this company is answered. Looked up
  // before anything else, so a stranger's post costs no signature check and writes no error for the company.
  const requestId = typeof response.inResponseTo === 'string' ? response.inResponseTo : '';
  const [request] = requestId
    ? await db
        .select({ binding: companySamlRequests.binding, redirectUrl: companySamlRequests.redirectUrl })
        .from(companySamlRequests)
        .where(
          and(
            eq(companySamlRequests.id, requestId),
            eq(companySamlRequests.companyId, connection.companyId),
            gt(companySamlRequests.expiresAt, sql`now()`),
          ),
        )
    : [];
  if (!request) return refuse(requestId ? 'InResponseTo of no live request of this company' : 'unsolicited');
  redirectUrl = request.redirectUrl;
  binding = request.binding;

  const status = first(envelope.status);
  if (status !== success) return refuse(`status ${status}`, M.errorSamlStatus(status || 'sin estado'));
  if (response.destination !== undefined && response.destination !== addresses.acsUrl)
    return refuse('Destination is not our ACS', M.errorSamlRecipient(addresses.acsUrl));
  let document: Document;
  try {
    document = samlDocument(xml);
  } catch {
    return refuse('not well-formed XML');
  }
  // One assertion, in the clear, counted in the parsed document under any prefix or namespace: a second one (beside
  // it, or hidden in an extension) is how wrapping starts.
  if (elementsNamed(document, 'EncryptedAssertion').length > 0) return refuse('encrypted assertion');
  const assertions = elementsNamed(document, 'Assertion');
  if (assertions.length !== 1 || assertions[0]?.namespaceURI !== assertionNamespace)
    return refuse('not exactly one assertion');
  const weak = refusedSignatureAlgorithm(document);
  if (weak?.sha1) return refuse('SHA-1 signature or digest', M.errorSamlSha1);
  if (weak) return refuse('signature algorithm refused', M.errorSamlAlgorithm(weak.algorithm.slice(0, 100)));

  const assertion = verifiedAssertion(xml, connection.saml);
  if (assertion === 'wrapping') return refuse('signature wrapping');
  if (assertion === 'unsigned') return refuse('no valid signature by the metadata', M.errorSamlSignature);

  const fields = samlify.Extractor.extract(assertion, [
    { key: 'id', localPath: ['Assertion'], attributes: ['ID'] },
    { key: 'issuer', localPath: ['Assertion', 'Issuer'], attributes: [] },
    { key: 'conditions', localPath: ['Assertion', 'Conditions'], attributes: ['NotBefore', 'NotOnOrAfter'] },
    {
      key: 'restrictions',
      localPath: ['Assertion', 'Conditions', 'AudienceRestriction'],
      attributes: [],
      context: true,
    },
    { key: 'confirmations', localPath: ['Assertion', 'Subject', 'SubjectConfirmation'], attributes: [], context: true },
    { key: 'nameId', localPath: ['Assertion', 'Subject', 'NameID'], attributes: [] },
    { key: 'nameIdFormat', localPath: ['Assertion', 'Subject', 'NameID'], attributes: ['Format'] },
    {
      key: 'authnContextClass',
      localPath: ['Assertion', 'AuthnStatement', 'AuthnContext', 'AuthnContextClassRef'],
      attributes: [],
    },
    {
      key: 'attributes',
      localPath: ['Assertion', 'AttributeStatement', 'Attribute'],
      index: ['Name'],
      attributePath: ['AttributeValue'],
      attributes: [],
    },
  ]) as Record<string, unknown>;

  const assertionId = first(fields.id);
  if (!assertionId) return refuse('assertion without ID');
  const issuer = first(fields.issuer);
  if (issuer !== connection.saml.entityId)
    return refuse('Issuer is not the provider', M.errorSamlIssuer(issuer || '(sin emisor)', connection.saml.entityId));

  const restrictions = list(fields.restrictions) as string[];
  const audiences = restrictions.map((restriction) =>
    list(
      samlify.Extractor.extract(restriction, [
        { key: 'audience', localPath: ['AudienceRestriction', 'Audience'], attributes: [] },
      ]).audience,
    ).map((audience) => String(audience).trim()),
  );
  if (audiences.length === 0 || audiences.some((names) => !names.includes(addresses.entityId)))
    return refuse('Audience is not us', M.errorSamlAudience(addresses.entityId));

  const now = Date.now();
  const conditions = list(fields.conditions)[0] as { notBefore?: string; notOnOrAfter?: string } | undefined;
  if (list(fields.conditions).length !== 1 || !conditions) return refuse('no single Conditions');
  const notBefore = time(conditions.notBefore);
  const conditionsEnd = time(conditions.notOnOrAfter);
  if (conditions.notBefore !== undefined && !(notBefore - SAML_CLOCK_SKEW_MS <= now))
    return refuse('not yet valid', M.errorSamlClock);
  if (conditions.notOnOrAfter !== undefined && !(now < conditionsEnd + SAML_CLOCK_SKEW_MS))
    return refuse('expired', M.errorSamlClock);

  // saml-profiles §4.1.4.2: a bearer confirmation for our ACS, answering our request, with its own end.
  const confirmations = (list(fields.confirmations) as string[]).map((confirmation) => {
    const found = samlify.Extractor.extract(confirmation, [
      { key: 'method', localPath: ['SubjectConfirmation'], attributes: ['Method'] },
      {
        key: 'data',
        localPath: ['SubjectConfirmation', 'SubjectConfirmationData'],
        attributes: ['Recipient', 'NotOnOrAfter', 'NotBefore', 'InResponseTo'],
      },
    ]) as { method?: string; data?: unknown };
    const data = list(found.data);
    return {
      method: found.method,
      data: (data.length === 1 ? data[0] : {}) as {
        recipient?: string;
        notOnOrAfter?: string;
        notBefore?: string;
        inResponseTo?: string;
      },
    };
  });
  const bearers = confirmations.filter((confirmation) => confirmation.method === bearer);
  if (bearers.length === 0) return refuse('no bearer confirmation');
  const forUs = bearers.filter((confirmation) => confirmation.data.recipient === addresses.acsUrl);
  if (forUs.length === 0) return refuse('Recipient is not our ACS', M.errorSamlRecipient(addresses.acsUrl));
  const answering = forUs.filter((confirmation) => confirmation.data.inResponseTo === requestId);
  if (answering.length === 0) return refuse('confirmation answers another request');
  const live = answering.find(
    (confirmation) =>
      confirmation.data.notBefore === undefined && now < time(confirmation.data.notOnOrAfter) + SAML_CLOCK_SKEW_MS,
  );
  if (!live) return refuse('confirmation expired', M.errorSamlClock);
  const confirmationEnd = time(live.data.notOnOrAfter);

  const attributes = (fields.attributes ?? {}) as Record<string, unknown>;
  const nameId = first(fields.nameId);
  const nameIdFormat = first(fields.nameIdFormat);
  const email = normalizeEmail(
    nameIdFormat === nameIdEmail && nameId ? nameId : attribute(attributes, emailAttributes, 254),
  ).slice(0, 254);
  if (!isEmailAddress(email)) return refuse('no email', M.errorSamlNoEmail);
  if (!connection.domains.includes(emailDomain(email)))
    return refuse('email outside the domains', undefined, 'company_domain_mismatch');
  // A transient NameID changes at every sign-in: the person is then known by the email the provider vouches for.
  const subject = nameId && nameIdFormat !== nameIdTransient ? nameId.slice(0, 1000) : `email:${email}`;

  // Everything holds: the assertion is remembered until it expires (by every instance) and the request consumed, in
  // one transaction: of two posts at once one has both, and a replayed assertion consumes nothing.
  const keptUntil = Math.max(Number.isNaN(conditionsEnd) ? 0 : conditionsEnd, confirmationEnd) + SAML_CLOCK_SKEW_MS;
  await db.delete(samlAssertionsUsed).where(lt(samlAssertionsUsed.expiresAt, sql`now()`));
  const consumed = await db
    .transaction(async (tx) => {
      const [fresh] = await tx
        .insert(samlAssertionsUsed)
        .values({ issuer, assertionId, expiresAt: new Date(keptUntil) })
        .onConflictDoNothing()
        .returning({ assertionId: samlAssertionsUsed.assertionId });
      if (!fresh) throw new SamlReplay('assertion replayed');
      const [row] = await tx
        .delete(companySamlRequests)
        .where(
          and(
            eq(companySamlRequests.id, requestId),
            eq(companySamlRequests.companyId, connection.companyId),
            gt(companySamlRequests.expiresAt, sql`now()`),
          ),
        )
        .returning({ binding: companySamlRequests.binding, redirectUrl: companySamlRequests.redirectUrl });
      if (!row) throw new SamlReplay('request already answered');
      return row;
    })
    .catch((error: unknown) => {
      if (error instanceof SamlReplay) return error;
      // Two posts of one assertion at once: the second insert waits for the first, then conflicts or fails on the
      // primary key; either way it is a replay.
      if (((error as { cause?: { code?: string } }).cause ?? (error as { code?: string })).code === '23505')
        return new SamlReplay('assertion replayed');
      throw error;
    });
  if (consumed instanceof SamlReplay) return refuse(consumed.message);

  return {
    profile: {
      subject,
      email,
      emailVerified: true,
      ...names(attributes),
      secondFactor: classProvesSecondFactor(first(fields.authnContextClass)),
    },
    binding: consumed.binding,
    redirectUrl: consumed.redirectUrl,
  };
}
