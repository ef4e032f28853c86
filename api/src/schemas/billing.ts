import { Type, type Static } from 'typebox';

const UserId = Type.Integer({
  minimum: 0,
  maximum: 2147483647,
  description: 'Id del usuario de la sesión (0 cuando el cliente no tiene usuario: se rechaza con 403)',
});

export const UserIdBody = Type.Object({ userId: UserId }, { additionalProperties: false });

export const CheckoutBody = Type.Object(
  {
    userId: UserId,
    priceId: Type.String({ minLength: 1, maxLength: 255, description: 'Precio de Stripe (price_…)' }),
  },
  { additionalProperties: false },
);

export const CheckoutSession = Type.Object(
  {
    id: Type.String(),
    url: Type.Union([Type.String(), Type.Null()], {
      description: 'Página de pago de Stripe a la que se envía al navegador',
    }),
  },
  { additionalProperties: false },
);

export const PortalSession = Type.Object({ url: Type.String() }, { additionalProperties: false });

export const CustomerSession = Type.Object(
  {
    clientSecret: Type.String({
      description: 'Secreto para la tabla de precios de Stripe (customer-session-client-secret)',
    }),
  },
  { additionalProperties: false },
);

export const BillingPrice = Type.Object(
  {
    id: Type.String({ description: 'Precio de Stripe (price_…)' }),
    productId: Type.String(),
    nombre: Type.String({ description: 'Nombre del producto' }),
    descripcion: Type.Union([Type.String(), Type.Null()]),
    precio: Type.Union([Type.Number(), Type.Null()], { description: 'Importe en unidades (p. ej. 39 = 39 USD)' }),
    moneda: Type.String({ description: 'Código ISO en minúsculas (usd)' }),
    intervalo: Type.Union(
      [Type.Literal('month'), Type.Literal('year'), Type.Literal('week'), Type.Literal('day'), Type.Null()],
      {
        description: 'Periodo de la suscripción; null para un pago único',
      },
    ),
  },
  { additionalProperties: false },
);

export const BillingPrices = Type.Array(BillingPrice);

export type BillingPrice = Static<typeof BillingPrice>;
