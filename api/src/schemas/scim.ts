// The shapes of a company's directory (SCIM) administration: its tokens and its request log
// (routes/companies/scim.ts). The /scim/v2 calls themselves are SCIM's (routes/scim/index.ts).
import { Type } from 'typebox';
import { Nullable, printable } from './common.js';

const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const ScimTokenParams = Type.Object({ id: Id, tokenId: Id }, { additionalProperties: false });

export const CreateScimTokenBody = Type.Object(
  {
    descripcion: Type.Optional(
      Type.String({
        maxLength: 100,
        pattern: `^${printable}*$`,
        description: 'Para qué es el token (p. ej. «Microsoft Entra ID»), en una línea, hasta 100 caracteres',
      }),
    ),
  },
  { additionalProperties: false },
);

const urlBase = Type.String({ description: 'La URL base de SCIM 2.0 que se escribe en el directorio (…/scim/v2)' });

export const CreatedScimToken = Type.Object(
  {
    id: Type.Integer(),
    token: Type.String({ description: "El token: 'scim_' y 43 caracteres. Se muestra solo esta vez" }),
    prefijo: Type.String({ description: 'Sus primeros 12 caracteres, para reconocerlo en la lista' }),
    descripcion: Type.String(),
    creado: Type.String({ format: 'date-time' }),
    urlBase,
  },
  { additionalProperties: false },
);

export const ScimToken = Type.Object(
  {
    id: Type.Integer(),
    prefijo: Type.String(),
    descripcion: Type.String(),
    creado: Type.String({ format: 'date-time' }),
    creadoPor: Nullable(Type.String({ description: 'El email de quien lo creó (null si esa cuenta ya no existe)' })),
    ultimoUso: Nullable(Type.String({ format: 'date-time', description: 'Con precisión de un minuto' })),
    revocado: Nullable(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

export const ScimTokenList = Type.Object({ data: Type.Array(ScimToken), urlBase }, { additionalProperties: false });

export const ScimLogQuery = Type.Object(
  { limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }) },
  { additionalProperties: false },
);

export const ScimLogEntry = Type.Object(
  {
    id: Type.Integer(),
    fecha: Type.String({ format: 'date-time' }),
    metodo: Type.String(),
    ruta: Type.String({ description: 'La dirección pedida, con su consulta (hasta 500 caracteres)' }),
    estado: Type.Integer({ description: 'El código HTTP de la respuesta' }),
    detalle: Type.String({ description: 'Qué se hizo o por qué se rechazó' }),
    usuario: Nullable(Type.String({ description: 'El userName de la persona, si la petición era sobre una' })),
  },
  { additionalProperties: false },
);

export const ScimLog = Type.Object({ data: Type.Array(ScimLogEntry) }, { additionalProperties: false });
