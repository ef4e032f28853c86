// What the provider says about a person (OpenID Connect Core §5.1): from the account, and for a client tied to a
// catalogue app, the person's plan there, so the app learns the entitlement from the token.
import type { Db } from '../../db/client.js';
import type { User } from '../../db/schema.js';
import { e164Phone } from '../../lib/phone.js';
import { rolesInApp } from '../apps-and-plans/app-roles.js';
import { entitlements, organizationClaim, type PlanOrigin } from '../apps-and-plans/effective-plans.js';

/**
 * The `plan` claim: the person's plan in the client's app by the one plan rule (their own or a company seat), or
 * null when none is named there.
 */
export interface PlanClaim {
  id: number;
  nombre: string;
  fechaVencimiento: string | null;
  origen: PlanOrigin;
  empresa: { id: number; nombre: string } | null;
}

/**
 * The `plan_vencido` claim (scope `plan`): the person's own plan in the client's app whose expiry has passed, present
 * only while it stays so. `plan` then names what the person has now (the app's free plan, or null): an app that reads
 * the plan's name alone never keeps giving a lapsed plan, and one that wants to say so reads this claim.
 */
export interface LapsedPlanClaim {
  id: number;
  nombre: string;
  fechaVencimiento: string;
}

/** The `organization` claim (scope `organization`): Keycloak's shape, by company name, with its id and the roles. */
export type OrganizationClaim = Record<string, { id: string; roles: string[] }>;

/** What the claims say beyond the account, read together and kept together (oidc/account-lookup.ts). */
export interface EntitlementClaims {
  /** Undefined for a client tied to no catalogue app (no `plan` claim at all). */
  plan: PlanClaim | null | undefined;
  /** Undefined unless the person's own plan in the client's app has lapsed. */
  lapsedPlan?: LapsedPlanClaim;
  organization: OrganizationClaim;
  /** The earliest expiry named (epoch ms): not used from then on. Null: none. */
  until: number | null;
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
  plan_vencido?: LapsedPlanClaim;
  organization?: OrganizationClaim;
  roles?: string[];
}

/**
 * The provider's accountId of a user: the account id, inside the portal only (sessions, grants, tokens). The `sub` an
 * app is given is made by subjects.ts from the client's kind.
 */
export const accountIdOf = (userId: number) => String(userId);

/** The user id behind a provider accountId, or undefined for anything that is not one. */
export function userIdOf(sub: string): number | undefined {
  if (!/^[1-9][0-9]{0,9}$/.test(sub)) return undefined;
  const id = Number(sub);
  return id <= 2_147_483_647 ? id : undefined;
}

/** The plan claim of `appId` (null: no app) and the organization claim, in one read. */
export async function entitlementClaims(db: Db, userId: number, appId: number | null): Promise<EntitlementClaims> {
  // Without an app, only the memberships matter: app id 0 names no app, so no plan row is read.
  const read = await entitlements(db, userId, { appId: appId ?? 0 });
  const entry = read.plans[0];
  const plan =
    appId === null
      ? undefined
      : entry
        ? {
            id: entry.plan.id,
            nombre: entry.plan.nombre,
            fechaVencimiento: entry.fechaVencimiento?.toISOString() ?? null,
            origen: entry.origen,
            empresa: entry.empresa,
          }
        : null;
  const lapsed = appId === null ? undefined : read.lapsed[0];
  return {
    plan,
    ...(lapsed
      ? {
          lapsedPlan: {
            id: lapsed.plan.id,
            nombre: lapsed.plan.nombre,
            fechaVencimiento: lapsed.fechaVencimiento.toISOString(),
          },
        }
      : {}),
    organization: organizationClaim(read.empresas),
    until: appId === null ? null : read.validUntil,
  };
}

/**
 * The `roles` claim (scope `roles`): the keys the person holds in the client's app, `[]` for a client tied to no app.
 * Read afresh, for a SAML assertion and a partner event; the OpenID Connect claim is kept with the account instead
 * (oidc/account-lookup.ts, decision 0145).
 */
export async function rolesClaim(db: Db, userId: number, appId: number | null, plan: PlanClaim | null | undefined) {
  return appId === null ? [] : rolesInApp(db, userId, appId, plan != null);
}

/** The plan claim alone. */
export async function planClaim(db: Db, userId: number, appId: number): Promise<PlanClaim | null> {
  return (await entitlementClaims(db, userId, appId)).plan ?? null;
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
 * verified. The phone is typed by the person and never proven. `sub` is the client's subject of the person (subjects.ts).
 */
export function accountClaims(
  user: User,
  sub: string,
  plan: PlanClaim | null | undefined,
  organization?: OrganizationClaim,
  lapsedPlan?: LapsedPlanClaim,
  roles?: string[],
): PortalClaims {
  const phone = storedPhone(user.phone);
  return {
    sub,
    email: user.email,
    email_verified: true,
    name: [user.name, user.lastName].filter(Boolean).join(' '),
    given_name: user.name,
    family_name: user.lastName,
    ...(phone ? { phone_number: phone, phone_number_verified: false } : {}),
    ...(plan !== undefined ? { plan } : {}),
    ...(plan !== undefined && lapsedPlan ? { plan_vencido: lapsedPlan } : {}),
    ...(organization !== undefined ? { organization } : {}),
    ...(roles !== undefined ? { roles } : {}),
  };
}
