// A partner app's sign-in through the portal (docs/decisions/0100-saml-identity-provider.md): the AuthnRequest is
// checked (known issuer, its signature when the app signs, an ACS from the app's metadata only) and kept server-side;
// the portal's /saml/continuar answers it with the person's session (and consent); the signed Response then leaves
// through a one-time page of the API that posts it to the ACS. Nothing is sent to an app before all of that.
import { createHash, createPublicKey, randomBytes, verify, X509Certificate } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import * as samlify from 'samlify';
import type { Db } from '../../../db/client.js';
import {
  connectedApps,
  samlAppPeople,
  samlApps,
  samlAuthnComparisons,
  samlRequests,
  samlSessions,
  type SamlAppRow,
  users,
} from '../../../db/schema.js';
import { HttpError } from '../../../lib/errors.js';
import { checkSamlXml, inflateRedirectMessage, installSamlGuard, SamlXmlRefused } from '../../../lib/saml/xml.js';
import type { SamlIdpKey } from '../../tokens/saml-key.js';
import { entitlementClaims, rolesClaim } from '../claims.js';
import { authenticationOf } from '../authentication-methods.js';
import {
  continueSignIn,
  describeContinuation,
  type PortalSignIn,
  refuseBrokenRules,
  type SignInAsk,
} from '../continuation.js';
import { subjectFor } from '../subjects.js';
import { samlAppColumns } from '../connected-apps.js';
import { findSamlAppByEntityId } from './apps.js';
import { answeringClass, neverMet, type RequestedAuthnContext, secondFactorMeets, xsBoolean } from './authn-context.js';
import { releases, samlConsentId } from './consents.js';
import { samlIdpMessages as M } from './messages.js';
import { nameIdFormats, samlIdpEntityId, samlIdpPaths } from './metadata.js';
import { type DeniedWhy, deniedResponse, loginResponse, samlId } from './response.js';

export interface SamlIdpDeps {
  db: Db;
  key: SamlIdpKey;
  apiPublicUrl: string;
  portalUrl: string;
}

/** Why a request is refused with the API's page and nothing sent (the page's text is the portal's, never the request's). */
export type SamlRefusalReason = 'unknownSp' | 'foreignAcs' | 'badSignature' | 'malformed';

export class SamlRequestRefused extends Error {
  override name = 'SamlRequestRefused';
  constructor(
    readonly reason: SamlRefusalReason,
    detail: string,
  ) {
    super(detail);
  }
}

const refuse = (reason: SamlRefusalReason, detail: string) => new SamlRequestRefused(reason, detail);

/** How long a request waits for the person. */
export const pendingLifetimeMs = 10 * 60_000;
/** How long the one-time page that posts the answer may be fetched once made. */
export const deliveryLifetimeMs = 2 * 60_000;

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/**
 * The signatures of a Redirect request taken. SHA-1 too, which older mod_auth_mellon and lasso still send: a request's
 * signature only proves which app asks, and the answer goes to an address of that app's metadata whatever the request
 * says; the portal's own signatures are RSA-SHA256.
 */
export const redirectSignatureAlgorithms: Readonly<Record<string, string>> = {
  'http://www.w3.org/2000/09/xmldsig#rsa-sha1': 'sha1',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256': 'sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384': 'sha384',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512': 'sha512',
};

export function certificateKeys(app: Pick<SamlAppRow, 'signingCertificates'>) {
  return app.signingCertificates.map((body) =>
    createPublicKey(new X509Certificate(Buffer.from(body, 'base64')).publicKey.export({ type: 'spki', format: 'pem' })),
  );
}

/** The raw (still URL-encoded) parameters of a query string, first of each name: what a Redirect signature covers. */
export function rawParameters(query: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const pair of query.split('&')) {
    const at = pair.indexOf('=');
    const name = at === -1 ? pair : pair.slice(0, at);
    if (name && !params.has(name)) params.set(name, at === -1 ? '' : pair.slice(at + 1));
  }
  return params;
}

