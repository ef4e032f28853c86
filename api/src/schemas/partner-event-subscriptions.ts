import { Type } from 'typebox';
import { PARTNER_EVENT_TYPES } from '@portal/contracts/partner-events/event-types';
import { LiteralUnion, Nullable } from './common.js';
import { ClientIdParams } from './identity-provider.js';

/** A malformed id is refused by the schema (400), as the companies' routes refuse one that is not a number. */
export const SubscriptionId = Type.String({ format: 'uuid', description: 'Id de la suscripción' });

export const SubscriptionParams = Type.Object(
  { ...ClientIdParams.properties, id: SubscriptionId },
  { additionalProperties: false },
);

/** A connected app by its registry id, whatever its protocol (/admin/aplicaciones-conectadas/:idApp). */
export const ConnectedAppParams = Type.Object(
  { idApp: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Id de la aplicación conectada' }) },
  { additionalProperties: false },
);
export const AppSubscriptionParams = Type.Object(
  { ...ConnectedAppParams.properties, id: SubscriptionId },
  { additionalProperties: false },
);

export const SubscriptionBody = Type.Object(
  {
    url: Type.String({
      maxLength: 4_000,
      description:
        'Dirección https que recibirá los eventos firmados (http, o una dirección privada, solo donde el operador ' +
        'lo permite con OIDC_BACKCHANNEL_PRIVATE_NETWORK)',
    }),
    eventos: Type.Array(Type.String({ maxLength: 64 }), {
      maxItems: 20,
      description: `Los tipos de evento: ${PARTNER_EVENT_TYPES.join(', ')}`,
    }),
  },
  { additionalProperties: false },
);

export const SubscriptionCreated = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    secreto: Type.String({
      description: 'El secreto de firma en el formato de Standard Webhooks (whsec_…): se muestra solo esta vez',
    }),
  },
  { additionalProperties: false },
);

export const SubscriptionSecret = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    secreto: Type.String({ description: 'El secreto nuevo (whsec_…), que se muestra solo esta vez' }),
    secretoAnteriorHasta: Type.String({
      format: 'date-time',
      description: 'Hasta cuándo el secreto anterior sigue firmando junto al nuevo',
    }),
  },
  { additionalProperties: false },
);

export const Subscription = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    url: Type.String(),
    eventos: Type.Array(LiteralUnion(PARTNER_EVENT_TYPES)),
    estado: LiteralUnion(['activa', 'desactivada'] as const, {
      description: "'desactivada': el receptor respondió 410 y no se le envía nada más",
    }),
    motivoDesactivacion: Nullable(Type.String()),
    secretoAnteriorHasta: Nullable(Type.String({ format: 'date-time' })),
    creadaEn: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const SubscriptionList = Type.Object({ data: Type.Array(Subscription) }, { additionalProperties: false });
