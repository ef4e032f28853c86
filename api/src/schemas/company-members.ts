// The shapes of a company's member, seat, seat-report and audit calls (routes/companies/members.ts, seats.ts).
import { Type } from 'typebox';
import { companyRoles } from '../db/schema.js';
import { auditActions } from '../domain/audit/actions.js';
import { LiteralUnion, printable } from './common.js';

const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const CompanyParams = Type.Object({ id: Id }, { additionalProperties: false });
export const MemberParams = Type.Object({ id: Id, idUsuario: Id }, { additionalProperties: false });
export const SeatParams = Type.Object({ id: Id, idUsuario: Id, idApp: Id }, { additionalProperties: false });

export const CompanyRoleSchema = LiteralUnion(companyRoles, {
  description: "'propietario', 'administrador' o 'miembro'",
});

const cursorPage = {
  email: Type.Optional(
    Type.String({
      maxLength: 254,
      pattern: `^${printable}*$`,
      description: 'Parte del email, sin distinguir mayúsculas',
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      maxLength: 200,
      pattern: '^[A-Za-z0-9_-]+$',
      description: "El 'siguiente' de la página anterior",
    }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
};

export const MemberListQuery = Type.Object(cursorPage, { additionalProperties: false });

export const Member = Type.Object(
  {
    idUsuario: Type.Integer(),
    email: Type.String(),
    nombre: Type.String(),
    apellido: Type.String(),
    rol: CompanyRoleSchema,
    estado: LiteralUnion(['activo', 'pendiente'] as const),
    segundoFactor: Type.Boolean({ description: 'Tiene un segundo factor (app de autenticación o llave de acceso)' }),
    puestos: Type.Array(Type.Integer(), { description: 'Ids de las apps de las que tiene puesto' }),
    desde: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

const cursorFields = {
  total: Type.Integer({ description: 'Con filtro de email, como mucho 1000 (totalLimitado)' }),
  totalLimitado: Type.Boolean({ description: 'El filtro coincide con más de 1000 y no se contaron más' }),
  siguiente: Type.Union([Type.String(), Type.Null()], {
    description: 'Cursor de la página siguiente, null en la última',
  }),
};

export const MemberPage = Type.Object({ data: Type.Array(Member), ...cursorFields }, { additionalProperties: false });

export const RoleBody = Type.Object({ rol: CompanyRoleSchema }, { additionalProperties: false });

export const SeatBody = Type.Object({ idUsuario: Id, idApp: Id }, { additionalProperties: false });

export const Seat = Type.Object(
  { idUsuario: Type.Integer(), idApp: Type.Integer(), asignadoEn: Type.String({ format: 'date-time' }) },
  { additionalProperties: false },
);

export const SeatListQuery = Type.Object({ idApp: Type.Optional(Id), ...cursorPage }, { additionalProperties: false });

export const SeatListItem = Type.Object(
  {
    idUsuario: Type.Integer(),
    email: Type.String(),
    nombre: Type.String(),
    apellido: Type.String(),
    idApp: Type.Integer(),
    asignadoEn: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const SeatPage = Type.Object(
  { data: Type.Array(SeatListItem), ...cursorFields },
  { additionalProperties: false },
);

const Named = Type.Object({ id: Type.Integer(), nombre: Type.String() }, { additionalProperties: false });

export const SeatReportRow = Type.Object(
  {
    app: Named,
    plan: Named,
    comprados: Type.Integer(),
    enUso: Type.Integer(),
    libres: Type.Integer({ description: 'max(0, comprados - enUso)' }),
    excedidos: Type.Integer({
      description: 'max(0, enUso - comprados): puestos asignados de más tras bajar los comprados',
    }),
    fechaVencimiento: Type.String({ format: 'date-time' }),
    vencePronto: Type.Boolean({ description: 'Vence dentro de 30 días' }),
    vencida: Type.Boolean(),
    esperando: Type.Integer({
      description: 'Personas que un grupo del directorio da derecho a un puesto y esperan a que quede uno libre',
    }),
    roles: Type.Array(
      Type.Object(
        {
          clave: Type.String(),
          nombre: Type.String(),
          personas: Type.Integer({ description: 'Las personas a las que la empresa dio el rol' }),
        },
        { additionalProperties: false },
      ),
      { description: 'Los roles de la app, por clave' },
    ),
  },
  { additionalProperties: false },
);

export const SeatReport = Type.Array(SeatReportRow);

export const CompanyAuditQuery = Type.Object(
  {
    page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
    action: Type.Optional(LiteralUnion(auditActions.filter((action) => action.startsWith('company.')))),
    formato: Type.Optional(
      Type.Literal('ecs', {
        description:
          "'ecs': las entradas como documentos Elastic Common Schema, de la más antigua a la más reciente, por cursor " +
          '(`desde`): ninguna se salta aunque se confirme más tarde (docs/registro-para-siem.md)',
      }),
    ),
    desde: Type.Optional(
      Type.String({
        maxLength: 200,
        pattern: '^[A-Za-z0-9_.-]+$',
        description: "Con formato=ecs: el 'siguiente' de la respuesta anterior; sin él, desde la primera entrada",
      }),
    ),
  },
  { additionalProperties: false },
);

/** One activity entry as an Elastic Common Schema document (domain/audit/ecs.ts). */
export const EcsDocument = Type.Object(
  {
    '@timestamp': Type.String({ format: 'date-time' }),
    ecs: Type.Object({ version: Type.String({ description: 'La versión de ECS que sigue el documento' }) }),
    event: Type.Object({
      id: Type.String(),
      action: Type.String(),
      category: Type.Array(Type.String(), { description: 'Valores permitidos de ECS: authentication, iam, …' }),
      type: Type.Array(Type.String(), { description: 'Valores permitidos de ECS: start, change, creation, …' }),
      outcome: LiteralUnion(['success', 'failure'] as const),
      kind: Type.Literal('event'),
      dataset: Type.Literal('portal.audit'),
    }),
    user: Type.Optional(
      Type.Object({
        id: Type.Optional(Type.String()),
        email: Type.Optional(Type.String({ description: 'Solo si es una dirección de correo' })),
        target: Type.Optional(Type.Object({ id: Type.Optional(Type.String()), email: Type.Optional(Type.String()) })),
      }),
    ),
    source: Type.Optional(Type.Object({ ip: Type.String() })),
    organization: Type.Object({ id: Type.String(), name: Type.String() }),
    portal: Type.Object({
      origen: Type.String(),
      objetivo: Type.Object({ tipo: Type.String(), id: Type.Integer() }),
      detalles: Type.Record(Type.String(), Type.Unknown()),
      requestId: Type.Optional(Type.String()),
    }),
  },
  { additionalProperties: false },
);

export const EcsPage = Type.Object(
  {
    data: Type.Array(EcsDocument),
    siguiente: Type.String({ description: 'El cursor para la próxima petición (el mismo si no había nada nuevo)' }),
    hayMas: Type.Boolean({ description: 'Hay más entradas listas: pide de nuevo ya' }),
  },
  { additionalProperties: false },
);
