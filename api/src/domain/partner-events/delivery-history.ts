// What the admin panel shows of a subscription's deliveries, and 'Reenviar': the recent deliveries newest first, each
// with its outcome in Spanish, and a delivery the worker is done with put back in its subscription's queue.
import { and, desc, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  type PartnerDeliveryRow,
  type PartnerDeliveryStatus,
  partnerDeliveries,
  partnerSubscriptions,
} from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { type AuditActor, recordAudit } from '../audit/log.js';
import { decodeCursor, encodeCursor } from '../key-cursor.js';
import { partnerEventMessages } from './messages.js';
import { ownerOf, type SubscriptionOwner, subscriptionAction, subscriptionNotFound } from './subscriptions.js';

const M = partnerEventMessages;

/** How the panel names a delivery's state; a pending delivery that was tried already is 'reintentando'. */
export type DeliveryState = 'pendiente' | 'reintentando' | 'entregada' | 'fallida' | 'cancelada';

const STATES: Record<Exclude<PartnerDeliveryStatus, 'pendiente'>, DeliveryState> = {
  entregado: 'entregada',
  fallido: 'fallida',
  cancelada: 'cancelada',
};

export function deliveryState(row: Pick<PartnerDeliveryRow, 'status' | 'attempts'>): DeliveryState {
  if (row.status === 'pendiente') return row.attempts > 0 ? 'reintentando' : 'pendiente';
  return STATES[row.status];
}

/**
 * A try's failure as a person reads it. The worker keeps what it saw, mostly in Spanish already but with a system's
 * error code inside (`El envío falló por un error de red (ECONNREFUSED)`), and a row may come from an older worker
 * or an unforeseen failure with a library's English message: the panel never shows a code or English, so each known
 * cause gets its Spanish sentence and anything else a general one. The receiver's status code is `codigoRespuesta`.
 */
const ERROR_TEXTS: [RegExp, string][] = [
  [
    /timeout|timed ?out|ETIMEDOUT|UND_ERR_(HEADERS|BODY|CONNECT)_TIMEOUT|AbortError|plazo/i,
    'El receptor no respondió a tiempo',
  ],
  [/ECONNREFUSED|refused|rechaz/i, 'El receptor rechazó la conexión (no hay nada escuchando en esa dirección)'],
  [/ECONNRESET|socket hang up|UND_ERR_SOCKET|other side closed|cort/i, 'El receptor cortó la conexión sin responder'],
  [/ENOTFOUND|EAI_AGAIN|getaddrinfo|dns|nombre/i, 'No se encontró la dirección del receptor (DNS)'],
  [
    /CERT|certificate|self[- ]signed|TLS|SSL|ERR_TLS|certificado/i,
    'El certificado TLS del receptor no es válido para su dirección',
  ],
  [/EHOSTUNREACH|ENETUNREACH|unreachable|inalcanzable/i, 'No hay ruta de red hasta el receptor'],
  [
    /private|special[- ]use|loopback|privad|no permitida/i,
    'La dirección del receptor es privada o local y no está permitida',
  ],
  [/interrump/i, 'El envío se interrumpió porque el portal se estaba reiniciando; se vuelve a enviar enseguida'],
  [/redirect|redirig|30[0-8]\b/i, 'El receptor respondió con una redirección, que el portal no sigue'],
  [/\b410\b|gone/i, 'El receptor respondió 410: la suscripción quedó desactivada'],
  [/too large|demasiado/i, 'La respuesta del receptor fue demasiado grande'],
];

export function deliveryErrorText(lastError: string | null, statusCode: number | null): string | null {
  if (lastError === null) {
    return statusCode !== null && (statusCode < 200 || statusCode > 299) ? statusText(statusCode) : null;
  }
  // The worker's own sentence for a timeout names the deadline: kept as it is.
  if (/^El receptor no respondió a tiempo/.test(lastError)) return lastError;
  for (const [pattern, text] of ERROR_TEXTS) if (pattern.test(lastError)) return text;
  if (statusCode !== null || /^(status|http)?[ :_-]*\d{3}$/i.test(lastError.trim())) {
    return statusText(statusCode ?? Number(lastError.match(/\d{3}/)?.[0]));
  }
  return 'El envío falló por un error de red';
}

function statusText(code: number): string {
  if (code === 429) return 'El receptor pidió esperar (429): se reintenta cuando indica Retry-After';
  if (code >= 500) return `El receptor falló al procesarlo (respondió ${code})`;
  if (code >= 400) return `El receptor no lo aceptó (respondió ${code})`;
  return `El receptor respondió ${code}, que no es una respuesta 2xx`;
}

