import { Type } from 'typebox';
import { Email } from './auth.js';
import { Nullable } from './common.js';

// A company's own sign-in: its OpenID Connect provider as its owners and platform administrators set it,
// and the sign-in pages' calls (routes/companies/sso.ts, routes/admin/companies.ts, routes/auth/company.ts).

export const SsoConnectionParams = Type.Object(
  { id: Type.Integer({ minimum: 1, maximum: 2147483647 }) },
  { additionalProperties: false },
);

export const SsoConnectionBody = Type.Object(
  {
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
    dominios: Type.Array(Type.String({ minLength: 1, maxLength: 253 }), {
      minItems: 1,
      maxItems: 20,
      description: 'Los dominios de email de la empresa que entran por este acceso',
    }),
    permitirContrasena: Type.Boolean({
      description: 'Si quienes tienen un email de esos dominios pueden seguir entrando con contraseña del portal',
    }),
  },
  { additionalProperties: false },
);

export const SsoConnectionSaved = Type.Object(
  {
    redirectUri: Type.String({ description: 'La dirección de vuelta que hay que registrar en el proveedor' }),
  },
  { additionalProperties: false },
);

export const SsoConnection = Type.Object(
  {
    issuer: Type.String(),
    clientId: Type.String(),
    dominios: Type.Array(Type.String()),
    permitirContrasena: Type.Boolean(),
    redirectUri: Type.String(),
    ultimoError: Nullable(Type.String({ description: 'El último fallo de un inicio de sesión por el proveedor' })),
    ultimoErrorEn: Nullable(Type.String({ format: 'date-time' })),
    ultimoAcceso: Nullable(Type.String({ format: 'date-time' })),
    actualizado: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const CompanyAccessQuery = Type.Object({ email: Email }, { additionalProperties: false });

export const CompanyAccess = Type.Object(
  {
    empresa: Nullable(Type.Object({ id: Type.Integer(), nombre: Type.String() }, { additionalProperties: false })),
    permitirContrasena: Type.Boolean({ description: 'false: el email debe entrar por el acceso de su empresa' }),
  },
  { additionalProperties: false },
);

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
