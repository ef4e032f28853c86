import { Type } from 'typebox';
import { Email } from './auth.js';
import { Nullable } from './common.js';

// A company's own sign-in: its OpenID Connect or SAML provider as its owners and platform administrators set it,
// and the sign-in pages' calls (routes/companies/sso.ts, routes/admin/companies.ts, routes/auth/company.ts).

export const SsoConnectionParams = Type.Object(
  { id: Type.Integer({ minimum: 1, maximum: 2147483647 }) },
  { additionalProperties: false },
);

const Domains = Type.Array(Type.String({ minLength: 1, maxLength: 253 }), {
  minItems: 1,
  maxItems: 20,
  description: 'Los dominios de email de la empresa que entran por este acceso',
});
const AllowPassword = Type.Boolean({
  description: 'Si quienes tienen un email de esos dominios pueden seguir entrando con contraseña del portal',
});

export const SsoOidcBody = Type.Object(
  {
    tipo: Type.Optional(Type.Literal('oidc', { description: 'OpenID Connect (si se omite)' })),
    issuer: Type.String({
      minLength: 1,
      maxLength: 500,
      description:
        'El emisor OpenID Connect de la empresa (https://login.microsoftonline.com/<inquilino>/v2.0); su /.well-known/openid-configuration se lee antes de guardar',
    }),
    clientId: Type.String({ minLength: 1, maxLength: 500, pattern: '^[^\\u0000-\\u001f\\u007f]+$' }),
    clientSecret: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description:
          'Obligatorio al conectar por primera vez; al cambiar la conexión, sin él se conserva el guardado. Nunca se devuelve.',
      }),
    ),
    dominios: Domains,
    permitirContrasena: AllowPassword,
  },
  { additionalProperties: false },
);

export const SsoSamlBody = Type.Object(
  {
    tipo: Type.Literal('saml'),
    metadata: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024 * 1024,
        description:
          'Los metadatos SAML del proveedor de identidad (el XML que exportan AD FS, Entra ID, Okta o Google Workspace): un EntityDescriptor con IDPSSODescriptor, un SingleSignOnService HTTP-Redirect y su certificado de firma. Al conectar por primera vez, este o urlMetadatos; al cambiar una conexión SAML, sin ninguno de los dos se conservan los guardados (y su dirección). Nunca se devuelve.',
      }),
    ),
    urlMetadatos: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description:
          'En lugar de `metadata`: la dirección https:// de los metadatos del proveedor (la de metadatos de federación de Entra ID o AD FS); se leen al guardar y de nuevo una vez al día',
      }),
    ),
    dominios: Domains,
    permitirContrasena: AllowPassword,
  },
  { additionalProperties: false },
);

export const SsoConnectionBody = Type.Union([SsoOidcBody, SsoSamlBody]);

export const SsoConnectionSaved = Type.Object(
  {
    redirectUri: Type.String({ description: 'La dirección de vuelta que hay que registrar en el proveedor' }),
  },
  { additionalProperties: false },
);

/** The portal's SAML service provider for one company: what its IT registers in its identity provider. */
export const SamlServiceProvider = Type.Object(
  {
    entityId: Type.String({ description: 'El identificador (entity ID) del portal para esta empresa' }),
    acsUrl: Type.String({ description: 'La dirección de respuesta (Assertion Consumer Service, HTTP-POST)' }),
    metadataUrl: Type.String({ description: 'Los metadatos SAML del portal para esta empresa, para importarlos' }),
  },
  { additionalProperties: false },
);

export const SsoConnectionAnswer = Type.Union([SsoConnectionSaved, SamlServiceProvider]);

export const SsoAddresses = Type.Object(
  {
    redirectUri: Type.String({
      description: 'La dirección de vuelta que hay que registrar en el proveedor OpenID Connect',
    }),
    saml: SamlServiceProvider,
  },
  { additionalProperties: false },
);

const ConnectionState = {
  ultimoError: Nullable(Type.String({ description: 'El último fallo de un inicio de sesión por el proveedor' })),
  ultimoErrorEn: Nullable(Type.String({ format: 'date-time' })),
  ultimoAcceso: Nullable(Type.String({ format: 'date-time' })),
  actualizado: Type.String({ format: 'date-time' }),
};

export const SsoSamlConnection = Type.Object(
  {
    tipo: Type.Literal('saml'),
    dominios: Type.Array(Type.String()),
    permitirContrasena: Type.Boolean(),
    entityId: Type.String(),
    acsUrl: Type.String(),
    metadataUrl: Type.String(),
    idp: Type.Object(
      {
        entityId: Type.String(),
        ssoUrl: Type.String(),
        certificados: Type.Array(
          Type.Object(
            {
              huella: Type.String({ description: 'Huella SHA-256 del certificado (AB:CD:…)' }),
              venceEn: Type.String({ format: 'date-time' }),
            },
            { additionalProperties: false },
          ),
        ),
        urlMetadatos: Nullable(
          Type.String({ description: 'La dirección de la que se leen los metadatos, si se conectó con una' }),
        ),
      },
      { additionalProperties: false },
    ),
    ...ConnectionState,
  },
  { additionalProperties: false },
);

export const SsoOidcConnection = Type.Object(
  {
    tipo: Type.Literal('oidc'),
    issuer: Type.String(),
    clientId: Type.String(),
    dominios: Type.Array(Type.String()),
    permitirContrasena: Type.Boolean(),
    redirectUri: Type.String(),
    ...ConnectionState,
  },
  { additionalProperties: false },
);

export const SsoConnection = Type.Union([SsoOidcConnection, SsoSamlConnection]);

export const SamlCompanyParams = Type.Object(
  { id: Type.Integer({ minimum: 1, maximum: 2147483647 }) },
  { additionalProperties: false },
);

export const SamlAcsBody = Type.Object({
  SAMLResponse: Type.Optional(Type.String({ description: 'La respuesta SAML firmada, en base64 (HTTP-POST)' })),
  RelayState: Type.Optional(Type.String({ description: 'Se ignora: el destino vuelve de la solicitud guardada' })),
});

export const CompanyAccessQuery = Type.Object({ email: Email }, { additionalProperties: false });

export const CompanyAccess = Type.Object(
  {
    empresa: Nullable(Type.Object({ id: Type.Integer(), nombre: Type.String() }, { additionalProperties: false })),
    permitirContrasena: Type.Boolean({ description: 'false: el email debe entrar por el acceso de su empresa' }),
  },
  { additionalProperties: false },
);

/** GET /auth/empresa/prueba: the test's start as POST /configuracion-empresa/prueba made it (sealed). */
export const ConnectionTestQuery = Type.Object({
  inicio: Type.Optional(Type.String({ maxLength: 1024, description: 'El inicio de la prueba, sellado (5 minutos)' })),
});

export const CompanySignInQuery = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 254 })),
  binding: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'SHA-256 (base64url) de un secreto que guarda la pestaña que inicia sesión',
    }),
  ),
  redirect_url: Type.Optional(
    Type.String({ description: 'Destino de una app asociada; se conserva solo si está permitido' }),
  ),
});

export const CompanyLinkBody = Type.Object(
  {
    codigo: Type.String({ minLength: 1, maxLength: 100, description: 'El código `vincular` de la vuelta al portal' }),
    secreto: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'El secreto de la pestaña que inició el acceso de la empresa (su SHA-256 fue el binding)',
    }),
  },
  { additionalProperties: false },
);

export const CompanyLinked = Type.Object(
  { empresa: Type.Object({ id: Type.Integer(), nombre: Type.String() }, { additionalProperties: false }) },
  { additionalProperties: false },
);