/** One delivery as the panel lists it. */
export function deliveryView(row: PartnerDeliveryRow) {
  const estado = deliveryState(row);
  return {
    id: row.id,
    webhookId: row.messageId,
    evento: row.tipo,
    seq: row.seq,
    estado,
    intentos: row.attempts,
    proximoIntento: row.status === 'pendiente' ? row.nextAttemptAt.toISOString() : null,
    ultimoError: estado === 'entregada' ? null : deliveryErrorText(row.lastError, row.lastStatusCode),
    codigoRespuesta: row.lastStatusCode,
    ultimoIntento: row.lastAttemptAt?.toISOString() ?? null,
    entregadaEn: row.deliveredAt?.toISOString() ?? null,
    creadaEn: row.createdAt.toISOString(),
  };
}

/** The subscription `id` of the app `owner` names, with that app, or the Spanish 404 of whichever is missing. */
async function subscriptionOf(db: Db, owner: SubscriptionOwner, id: string) {
  const app = await ownerOf(db, owner);
  const [row] = await db
    .select({ id: partnerSubscriptions.id, url: partnerSubscriptions.url })
    .from(partnerSubscriptions)
    .where(and(eq(partnerSubscriptions.connectedAppId, app.connectedAppId), eq(partnerSubscriptions.id, id)));
  if (!row) throw subscriptionNotFound();
  return { ...row, app };
}

const deliveryNotFound = () => new HttpError(404, M.deliveryNotFound, 'DELIVERY_NOT_FOUND');

/**
 * A page of a subscription's deliveries, the newest first (by id: the order they were written in), after the one the
 * cursor names; `siguiente` is the next page's cursor, null on the last.
 */
export async function listDeliveries(
  db: Db,
  owner: SubscriptionOwner,
  subscriptionId: string,
  query: { cursor?: string; limit: number },
) {
  await subscriptionOf(db, owner, subscriptionId);
  const before = query.cursor ? decodeCursor(query.cursor, 1, Number.MAX_SAFE_INTEGER)[0] : undefined;
  const rows = await db
    .select()
    .from(partnerDeliveries)
    .where(
      and(
        eq(partnerDeliveries.subscriptionId, subscriptionId),
        before === undefined ? undefined : lt(partnerDeliveries.id, before),
      ),
    )
    .orderBy(desc(partnerDeliveries.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    data: page.map(deliveryView),
    siguiente: rows.length > query.limit && last ? encodeCursor([last.id]) : null,
  };
}

/**
 * 'Reenviar': a delivered, failed or cancelled delivery goes back to the subscription's queue as it was signed (the
 * same webhook-id, so a receiver that keeps the ids it processed ignores a copy it already has), with a fresh round
 * of tries. It keeps its sequence number: the worker sends a subscription's deliveries in `seq` order, so it goes out
 * before any later one still waiting, and a receiver that already applied a later `seq` knows it is an old one.
 * The outcome it replaces is kept in the audit row.
 */
export async function resendDelivery(
  db: Db,
  actor: AuditActor,
  owner: SubscriptionOwner,
  subscriptionId: string,
  deliveryId: number,
) {
  return db.transaction(async (tx) => {
    const subscription = await subscriptionOf(tx, owner, subscriptionId);
    // The subscription's row is locked first, as the worker's disabling (a 410) does, so neither sees half of the other.
    const [current] = await tx
      .select({ status: partnerSubscriptions.status, disabledReason: partnerSubscriptions.disabledReason })
      .from(partnerSubscriptions)
      .where(eq(partnerSubscriptions.id, subscriptionId))
      .for('update');
    const [delivery] = await tx
      .select()
      .from(partnerDeliveries)
      .where(and(eq(partnerDeliveries.id, deliveryId), eq(partnerDeliveries.subscriptionId, subscriptionId)))
      .for('update');
    if (!delivery) throw deliveryNotFound();
    if (current?.status !== 'activa') {
      throw new HttpError(409, M.subscriptionDisabled(current?.disabledReason ?? null), 'SUBSCRIPTION_DISABLED');
    }
    if (delivery.status === 'pendiente') throw new HttpError(409, M.stillPending, 'DELIVERY_PENDING');
    const [requeued] = await tx
      .update(partnerDeliveries)
      .set({
        status: 'pendiente',
        attempts: 0,
        nextAttemptAt: new Date(),
        lockedUntil: null,
        lastError: null,
        lastStatusCode: null,
        deliveredAt: null,
      })
      .where(eq(partnerDeliveries.id, delivery.id))
      .returning();
    await recordAudit(tx, actor, [
      {
        action: subscriptionAction(subscription.app, 'delivery_resend'),
        target: subscription.app.target,
        details: {
          ...subscription.app.key,
          suscripcion: subscription.id,
          url: subscription.url,
          evento: delivery.tipo,
          seq: delivery.seq,
          webhookId: delivery.messageId,
          estadoAnterior: deliveryState(delivery),
          intentos: delivery.attempts,
          ...(delivery.lastStatusCode === null ? {} : { codigo: delivery.lastStatusCode }),
        },
      },
    ]);
    return deliveryView(requeued as PartnerDeliveryRow);
  });
}
