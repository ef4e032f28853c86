import { userFields, UserStatusSchema } from './users.js';
import { Type } from 'typebox';
import { companyRoles, userStatuses } from '../db/schema.js';
import { LiteralUnion, Nullable, OneLineText } from './common.js';

/** Trimmed and lower-cased by the handler; surrounding spaces are accepted because people paste them. */
export const Email = Type.String({
  minLength: 3,
  maxLength: 254,
  pattern: `^\\s*[^\\s@\\u0000-\\u001f\\u007f]+@[^\\s@\\u0000-\\u001f\\u007f]+\\s*$`,
  description: 'Se ignoran mayúsculas y espacios alrededor',
});

/** A person's name or last name. */
export const Name = OneLineText(100);

/** Digits, spaces and + ( ) - . as people write phone numbers. */
const phoneCharacters = '^[0-9+() .-]*$';

/**
 * A phone on a profile edit; empty clears it (accounts from Google or Apple have none). The handler checks it with
 * libphonenumber-js (src/lib/phone.ts) and stores E.164.
 */
export const Phone = Type.String({
  maxLength: 32,
  pattern: phoneCharacters,
  description:
    'Internacional, mejor en E.164 (+51912345678); sin «+» se lee como número de Perú. Se guarda en E.164. Vacío lo ' +
    'borra; el valor guardado enviado sin cambios se conserva tal cual',
});

const Password = (minLength: number) => Type.String({ minLength, maxLength: 256 });

export const Code = Type.String({ pattern: '^[0-9]{6}$', description: 'Código de 6 dígitos recibido por email' });

export const LoginBody = Type.Object(
  {
    email: Email,
    password: Type.String({ minLength: 1, maxLength: 256 }),
  },
  { additionalProperties: false },
);

/** What a registration asks beside the email: the password and the profile (spec §5). */
const registrationFields = {
  password: Password(6),
  name: Name,
  lastName: Name,
  // The registration form asks for at least 10 characters (spec §5); the handler then checks the number itself.
  phone: Type.String({
    minLength: 10,
    maxLength: 32,
    pattern: phoneCharacters,
    description:
      'Internacional, mejor en E.164 (+51912345678); sin «+» se lee como número de Perú. Debe ser válido para su ' +
      'país (400 INVALID_PHONE si no); se guarda en E.164',
  }),
};

export const RegisterBody = Type.Object(
  {
    email: Email,
    ...registrationFields,
    codigoInvitacion: Type.Optional(
      Type.String({
        pattern: '^[0-9]{6}$',
        description:
          'El código de una invitación a una empresa enviada a este email: la cuenta queda activa sin otro código, ' +
          'miembro de la empresa, y la respuesta inicia sesión. Incorrecto: 400 INVITACION_INVALIDA y no se crea nada',
      }),
    ),
  },
  { additionalProperties: false },
);

/** The same fields, typed where the code is: on a device that did not register (docs/decisions/0006). */
export const RegistrationProfile = Type.Object(registrationFields, {
  additionalProperties: false,
  description:
    'Contraseña y datos de quien tiene el código, cuando este navegador no hizo el registro: la cuenta queda con ellos',
});

export const EmailBody = Type.Object({ email: Email }, { additionalProperties: false });

/** The opaque id `POST /auth/register` answered: proves which registration (password, profile) the browser typed. */
export const RegistrationId = Type.String({
  minLength: 16,
  maxLength: 64,
  // The lengths in the pattern too: generators that read the pattern (the hostile-input test) then make ids that fit.
  pattern: '^[A-Za-z0-9_-]{16,64}$',
  description: 'Id de registro que devolvió POST /auth/register en este navegador',
});

export const VerifyRegistrationBody = Type.Object(
  {
    email: Email,
    code: Code,
    registrationId: Type.Optional(RegistrationId),
    profile: Type.Optional(RegistrationProfile),
  },
  { additionalProperties: false },
);

export const ChangePasswordBody = Type.Object(
  {
    email: Email,
    code: Code,
    newPassword: Password(5),
  },
  { additionalProperties: false },
);

export const UpdatePasswordBody = Type.Object(
  {
    currentPassword: Type.String({ minLength: 1, maxLength: 256 }),
    newPassword: Password(5),
  },
  { additionalProperties: false },
);

const UserId = Type.Integer({ minimum: 1, maximum: 2147483647 });

export const UpdateUserBody = Type.Object(
  {
    idUsuario: UserId,
    name: Name,
    // Beside spec §7's fields: the profile edits the last name too, with the name's rule (decision 0131).
    lastName: Type.Optional(Name),
    phone: Type.Optional(Phone),
  },
  { additionalProperties: false },
);

export const EditUserBody = Type.Object(
  {
    name: Type.Optional(Name),
    lastName: Type.Optional(Name),
    phone: Type.Optional(Phone),
    picture: Type.Optional(
      Type.Union([Type.String({ maxLength: 2048 }), Type.Null()], {
        description: 'Solo una foto del proveedor de identidad (https://…googleusercontent.com); null la quita',
      }),
    ),
    role: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)], { description: 'Solo administradores' })),
    status: Type.Optional(LiteralUnion(userStatuses, { description: 'Solo administradores' })),
  },
  { additionalProperties: false },
);

export const UpdatePresentationBody = Type.Object({ userId: UserId }, { additionalProperties: false });

export const Message = Type.Object({ message: Type.String() }, { additionalProperties: false });

