// The shapes of a company's directory (SCIM) administration: its tokens and its request log
// (routes/companies/scim.ts). The /scim/v2 calls themselves are SCIM's (routes/scim/index.ts).
import { Type } from 'typebox';
import { RoleKey } from './app-roles.js';
import { groupRuleRoles } from '../db/schema.js';
import { LiteralUnion, Nullable, printable } from './common.js';

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

/** A rule tying a directory group to seats of an app and/or a role (docs/decisions/0107-directory-groups.md). */
export const GroupRuleBody = Type.Object(
  {
    grupo: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'El nombre del grupo en el directorio (su displayName), como lo envía Entra ID u Okta',
    }),
    idApp: Type.Optional(Id),
    rol: Type.Optional(LiteralUnion(groupRuleRoles)),
    rolesApp: Type.Optional(
      Type.Array(RoleKey, {
        maxItems: 100,
        description: 'Roles de la app (idApp, obligatoria con ellos) para los del grupo con su puesto',
      }),
    ),
  },
  { additionalProperties: false },
);

export const GroupRuleParams = Type.Object({ id: Id, idRegla: Id }, { additionalProperties: false });

export const GroupRule = Type.Object(
  {
    id: Type.Integer(),
    grupo: Type.String(),
    grupoRecibido: Type.Boolean({ description: 'El directorio ya envió el grupo: la regla lo sigue por su id' }),
    app: Nullable(Type.Object({ id: Type.Integer(), nombre: Type.String() }, { additionalProperties: false })),
    rol: Nullable(LiteralUnion(groupRuleRoles)),
    rolesApp: Type.Array(Type.String(), { description: 'Los roles de la app que da la regla' }),
    personas: Type.Integer({ description: 'Las personas que el grupo tiene ahora' }),
    creada: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const GroupRuleList = Type.Array(GroupRule);

export const WaitingPerson = Type.Object(
  {
    idUsuario: Type.Integer(),
    email: Type.String(),
    nombre: Type.String(),
    apellido: Type.String(),
    idApp: Type.Integer(),
    desde: Type.String({ format: 'date-time', description: 'Cuándo entró en el grupo: el orden de la espera' }),
  },
  { additionalProperties: false },
);

export const WaitingList = Type.Array(WaitingPerson);
