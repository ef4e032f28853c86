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

export const InviteBody = Type.Object({ email: Email, rol: InvitationRole }, { additionalProperties: false });

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
