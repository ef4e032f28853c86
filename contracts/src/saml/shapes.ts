/**
 * SAML 2.0 both ways, as the API answers it and the admin panel reads it: a company's own SAML identity provider (the
 * portal as its service provider, beside the OpenID Connect one) and the partner apps the portal signs in as their
 * identity provider. Plain shapes: the API's schemas are held to them by the type check, the panel reads them.
 */

/** The protocols a company's own sign-in speaks; an answer without `tipo` is from before SAML: OpenID Connect. */
export const COMPANY_PROVIDER_KINDS = ['oidc', 'saml'] as const;
export type CompanyProviderKind = (typeof COMPANY_PROVIDER_KINDS)[number];

/** The NameID a partner app receives: persistent and opaque per app, the email only when its metadata asks for it. */
export const SAML_NAME_ID_FORMATS = ['persistent', 'emailAddress'] as const;
export type SamlNameIdFormat = (typeof SAML_NAME_ID_FORMATS)[number];

/**
 * The portal's service provider for one company: what the company's IT enters in its identity provider (AD FS, Entra
 * ID, Okta…), or imports at once from `metadataUrl`. `GET /empresas/{id}/proveedor/redireccion` answers it as `saml`
 * before anything is connected; `PUT …/proveedor` with `tipo: 'saml'` answers it alone.
 */
export interface SamlServiceProvider {
  entityId: string;
  /** The Assertion Consumer Service (HTTP-POST) where the company's responses arrive. */
  acsUrl: string;
  /** The service provider's metadata (an `SPSSODescriptor` with the ACS). */
  metadataUrl: string;
}

/**
 * The body of `PUT /empresas/{id}/proveedor` and `PUT /admin/empresas/{id}/proveedor` for SAML: the identity
 * provider's metadata XML as AD FS, Entra ID, Okta or Google Workspace export it, the company's domains that enter by
 * it, and whether those addresses may still use the portal's password. Without `metadata` a change keeps the saved one.
 */
export interface CompanySamlInput {
  tipo: 'saml';
  metadata?: string;
  dominios: string[];
  permitirContrasena: boolean;
}

/** A signing certificate of the company's identity provider: its SHA-256 fingerprint and the end of its validity. */
export interface SamlIdpCertificate {
  huella: string;
  /** ISO 8601 instant. */
  venceEn: string;
}

/** A company's SAML connection as `GET /empresas/{id}/proveedor` shows it. */
export interface CompanySamlConnection extends SamlServiceProvider {
  tipo: 'saml';
  dominios: string[];
  permitirContrasena: boolean;
  /** What the saved metadata says of the identity provider. */
  idp: {
    entityId: string;
    /** Its SingleSignOnService (HTTP-Redirect), where the sign-in request is sent. */
    ssoUrl: string;
    certificados: SamlIdpCertificate[];
  };
  /** The last failed sign-in through it, in Spanish, and when. */
  ultimoError: string | null;
  ultimoErrorEn: string | null;
  ultimoAcceso: string | null;
  actualizado: string;
}

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
