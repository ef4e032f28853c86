import { Type } from 'typebox';
import { companyRoles, signInMethods } from '../db/schema.js';
import { LiteralUnion, Nullable, OneLineText } from './common.js';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

export const CompanyParams = Type.Object({ id: Id }, { additionalProperties: false });
export const CompanyAppParams = Type.Object({ id: Id, idApp: Id }, { additionalProperties: false });

const CompanyState = LiteralUnion(['activa', 'suspendida'] as const, {
  description: "'activa', o 'suspendida': sus miembros no la gestionan y sus puestos no dan el plan",
});
const DomainJoin = LiteralUnion(['automatica', 'aprobacion'] as const, {
  description:
    "Quien verifica un email de un dominio probado de la empresa entra como miembro al instante ('automatica') o espera la aprobación de un administrador de la empresa ('aprobacion')",
});
const Role = LiteralUnion(companyRoles, {
  description: 'El rol de quien consulta en la empresa; null para un administrador de la plataforma',
});

export const CompanyName = OneLineText(100);

const SignInMethod = LiteralUnion(signInMethods, {
  description:
    "'contrasena', 'google', 'apple', 'llave' (llave de acceso) o 'empresa' (el inicio de sesión propio de la empresa)",
});
const Networks = Type.Array(Type.String({ maxLength: 60 }), {
  maxItems: 100,
  description:
    'Redes desde las que sus miembros pueden iniciar sesión (CIDR IPv4 o IPv6, como 203.0.113.0/24); vacía: cualquier red',
});
const Methods = Type.Array(SignInMethod, {
  maxItems: 10,
  description: 'Métodos de inicio de sesión que sus miembros pueden usar (al menos uno)',
});
const SessionMaxHours = Nullable(
  Type.Integer({
    minimum: 1,
    maximum: 720,
    description: 'Horas que dura como mucho una sesión (1 a 720); null: las del portal',
  }),
);
const IdleMinutes = Nullable(
  Type.Integer({
    minimum: 5,
    maximum: 1440,
    description: 'Minutos sin uso tras los que una sesión termina (5 a 1440); null: sin límite',
  }),
);

/** The company's own rules for its members (docs/decisions/0103-company-rules.md). */
const rulesFields = {
  redesPermitidas: Networks,
  metodosPermitidos: Methods,
  sesionMaximaHoras: SessionMaxHours,
  inactividadMinutos: IdleMinutes,
};

/** The rules of one company that bind the signed-in person (GET /auth/reglas-empresa). */
export const RulesOfMyCompany = Type.Object(
  {
    empresa: Type.Object({ id: Type.Integer(), nombre: Type.String() }, { additionalProperties: false }),
    ...rulesFields,
  },
  { additionalProperties: false },
);
export const RulesOfMyCompanies = Type.Object({ data: Type.Array(RulesOfMyCompany) }, { additionalProperties: false });

export const CreateCompanyBody = Type.Object({ nombre: CompanyName }, { additionalProperties: false });

export const CompanyCreated = Type.Object({ id: Type.Integer() }, { additionalProperties: false });

export const CompanyListQuery = Type.Object(
  {
    page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
    nombre: Type.Optional(Type.String({ maxLength: 100, description: 'Parte del nombre, sin distinguir mayúsculas' })),
    estado: Type.Optional(CompanyState),
  },
  { additionalProperties: false },
);

