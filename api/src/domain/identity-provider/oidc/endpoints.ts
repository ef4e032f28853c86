// Where the provider answers on the API, and the portal's pages it sends the browser to.
/** Where the provider's endpoints live under the issuer; the JWKS is the portal's own, already published. */
export const oidcRoutes = {
  authorization: '/oidc/auth',
  token: '/oidc/token',
  userinfo: '/oidc/me',
  introspection: '/oidc/token/introspection',
  revocation: '/oidc/token/revocation',
  end_session: '/oidc/session/end',
  jwks: '/.well-known/jwks.json',
  device_authorization: '/oidc/device/auth',
  // Never mounted: the person answers at the portal's /dispositivo (device.ts); the library needs a path all the same.
  code_verification: '/oidc/device',
} as const;

/** The path of an interaction on the API: it sends the browser on to the portal's screens. */
export const interactionPath = (uid: string) => `/oidc/interaccion/${encodeURIComponent(uid)}`;

/**
 * The portal's page where a person types a device's code (RFC 8628 `verification_uri`), and with the code filled in
 * (`verification_uri_complete`): the page still asks before anything is granted.
 */
export function deviceVerificationUri(portalUrl: string, userCode?: string): string {
  const page = `${portalUrl}/dispositivo`;
  return userCode === undefined ? page : `${page}?codigo=${encodeURIComponent(userCode)}`;
}

/** Where the portal shows an error the provider cannot send back to the app (a fixed reason, never request text). */
export function errorPageUrl(portalUrl: string, reason: string): string {
  return `${portalUrl}/autorizar/error?motivo=${encodeURIComponent(reason)}`;
}
