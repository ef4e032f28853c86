// Single logout by the person's browser (HTTP-Redirect binding) to the SAML apps that publish no SOAP logout
// (docs/decisions/0113-saml-front-channel-logout.md). The portal's sign-out in a browser starts a chain over the
// Redirect logouts its session owes (trigger `sessions_saml_end` queued them, binding 'redirect'): the browser is sent
// to each app in turn with a signed LogoutRequest, the app answers with a LogoutResponse back to /saml/idp/slo, which
// is taken only when it answers the open delivery of that chain, is signed by that app's key and issued by it. Every
// address the browser is sent to is the app's from its registered metadata, or the chain's own hop, or the portal's
// /login: never one from a request. What the browser never completes shows as failed to the administrator.
import { createHash, createHmac, randomBytes, timingSafeEqual, verify } from 'node:crypto';
import { and, asc, eq, inArray, isNotNull, isNull, lt } from 'drizzle-orm';
import * as samlify from 'samlify';
import type { Db } from '../../../db/client.js';
import { connectedApps, samlApps, samlLogoutDeliveries } from '../../../db/schema.js';
import { inflateRedirectMessage, installSamlGuard, SamlXmlRefused } from '../../../lib/saml/xml.js';
import { recordAudit, systemActor } from '../../audit/log.js';
import type { SamlIdpKey } from '../../tokens/saml-key.js';
import { samlIdpEntityId, samlIdpPaths } from './metadata.js';
import { redirectLogoutQuery, samlId } from './response.js';
import { certificateKeys, rawParameters, redirectSignatureAlgorithms } from './sign-in.js';

export interface FrontLogoutDeps {
  db: Db;
  key: SamlIdpKey;
  apiPublicUrl: string;
  portalUrl: string;
}

/** The most apps one sign-out takes the browser through; the rest are recorded as failed, not silently dropped. */
export const maxChainApps = 10;
/** How long an app has to send the browser back with its LogoutResponse. */
export const answerWithinMs = 60_000;
/** How long a chain lives; and how long a Redirect logout waits for a browser to start one. */
export const chainLifetimeMs = 5 * 60_000;
export const browserWaitMs = 60_000;

/** The path of the chain's hop: the browser is sent on from here, to the next app or to the portal's /login. */
export const chainPath = '/saml/idp/cierre';
/** The cookie that binds a chain to the browser that signed out (its secret), for the chain's paths only. */
export const chainCookie = { name: 'portal_saml_cierre', path: '/saml/idp', maxAgeSeconds: chainLifetimeMs / 1000 };

export const frontLogoutErrors = {
  tooMany: `el cierre de sesión en el navegador pasa por ${maxChainApps} aplicaciones como máximo`,
  noBrowser:
    'la sesión terminó sin un navegador que llevara el cierre a la aplicación (solo publica el cierre HTTP-Redirect)',
  noAnswer: 'la aplicación no devolvió el navegador con su respuesta de cierre de sesión',
  unfinished: 'el navegador no completó el cierre de sesión',
  noAddress: 'la aplicación ya no publica un cierre de sesión HTTP-Redirect',
  status: (code: string) => `la aplicación respondió al cierre de sesión con el estado ${code}`,
} as const;

/** Why a LogoutResponse changed nothing (the page's text is the portal's, never the request's). */
export class SamlLogoutRefused extends Error {
  override name = 'SamlLogoutRefused';
  constructor(
    detail: string,
    /** The chain's hop to go on from, when the RelayState names an open chain. */
    readonly continueTo: string | null,
  ) {
    super(detail);
  }
}

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('base64url');
const isSecret = (value: string | undefined): value is string => !!value && /^[A-Za-z0-9_-]{43}$/.test(value);
const firstHopUrl = (deps: FrontLogoutDeps, secret: string) =>
  `${deps.apiPublicUrl}${chainPath}?cadena=${encodeURIComponent(secret)}`;
/** Every later hop: the chain is the cookie's. */
const hopUrl = (deps: FrontLogoutDeps) => `${deps.apiPublicUrl}${chainPath}`;
/** The RelayState one app is given: its own, from the chain's secret and the request it is sent. */
export const relayStateFor = (secret: string, requestId: string) =>
  createHmac('sha256', secret).update(`relay-state:${requestId}`).digest('base64url');
const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};
const loginUrl = (deps: FrontLogoutDeps) => `${deps.portalUrl}/login`;

type Delivery = typeof samlLogoutDeliveries.$inferSelect;

