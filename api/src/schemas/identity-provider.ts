import { Type } from 'typebox';
import { LiteralUnion, Nullable, printable } from './common.js';
import { SecondFactorMethod } from './security.js';
import { oidcScopes } from '../domain/identity-provider/scopes.js';
import { oidcSubjectKinds } from '../db/schema.js';

/** An interaction's id, as oidc-provider makes them (nanoid, URL-safe). */
export const InteractionUid = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'Id de la interacción' });

const Scope = LiteralUnion(oidcScopes, { description: 'Permiso OpenID Connect' });
const Permission = Type.Object({ scope: Scope, descripcion: Type.String() }, { additionalProperties: false });

/** The second factor an app asks for and this session has not proved; null when none is asked or it is proved. */
const StepUp = Nullable(
  Type.Object(
    {
      metodos: Type.Array(SecondFactorMethod, {
        description: 'Cómo puede la persona probarlo ahora; vacío: aún no tiene segundo factor',
      }),
      permiteConfiarDispositivo: Type.Boolean({
        description:
          "Se ofrece 'No volver a pedir en este dispositivo durante 30 días' (vale para el inicio de sesión, nunca para una app que lo pide)",
      }),
    },
    {
      additionalProperties: false,
      description: 'La app pide un segundo factor que esta sesión no probó (acr_values, claims, RequestedAuthnContext)',
    },
  ),
);

export const InteractionView = Type.Object(
  {
    cliente: Type.Object(
      { id: Type.String(), nombre: Type.String(), primeraParte: Type.Boolean() },
      { additionalProperties: false },
    ),
    permisos: Type.Array(Permission),
    consentimiento: Type.Boolean({ description: 'La app es de terceros y la persona aún no permitió estos permisos' }),
    reautenticar: Type.Boolean({ description: 'La app pidió un inicio de sesión nuevo (prompt=login, max_age)' }),
    segundoFactor: StepUp,
  },
  { additionalProperties: false },
);

export const InteractionAnswer = Type.Object(
  {
    permitir: Type.Optional(
      Type.Boolean({ description: 'La persona pulsó Permitir en la pantalla de consentimiento' }),
    ),
  },
  { additionalProperties: false },
);

export const InteractionNext = Type.Object(
  { redirectTo: Type.String({ description: 'Adónde va el navegador ahora (de vuelta a la app a través de la API)' }) },
  { additionalProperties: false },
);

export const AuthorizedApp = Type.Object(
  {
    clientId: Type.String(),
    nombre: Type.String(),
    permisos: Type.Array(Permission),
    autorizadaEn: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

const Uri = Type.String({ minLength: 1, maxLength: 2000 });

const subjectDescription =
  'El identificador de la persona (`sub`) que recibe la app: `numerico` (el id de la cuenta; lo conservan los ' +
  'clientes registrados antes de existir esta opción), `opaco` (un uuid aleatorio de la cuenta, igual en todas las ' +
  'apps opaco; por omisión al crear) o `por_cliente` (distinto en cada app: dos apps no pueden cruzar a sus ' +
  'personas). Cambiarlo hace que la app vea identificadores nuevos. Al cambiar un cliente, si no se envía, se conserva.';

const UriList = Type.Array(Uri, { maxItems: 10 });

export const OidcClientBody = Type.Object(
  {
    // Blank is refused by the handler, in its own words.
    nombre: Type.String({ minLength: 1, maxLength: 100, pattern: `^${printable}+$` }),
    // Required unless the client is public and signs in on devices only (`dispositivos`): the handler says so.
    redirectUris: Type.Optional(Type.Array(Uri, { maxItems: 10 })),
    postLogoutRedirectUris: Type.Optional(UriList),
    backchannelLogoutUri: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    initiateLoginUri: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    publico: Type.Optional(Type.Boolean()),
    primeraParte: Type.Optional(Type.Boolean()),
    appId: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 2147483647 }))),
    scopes: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 10 })),
    // Any other word is refused by the handler, in its own words.
    sujeto: Type.Optional(Type.String({ maxLength: 40, description: subjectDescription })),
    dispositivos: Type.Optional(
      Type.Boolean({
        description:
          'El cliente puede usar el inicio de sesión en dispositivos (RFC 8628, urn:ietf:params:oauth:grant-type:device_code)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const OidcClient = Type.Object(
  {
    clientId: Type.String(),
    idAplicacion: Type.Integer({
      description: 'Id de su aplicación conectada: sus suscripciones a eventos van bajo él',
    }),
    nombre: Type.String(),
    redirectUris: Type.Array(Type.String()),
    postLogoutRedirectUris: Type.Array(Type.String()),
    backchannelLogoutUri: Nullable(Type.String()),
    initiateLoginUri: Nullable(Type.String()),
    publico: Type.Boolean(),
    primeraParte: Type.Boolean(),
    appId: Nullable(Type.Integer()),
    scopes: Type.Array(Scope),
    sujeto: LiteralUnion(oidcSubjectKinds, { description: subjectDescription }),
    dispositivos: Type.Boolean(),
    creadoEn: Type.String({ format: 'date-time' }),
    actualizadoEn: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const OidcClientCreated = Type.Object(
  {
    clientId: Type.String(),
    clientSecret: Type.Optional(Type.String({ description: 'Solo para clientes confidenciales; se muestra una vez' })),
  },
  { additionalProperties: false },
);

export const OidcClientSecret = Type.Object(
  { clientId: Type.String(), clientSecret: Type.String() },
  { additionalProperties: false },
);

export const ClientIdParams = Type.Object({
  clientId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'client_id' }),
});

/** The code a person types at /dispositivo, as the device shows it (case and dash do not matter). */
export const DeviceCodeTyped = Type.Object(
  {
    codigo: Type.String({
      minLength: 1,
      maxLength: 32,
      description: 'El código que muestra el dispositivo, como BCDF-GHJK (sin importar mayúsculas ni el guion)',
    }),
  },
  { additionalProperties: false },
);

export const DeviceAnswer = Type.Object(
  {
    codigo: DeviceCodeTyped.properties.codigo,
    permitir: Type.Boolean({ description: 'true: la persona pulsó Permitir; false: Rechazar' }),
    motivo: Type.Optional(
      LiteralUnion(['segundo_factor'] as const, {
        description:
          'Con permitir false: la persona no probó el segundo factor que pide la app (el dispositivo recibe unmet_authentication_requirements)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const DeviceRequestView = Type.Object(
  {
    codigo: Type.String({ description: 'El código, como lo muestra el dispositivo' }),
    cliente: Type.Object(
      { id: Type.String(), nombre: Type.String(), primeraParte: Type.Boolean() },
      { additionalProperties: false },
    ),
    permisos: Type.Array(Permission),
    dispositivo: Type.Object(
      {
        ip: Type.String({ description: 'La dirección desde la que el dispositivo pidió el código' }),
        iniciadoEn: Type.String({ format: 'date-time' }),
      },
      { additionalProperties: false },
    ),
    expiraEn: Type.String({ format: 'date-time' }),
    segundoFactor: StepUp,
  },
  { additionalProperties: false },
);

export const DeviceAnswered = Type.Object(
  { resultado: LiteralUnion(['permitido', 'rechazado'] as const) },
  { additionalProperties: false },
);