const decode = (raw: string) => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    throw refuse('malformed', 'undecodable parameter');
  }
};

/** A text that is stored: no NUL (PostgreSQL refuses it) nor other control characters, within `max` characters. */
function storable(text: string, max: number, what: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (text.length > max || /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text))
    throw refuse('malformed', `${what} not storable`);
  return text;
}

/**
 * What the portal reads of an AuthnRequest: who asks, its ID, the ACS it names, if any, and what it asks of the
 * sign-in: ForceAuthn, IsPassive and its RequestedAuthnContext (docs/decisions/0149-step-up-at-every-door.md).
 */
interface ReadRequest {
  id: string;
  issuer: string;
  acsUrl: string | undefined;
  destination: string | undefined;
  protocolBinding: string | undefined;
  forceAuthn: boolean;
  isPassive: boolean;
  requested: RequestedAuthnContext | undefined;
}

const textsOf = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string');

/** An xs:boolean attribute of the request, or the request is malformed. */
function flag(value: unknown, name: string): boolean {
  const read = xsBoolean(value);
  if (read === undefined) throw refuse('malformed', `${name} is not an xs:boolean`);
  return read;
}

/** The RequestedAuthnContext's comparison (absent: exact) and its classes; none when the request has none. */
function requestedContext(comparison: unknown, classes: unknown): RequestedAuthnContext | undefined {
  const names = textsOf(classes).map((name) => storable(name.trim(), 1024, 'AuthnContextClassRef'));
  if (names.length === 0) return undefined;
  const how = typeof comparison === 'string' && comparison ? comparison : 'exact';
  const known = samlAuthnComparisons.find((value) => value === how);
  if (!known) throw refuse('malformed', 'an unknown Comparison');
  return { comparison: known, classes: names.slice(0, 20) };
}

function readAuthnRequest(xml: string): ReadRequest {
  installSamlGuard();
  let extracted: Record<string, unknown>;
  try {
    extracted = samlify.Extractor.extract(xml, [
      ...samlify.Extractor.loginRequestFields,
      { key: 'binding', localPath: ['AuthnRequest'], attributes: ['ProtocolBinding'] },
      { key: 'forceAuthn', localPath: ['AuthnRequest'], attributes: ['ForceAuthn'] },
      { key: 'isPassive', localPath: ['AuthnRequest'], attributes: ['IsPassive'] },
      { key: 'comparison', localPath: ['AuthnRequest', 'RequestedAuthnContext'], attributes: ['Comparison'] },
      {
        key: 'classes',
        localPath: ['AuthnRequest', 'RequestedAuthnContext', 'AuthnContextClassRef'],
        attributes: [],
      },
    ]) as Record<string, unknown>;
  } catch {
    throw refuse('malformed', 'unparsable AuthnRequest');
  }
  const request = extracted.request as Record<string, string> | null | undefined;
  const issuer = extracted.issuer;
  if (!request || typeof request.id !== 'string' || !request.id)
    throw refuse('malformed', 'not an AuthnRequest with an ID');
  if (typeof issuer !== 'string' || !issuer.trim()) throw refuse('malformed', 'no Issuer');
  return {
    id: storable(request.id, 256, 'ID'),
    issuer: storable(issuer.trim(), 1024, 'Issuer'),
    acsUrl: request.assertionConsumerServiceUrl || undefined,
    destination: request.destination || undefined,
    protocolBinding: typeof extracted.binding === 'string' ? extracted.binding : undefined,
    forceAuthn: flag(extracted.forceAuthn, 'ForceAuthn'),
    isPassive: flag(extracted.isPassive, 'IsPassive'),
    requested: requestedContext(extracted.comparison, extracted.classes),
  };
}

