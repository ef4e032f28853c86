// What the provider says about a person (OpenID Connect Core §5.1): from the account, and for a client tied to a
// catalogue app, the person's plan there, so the app learns the entitlement from the token.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { plans, userPlans, type User } from '../../db/schema.js';
import { e164Phone } from '../../lib/phone.js';

/** The `plan` claim: the person's plan in the client's app, or null when they have none there. */
export interface PlanClaim {
  id: number;
  nombre: string;
  fechaVencimiento: string | null;
}

export interface PortalClaims {
  [claim: string]: unknown;
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
  given_name: string;
  family_name: string;
  phone_number?: string;
  phone_number_verified?: boolean;
  plan?: PlanClaim | null;
}

/** The subject of a user: the account id, stable for its life and never the email. */
export const subjectOf = (userId: number) => String(userId);

/** The user id behind a subject, or undefined for anything that is not one. */
export function userIdOf(sub: string): number | undefined {
  if (!/^[1-9][0-9]{0,9}$/.test(sub)) return undefined;
  const id = Number(sub);
  return id <= 2_147_483_647 ? id : undefined;
}

export async function planClaim(db: Db, userId: number, appId: number): Promise<PlanClaim | null> {
  const [row] = await db
    .select({ id: plans.id, nombre: plans.nombre, fechaVencimiento: userPlans.fechaVencimiento })
    .from(userPlans)
    .innerJoin(plans, eq(plans.id, userPlans.planId))
    .where(and(eq(userPlans.userId, userId), eq(userPlans.appId, appId)));
  return row ? { id: row.id, nombre: row.nombre, fechaVencimiento: row.fechaVencimiento?.toISOString() ?? null } : null;
}

/** A stored phone in E.164; phones kept from before that rule and no longer readable are left out, not guessed. */
function storedPhone(phone: string): string | undefined {
  if (!phone) return undefined;
  try {
    return e164Phone(phone);
  } catch {
    return undefined;
  }
}

/**
 * Every claim the account has; the provider keeps only those the granted scopes release. An account reaches active
 * only through its emailed code, an administrator's verification, or a provider's verified email: its email is
 * verified. The phone is typed by the person and never proven.
 */
export function accountClaims(user: User, plan: PlanClaim | null | undefined): PortalClaims {
  const phone = storedPhone(user.phone);
  return {
    sub: subjectOf(user.id),
    email: user.email,
    email_verified: true,
    name: [user.name, user.lastName].filter(Boolean).join(' '),
    given_name: user.name,
    family_name: user.lastName,
    ...(phone ? { phone_number: phone, phone_number_verified: false } : {}),
    ...(plan !== undefined ? { plan } : {}),
  };
}
