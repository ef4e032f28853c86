// What a SAML app's RequestedAuthnContext asks of the sign-in, and the class an assertion answers it with, as SAML
// Core 3.3.2.2.1 says for each Comparison (docs/decisions/0149-step-up-at-every-door.md), against the classes the
// portal gives (docs/decisions/0117-assertion-authentication-classes.md).
import type { SamlAuthnComparison } from '../../../db/schema.js';
import { authnContextClasses } from '../authentication-methods.js';

/** A RequestedAuthnContext: its classes, in the app's order of preference, and how they are compared. */
export interface RequestedAuthnContext {
  comparison: SamlAuthnComparison;
  classes: string[];
}

/** How strong each class the portal gives is: one factor (a password, a trusted provider's sign-in), or two. */
const strength: Readonly<Record<string, number>> = {
  [authnContextClasses.password]: 1,
  [authnContextClasses.federated]: 1,
  [authnContextClasses.mfa]: 2,
};
const strengthOf = (name: string) => (Object.hasOwn(strength, name) ? strength[name] : undefined);

/**
 * The classes a portal session truly is, from its `amr` (authentication-methods.ts `authenticationOf`), the strongest
 * first: a second factor or a passkey is REFEDS MFA; the password (PasswordProtectedTransport) or the trusted
 * provider (REFEDS SFA) it began with stays true of it beside MFA. A passkey's session proved no password.
 */
export function classesOfSession(amr: readonly string[]): string[] {
  const met: string[] = [];
  if (amr.includes('mfa') || amr.includes('hwk')) met.push(authnContextClasses.mfa);
  if (amr.includes('fed')) met.push(authnContextClasses.federated);
  else if (amr.includes('pwd')) met.push(authnContextClasses.password);
  return met;
}

/**
 * The AuthnContextClassRef an assertion answers `requested` with for a session of `amr`, or undefined when the
 * session cannot meet it (the app is answered Responder/NoAuthnContext). Without a RequestedAuthnContext, the
 * strongest class of the session. Classes the portal never gives count for none of the comparisons: it cannot deem
 * them weaker or stronger than its own.
 */
export function answeringClass(
  requested: RequestedAuthnContext | undefined,
  amr: readonly string[],
): string | undefined {
  const met = classesOfSession(amr);
  if (!requested) return met[0];
  if (requested.comparison === 'exact') return requested.classes.find((name) => met.includes(name));
  const known = requested.classes.map(strengthOf).filter((value): value is number => value !== undefined);
  if (known.length === 0) return undefined;
  const weakest = Math.min(...known);
  const best = met[0];
  const bestStrength = best === undefined ? 0 : (strengthOf(best) ?? 0);
  if (requested.comparison === 'minimum') return bestStrength >= weakest ? best : undefined;
  if (requested.comparison === 'better') return bestStrength > weakest ? best : undefined;
  // maximum: as strong as the session is, without exceeding the strongest class named.
  const strongest = Math.max(...known);
  return met.find((name) => (strengthOf(name) ?? 0) <= strongest);
}

/** Whether a second factor proved in this sign-in is what the session lacks to meet `requested` (step-up). */
export function secondFactorMeets(requested: RequestedAuthnContext | undefined, amr: readonly string[]): boolean {
  return (
    requested !== undefined &&
    answeringClass(requested, amr) === undefined &&
    answeringClass(requested, [...amr, 'mfa']) !== undefined
  );
}

/** Every way a portal session can be signed in, as `amr`: a password, a passkey, a trusted provider; and with MFA. */
const everySession: readonly (readonly string[])[] = [
  ['pwd'],
  ['pwd', 'mfa'],
  ['hwk', 'user'],
  ['fed'],
  ['fed', 'mfa'],
];

/** Whether no portal session at all could meet `requested`: the app is answered at once, nobody is asked anything. */
export const neverMet = (requested: RequestedAuthnContext): boolean =>
  everySession.every((amr) => answeringClass(requested, amr) === undefined);

/**
 * An xs:boolean attribute (ForceAuthn, IsPassive), its XML whitespace collapsed: 'true' or '1', 'false' or '0'; absent
 * is false. Anything else is not an xs:boolean (undefined): the request is malformed, never quietly read as false.
 */
export function xsBoolean(value: unknown): boolean | undefined {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'string') return undefined;
  const collapsed = value.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
  if (collapsed === 'true' || collapsed === '1') return true;
  if (collapsed === 'false' || collapsed === '0') return false;
  return undefined;
}