/** The ACS an answer goes to: the one the request names if the app's metadata has it, else the metadata's default. */
function chosenAcs(app: SamlAppRow, asked: string | undefined): string {
  if (asked === undefined) return app.acsUrls[0] as string;
  if (!app.acsUrls.includes(asked)) throw refuse('foreignAcs', 'AssertionConsumerServiceURL not in the metadata');
  return asked;
}

async function knownApp(db: Db, issuer: string): Promise<SamlAppRow> {
  const app = await findSamlAppByEntityId(db, issuer);
  if (!app) throw refuse('unknownSp', 'unknown Issuer');
  return app;
}

function checkDestination(deps: SamlIdpDeps, read: ReadRequest) {
  if (read.destination !== undefined && read.destination !== `${deps.apiPublicUrl}${samlIdpPaths.sso}`)
    throw refuse('malformed', 'Destination is not this identity provider');
  if (read.protocolBinding !== undefined && read.protocolBinding !== 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST')
    throw refuse('malformed', 'a ProtocolBinding other than HTTP-POST');
}

/**
 * Why a request is answered at once, before anybody is asked anything: IsPassive, since the portal signs a person in
 * only on its own pages (SAML Core 3.4.1.1 lets it answer NoPassive); a RequestedAuthnContext no portal session can
 * meet (3.3.2.2.1: NoAuthnContext).
 */
function answeredAtOnce(read: ReadRequest): DeniedWhy | undefined {
  if (read.isPassive) return 'noPassive';
  return read.requested && neverMet(read.requested) ? 'noAuthnContext' : undefined;
}

/**
 * Keeps the request for the person: answers the portal's page that continues it, or, for a request answered at once,
 * the one-time page that posts that answer to the app.
 */
async function keep(deps: SamlIdpDeps, app: SamlAppRow, read: ReadRequest, relayState: string | undefined) {
  if (relayState !== undefined && Buffer.byteLength(relayState) > 1024)
    throw refuse('malformed', 'RelayState too long');
  const acsUrl = chosenAcs(app, read.acsUrl);
  const id = randomBytes(24).toString('base64url');
  const why = answeredAtOnce(read);
  await deps.db.delete(samlRequests).where(lt(samlRequests.expiresAt, sql`now() - interval '1 hour'`));
  await deps.db.insert(samlRequests).values({
    id,
    samlAppId: app.id,
    requestId: read.id,
    acsUrl,
    relayState: relayState ?? null,
    expiresAt: new Date(Date.now() + pendingLifetimeMs),
    forceAuthn: read.forceAuthn,
    authnComparison: read.requested?.comparison ?? null,
    authnClasses: read.requested?.classes ?? [],
    ...(why ? { answeredAt: new Date() } : {}),
  });
  if (why) return deliveryAddress(deps, id, denied(deps, { acsUrl, requestId: read.id }, why));
  return `${deps.portalUrl}/saml/continuar?solicitud=${encodeURIComponent(id)}`;
}

/**
 * An AuthnRequest by the Redirect binding, from the raw query string: inflated with a bound, its detached signature
 * checked against the app's certificates when the app signs or a signature is there. Answers the portal's page.
 */
export async function takeRedirectRequest(deps: SamlIdpDeps, query: string): Promise<string> {
  if (query.length > 128 * 1024) throw refuse('malformed', 'query too long');
  const raw = rawParameters(query);
  const encoded = raw.get('SAMLRequest');
  if (!encoded) throw refuse('malformed', 'no SAMLRequest');
  let xml: string;
  try {
    xml = inflateRedirectMessage(decode(encoded));
  } catch (error) {
    if (error instanceof SamlXmlRefused) throw refuse('malformed', error.message);
    throw error;
  }
  const read = readAuthnRequest(xml);
  const app = await knownApp(deps.db, read.issuer);
  const signature = raw.get('Signature');
  const sigAlg = raw.get('SigAlg');
  if (app.authnRequestsSigned || signature !== undefined || sigAlg !== undefined) {
    if (!signature || !sigAlg) throw refuse('badSignature', 'unsigned request from an app that signs');
    const hash = redirectSignatureAlgorithms[decode(sigAlg)];
    if (!hash) throw refuse('badSignature', 'signature algorithm not accepted');
    const relay = raw.get('RelayState');
    const octets = `SAMLRequest=${encoded}${relay !== undefined ? `&RelayState=${relay}` : ''}&SigAlg=${sigAlg}`;
    const bytes = Buffer.from(decode(signature), 'base64');
    const good = certificateKeys(app).some((key) => {
      try {
        return verify(hash, Buffer.from(octets), key, bytes);
      } catch {
        return false;
      }
    });
    if (!good) throw refuse('badSignature', 'signature does not verify');
  }
  checkDestination(deps, read);
  const relayState = raw.get('RelayState');
  return keep(deps, app, read, relayState === undefined ? undefined : decode(relayState));
}

/** An AuthnRequest by the POST binding: its enveloped signature checked when the app signs or one is there. */
export async function takePostRequest(
  deps: SamlIdpDeps,
  form: { SAMLRequest?: unknown; RelayState?: unknown },
): Promise<string> {
  if (typeof form.SAMLRequest !== 'string' || !form.SAMLRequest) throw refuse('malformed', 'no SAMLRequest');
  const xml = Buffer.from(form.SAMLRequest, 'base64').toString('utf8');
  try {
    checkSamlXml(xml);
  } catch (error) {
    if (error instanceof SamlXmlRefused) throw refuse('malformed', error.message);
    throw error;
  }
  const read = readAuthnRequest(xml);
  const app = await knownApp(deps.db, read.issuer);
  if (app.authnRequestsSigned || /<([A-Za-z_][\w.-]*:)?Signature[\s>]/.test(xml)) {
    let verified = false;
    try {
      const metadata = samlify.SPMetadata(app.metadata);
      [verified] = samlify.SamlLib.verifySignature(xml, { metadata });
    } catch {
      verified = false;
    }
    // The signature verified must be the request's own: one reference, to the root's ID.
    const references = [...xml.matchAll(/<([A-Za-z_][\w.-]*:)?Reference\s[^>]*URI="([^"]*)"/g)].map((m) => m[2]);
    if (!verified || references.length !== 1 || references[0] !== `#${read.id}`)
      throw refuse('badSignature', 'signature does not verify');
  }
  checkDestination(deps, read);
  const relayState = typeof form.RelayState === 'string' ? form.RelayState : undefined;
  return keep(deps, app, read, relayState);
}

export const requestNotFound = () => new HttpError(404, M.requestNotFound, 'SAML_REQUEST_NOT_FOUND');

async function pendingRequest(db: Db, id: string) {
  const [row] = await db
    .select({ request: samlRequests, app: samlAppColumns })
    .from(samlRequests)
    .innerJoin(samlApps, eq(samlApps.id, samlRequests.samlAppId))
    .innerJoin(connectedApps, eq(connectedApps.id, samlApps.connectedAppId))
    .where(and(eq(samlRequests.id, id), isNull(samlRequests.answeredAt), gt(samlRequests.expiresAt, sql`now()`)));
  if (!row) throw requestNotFound();
  return row;
}

type RequestRow = typeof samlRequests.$inferSelect;

/** The RequestedAuthnContext a kept request asked, if any. */
const requestedOf = (
  request: Pick<RequestRow, 'authnComparison' | 'authnClasses'>,
): RequestedAuthnContext | undefined =>
  request.authnComparison === null ? undefined : { comparison: request.authnComparison, classes: request.authnClasses };

/**
 * What the request asks of the continuation: the suite's own app asks no consent; it is given what `releases` lists;
 * ForceAuthn wants a sign-in made after the request arrived; a RequestedAuthnContext that this session meets only
 * with a second factor wants one proved (step-up).
 */
function askOf(
  app: SamlAppRow,
  request: Pick<RequestRow, 'forceAuthn' | 'authnComparison' | 'authnClasses' | 'createdAt'>,
  signIn: PortalSignIn,
): SignInAsk {
  return {
    app: {
      id: samlConsentId(app.id),
      nombre: app.name,
      primeraParte: app.firstParty,
      consent: { protocol: 'saml', samlAppId: app.id },
    },
    permisos: releases(app),
    ...(request.forceAuthn ? { fresh: { after: Math.floor(request.createdAt.getTime() / 1000) } } : {}),
    secondFactor: secondFactorMeets(requestedOf(request), authenticationOf(signIn).amr),
  };
}

/** What /saml/continuar shows: the consent screen's shape, or the refusal of the person's company rules. */
export async function describeRequest(db: Db, id: string, signIn: PortalSignIn) {
  const { app, request } = await pendingRequest(db, id);
  return describeContinuation(db, askOf(app, request, signIn), signIn);
}

/** Takes the request for this answer: once, whoever answers first (a second answer finds nothing). */
async function claim(db: Db, id: string, userId: number) {
  const [row] = await db
    .update(samlRequests)
    .set({ answeredAt: new Date(), userId })
    .where(and(eq(samlRequests.id, id), isNull(samlRequests.answeredAt), gt(samlRequests.expiresAt, sql`now()`)))
    .returning();
  if (!row) throw requestNotFound();
  return row;
}

async function deliveryAddress(deps: SamlIdpDeps, id: string, response: string) {
  const secret = randomBytes(32).toString('base64url');
  await deps.db
    .update(samlRequests)
    .set({ response: Buffer.from(response).toString('base64'), deliveryHash: hashOf(secret) })
    .where(eq(samlRequests.id, id));
  // In the query, whose values the API's log lines never show.
  return `${deps.apiPublicUrl}${samlIdpPaths.delivery}?secreto=${secret}`;
}

/** The app's SessionIndex for this portal session: one per app and session, kept for its single logout. */
async function sessionIndexFor(db: Db, app: SamlAppRow, signIn: PortalSignIn, nameId: string, format: string) {
  await db
    .insert(samlSessions)
    .values({
      samlAppId: app.id,
      userId: signIn.userId,
      portalSessionId: signIn.sessionId,
      nameId,
      nameIdFormat: format,
      sessionIndex: samlId(),
    })
    .onConflictDoUpdate({
      target: [samlSessions.samlAppId, samlSessions.portalSessionId],
      set: { nameId, nameIdFormat: format, userId: signIn.userId },
    });
  // The app now knows the person by this NameID: their partner events reach it under it.
  await db
    .insert(samlAppPeople)
    .values({ samlAppId: app.id, userId: signIn.userId, nameId })
    .onConflictDoUpdate({ target: [samlAppPeople.userId, samlAppPeople.samlAppId], set: { nameId } });
  const [row] = await db
    .select({ sessionIndex: samlSessions.sessionIndex })
    .from(samlSessions)
    .where(and(eq(samlSessions.samlAppId, app.id), eq(samlSessions.portalSessionId, signIn.sessionId)));
  return row?.sessionIndex ?? samlId();
}

/**
 * The attributes an app receives: email, nombre, apellido, and with a catalogue app its plan, the companies and the
 * person's roles there.
 */
export async function attributesOf(db: Db, app: SamlAppRow, userId: number) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw requestNotFound();
  const entitlements = await entitlementClaims(db, userId, app.appId);
  const attributes: Record<string, string[]> = {
    email: [user.email],
    nombre: user.name ? [user.name] : [],
    apellido: user.lastName ? [user.lastName] : [],
  };
  if (app.appId !== null) {
    // The one plan rule (decision 0077), as the OpenID Connect `plan` claim: a lapsed plan is never named.
    attributes.plan = entitlements.plan ? [entitlements.plan.nombre] : [];
    attributes.empresas = Object.keys(entitlements.organization);
    // The keys of the person's roles in that app, one value each (read at each assertion, never kept).
    attributes.roles = await rolesClaim(db, userId, app.appId, entitlements.plan);
  }
  return { user, attributes };
}

