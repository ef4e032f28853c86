// Passkeys, the TOTP second factor, recovery codes and the second step of a password sign-in. The HTTP
// shapes of every call under /auth that api/README.md "Segundo factor y llaves de acceso" describes.
import { Type } from 'typebox';
import { LiteralUnion, Nullable, OneLineText } from './common.js';
import { trustedDeviceStoppedReasons } from '../domain/second-factor/trusted-devices.js';

/** A current TOTP code: 6 digits (spaces the person typed are taken out by the client). */
export const TotpCode = Type.String({ pattern: '^[0-9]{6}$', description: 'Código de 6 dígitos de la aplicación' });

/** A recovery code as shown ('ABCDE-FGHJK'); case and the dash are optional when typed. */
export const RecoveryCode = Type.String({
  pattern: '^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$',
  description: 'Código de recuperación de un solo uso',
});

/** What the second step and the removal of the authenticator accept: a current TOTP code or an unused recovery code. */
export const SecondFactorCode = Type.Union([TotpCode, RecoveryCode]);

/** The random ticket a correct password answers for an account with a second factor (43 base64url characters). */
export const SignInTicket = Type.String({ pattern: '^[A-Za-z0-9_-]{20,100}$', description: 'Ticket del segundo paso' });

/** The random id of one WebAuthn ceremony, handed out with its options (43 base64url characters). */
export const CeremonyId = Type.String({
  pattern: '^[A-Za-z0-9_-]{20,100}$',
  description: 'Id de la ceremonia WebAuthn',
});

export const secondFactorMethods = ['totp', 'recovery', 'passkey'] as const;
// LiteralUnion keeps the three names in the static type (a mapped Type.Union widens them to never).
export const SecondFactorMethod = LiteralUnion(secondFactorMethods);

/**
 * `POST /auth/login` for an account with a second factor: the password was right, no token yet. The client asks the
 * second step with `ticket` (single-use, 5 minutes, 5 tries) through one of `methods`.
 */
