/**
 * When an OpenID Connect client needs a return address (docs/decisions/0086-device-sign-in.md), one rule for the API
 * (which refuses the client without one) and the admin form (which asks for one, or says none is needed).
 */

/**
 * Always, except for a public client that signs in on devices (RFC 8628): a panel or a command-line tool has no browser
 * to come back to, and without one the client has no code flow at all.
 */
export function redirectUrisRequired(client: { publico: boolean; dispositivos: boolean }): boolean {
  return !(client.publico && client.dispositivos);
}
