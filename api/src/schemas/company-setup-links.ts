// The shapes of a company's setup links: the owner's calls (routes/companies/setup-links.ts) and the page's calls
// through a link (routes/setup-link/index.ts).
import { Type } from 'typebox';
import { setupLinkHours } from '../domain/companies/setup-links.js';
import { Nullable } from './common.js';
import { CompanyDomain } from './company-domains.js';
import { SsoAddresses, SsoConnection } from './company-sso.js';

const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const SetupLinkParams = Type.Object({ id: Id, idEnlace: Id }, { additionalProperties: false });

export const CreateSetupLinkBody = Type.Object(
  {
    horas: Type.Optional(
      Type.Integer({
        minimum: setupLinkHours.min,
        maximum: setupLinkHours.max,
        description: `Cuántas horas sirve el enlace: de ${setupLinkHours.min} a ${setupLinkHours.max} (${setupLinkHours.default} si no se dice)`,
      }),
    ),
  },
  { additionalProperties: false },
);

const venceEn = Type.String({ format: 'date-time', description: 'Desde ese momento el enlace ya no abre nada' });

export const CreatedSetupLink = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String({
      description: 'La dirección que se entrega al equipo de TI: el secreto va tras el #. Se muestra solo esta vez',
    }),
    venceEn,
  },
  { additionalProperties: false },
);

export const SetupLink = Type.Object(
  {
    id: Type.Integer(),
    creado: Type.String({ format: 'date-time' }),
    creadoPor: Nullable(Type.String({ description: 'El email de quien lo creó (null si esa cuenta ya no existe)' })),
    venceEn,
    estado: Type.Union([Type.Literal('activo'), Type.Literal('vencido'), Type.Literal('revocado')], {
      description: "'revocado' también cuando quien lo creó ya no es propietario de la empresa",
    }),
  },
  { additionalProperties: false },
);

export const SetupLinkList = Type.Object({ data: Type.Array(SetupLink) }, { additionalProperties: false });

export const SetupPage = Type.Object(
  {
    enlace: Type.Object({ id: Type.Integer(), venceEn }, { additionalProperties: false }),
    empresa: Type.Object({ id: Type.Integer(), nombre: Type.String() }, { additionalProperties: false }),
    dominios: Type.Array(CompanyDomain, { description: 'Paso 1: los dominios de la empresa y su registro TXT' }),
    inicioDeSesion: Type.Object(
      {
        direcciones: SsoAddresses,
        proveedor: Nullable(SsoConnection),
      },
      { additionalProperties: false, description: 'Paso 2: lo que se registra en el proveedor y lo conectado' },
    ),
    directorio: Type.Object(
      { urlBase: Type.String({ description: 'La URL base de SCIM 2.0 (…/scim/v2)' }) },
      { additionalProperties: false, description: 'Paso 3: el directorio' },
    ),
  },
  { additionalProperties: false },
);

export const ConnectionTestStarted = Type.Object(
  {
    url: Type.String({
      description:
        'La dirección a abrir en el navegador (GET /auth/empresa/prueba?inicio=…): lleva al proveedor de la empresa y vuelve a /configurar-empresa?prueba=… Sirve 5 minutos',
    }),
  },
  { additionalProperties: false },
);

export const ConnectionTestResultBody = Type.Object(
  {
    resultado: Type.String({
      minLength: 1,
      maxLength: 8192,
      description: 'El valor de ?prueba= con que volvió la página',
    }),
  },
  { additionalProperties: false },
);

export const ConnectionTestResult = Type.Object(
  {
    ok: Type.Boolean({ description: 'Esa persona podría entrar al portal con el acceso de la empresa' }),
    protocolo: Type.Union([Type.Literal('oidc'), Type.Literal('saml')]),
    email: Nullable(Type.String()),
    nombre: Nullable(Type.String()),
    apellido: Nullable(Type.String()),
    problemas: Type.Array(Type.String(), { description: 'Lo que impediría el inicio de sesión, en español' }),
  },
  { additionalProperties: false },
);