export const SecondStepRequired = Type.Object(
  {
    statusCode: Type.Literal(403),
    message: Type.String(),
    code: Type.Literal('SECOND_FACTOR_REQUIRED'),
    ticket: SignInTicket,
    methods: Type.Array(SecondFactorMethod),
    permiteConfiarDispositivo: Type.Boolean({
      description:
        "Se ofrece 'No volver a pedir en este dispositivo durante 30 días' (ninguna empresa de la persona lo prohíbe y no es administradora de la plataforma)",
    }),
    dispositivoNoConfiable: Type.Optional(
      Type.Object(
        {
          motivo: LiteralUnion(trustedDeviceStoppedReasons, { description: 'Por qué dejó de contar' }),
          mensaje: Type.String({ description: 'La razón, en una frase para la persona' }),
        },
        {
          additionalProperties: false,
          description:
            'El navegador trajo la cookie de un dispositivo de confianza de esta cuenta que ya no cuenta: por qué se pide el código',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * Ticked 'No volver a pedir en este dispositivo durante 30 días' at a second step: with the right factor, the answer
 * sets the trusted device's cookie (docs/decisions/0143-trusted-devices.md). The call must send the browser's cookies
 * (`credentials: 'include'`). 403 DISPOSITIVOS_NO_PERMITIDOS, nothing spent, when a company of the person forbids it.
 */
const TrustDevice = Type.Optional(
  Type.Boolean({ description: 'Recordar este navegador 30 días como dispositivo de confianza' }),
);

/** `POST /auth/login/segundo-paso`. */
export const SecondStepBody = Type.Object(
  { ticket: SignInTicket, code: SecondFactorCode, confiarDispositivo: TrustDevice },
  { additionalProperties: false },
);

/**
 * `GET /auth/seguridad`: what the 'Seguridad' tab and the admin gate show. An administrator under the default
 * ADMIN_SECOND_FACTOR=required administers only from a session with `sessionVerified` (a trusted device never counts
 * for an administrator: decision 0150); with no factor at all the panel asks to set one up (`secondFactorRequired` and neither `totp` nor a passkey).
 */
export const SecurityStatus = Type.Object(
  {
    totp: Type.Boolean({ description: 'Aplicación de autenticación confirmada' }),
    passkeys: Type.Integer({ minimum: 0, description: 'Llaves de acceso registradas' }),
    recoveryCodesLeft: Type.Integer({ minimum: 0, description: 'Códigos de recuperación sin usar' }),
    secondFactorRequired: Type.Boolean({ description: 'Administrador con ADMIN_SECOND_FACTOR=required' }),
    sessionVerified: Type.Boolean({ description: 'Esta sesión probó un segundo factor (o configuró uno)' }),
    sessionTrustedDevice: Type.Boolean({
      description:
        'Esta sesión entró por un dispositivo de confianza sin segundo paso: nunca vale para el panel de administración ni para una app que pide un segundo factor',
    }),
  },
  { additionalProperties: false },
);

/** `POST /auth/totp`: a new, still unconfirmed secret (a previous unconfirmed one is replaced). */
export const TotpSetup = Type.Object(
  {
    secret: Type.String({ description: 'Secreto en base32, para escribirlo a mano' }),
    otpauthUrl: Type.String({ description: 'otpauth://totp/…' }),
    qrCode: Type.String({ description: 'El otpauthUrl como código QR: data:image/svg+xml;base64,…' }),
  },
  { additionalProperties: false },
);

export const TotpCodeBody = Type.Object({ code: TotpCode }, { additionalProperties: false });
export const SecondFactorCodeBody = Type.Object({ code: SecondFactorCode }, { additionalProperties: false });

/** `POST /auth/segundo-factor/verificar`: the current session proves a second factor with a code. */
export const SessionCodeProofBody = Type.Object(
  { code: SecondFactorCode, confiarDispositivo: TrustDevice },
  { additionalProperties: false },
);

/** Ten codes, shown once: `POST /auth/totp/confirmar` and `POST /auth/codigos-recuperacion`. */
export const RecoveryCodes = Type.Object(
  { recoveryCodes: Type.Array(Type.String(), { minItems: 10, maxItems: 10 }) },
  { additionalProperties: false },
);

/** A passkey as the 'Seguridad' tab lists it. */
export const Passkey = Type.Object(
  {
    id: Type.String({ description: 'Id de la credencial (base64url)' }),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    lastUsedAt: Nullable(Type.String({ format: 'date-time' })),
    backedUp: Type.Boolean({ description: 'Sincronizada (copia en la nube del gestor de contraseñas)' }),
  },
  { additionalProperties: false },
);

export const PasskeyId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,1400}$', description: 'Id de la credencial' });

/** The options @simplewebauthn/browser takes, as @simplewebauthn/server built them, and the ceremony they belong to. */
export const CeremonyOptions = Type.Object(
  {
    ceremonyId: CeremonyId,
    options: Type.Object({}, { additionalProperties: true, description: 'Opciones WebAuthn en JSON' }),
  },
  { additionalProperties: false },
);

/** What the browser's WebAuthn call answered (RegistrationResponseJSON / AuthenticationResponseJSON), checked by the server. */
const CredentialResponse = Type.Object({}, { additionalProperties: true, maxProperties: 10 });

/** `POST /auth/passkeys`: the name the person gave (the device) and the browser's answer to the options. */
export const AddPasskeyBody = Type.Object(
  {
    ceremonyId: CeremonyId,
    name: OneLineText(60),
    response: CredentialResponse,
  },
  { additionalProperties: false },
);

/** `POST /auth/passkeys/opciones-inicio`: with the ticket of a password sign-in, the passkey is its second step. */
export const PasskeySignInOptionsBody = Type.Object(
  { ticket: Type.Optional(SignInTicket) },
  { additionalProperties: false },
);

/** `POST /auth/segundo-factor/verificar-llave`: the current session proves a second factor with a passkey. */
export const SessionPasskeyProofBody = Type.Object(
  { ceremonyId: CeremonyId, response: CredentialResponse, confiarDispositivo: TrustDevice },
  { additionalProperties: false },
);

/** `POST /auth/passkeys/iniciar-sesion`. */
export const PasskeySignInBody = Type.Object(
  {
    ceremonyId: CeremonyId,
    response: CredentialResponse,
    ticket: Type.Optional(SignInTicket),
    confiarDispositivo: TrustDevice,
  },
  { additionalProperties: false },
);

/** A trusted device as 'Seguridad' lists it (`GET /auth/dispositivos-confiables`). */
export const TrustedDevice = Type.Object(
  {
    id: Type.Integer(),
    label: Type.String({ description: "Navegador y sistema, como 'Chrome en Linux'" }),
    createdAt: Type.String({ format: 'date-time', description: 'Cuándo se agregó' }),
    lastUsedAt: Type.String({ format: 'date-time', description: 'Último uso' }),
    expiresAt: Type.String({ format: 'date-time', description: 'Deja de valer (30 días después de agregarse)' }),
    actual: Type.Boolean({ description: 'Es el navegador que consulta' }),
  },
  { additionalProperties: false },
);
