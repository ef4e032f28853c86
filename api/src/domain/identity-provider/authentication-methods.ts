// How the person signed in, as an app reads it: from the ID token (docs/decisions/0104-amr-and-acr.md), `amr` with
// RFC 8176 values and `acr`, a level of this portal's own; from a SAML assertion, its AuthnContextClassRef
// (docs/decisions/0117-assertion-authentication-classes.md).
import { methodOfSession } from '../sign-in-limits/company-rules.js';

/** One factor (a password, Google, Apple, the company's provider) / a second one proved too (or a passkey). */
export const acrValues = ['urn:portal:acr:1', 'urn:portal:acr:2'] as const;

/**
 * `amr` and `acr` of a portal session: 'pwd' for a password, 'hwk' and 'user' for a passkey (a key held and the
 * person verified on it), 'fed' for Google, Apple and the company's own provider; 'mfa' beside them when the
 * sign-in proved a second factor. Sessions from before methods were recorded count as a password's.
 */
export function authenticationOf(session: { method: string | null; secondFactor: boolean }): {
  amr: string[];
  acr: (typeof acrValues)[number];
} {
  const method = methodOfSession(session.method);
  const base = method === 'contrasena' ? ['pwd'] : method === 'llave' ? ['hwk', 'user'] : ['fed'];
  return session.secondFactor
    ? { amr: [...base, 'mfa'], acr: 'urn:portal:acr:2' }
    : { amr: base, acr: 'urn:portal:acr:1' };
}

type AcrRequest = { essential?: unknown; value?: unknown; values?: unknown };

/** The `acr` requests of a `claims` parameter (OpenID Connect Core §5.5.1.1): the ID token's and userinfo's. */
function acrClaimsOf(claims: unknown): AcrRequest[] {
  let parsed = claims;
  if (typeof parsed === 'string') {
    try {
      parsed = JSON.parse(parsed);
    } catch {
      return [];
    }
  }
  const members = parsed as { id_token?: { acr?: unknown }; userinfo?: { acr?: unknown } } | null | undefined;
  return [members?.id_token?.acr, members?.userinfo?.acr].filter(
    (acr): acr is AcrRequest => typeof acr === 'object' && acr !== null,
  );
}

const valuesOf = (acr: AcrRequest): string[] => [
  ...(typeof acr.value === 'string' ? [acr.value] : []),
  ...(Array.isArray(acr.values) ? acr.values.filter((value): value is string => typeof value === 'string') : []),
];

/**
 * The `acr` values an authorization request asks for: `acr_values` (a voluntary claim, which the portal still
 * honours) and the `acr` of `claims`, for the ID token or userinfo (essential or not, `value` or `values`).
 */
export function acrAsked(params: { acr_values?: unknown; claims?: unknown }): string[] {
  const asked = typeof params.acr_values === 'string' ? params.acr_values.split(' ').filter(Boolean) : [];
  return [...asked, ...acrClaimsOf(params.claims).flatMap(valuesOf)];
}

/** The `acr` values a request names as essential in `claims`: one of them must be met, or the sign-in fails. */
export const essentialAcrAsked = (params: { claims?: unknown }): string[] =>
  acrClaimsOf(params.claims)
    .filter((acr) => acr.essential === true)
    .flatMap(valuesOf);

/** Whether the request asks for a second factor: `urn:portal:acr:2` among the `acr` values it names. */
export const secondFactorAsked = (params: { acr_values?: unknown; claims?: unknown }) =>
  acrAsked(params).includes(acrValues[1]);

/** The SAML authentication context classes the portal's assertions name. */
export const authnContextClasses = {
  /** A password alone. */
  password: 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport',
  /** A second factor (TOTP, a recovery code) or a passkey proved: REFEDS MFA. */
  mfa: 'https://refeds.org/profile/mfa',
  /** One factor proved by a provider the portal trusts (Google, Apple, the company's own): REFEDS SFA. */
  federated: 'https://refeds.org/profile/sfa',
} as const;
