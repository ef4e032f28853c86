// The scopes a client may ask for, what each reveals, and how the consent screen and /perfil name it.

/** Every scope the provider knows, in the order the consent screen lists them. */
export const oidcScopes = [
  'openid',
  'profile',
  'email',
  'phone',
  'plan',
  'roles',
  'organization',
  'offline_access',
] as const;
export type OidcScope = (typeof oidcScopes)[number];

/** The claims each scope releases (OpenID Connect Core §5.4, `plan` of ours, Keycloak's `organization`). */
export const scopeClaims: Record<Exclude<OidcScope, 'offline_access'>, readonly string[]> = {
  openid: ['sub'],
  profile: ['name', 'given_name', 'family_name'],
  email: ['email', 'email_verified'],
  phone: ['phone_number', 'phone_number_verified'],
  // `plan_vencido`: the person's own plan there once its expiry has passed (claims.ts).
  plan: ['plan', 'plan_vencido'],
  // The keys of the roles the person holds in the client's own app (domain/apps-and-plans/app-roles.ts).
  roles: ['roles'],
  // Keycloak's scope and claim name, so partner libraries that know Keycloak's organizations read it as is.
  organization: ['organization'],
};

/** What a person reads for each scope, after '{app} podrá:' on the consent screen and in /perfil. */
export const scopeDescriptions: Record<OidcScope, string> = {
  openid: 'Saber quién eres (un identificador de tu cuenta, nunca tu contraseña)',
  profile: 'Ver tu nombre y apellido',
  email: 'Ver tu email',
  phone: 'Ver tu teléfono',
  plan: 'Ver tu plan en esta aplicación y su vencimiento',
  roles: 'Ver tus roles en esta aplicación',
  organization: 'Ver las empresas a las que perteneces y tu rol en cada una',
  offline_access: 'Seguir conectada a tu cuenta aunque no la estés usando',
};

export function isOidcScope(value: string): value is OidcScope {
  return (oidcScopes as readonly string[]).includes(value);
}

/** The scopes of a space-separated list, known ones only, in catalogue order, without repeats. */
export function knownScopes(scopes: Iterable<string>): OidcScope[] {
  const given = new Set(scopes);
  return oidcScopes.filter((scope) => given.has(scope));
}

export function describeScopes(scopes: Iterable<string>): { scope: OidcScope; descripcion: string }[] {
  return knownScopes(scopes).map((scope) => ({ scope, descripcion: scopeDescriptions[scope] }));
}
