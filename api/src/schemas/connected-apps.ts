import { Type } from 'typebox';
import { connectedAppProtocols } from '../db/schema.js';
import { LiteralUnion, Nullable } from './common.js';

/** One connected app in the admin panel's one list, whatever its protocol. */
export const ConnectedApp = Type.Object(
  {
    id: Type.Integer({ description: 'Id de la aplicación conectada (sus suscripciones a eventos van bajo él)' }),
    protocolo: LiteralUnion(connectedAppProtocols, { description: "'oidc': OpenID Connect; 'saml': SAML 2.0" }),
    nombre: Type.String(),
    appId: Nullable(Type.Integer({ description: 'La app del catálogo' })),
    primeraParte: Type.Boolean(),
    clientId: Nullable(Type.String({ description: 'El client_id de su cliente OpenID Connect' })),
    samlAppId: Nullable(Type.Integer({ description: 'El id de su aplicación SAML (/admin/aplicaciones-saml/:id)' })),
    entityId: Nullable(Type.String({ description: 'El entityID de su proveedor de servicio SAML' })),
    dispositivos: Type.Boolean({ description: 'Puede iniciar sesión en dispositivos (RFC 8628)' }),
    creadaEn: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
