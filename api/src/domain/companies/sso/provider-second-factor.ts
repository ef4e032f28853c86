// The company's own second factor, believed when the company says so (docs/decisions/0144-company-provider-second-factor.md):
// with `confiarSegundoFactorDelProveedor`, a company sign-in whose provider says it proved more than one factor
// becomes a portal session that proved a second factor (`acr` urn:portal:acr:2, `amr` with 'mfa'), and an app's
// step-up is met without a second prompt. Without it, nothing the provider says changes the session.
import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { companies } from '../../../db/schema.js';

/** RFC 8176 `amr` values of an OpenID Connect ID token that name a second factor (or a key held). */
export const secondFactorAmr = ['mfa', 'otp', 'hwk', 'swk'] as const;

/** SAML AuthnContextClassRef values that say a second factor was proved: REFEDS MFA and Entra ID's. */
export const secondFactorClasses = [
  'https://refeds.org/profile/mfa',
  'http://schemas.microsoft.com/claims/multipleauthn',
] as const;

/** Whether an ID token's `amr` (as sent: anything) names a second factor. */
export const amrProvesSecondFactor = (amr: unknown): boolean =>
  Array.isArray(amr) && amr.some((value) => (secondFactorAmr as readonly unknown[]).includes(value));

/** Whether an assertion's AuthnContextClassRef names a second factor. */
export const classProvesSecondFactor = (classRef: string | undefined): boolean =>
  (secondFactorClasses as readonly (string | undefined)[]).includes(classRef?.trim());

/** Whether the company believes its provider's second factor (`confiarSegundoFactorDelProveedor`). */
export async function companyTrustsProviderSecondFactor(db: Db, companyId: number): Promise<boolean> {
  const [row] = await db
    .select({ trusted: companies.trustProviderSecondFactor })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row?.trusted === true;
}
