// Single logouts owed to SAML apps (table saml_logout_deliveries): queued by trigger `sessions_saml_end` in the change
// that ended the portal session, delivered by the one logout queue (../logout-queue.ts: each app at its own pace,
// leases, retries for a day) without a browser: a signed LogoutRequest (NameID and SessionIndex) posted by the SOAP
// binding to the app's SingleLogoutService, which mod_auth_mellon and SimpleSAMLphp answer at their logout endpoint.
// Only a LogoutResponse that answers that request, from that app, with status Success, signed by the app where its
// metadata has a key, counts as delivered; anything else is retried, then given up. The failures show as the app's
// `cierresPendientes` and `ultimoErrorCierre`, each outcome in the audit log. The logouts owed by the person's
// browser (front-logout.ts) are not sent from here; the queue only marks failed those no browser will complete.
import { asc, eq, inArray, sql } from 'drizzle-orm';
import * as samlify from 'samlify';
import type { Db } from '../../../db/client.js';
import { connectedApps, samlApps, samlLogoutDeliveries } from '../../../db/schema.js';
import { checkSamlXml, installSamlGuard } from '../../../lib/saml/xml.js';
import { recordAudit, systemActor } from '../../audit/log.js';
import type { SamlIdpKey } from '../../tokens/saml-key.js';
import { createLogoutQueue, type LogoutQueue, type LogoutQueueDeps, logoutTable } from '../logout-queue.js';
import { expireBrowserLogouts } from './front-logout.js';
import { samlIdpEntityId } from './metadata.js';
import { logoutRequest, samlId } from './response.js';

const timeoutMs = 10_000;
const cleanupEveryMs = 60 * 60_000;
const success = 'urn:oasis:names:tc:SAML:2.0:status:Success';
/** An app's answer read no further than this: a LogoutResponse is a few KiB. */
const maxAnswerBytes = 64 * 1024;

type Fetch = (url: string, options?: RequestInit) => Promise<Response>;

export interface SamlLogoutDeps {
  db: Db;
  key: SamlIdpKey;
  apiPublicUrl: string;
  fetch: Fetch;
  log: LogoutQueueDeps['log'];
  databaseLost(error: unknown): void;
}

export type SamlLogouts = LogoutQueue;

type Delivery = typeof samlLogoutDeliveries.$inferSelect;

/** The SOAP envelope of a LogoutRequest (SAML bindings §3.2). */
const soapEnvelope = (message: string) =>
  '<?xml version="1.0" encoding="UTF-8"?>' +
  '<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Body>' +
  message.replace(/^<\?xml[^>]*\?>/, '') +
  '</soap-env:Body></soap-env:Envelope>';

/** Why a delivery failed, as the administrator reads it (Spanish; the network's own code kept for the operator). */
function failureText(error: unknown): string {
  const failure = error as Error & { cause?: Error & { code?: string } };
  if (failure?.name === 'TimeoutError' || failure?.name === 'AbortError') return 'la aplicación no respondió a tiempo';
  if (failure instanceof TypeError) {
    const code = failure.cause?.code ?? failure.cause?.name;
    return `no se pudo conectar con la aplicación${code ? ` (${code})` : ''}`;
  }
  return String(failure?.message ?? error).slice(0, 500);
}

interface SoapApp {
  name: string;
  entityId: string;
  sloUrl: string | null;
  metadata: string;
  signingCertificates: string[];
}

/**
 * The app's SOAP answer, read by element names in their namespaces (samlify's extractor): why it does not count, or
 * nothing when it is a LogoutResponse to `requestId`, issued by the app, with status Success, and signed by a key of
 * the app's metadata where the metadata has one.
 */
export function soapAnswerRefusal(text: string, requestId: string, app: SoapApp): string | undefined {
  installSamlGuard();
  const body = ['Envelope', 'Body', 'LogoutResponse'];
  let read: Record<string, unknown>;
  try {
    checkSamlXml(text);
    read = samlify.Extractor.extract(text, [
      { key: 'inResponseTo', localPath: body, attributes: ['InResponseTo'] },
      { key: 'issuer', localPath: [...body, 'Issuer'], attributes: [] },
      { key: 'status', localPath: [...body, 'Status', 'StatusCode'], attributes: ['Value'] },
      { key: 'message', localPath: body, attributes: [], context: true },
    ]) as Record<string, unknown>;
  } catch {
    return 'la aplicación no respondió con un LogoutResponse';
  }
  // One attribute asked: the extractor answers its value itself.
  if (typeof read.message !== 'string') return 'la aplicación no respondió con un LogoutResponse';
  if (read.inResponseTo !== requestId) return 'la respuesta de la aplicación no corresponde a la solicitud enviada';
  if (typeof read.issuer !== 'string' || read.issuer.trim() !== app.entityId)
    return 'la respuesta la emitió otra entidad';
  if (read.status !== success)
    return `la aplicación no cerró la sesión (estado ${String(read.status ?? 'ausente').replace(/^urn:oasis:names:tc:SAML:2\.0:status:/, '')})`;
  if (app.signingCertificates.length > 0) {
    let verified = false;
    try {
      [verified] = samlify.SamlLib.verifySignature(read.message, { metadata: samlify.SPMetadata(app.metadata) });
    } catch {
      verified = false;
    }
    if (!verified) return 'la respuesta no lleva una firma válida de la aplicación';
  }
  return undefined;
}