async function audit(db: Db, rows: Delivery[], resultado: 'entregado' | 'fallido', error?: string) {
  const named = rows.filter((row) => row.userId !== null);
  if (named.length === 0) return;
  const apps = await db
    .select({ id: samlApps.id, name: connectedApps.name })
    .from(samlApps)
    .innerJoin(connectedApps, eq(connectedApps.id, samlApps.connectedAppId))
    .where(
      inArray(
        samlApps.id,
        named.map((row) => row.samlAppId),
      ),
    );
  const names = new Map(apps.map((app) => [app.id, app.name]));
  await recordAudit(
    db,
    systemActor,
    named.map((row) => ({
      action: 'saml.logout',
      target: { type: 'user' as const, id: row.userId as number },
      details: {
        aplicacionSamlId: row.samlAppId,
        aplicacion: names.get(row.samlAppId) ?? String(row.samlAppId),
        canal: 'navegador',
        resultado,
        intentos: row.attempts,
        ...(error ? { error: error.slice(0, 200) } : {}),
      },
    })),
  );
}

/** Marks open browser logouts failed with `why` (each at most once) and audits them. */
async function fail(db: Db, where: ReturnType<typeof and>, why: string) {
  const rows = await db
    .update(samlLogoutDeliveries)
    .set({ failedAt: new Date(), lastError: why, lockedUntil: null })
    .where(
      and(
        eq(samlLogoutDeliveries.binding, 'redirect'),
        isNull(samlLogoutDeliveries.deliveredAt),
        isNull(samlLogoutDeliveries.failedAt),
        where,
      ),
    )
    .returning();
  await audit(db, rows, 'fallido', why);
  return rows;
}

/**
 * After the portal's sign-out of `portalSessionId` in a browser: the address of the chain's first hop when the
 * session owes apps a logout by the browser, else null.
 */
export async function startLogoutChain(deps: FrontLogoutDeps, portalSessionId: string): Promise<string | null> {
  const owed = await deps.db
    .select({ id: samlLogoutDeliveries.id })
    .from(samlLogoutDeliveries)
    .where(
      and(
        eq(samlLogoutDeliveries.portalSessionId, portalSessionId),
        eq(samlLogoutDeliveries.binding, 'redirect'),
        isNull(samlLogoutDeliveries.chainHash),
        isNull(samlLogoutDeliveries.deliveredAt),
        isNull(samlLogoutDeliveries.failedAt),
      ),
    )
    .orderBy(asc(samlLogoutDeliveries.id));
  if (owed.length === 0) return null;
  const taken = owed.slice(0, maxChainApps).map((row) => row.id);
  const left = owed.slice(maxChainApps).map((row) => row.id);
  if (left.length > 0) await fail(deps.db, inArray(samlLogoutDeliveries.id, left), frontLogoutErrors.tooMany);
  const secret = randomBytes(32).toString('base64url');
  const chained = await deps.db
    .update(samlLogoutDeliveries)
    .set({ chainHash: hashOf(secret) })
    .where(and(inArray(samlLogoutDeliveries.id, taken), isNull(samlLogoutDeliveries.chainHash)))
    .returning({ id: samlLogoutDeliveries.id });
  return chained.length > 0 ? firstHopUrl(deps, secret) : null;
}

/** Where the browser goes from a hop, and the chain's secret to keep in its cookie when this hop bound it. */
export interface Hop {
  location: string;
  bind?: string;
}

/**
 * The chain's hop: the browser came back (or starts). The chain is the cookie's; the secret in the address is taken
 * only at the first hop, before any app was sent a logout, and then bound to this browser (`bind`). An app it was
 * sent to and that did not answer is given up, then the next app's signed LogoutRequest address is answered, or the
 * portal's /login when none is left.
 */
export async function nextHop(
  deps: FrontLogoutDeps,
  fromAddress: string | undefined,
  fromCookie: string | undefined,
): Promise<Hop> {
  const { db } = deps;
  let secret: string;
  let bind: string | undefined;
  if (isSecret(fromCookie) && (fromAddress === undefined || fromAddress === fromCookie)) secret = fromCookie;
  else if (isSecret(fromAddress) && (await unstarted(db, hashOf(fromAddress)))) {
    secret = fromAddress;
    bind = fromAddress;
  } else return { location: loginUrl(deps) };
  return { location: await hopFrom(deps, secret), ...(bind && { bind }) };
}

/** A chain no app of which was sent its logout yet. */
async function unstarted(db: Db, chainHash: string): Promise<boolean> {
  const rows = await db
    .select({ sentAt: samlLogoutDeliveries.sentAt })
    .from(samlLogoutDeliveries)
    .where(eq(samlLogoutDeliveries.chainHash, chainHash));
  return rows.length > 0 && rows.every((row) => row.sentAt === null);
}