/**
 * The person's 'Permitir' (`allow`) or going on without asking (already consented): the continuation lets the sign-in
 * through (or refuses it, and nothing is made), the request is claimed once, the signed Response made with the class
 * the session meets the app's RequestedAuthnContext with (or NoAuthnContext when it meets none of it), and the one-time
 * address of the page that posts it answered.
 */
export async function acceptRequest(deps: SamlIdpDeps, id: string, signIn: PortalSignIn, allow: boolean) {
  const { db } = deps;
  const pending = await pendingRequest(db, id);
  const { app } = pending;
  // The rules once apart from the transaction, so that a refusal stays on record (the transaction would take it back).
  await refuseBrokenRules(db, signIn);
  const { request, passed } = await db.transaction(async (tx) => {
    const passed = await continueSignIn(tx, askOf(app, pending.request, signIn), signIn, allow);
    return { request: await claim(tx, id, signIn.userId), passed };
  });
  const authnContextClassRef = answeringClass(requestedOf(request), passed.amr);
  if (authnContextClassRef === undefined) {
    const response = denied(deps, request, 'noAuthnContext');
    return { redirectTo: await deliveryAddress(deps, id, response) };
  }
  const { user, attributes } = await attributesOf(db, app, signIn.userId);
  const nameId =
    app.nameIdFormat === 'emailAddress'
      ? user.email
      : subjectFor({ kind: 'por_cliente', salt: app.subjectSalt }, { id: user.id, publicId: user.publicId });
  const format = nameIdFormats[app.nameIdFormat];
  const sessionIndex = await sessionIndexFor(db, app, signIn, nameId, format);
  const response = loginResponse({
    key: deps.key,
    issuer: samlIdpEntityId(deps.apiPublicUrl),
    audience: app.entityId,
    acsUrl: request.acsUrl,
    inResponseTo: request.requestId,
    nameId,
    nameIdFormat: format,
    sessionIndex,
    authnInstant: new Date(passed.authTime * 1000 || Date.now()),
    authnContextClassRef,
    attributes,
  });
  return { redirectTo: await deliveryAddress(deps, id, response) };
}