export const CompanyListItem = Type.Object(
  {
    id: Type.Integer(),
    nombre: Type.String(),
    estado: CompanyState,
    miembros: Type.Integer({ description: 'Miembros activos' }),
    licencias: Type.Integer(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const Company = Type.Object(
  {
    id: Type.Integer(),
    nombre: Type.String(),
    estado: CompanyState,
    altaPorDominio: DomainJoin,
    exigirSegundoFactor: Type.Boolean({
      description: 'Los puestos de la empresa cuentan para un miembro solo cuando tiene un segundo factor',
    }),
    permitirDispositivosConfiables: Type.Boolean({
      description:
        "Sus miembros pueden marcar 'No volver a pedir en este dispositivo durante 30 días' en el segundo paso (por defecto sí)",
    }),
    confiarSegundoFactorDelProveedor: Type.Boolean({
      description:
        'El segundo factor que prueba el proveedor de la empresa (amr mfa/otp/hwk/swk, o la clase REFEDS MFA o multipleauthn de SAML) cuenta como el del portal (por defecto no)',
    }),
    miembros: Type.Integer({ description: 'Miembros activos (sin los que esperan aprobación)' }),
    pendientes: Type.Integer({
      description: 'Los que se unieron por el dominio de su email y esperan la aprobación de un administrador',
    }),
    ...rulesFields,
    createdAt: Type.String({ format: 'date-time' }),
    miRol: Nullable(Role),
    tuAcceso: Type.Optional(
      Type.Object(
        {
          direccion: Type.String({ description: 'La dirección desde la que llega quien consulta, como la lee el API' }),
          metodo: Nullable(SignInMethod),
          deOtraEmpresa: Type.Boolean({
            description:
              'Inició sesión con el proveedor de otra empresa: cualquier regla de métodos de esta le dejaría fuera',
          }),
        },
        {
          additionalProperties: false,
          description:
            'Solo en GET: la dirección y el método de inicio de sesión de quien consulta, para avisarle antes de una regla que le dejaría fuera',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export const UpdateCompanyBody = Type.Object(
  { nombre: Type.Optional(CompanyName), estado: Type.Optional(CompanyState) },
  { additionalProperties: false, minProperties: 1 },
);

export const CompanySettingsBody = Type.Object(
  {
    altaPorDominio: Type.Optional(DomainJoin),
    exigirSegundoFactor: Type.Optional(Type.Boolean()),
    permitirDispositivosConfiables: Type.Optional(Type.Boolean()),
    confiarSegundoFactorDelProveedor: Type.Optional(Type.Boolean()),
    redesPermitidas: Type.Optional(Networks),
    metodosPermitidos: Type.Optional(Methods),
    sesionMaximaHoras: Type.Optional(SessionMaxHours),
    inactividadMinutos: Type.Optional(IdleMinutes),
  },
  { additionalProperties: false, minProperties: 1 },
);

const Seats = Type.Integer({ minimum: 1, maximum: 100_000, description: 'Puestos comprados (1 a 100 000)' });
const Expiry = Type.String({
  format: 'date-time',
  maxLength: 40,
  description: 'ISO 8601, posterior a este momento: desde entonces los puestos dejan de dar el plan',
});

export const LicenceBody = Type.Object(
  { idApp: Id, idPlan: Id, puestos: Seats, fechaVencimiento: Expiry },
  { additionalProperties: false },
);

export const LicenceChangeBody = Type.Object(
  { idPlan: Id, puestos: Seats, fechaVencimiento: Expiry },
  { additionalProperties: false },
);

const Named = Type.Object({ id: Type.Integer(), nombre: Type.String() }, { additionalProperties: false });

export const Licence = Type.Object(
  {
    id: Type.Integer(),
    app: Named,
    plan: Named,
    puestos: Type.Integer({ description: 'Puestos comprados' }),
    enUso: Type.Integer({ description: 'Puestos asignados a miembros' }),
    libres: Type.Integer({ description: 'max(0, puestos − enUso)' }),
    excedidos: Type.Integer({
      description: 'max(0, enUso − puestos): asignados de más tras bajar los puestos; nadie pierde el suyo por ello',
    }),
    fechaVencimiento: Type.String({ format: 'date-time' }),
    vencida: Type.Boolean({ description: 'Vencida: sus puestos ya no dan el plan y no se asignan otros' }),
    aviso: Type.Optional(
      Type.String({ description: 'Lo que la empresa debe saber (puestos de más, licencia vencida), en español' }),
    ),
  },
  { additionalProperties: false },
);
