// The account behind a provider accountId (kept in the session memory), the `sub` each client knows it by, and the
// plan and organization claims kept with it: what the library's findAccount, its claims and introspection answer.
import { eq } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import type { Client, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { Db } from '../../../db/client.js';
import { type User, users } from '../../../db/schema.js';
import { currentRequestAddress } from '../../../lib/request-scope.js';
import {
  accountClaims,
  accountIdOf,
  type EntitlementClaims,
  entitlementClaims,
  type PlanClaim,
  userIdOf,
} from '../claims.js';
import { rolesInAppUntil } from '../../apps-and-plans/app-roles.js';
import { portalFacts } from '../client-facts.js';
import { oidcLifetimes } from './lifetimes.js';
import type { RefreshChecks } from '../portal-sessions.js';
import type { ProviderMemory } from '../provider-memory.js';
import { subjectFor } from '../subjects.js';

/** Where findAccount's claims carry the client's subject of the person (a symbol: never a claim of its own). */
const clientSubject = Symbol('client subject');

/** The account behind a provider accountId, from the session memory when kept there, whatever its status. */
async function accountOf(db: Db, memory: ProviderMemory, accountId: string): Promise<User | undefined> {
  const userId = userIdOf(accountId);
  if (userId === undefined) return undefined;
  const kept = memory.get(userId, 'oidc:account') as User | undefined;
  if (kept) return kept;
  const ticket = memory.ticket();
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return undefined;
  memory.store(ticket, user, 'oidc:account', user);
  return user;
}

/** The account behind a provider accountId, when it is active. */
async function activeAccount(db: Db, memory: ProviderMemory, accountId: string): Promise<User | undefined> {
  const user = await accountOf(db, memory, accountId);
  return user?.status === 'active' ? user : undefined;
}

/** The `sub` a client knows the account behind a provider accountId by, or undefined when there is no such account. */
export async function subjectOfAccount(
  db: Db,
  memory: ProviderMemory,
  client: Client,
  accountId: string,
): Promise<string | undefined> {
  const user = await accountOf(db, memory, accountId);
  return user ? subjectFor(portalFacts(client).subject, user) : undefined;
}

/** Where the plan and organization claims of a client's app (or of no app) are kept with the account. */
export const entitlementKey = (appId: number | null) => `oidc:plan:${appId ?? 'none'}`;

/** Whether kept claims still stand: not past the earliest expiry they name, which no notification announces. */
export const entitlementsStand = (kept: EntitlementClaims, now = Date.now()) => kept.until === null || now < kept.until;

/**
 * The plan claim of a client's app and the organization claim, kept with the account: a change to a plan, seat,
 * membership, company or licence notifies it (migrations 0011, 0020), a second factor too (0021).
 */
export async function keptEntitlementClaims(
  db: Db,
  memory: ProviderMemory,
  user: User,
  appId: number | null,
): Promise<EntitlementClaims> {
  const key = entitlementKey(appId);
  const kept = memory.get(user.id, key) as EntitlementClaims | undefined;
  if (kept && entitlementsStand(kept)) return kept;
  const ticket = memory.ticket();
  const read = await entitlementClaims(db, user.id, appId);
  memory.store(ticket, user, key, read);
  return read;
}

/** Where the `roles` claim of a client's app is kept with the account. */
export const rolesKey = (appId: number) => `oidc:roles:${appId}`;

/** The `roles` claim as kept: the keys, whether the person held the app when read (who gets a default role), until when. */
export interface KeptRoles {
  roles: string[];
  holdsApp: boolean;
  until: number | null;
}

/** Whether kept roles still stand for a person who holds the app (or not) now: read as such, and not past their expiry. */
export const rolesStand = (kept: KeptRoles, holdsApp: boolean, now = Date.now()) =>
  kept.holdsApp === holdsApp && (kept.until === null || now < kept.until);

/**
 * The `roles` claim (scope `roles`) of a client's app, `[]` for a client tied to no app, kept with the account as the
 * plan is: a role given or taken notifies its person, a change to an app's roles everyone (migration 0049), and what
 * decides whether a company's role counts notifies already. `plan` is the person's plan claim there, kept beside it.
 */
export async function keptRolesClaim(
  db: Db,
  memory: ProviderMemory,
  user: User,
  appId: number | null,
  plan: PlanClaim | null | undefined,
): Promise<string[]> {
  if (appId === null) return [];
  const holdsApp = plan != null;
  const key = rolesKey(appId);
  const kept = memory.get(user.id, key) as KeptRoles | undefined;
  if (kept && rolesStand(kept, holdsApp)) return kept.roles;
  const ticket = memory.ticket();
  const read = await rolesInAppUntil(db, user.id, appId, holdsApp);
  memory.store(ticket, user, key, { ...read, holdsApp } satisfies KeptRoles);
  return read.roles;
}

/**
 * The library's `findAccount`: an active account, its claims for the asking client (that client's own `sub` riding
 * along). For a refresh token, only while the portal session behind it stands (portal-sessions.ts): a refresh is where
 * a device, or an app using its refresh token, meets the person's session rules again.
 */
export function accountFinder(db: Db, memory: ProviderMemory, refreshes: RefreshChecks): Configuration['findAccount'] {
  return async (ctx, sub, token) => {
    const user = await activeAccount(db, memory, sub);
    if (!user) return undefined;
    if (
      token?.kind === 'RefreshToken' &&
      !(await refreshes.refreshTokenStands(user, token, oidcLifetimes.refreshToken, currentRequestAddress() ?? ctx.ip))
    )
      return undefined;
    return {
      // The library's accountId stays the account id (sessions, grants and tokens are found by it); the `sub` the
      // client reads (ID token, userinfo) is its own subject.
      accountId: accountIdOf(user.id),
      async claims(_use, scope) {
        const { client } = ctx.oidc;
        if (!client) throw new Error('claims asked for without a client');
        const { appId, subject } = portalFacts(client);
        const kept = await keptEntitlementClaims(db, memory, user, appId);
        const sub = subjectFor(subject, user);
        const roles = scope.split(' ').includes('roles')
          ? await keptRolesClaim(db, memory, user, appId, kept.plan)
          : undefined;
        // The library writes the accountId over `sub` (helpers/account_claims.js): the client's subject rides along
        // under a key no claim filter lets out, and is put back as the claims are masked (clientSubjectClaims).
        return {
          ...accountClaims(user, sub, kept.plan, kept.organization, kept.lapsedPlan, roles),
          [clientSubject]: sub,
        };
      },
    };
  };
}

/**
 * The ID token's and userinfo's `sub`: the client's own subject, which findAccount's claims carry under
 * `clientSubject`, over the accountId the library put there.
 */
export function clientSubjectClaims(provider: Provider): void {
  const maskedClaims = provider.Claims.prototype.result;
  provider.Claims.prototype.result = async function withClientSubject(this: { available: object }) {
    const claims = (await maskedClaims.call(this)) as Record<string, unknown>;
    const own = (this.available as Record<symbol, unknown>)[clientSubject];
    if (typeof own === 'string' && claims.sub !== undefined) claims.sub = own;
    return claims;
  };
}

/**
 * Introspection answers the token's accountId as its `sub` (the account id): the client gets its own subject
 * instead. A token whose account is gone answers inactive, as it will once its rows are deleted.
 */
export function clientSubjectIntrospection(provider: Provider, db: Db, memory: ProviderMemory): void {
  provider.use(async (ctx, next) => {
    await next();
    const { oidc } = ctx as KoaContextWithOIDC;
    if (oidc?.route !== 'introspection' || ctx.status !== 200 || !oidc.client) return;
    const body = ctx.body as { active?: boolean; sub?: unknown; scope?: unknown } | undefined;
    if (!body?.active || typeof body.sub !== 'string') return;
    const sub = await subjectOfAccount(db, memory, oidc.client, body.sub);
    if (sub === undefined) {
      ctx.body = { active: false };
      return;
    }
    // An access token with the scope `roles` carries the roles the person holds now (kept-introspection.ts leaves
    // these tokens to the library).
    const user = await activeAccount(db, memory, body.sub);
    const withRoles = typeof body.scope === 'string' && body.scope.split(' ').includes('roles');
    if (withRoles && user) {
      const { appId } = portalFacts(oidc.client);
      const kept = await keptEntitlementClaims(db, memory, user, appId);
      ctx.body = { ...body, sub, roles: await keptRolesClaim(db, memory, user, appId, kept.plan) };
    } else ctx.body = { ...body, sub };
  });
}
