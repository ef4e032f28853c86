// How the person signed in, as an app reads it from the ID token (docs/decisions/0104-amr-and-acr.md): `amr` with
// RFC 8176 values and `acr`, a level of this portal's own.
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