/** A signed Response that says no, and why, to the request. */
const denied = (deps: SamlIdpDeps, request: Pick<RequestRow, 'acsUrl' | 'requestId'>, why: DeniedWhy) =>
  deniedResponse({
    key: deps.key,
    issuer: samlIdpEntityId(deps.apiPublicUrl),
    acsUrl: request.acsUrl,
    inResponseTo: request.requestId,
    why,
  });

/**
 * The person said no: the app is answered RequestDenied, through the same one-time page; or NoAuthnContext when the
 * app asked for an authentication context the person did not prove (`stepUp`: they left the second factor's step).
 */
export async function refuseRequest(
  deps: SamlIdpDeps,
  id: string,
  signIn: Pick<PortalSignIn, 'userId'>,
  stepUp = false,
) {
  const request = await claim(deps.db, id, signIn.userId);
  const why = stepUp && request.authnComparison !== null ? 'noAuthnContext' : 'requestDenied';
  return { redirectTo: await deliveryAddress(deps, id, denied(deps, request, why)) };
}

/** What the one-time page posts, taken once (the row goes with it); undefined when used, expired or unknown. */
export async function takeDelivery(db: Db, secret: string) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(secret)) return undefined;
  const [row] = await db
    .delete(samlRequests)
    .where(
      and(
        eq(samlRequests.deliveryHash, hashOf(secret)),
        gt(samlRequests.answeredAt, new Date(Date.now() - deliveryLifetimeMs)),
      ),
    )
    .returning();
  if (!row?.response) return undefined;
  return { acsUrl: row.acsUrl, samlResponse: row.response, relayState: row.relayState };
}
