import { Type } from 'typebox';
import { companyRoles } from '../db/schema.js';
import { Code, Email } from './auth.js';
import { LiteralUnion } from './common.js';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

export const InvitationRole = LiteralUnion(companyRoles, {
  description:
    "El rol con que entra: solo un propietario (o un administrador de la plataforma) invita a un 'propietario'",
});

export const InvitationParams = Type.Object({ id: Id, idInvitacion: Id }, { additionalProperties: false });
export const OwnInvitationParams = Type.Object({ idInvitacion: Id }, { additionalProperties: false });

const SeatApp = Type.Integer({
  minimum: 1,
  maximum: 2147483647,
  description: 'Una app de la que la empresa tiene licencia: al aceptar recibe un puesto suyo si queda alguno libre',
});

export const InviteBody = Type.Object(
  { email: Email, rol: InvitationRole, idApp: Type.Optional(SeatApp) },
  { additionalProperties: false },
);

/** One row of a list: its texts are checked one row at a time, so a bad one is that row's result, not a 400. */
const ListRow = Type.Object(
  {
    email: Type.String({ maxLength: 1000, description: 'El email; uno no válido es un resultado de error de su fila' }),
    rol: Type.String({ maxLength: 100, description: "'propietario', 'administrador' o 'miembro'" }),
    idApp: Type.Optional(SeatApp),
  },
  { additionalProperties: false },
);

export const InvitationListBody = Type.Object(
  {
    filas: Type.Array(ListRow, {
      description: 'De 1 a 500 filas; una lista más larga se envía en varias peticiones',
    }),
  },
  { additionalProperties: false },
);

export const InvitationListRowResult = Type.Object(
  {
    fila: Type.Integer({ description: 'Su posición en `filas`, desde 1' }),
    email: Type.String({
      description: 'El email como se guarda (el enviado, sin espacios alrededor, si no es válido)',
    }),
    resultado: LiteralUnion(['invitada', 'ya_miembro', 'ya_invitada', 'error'] as const),
    idInvitacion: Type.Optional(Type.Integer({ description: "La invitación creada ('invitada')" })),
    codigo: Type.Optional(
      Type.String({
        description:
          'Por qué no se invitó: YA_ES_MIEMBRO, INVITACION_PENDIENTE, EMAIL_INVALIDO, ROL_INVALIDO, FORBIDDEN, ' +
          'LICENCIA_NO_ENCONTRADA, LICENCIA_VENCIDA, SIN_PUESTOS, INVITATION_MAIL_LIMIT, CODE_MAIL_LIMIT, ' +
          'NO_PROCESADA (no se llegó a ella: enviarla de nuevo), SERVICE_UNAVAILABLE, ERROR_INTERNO',
      }),
    ),
    mensaje: Type.Optional(Type.String({ description: 'El porqué en español, para mostrarlo junto a la fila' })),
    retryAfter: Type.Optional(
      Type.Integer({ description: 'Segundos hasta poder enviarla de nuevo (límites de correos)' }),
    ),
  },
  { additionalProperties: false },
);

export const InvitationListAnswer = Type.Object(
  { resultados: Type.Array(InvitationListRowResult, { description: 'Un resultado por fila, en el orden enviado' }) },
  { additionalProperties: false },
);

export const Invitation = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String(),
    rol: InvitationRole,
    estado: LiteralUnion(['pendiente', 'aceptada', 'revocada', 'vencida'] as const, {
      description: "'vencida': pasaron sus 7 días o su código murió de 5 intentos fallidos; reenviarla la renueva",
    }),
    enviadaEn: Type.String({ format: 'date-time', description: 'Cuándo se envió su último código' }),
    vence: Type.String({ format: 'date-time' }),
    idApp: Type.Optional(
      Type.Integer({ description: 'La app de la que recibe un puesto al aceptar, si queda alguno libre' }),
    ),
  },
  { additionalProperties: false },
);

export const InvitationList = Type.Array(Invitation);

const CompanyRef = Type.Object({ id: Type.Integer(), nombre: Type.String() }, { additionalProperties: false });

export const OwnInvitation = Type.Object(
  { id: Type.Integer(), empresa: CompanyRef, rol: InvitationRole, vence: Type.String({ format: 'date-time' }) },
  { additionalProperties: false },
);

export const OwnInvitationList = Type.Array(OwnInvitation);

export const AcceptBody = Type.Union(
  [
    Type.Object(
      {
        codigo: Code,
        // The address of the mail's link: the right code sent by an account of another address counts as a try of it.
        email: Type.Optional(Email),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      { idInvitacion: Id },
      { additionalProperties: false, description: 'Una invitación de GET /empresas/invitaciones/mias' },
    ),
  ],
  {
    description:
      'El código del email (con el email del enlace) o el id de una invitación propia; solo la cuenta del email invitado la acepta',
  },
);

export const Accepted = Type.Object({ empresa: CompanyRef, rol: InvitationRole }, { additionalProperties: false });
