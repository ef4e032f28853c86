import { Type } from 'typebox';
import { PARTNER_EVENT_TYPES } from '@portal/contracts/partner-events/event-types';
import { LiteralUnion, Nullable } from './common.js';
import { AppSubscriptionParams, SubscriptionParams } from './partner-event-subscriptions.js';

export const DeliveriesParams = SubscriptionParams;
export const AppDeliveriesParams = AppSubscriptionParams;

export const DeliveryParams = Type.Object(
  {
    ...DeliveriesParams.properties,
    // Delivery ids are bigserial: past int4, as far as a JavaScript number is exact.
    entregaId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Id de la entrega' }),
  },
  { additionalProperties: false },
);
export const AppDeliveryParams = Type.Object(
  { ...AppDeliveriesParams.properties, entregaId: DeliveryParams.properties.entregaId },
  { additionalProperties: false },
);

export const DeliveriesQuery = Type.Object(
  {
    cursor: Type.Optional(
      Type.String({ maxLength: 200, pattern: '^[A-Za-z0-9_-]+$', description: "El 'siguiente' de la página anterior" }),
    ),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  },
  { additionalProperties: false },
);

const date = Type.String({ format: 'date-time' });

export const PartnerDelivery = Type.Object(
  {
    id: Type.Integer(),
    webhookId: Type.String({ description: 'La cabecera webhook-id, la misma en cada intento y al reenviarla' }),
    evento: LiteralUnion(PARTNER_EVENT_TYPES),
    seq: Type.Integer({ description: 'Número de orden en la suscripción' }),
    estado: LiteralUnion(['pendiente', 'reintentando', 'entregada', 'fallida', 'cancelada'] as const, {
      description:
        "'reintentando': pendiente tras un intento fallido; 'fallida': agotó los reintentos; " +
        "'cancelada': la suscripción se desactivó con ella en cola",
    }),
    intentos: Type.Integer(),
    proximoIntento: Nullable(date),
    ultimoError: Nullable(Type.String({ description: 'Qué falló en el último intento, en español' })),
    codigoRespuesta: Nullable(Type.Integer({ description: 'El código HTTP que dio el receptor en el último intento' })),
    ultimoIntento: Nullable(date),
    entregadaEn: Nullable(date),
    creadaEn: date,
  },
  { additionalProperties: false },
);

export const PartnerDeliveryPage = Type.Object(
  {
    data: Type.Array(PartnerDelivery),
    siguiente: Nullable(Type.String({ description: 'Cursor de la página siguiente, null en la última' })),
  },
  { additionalProperties: false },
);
