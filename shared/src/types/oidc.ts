/**
 * The shapes of the portal's OpenID Connect provider calls. They mirror the API contract written for these screens
 * while the API's TypeBox schemas for them do not exist yet; once they do, these come from `@portal/api/types` like
 * the rest of entities.ts, and this file goes.
 */

/** What an app may see or do: the scope the app asked for and its Spanish description. */
export interface OidcPermission {
  scope: string;
  descripcion: string;
}

/** `GET /oidc/interaccion/{uid}/detalles`: the app asking and what the portal page must do. */
export interface InteractionDetails {
  cliente: { id: string; nombre: string; primeraParte: boolean };
  permisos: OidcPermission[];
  /** A third-party app the person has not yet allowed for these permissions: the page asks. */
  consentimiento: boolean;
  /** The app asked for a fresh sign-in (prompt=login or max_age): even a signed-in person signs in again. */
  reautenticar: boolean;
}

/** The answer of `continuar` and `cancelar`: an API address that ends with the browser back at the app. */
export interface InteractionRedirect {
  redirectTo: string;
}

/** `GET /auth/aplicaciones`: a third-party app the person allowed. */
export interface AuthorizedApp {
  clientId: string;
  nombre: string;
  permisos: OidcPermission[];
  /** ISO date-time. */
  autorizadaEn: string;
}

/** The scopes an administrator may allow a client. */
export type OidcScope = 'openid' | 'profile' | 'email' | 'phone' | 'offline_access' | 'plan';

/** The body of `POST` and `PUT /admin/clientes-oidc`: every field, also on a change. */
export interface OidcClientInput {
  nombre: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  backchannelLogoutUri: string | null;
  initiateLoginUri: string | null;
  /** A public client (a mobile or single-page app) has no secret. */
  publico: boolean;
  primeraParte: boolean;
  appId: number | null;
  scopes: string[];
}

/** An OpenID Connect client as the admin calls answer it. */
export interface OidcClient extends OidcClientInput {
  clientId: string;
  creadoEn: string;
  actualizadoEn: string;
}

/** A created client; the secret (confidential clients only) is shown once and never again. */
export interface OidcClientCreated {
  clientId: string;
  clientSecret?: string;
}

/** A rotated secret: the old one stopped working. */
export interface OidcClientSecret {
  clientId: string;
  clientSecret: string;
}

/** What the apps list adds for an app that signs in with the portal's OpenID Connect provider. */
export interface AppSignInLaunch {
  /** Set: the web launch opens this address (the app starts its own sign-in with the portal). */
  inicioSesionUrl?: string | null;
}
