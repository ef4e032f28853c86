import { Type } from 'typebox';
import { samlNameIdFormats } from '../db/schema.js';
import { LiteralUnion, Nullable, printable } from './common.js';

// The portal as a SAML identity provider: the admin API's SAML apps and the portal's continuation of a sign-in.

// Blank is refused by the handler, in its own words.
const name = Type.String({ minLength: 1, maxLength: 100, pattern: `^${printable}+$` });
// Its size, document type and contents are checked by the handler, in its own words.
const metadata = Type.String({
  maxLength: 1024 * 1024,
  description: 'Los metadatos SAML del proveedor de servicio (su EntityDescriptor en XML)',
});
const appId = Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 2147483647 })));

const primeraParte = Type.Optional(
  Type.Boolean({ description: 'Una aplicación de la propia suite: nunca pide consentimiento (false si no se indica)' }),
);
export const SamlAppBody = Type.Object(
  { nombre: name, metadata, appId, primeraParte },
  { additionalProperties: false },
);

/** A change replaces the name and the catalogue app; without `metadata` the stored metadata stays (GET never shows it). */
export const SamlAppChangeBody = Type.Object(
  { nombre: name, metadata: Type.Optional(metadata), appId, primeraParte },
  { additionalProperties: false },
);

export const SamlApp = Type.Object(
  {
    id: Type.Integer(),
    idAplicacion: Type.Integer({
      description: 'Id de su aplicación conectada: sus suscripciones a eventos van bajo él',
    }),
    nombre: Type.String(),
    entityId: Type.String({ description: 'El entityID del proveedor de servicio, de sus metadatos' }),
    appId: Nullable(Type.Integer({ description: 'La app del catálogo: su plan va en el atributo plan' })),
    primeraParte: Type.Boolean(),
    urlsAcs: Type.Array(Type.String(), {
      description: 'Sus AssertionConsumerService HTTP-POST, la predeterminada primero',
    }),
    urlCierreSesion: Nullable(Type.String({ description: 'Su SingleLogoutService SOAP, si lo publica' })),
    urlCierreSesionNavegador: Nullable(
      Type.String({
        description:
          'Su SingleLogoutService HTTP-Redirect, si lo publica: el navegador lleva el cierre cuando no hay uno SOAP',
      }),
    ),
    formatoNameId: LiteralUnion(samlNameIdFormats),
    cierresPendientes: Type.Integer({ description: 'Cierres de sesión aún no entregados' }),
    ultimoErrorCierre: Nullable(Type.String()),
    creadaEn: Type.String({ format: 'date-time' }),
    actualizadaEn: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const SamlAppCreated = Type.Object(
  { id: Type.Integer(), entityId: Type.String() },
  { additionalProperties: false },
);

export const SamlAppIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });

export const SamlRequestParams = Type.Object({
  id: Type.String({ pattern: '^[A-Za-z0-9_-]{32}$', description: 'Id de la solicitud de inicio de sesión SAML' }),
});

export const SamlDeliveryQuery = Type.Object({ secreto: Type.String({ maxLength: 64 }) });

/** The chain of a sign-out's logouts by the browser; an unknown or ended one goes to /login. */
export const SamlLogoutChainQuery = Type.Object({ cadena: Type.Optional(Type.String({ maxLength: 64 })) });