const ResendAfter = Type.Integer({
  minimum: 0,
  description: 'Segundos hasta que «Reenviar código» pueda enviar otro código (0: ya puede; si no, 429 con retryAfter)',
});

export const RegisteredEmail = Type.Object(
  {
    email: Type.String(),
    registrationId: Type.String({
      description: 'Guárdalo en este navegador y envíalo con el código: activa esta contraseña',
    }),
    resendAfter: ResendAfter,
  },
  { additionalProperties: false },
);

/** The answer of a code resend: its message and when the next one can be asked. */
export const ResendAnswer = Type.Object(
  { message: Type.String(), resendAfter: ResendAfter },
  { additionalProperties: false },
);

/** A sign-in with the password of a registration still waiting for its code: which registration it proved. */
export const PendingSignIn = Type.Object(
  {
    statusCode: Type.Literal(403),
    message: Type.String(),
    code: Type.String(),
    registrationId: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/** Where a plan comes from: the person's own, or a seat of a company's licence. */
export const PlanOrigin = Type.Union([Type.Literal('propio'), Type.Literal('empresa')], {
  description: "'propio': el plan de la persona; 'empresa': un puesto de la licencia de una de sus empresas",
});

/** The company whose seat gives the plan; null for the person's own plan. */
export const PlanCompany = Nullable(
  Type.Object({ id: Type.Integer(), nombre: Type.String() }, { additionalProperties: false }),
);

export const UserPlan = Type.Object(
  {
    id: Type.Integer({
      description:
        'La fila del plan propio de esa app (aunque gane un puesto); sin plan propio en esa app, el id de la licencia en negativo',
    }),
    plan: Type.Object({ nombre: Type.String(), descripcion: Type.String() }, { additionalProperties: false }),
    app: Type.Object({ id: Type.Integer(), nombre: Type.String() }, { additionalProperties: false }),
    fechaVencimiento: Nullable(Type.String({ format: 'date-time' })),
    origen: PlanOrigin,
    empresa: PlanCompany,
  },
  { additionalProperties: false },
);

/** A company the person belongs to (active companies only). */
export const UserCompany = Type.Object(
  {
    id: Type.Integer(),
    nombre: Type.String(),
    rol: Type.Union([Type.Literal('propietario'), Type.Literal('administrador'), Type.Literal('miembro')]),
    estado: Type.Union([Type.Literal('activo'), Type.Literal('pendiente')], {
      description: "'pendiente': se unió por el dominio de su email y espera la aprobación de un administrador",
    }),
    segundoFactorPendiente: Type.Optional(
      Type.Literal(true, {
        description:
          'Solo presente si la empresa exige un segundo factor que la persona aún no configuró: sus puestos no cuentan hasta entonces',
      }),
    ),
  },
  { additionalProperties: false },
);

// The user's fields in the order the API has always sent them, `presentacion` among them.
const { status, createdAt, ...identity } = userFields;

export const CurrentUser = Type.Object(
  {
    ...identity,
    presentacion: Type.Boolean(),
    status,
    createdAt,
    planesUsuarios: Type.Array(UserPlan),
    empresas: Type.Array(UserCompany),
  },
  { additionalProperties: false },
);

export const Session = Type.Object(
  {
    access_token: Type.String(),
    user: CurrentUser,
  },
  { additionalProperties: false },
);

export const VerifiedRegistration = Type.Object(
  {
    access_token: Type.String(),
    user: CurrentUser,
    passwordSet: Type.Boolean({
      description:
        'false: el código llegó sin el id de registro de este navegador ni `profile`; la cuenta queda sin contraseña (se crea con «¿Olvidaste tu contraseña?»)',
    }),
  },
  { additionalProperties: false },
);

/** `POST /auth/register` with an invitation's code: the account is active and signed in at once. */
export const RegisteredByInvitation = Type.Object(
  {
    email: Type.String(),
    access_token: Type.String(),
    user: CurrentUser,
    empresa: Type.Object({ id: Type.Integer(), nombre: Type.String() }, { additionalProperties: false }),
    rol: LiteralUnion(companyRoles),
  },
  { additionalProperties: false },
);

/** What `POST /auth/register` answers: a pending registration, or (with `codigoInvitacion`) a signed-in account. */
export const RegisterAnswer = Type.Union([RegisteredEmail, RegisteredByInvitation]);

export const UserEnvelope = Type.Object({ user: CurrentUser }, { additionalProperties: false });

export const PasswordUpdated = Type.Object(
  {
    message: Type.String(),
    access_token: Type.String({ description: 'Token nuevo para esta sesión: las demás sesiones terminan' }),
  },
  { additionalProperties: false },
);

export const EmailStatus = Nullable(
  Type.Object(
    {
      email: Type.String(),
      status: UserStatusSchema,
    },
    { additionalProperties: false },
  ),
);

/** POST /auth/partner-token: a token for one partner app, minted from the portal session. */
export const PartnerTokenBody = Type.Object(
  {
    redirect_url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'El destino de la app asociada (https://… o el enlace profundo de la app móvil), de la lista permitida',
    }),
  },
  { additionalProperties: false },
);

export const PartnerTokenAnswer = Type.Object({
  access_token: Type.String({
    description: 'Token para la app asociada: solo lee la identidad y los planes de la persona',
  }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Segundos de vida que le quedan' }),
  audience: Type.String({
    description:
      'Su `aud`: el origen del destino web (https://socio.example.com) o el esquema del enlace móvil (betopro)',
  }),
});
