import { Type } from 'typebox';
import { CurrentUser } from './auth.js';

// Sign-in with Google or Apple (routes/auth/oauth/): the start, the provider's answer, the portal's exchange.

export const StartQuery = Type.Object({
  redirect_url: Type.Optional(
    Type.String({ description: 'Destino de una app asociada; se conserva solo si está permitido' }),
  ),
  binding: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        'SHA-256 (base64url) de un secreto que guarda la pestaña que inicia sesión; sin él, vuelve a /login?error=auth_failed',
    }),
  ),
});

/** Which providers this deployment has configured: the sign-in page says the others are not available. */
export const ConfiguredProviders = Type.Object(
  {
    google: Type.Boolean({ description: 'Google está configurado (GOOGLE_CLIENT_ID y GOOGLE_CLIENT_SECRET)' }),
    apple: Type.Boolean({
      description: 'Apple está configurado (APPLE_CLIENT_ID, APPLE_TEAM_ID, APPLE_KEY_ID, APPLE_PRIVATE_KEY)',
    }),
  },
  { additionalProperties: false },
);

/** What the portal's callback page sends to redeem the return's one-time code (never a token in the address). */
export const ReturnExchange = Type.Object(
  {
    code: Type.String({ minLength: 1, maxLength: 100, description: 'El código de un solo uso de la vuelta al portal' }),
    secret: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'El secreto de la pestaña que inició el inicio de sesión (su SHA-256 fue el binding)',
    }),
  },
  { additionalProperties: false },
);

export const ExchangedSession = Type.Object(
  { access_token: Type.String(), user: CurrentUser },
  { additionalProperties: false },
);

/** The provider's answer; anything else it adds is ignored. Nothing here is trusted before the checks. */
export const ProviderAnswer = Type.Object({
  code: Type.Optional(Type.String()),
  state: Type.Optional(Type.String()),
  iss: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  error_description: Type.Optional(Type.String()),
  /** Apple only, on the first authorization: `{"name":{"firstName","lastName"},"email"}`. */
  user: Type.Optional(Type.String()),
});