async function hopFrom(deps: FrontLogoutDeps, secret: string): Promise<string> {
  const { db } = deps;
  const chain = eq(samlLogoutDeliveries.chainHash, hashOf(secret));
  // Back without the app's answer: that app did not take the logout.
  await fail(db, and(chain, isNotNull(samlLogoutDeliveries.sentAt)), frontLogoutErrors.noAnswer);
  await fail(
    db,
    and(chain, lt(samlLogoutDeliveries.createdAt, new Date(Date.now() - chainLifetimeMs))),
    frontLogoutErrors.unfinished,
  );
  for (;;) {
    const [next] = await db
      .select({ delivery: samlLogoutDeliveries, app: samlApps })
      .from(samlLogoutDeliveries)
      .innerJoin(samlApps, eq(samlApps.id, samlLogoutDeliveries.samlAppId))
      .where(
        and(
          chain,
          eq(samlLogoutDeliveries.binding, 'redirect'),
          isNull(samlLogoutDeliveries.sentAt),
          isNull(samlLogoutDeliveries.deliveredAt),
          isNull(samlLogoutDeliveries.failedAt),
        ),
      )
      .orderBy(asc(samlLogoutDeliveries.id))
      .limit(1);
    if (!next) return loginUrl(deps);
    const { delivery, app } = next;
    const destination = app.sloRedirectUrl;
    if (!destination) {
      await fail(db, eq(samlLogoutDeliveries.id, delivery.id), frontLogoutErrors.noAddress);
      continue;
    }
    const requestId = samlId();
    // Taken once: two tabs on the same hop cannot both send it.
    const [sent] = await db
      .update(samlLogoutDeliveries)
      .set({ sentAt: new Date(), requestId, attempts: delivery.attempts + 1 })
      .where(and(eq(samlLogoutDeliveries.id, delivery.id), isNull(samlLogoutDeliveries.sentAt)))
      .returning({ id: samlLogoutDeliveries.id });
    if (!sent) continue;
    const query = redirectLogoutQuery({
      key: deps.key,
      issuer: samlIdpEntityId(deps.apiPublicUrl),
      destination,
      nameId: delivery.nameId,
      nameIdFormat: delivery.nameIdFormat,
      spEntityId: app.entityId,
      sessionIndex: delivery.sessionIndex,
      id: requestId,
      relayState: relayStateFor(secret, requestId),
    });
    return `${destination}${destination.includes('?') ? '&' : '?'}${query}`;
  }
}

const decode = (raw: string) => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
};

interface ReadResponse {
  inResponseTo: string;
  issuer: string;
  destination: string | undefined;
  status: string;
}

function readLogoutResponse(xml: string): ReadResponse | undefined {
  installSamlGuard();
  try {
    const extracted = samlify.Extractor.extract(xml, [
      ...samlify.Extractor.logoutResponseFields,
      { key: 'status', localPath: ['LogoutResponse', 'Status', 'StatusCode'], attributes: ['Value'] },
    ]) as Record<string, unknown>;
    const response = extracted.response as Record<string, string> | null | undefined;
    const issuer = typeof extracted.issuer === 'string' ? extracted.issuer.trim() : '';
    if (!response?.inResponseTo || !issuer || typeof extracted.status !== 'string') return undefined;
    return {
      inResponseTo: response.inResponseTo,
      issuer,
      destination: response.destination || undefined,
      status: extracted.status,
    };
  } catch {
    return undefined;
  }
}

const success = 'urn:oasis:names:tc:SAML:2.0:status:Success';

/**
 * A LogoutResponse by the Redirect binding, from the raw query: taken only when its RelayState names an open chain,
 * its InResponseTo the LogoutRequest the chain sent, its Issuer that app, and its detached signature verifies with that
 * app's certificates. Then the delivery is marked (delivered, or failed with the app's status) and the chain's hop is
 * answered. Anything else throws SamlLogoutRefused and changes nothing.
 */