export function createSamlLogouts(deps: SamlLogoutDeps): SamlLogouts {
  const { db } = deps;
  const table = logoutTable(db, 'saml_logout_deliveries', 'saml_app_id', sql`binding = 'soap'`);
  let lastCleanup = 0;
  const apps = new Map<number, SoapApp | undefined>();

  async function appOf(id: number): Promise<SoapApp | undefined> {
    if (!apps.has(id)) {
      const [app] = await db
        .select({
          name: connectedApps.name,
          entityId: samlApps.entityId,
          sloUrl: samlApps.sloUrl,
          metadata: samlApps.metadata,
          signingCertificates: samlApps.signingCertificates,
        })
        .from(samlApps)
        .innerJoin(connectedApps, eq(connectedApps.id, samlApps.connectedAppId))
        .where(eq(samlApps.id, id));
      apps.set(id, app);
    }
    return apps.get(id);
  }

  async function audit(delivery: Delivery, name: string, resultado: 'entregado' | 'fallido', error?: string) {
    if (delivery.userId === null) return;
    await recordAudit(db, systemActor, [
      {
        action: 'saml.logout',
        target: { type: 'user', id: delivery.userId },
        details: {
          aplicacionSamlId: delivery.samlAppId,
          aplicacion: name,
          resultado,
          intentos: delivery.attempts + 1,
          ...(error ? { error: error.slice(0, 200) } : {}),
        },
      },
    ]);
  }

  /** Posts the signed LogoutRequest; throws with why the app did not take it. */
  async function send(delivery: Delivery, signal: AbortSignal) {
    const app = await appOf(delivery.samlAppId);
    if (!app?.sloUrl) throw new Error('la aplicación ya no publica un cierre de sesión SOAP');
    const requestId = samlId();
    const message = logoutRequest({
      key: deps.key,
      issuer: samlIdpEntityId(deps.apiPublicUrl),
      destination: app.sloUrl,
      nameId: delivery.nameId,
      nameIdFormat: delivery.nameIdFormat,
      spEntityId: app.entityId,
      sessionIndex: delivery.sessionIndex,
      id: requestId,
    });
    const answer = await deps.fetch(app.sloUrl, {
      method: 'POST',
      headers: {
        'content-type': 'text/xml; charset=utf-8',
        soapaction: 'http://www.oasis-open.org/committees/security',
      },
      body: soapEnvelope(message),
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    });
    const text = (await answer.text()).slice(0, maxAnswerBytes);
    if (!answer.ok) throw new Error(`la aplicación respondió ${answer.status}`);
    const refusal = soapAnswerRefusal(text, requestId, app);
    if (refusal) throw new Error(refusal);
  }

  return createLogoutQueue<Delivery>(
    {
      name: 'SAML single logout',
      laneOf: (delivery) => String(delivery.samlAppId),
      async claim(now, leaseUntil, limit, busy) {
        // Each claim reads the apps afresh: an address or key changed meanwhile counts from the next claim.
        apps.clear();
        const ids = await table.claim(now, leaseUntil, limit, busy);
        if (ids.length === 0) return [];
        return db
          .select()
          .from(samlLogoutDeliveries)
          .where(inArray(samlLogoutDeliveries.id, ids))
          .orderBy(asc(samlLogoutDeliveries.id));
      },
      send,
      async settle(delivery, outcome) {
        const name = (await appOf(delivery.samlAppId))?.name ?? String(delivery.samlAppId);
        const message = outcome.delivered ? null : failureText(outcome.error);
        await table.settle(delivery.id, outcome, message);
        if (outcome.delivered) await audit(delivery, name, 'entregado');
        else if (outcome.givenUp) await audit(delivery, name, 'fallido', message ?? undefined);
      },
      release: (deliveries) => table.release(deliveries.map((delivery) => delivery.id)),
      async tidy() {
        // Those owed by the browser are not sent from here: the ones no browser will complete are shown as failed.
        await expireBrowserLogouts(db);
        if (Date.now() - lastCleanup < cleanupEveryMs) return;
        lastCleanup = Date.now();
        await table.deleteSettled(new Date());
      },
    },
    deps,
  );
}
