// An app role's key: what partner apps read in the claim and the SAML attribute `roles` (docs/decisions/0134-app-roles.md).
// The API's schema refuses any other; the admin panel says why before sending.

export const ROLE_KEY_MAX_LENGTH = 40;
/** Lower-case letters, digits, '-' and '_' (a JSON Schema pattern, as the API's schema takes it). */
export const ROLE_KEY_PATTERN = '^[a-z0-9_-]+$';

export function isRoleKey(value: string): boolean {
  return value.length <= ROLE_KEY_MAX_LENGTH && new RegExp(ROLE_KEY_PATTERN).test(value);
}