export async function takeLogoutResponse(
  deps: FrontLogoutDeps,
  query: string,
  secret: string | undefined,
): Promise<string> {
  const { db } = deps;
  const raw = rawParameters(query);
  const relayRaw = raw.get('RelayState');
  const relayState = relayRaw === undefined ? undefined : decode(relayRaw);
  const chainHash = isSecret(secret) ? hashOf(secret) : undefined;
  const [open] = chainHash
    ? await db
        .select({ id: samlLogoutDeliveries.id })
        .from(samlLogoutDeliveries)
        .where(
          and(
            eq(samlLogoutDeliveries.chainHash, chainHash),
            isNull(samlLogoutDeliveries.deliveredAt),
            isNull(samlLogoutDeliveries.failedAt),
          ),
        )
        .limit(1)
    : [];
  const refuse = (detail: string) => new SamlLogoutRefused(detail, open ? hopUrl(deps) : null);
  if (query.length > 128 * 1024) throw refuse('query too long');
  const encoded = raw.get('SAMLResponse');
  if (!encoded) throw refuse('no SAMLResponse');
  if (!chainHash) throw refuse('no chain in this browser');
  const message = decode(encoded);
  if (message === undefined) throw refuse('undecodable SAMLResponse');
  let xml: string;
  try {
    xml = inflateRedirectMessage(message);
  } catch (error) {
    if (error instanceof SamlXmlRefused) throw refuse(error.message);
    throw error;
  }
  const read = readLogoutResponse(xml);
  if (!read) throw refuse('not a LogoutResponse');
  const [row] = await db
    .select({ delivery: samlLogoutDeliveries, app: samlApps })
    .from(samlLogoutDeliveries)
    .innerJoin(samlApps, eq(samlApps.id, samlLogoutDeliveries.samlAppId))
    .where(
      and(
        eq(samlLogoutDeliveries.chainHash, chainHash),
        eq(samlLogoutDeliveries.requestId, read.inResponseTo),
        isNotNull(samlLogoutDeliveries.sentAt),
        isNull(samlLogoutDeliveries.deliveredAt),
        isNull(samlLogoutDeliveries.failedAt),
      ),
    );
  if (!row) throw refuse('InResponseTo answers no open logout of this chain');
  if (relayState === undefined || !sameText(relayState, relayStateFor(secret as string, read.inResponseTo)))
    throw refuse('RelayState is not the one this app was given');
  const { delivery, app } = row;
  if (read.issuer !== app.entityId) throw refuse('issued by another entity');
  if (read.destination !== undefined && read.destination !== `${deps.apiPublicUrl}${samlIdpPaths.slo}`)
    throw refuse('Destination is not this identity provider');
  const signature = raw.get('Signature');
  const sigAlg = raw.get('SigAlg');
  if (!signature || !sigAlg) throw refuse('unsigned LogoutResponse');
  const algorithm = decode(sigAlg);
  const hash = algorithm === undefined ? undefined : redirectSignatureAlgorithms[algorithm];
  if (!hash) throw refuse('signature algorithm not accepted');
  const octets = `SAMLResponse=${encoded}&RelayState=${relayRaw}&SigAlg=${sigAlg}`;
  const bytes = Buffer.from(decode(signature) ?? '', 'base64');
  const good = certificateKeys(app).some((key) => {
    try {
      return verify(hash, Buffer.from(octets), key, bytes);
    } catch {
      return false;
    }
  });
  if (!good) throw refuse('signature does not verify');

  const ok = read.status === success;
  const why = ok
    ? undefined
    : frontLogoutErrors.status(read.status.replace(/^urn:oasis:names:tc:SAML:2\.0:status:/, ''));
  const [marked] = await db
    .update(samlLogoutDeliveries)
    .set(ok ? { deliveredAt: new Date(), lastError: null } : { failedAt: new Date(), lastError: why })
    .where(
      and(
        eq(samlLogoutDeliveries.id, delivery.id),
        isNull(samlLogoutDeliveries.deliveredAt),
        isNull(samlLogoutDeliveries.failedAt),
      ),
    )
    .returning();
  if (!marked) throw refuse('already answered');
  await audit(db, [marked], ok ? 'entregado' : 'fallido', why);
  return hopUrl(deps);
}

/**
 * Run by the logouts' loop: the browser logouts no browser will complete are marked failed, visibly — queued with no
 * sign-out in a browser (a password change, a suspension, a session closed from elsewhere), sent to an app that did
 * not send the browser back in time, or left in a chain the browser abandoned.
 */
export async function expireBrowserLogouts(db: Db, now = new Date()): Promise<number> {
  const before = (ms: number) => new Date(now.getTime() - ms);
  const lost = await fail(
    db,
    and(isNull(samlLogoutDeliveries.chainHash), lt(samlLogoutDeliveries.createdAt, before(browserWaitMs))),
    frontLogoutErrors.noBrowser,
  );
  const unanswered = await fail(
    db,
    and(isNotNull(samlLogoutDeliveries.sentAt), lt(samlLogoutDeliveries.sentAt, before(answerWithinMs))),
    frontLogoutErrors.noAnswer,
  );
  const abandoned = await fail(
    db,
    and(isNotNull(samlLogoutDeliveries.chainHash), lt(samlLogoutDeliveries.createdAt, before(chainLifetimeMs))),
    frontLogoutErrors.unfinished,
  );
  return lost.length + unanswered.length + abandoned.length;
}
