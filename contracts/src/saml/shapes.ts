/**
 * The partner apps the portal signs in as their SAML identity provider, as the admin panel reads them. A company's own
 * SAML identity provider (the portal its service provider) is not here: its shapes are the API's schemas
 * (`@portal/shared`, remote-admin/src/api/company-types.ts).
 */

/** The NameID a partner app receives: persistent and opaque per app, the email only when its metadata asks for it. */
export const SAML_NAME_ID_FORMATS = ['persistent', 'emailAddress'] as const;
export type SamlNameIdFormat = (typeof SAML_NAME_ID_FORMATS)[number];

/** A partner app that signs in with the portal as its SAML identity provider (`GET /admin/aplicaciones-saml`). */
export interface SamlApp {
  id: number;
  nombre: string;
  /** The app's own entity ID, read from its metadata. */
  entityId: string;
  /** The catalogue app whose plan the assertion carries, if any. */
  appId: number | null;
  /** Its Assertion Consumer Services, only ever from its metadata. */
  urlsAcs: string[];
  /** Its SingleLogoutService, when its metadata publishes one. */
  urlCierreSesion: string | null;
  formatoNameId: SamlNameIdFormat;
  /** Logouts of people who signed out of the portal that the app has not taken yet; they are retried. */
  cierresPendientes: number;
  /** The last failed logout, in Spanish. */
  ultimoErrorCierre: string | null;
  creadaEn: string;
  actualizadaEn: string;
}

/**
 * The body of `POST /admin/aplicaciones-saml` and `PUT /admin/aplicaciones-saml/{id}`: its name, its SP metadata XML
 * and, optionally, its catalogue app. A PUT replaces: without `appId` the app is tied to none; without `metadata` the
 * saved metadata stays.
 */
export interface SamlAppInput {
  nombre: string;
  metadata?: string;
  appId?: number;
}

/** What `POST /admin/aplicaciones-saml` answers (201). */
export interface SamlAppCreated {
  id: number;
  entityId: string;
}
