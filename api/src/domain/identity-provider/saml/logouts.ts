// Single logouts owed to SAML apps (table saml_logout_deliveries): queued by trigger `sessions_saml_end` in the change
// that ended the portal session, delivered here without a browser: a signed LogoutRequest (NameID and SessionIndex)
// posted by the SOAP binding to the app's SingleLogoutService, which mod_auth_mellon and SimpleSAMLphp answer at
// their logout endpoint. Claimed with a short lease, retried with the back-channel logouts' backoff for a day, then
// given up; the failures show as the app's `cierresPendientes` and `ultimoErrorCierre`, each outcome in the audit log.
// The logouts owed by the person's browser (front-logout.ts) are not sent from here; the loop only marks failed
// those no browser will complete.
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { samlApps, samlLogoutDeliveries } from '../../../db/schema.js';
import { isDatabaseUnavailable } from '../../../lib/errors.js';
import { recordAudit, systemActor } from '../../audit/log.js';
import { serialRounds } from '../../serial-rounds.js';
import type { SamlIdpKey } from '../../tokens/saml-key.js';
import { giveUpAfterMs, logoutRetryDelayMs } from '../logout-deliveries.js';
import { expireBrowserLogouts } from './front-logout.js';
import { samlIdpEntityId } from './metadata.js';
import { logoutRequest } from './response.js';

const pollMs = 5_000;
const leaseMs = 30_000;
const batchSize = 20;
const timeoutMs = 10_000;
const keptDeliveredMs = 30 * 24 * 60 * 60_000;
/** An app's answer read no further than this: a LogoutResponse is a few KiB. */
const maxAnswerBytes = 64 * 1024;

type Fetch = (url: string, options?: RequestInit) => Promise<Response>;

export interface SamlLogoutDeps {
  db: Db;
  key: SamlIdpKey;
  apiPublicUrl: string;
  fetch: Fetch;
  log: { warn(details: object, message: string): void; error(details: object, message: string): void };
  databaseLost(error: unknown): void;
}

export interface SamlLogouts {
  deliverDue(): Promise<number>;
  wake(): void;
  start(): void;
  close(): Promise<void>;
}

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

export function createSamlLogouts(deps: SamlLogoutDeps): SamlLogouts {
  const { db } = deps;
  let closed = false;
  let lastCleanup = 0;

  async function claimDue(now: Date): Promise<Delivery[]> {
    const due = db
      .select({ id: samlLogoutDeliveries.id })
      .from(samlLogoutDeliveries)
      .where(
        and(
          eq(samlLogoutDeliveries.binding, 'soap'),
          isNull(samlLogoutDeliveries.deliveredAt),
          isNull(samlLogoutDeliveries.failedAt),
          lte(samlLogoutDeliveries.nextAttemptAt, now),
          or(isNull(samlLogoutDeliveries.lockedUntil), lte(samlLogoutDeliveries.lockedUntil, now)),
        ),
      )
      .orderBy(asc(samlLogoutDeliveries.id))
      .limit(batchSize)
      .for('update', { skipLocked: true });
    return db
      .update(samlLogoutDeliveries)
      .set({ lockedUntil: new Date(now.getTime() + leaseMs) })
      .where(inArray(samlLogoutDeliveries.id, due))
      .returning();
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
  async function send(delivery: Delivery, app: { entityId: string; sloUrl: string }) {
    const message = logoutRequest({
      key: deps.key,
      issuer: samlIdpEntityId(deps.apiPublicUrl),
      destination: app.sloUrl,
      nameId: delivery.nameId,
      nameIdFormat: delivery.nameIdFormat,
      spEntityId: app.entityId,
      sessionIndex: delivery.sessionIndex,
    });
    const answer = await deps.fetch(app.sloUrl, {
      method: 'POST',
      headers: {
        'content-type': 'text/xml; charset=utf-8',
        soapaction: 'http://www.oasis-open.org/committees/security',
      },
      body: soapEnvelope(message),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = (await answer.text()).slice(0, maxAnswerBytes);
    if (!answer.ok) throw new Error(`la aplicación respondió ${answer.status}`);
    if (!/<([A-Za-z_][\w.-]*:)?LogoutResponse[\s>]/.test(text))
      throw new Error('la aplicación no respondió con un LogoutResponse');
  }

  async function deliverOne(delivery: Delivery): Promise<boolean> {
    const attempts = delivery.attempts + 1;
    const [app] = await db
      .select({ name: samlApps.name, entityId: samlApps.entityId, sloUrl: samlApps.sloUrl })
      .from(samlApps)
      .where(eq(samlApps.id, delivery.samlAppId));
    try {
      if (!app?.sloUrl) throw new Error('la aplicación ya no publica un cierre de sesión SOAP');
      await send(delivery, { entityId: app.entityId, sloUrl: app.sloUrl });
    } catch (error) {
      const message = failureText(error);
      const givenUp = Date.now() - delivery.createdAt.getTime() >= giveUpAfterMs;
      deps.log.warn(
        { err: error, deliveryId: delivery.id, samlAppId: delivery.samlAppId, attempts, givenUp },
        'SAML single logout failed',
      );
      await db
        .update(samlLogoutDeliveries)
        .set({
          attempts,
          lastError: message,
          lockedUntil: null,
          nextAttemptAt: new Date(Date.now() + logoutRetryDelayMs(attempts)),
          ...(givenUp ? { failedAt: new Date() } : {}),
        })
        .where(eq(samlLogoutDeliveries.id, delivery.id));
      if (givenUp) await audit(delivery, app?.name ?? String(delivery.samlAppId), 'fallido', message);
      return false;
    }
    await db
      .update(samlLogoutDeliveries)
      .set({ attempts, deliveredAt: new Date(), lockedUntil: null, lastError: null })
      .where(eq(samlLogoutDeliveries.id, delivery.id));
    await audit(delivery, app.name, 'entregado');
    return true;
  }

  async function cleanup() {
    if (Date.now() - lastCleanup < 60 * 60_000) return;
    lastCleanup = Date.now();
    await db
      .delete(samlLogoutDeliveries)
      .where(
        sql`coalesce(${samlLogoutDeliveries.deliveredAt}, ${samlLogoutDeliveries.failedAt}) < ${new Date(Date.now() - keptDeliveredMs)}`,
      );
  }

  async function deliverRound(): Promise<number> {
    let delivered = 0;
    for (;;) {
      if (closed) return delivered;
      const batch = await claimDue(new Date());
      const results = await Promise.all(batch.map(deliverOne));
      delivered += results.filter(Boolean).length;
      if (batch.length < batchSize) break;
    }
    // Those owed by the browser are not sent from here: the ones no browser will complete are shown as failed.
    await expireBrowserLogouts(db);
    await cleanup();
    return delivered;
  }

  const rounds = serialRounds(deliverRound, () => closed);
  const runInBackground = () => {
    if (closed) return;
    rounds.run().catch((error) => {
      if (isDatabaseUnavailable(error)) deps.databaseLost(error);
      else deps.log.error({ err: error }, 'SAML single logout round failed');
    });
  };
  const timer = setInterval(runInBackground, pollMs);
  timer.unref();

  return {
    deliverDue: () => rounds.run(),
    wake: () => setImmediate(runInBackground),
    start: runInBackground,
    async close() {
      closed = true;
      clearInterval(timer);
      await rounds.current()?.catch(() => 0);
    },
  };
}
