// What the provider does at a logout: an app's RP-initiated logout asks the person on the portal's page, and every
// back-channel logout is queued, then delivered, retried and audited by the loop (logout-deliveries.ts), never on the
// request.
import type Provider from 'oidc-provider';
import type { Client, Configuration } from 'oidc-provider';
import type { Db } from '../../../db/client.js';
import { oidcLogoutDeliveries } from '../../../db/schema.js';
import { subjectOfAccount } from './account-lookup.js';
import { logoutPage } from './logout-page.js';
import type { ProviderMemory } from '../provider-memory.js';

/** Why a provider session's apps are being told to log out: written with each delivery, read in the audit log. */
export type LogoutReason =
  | 'logout'
  | 'rp_logout'
  | 'access_revoked'
  | 'credentials_changed'
  | 'account_suspended'
  | 'account_pending_verification'
  | 'account_deleted';

/** The library's `rpInitiatedLogout` feature: the portal's own page asks, and a finished logout lands on /login. */
export function rpInitiatedLogout(
  db: Db,
  memory: ProviderMemory,
  portalUrl: string,
): NonNullable<Configuration['features']>['rpInitiatedLogout'] {
  return {
    enabled: true,
    async logoutSource(ctx, form) {
      const page = await logoutPage(ctx, form, (client, accountId) => subjectOfAccount(db, memory, client, accountId));
      ctx.set('content-security-policy', page.contentSecurityPolicy);
      ctx.body = page.html;
    },
    async postLogoutSuccessSource(ctx) {
      ctx.status = 303;
      ctx.redirect(`${portalUrl}/login`);
    },
  };
}

/**
 * Sends one back-channel logout with the library's own implementation (logout token signed, posted, status checked);
 * `sub` is the client's own subject of the person (subjects.ts), not the accountId the library would put there.
 */
export type BackchannelSender = (client: Client, sub: string, sid: string) => Promise<void>;
const backchannelSenders = new WeakMap<Provider, BackchannelSender>();
export function backchannelSender(provider: Provider): BackchannelSender {
  const send = backchannelSenders.get(provider);
  if (!send) throw new Error('not a provider made by createIdentityProvider');
  return send;
}

/** Every back-channel logout goes through the queue; the library's own sending is kept for the loop (backchannelSender). */
export function queueBackchannelLogouts(provider: Provider, db: Db, logoutsQueued: () => void): void {
  const deliver = provider.Client.prototype.backchannelLogout as (
    this: Client,
    sub: string,
    sid: string,
  ) => Promise<void>;
  provider.Client.prototype.backchannelLogout = async function queueBackchannelLogout(
    this: Client,
    sub: string,
    sid: string,
  ) {
    await queueLogout(db, this.clientId, sub, sid, 'rp_logout');
    logoutsQueued();
  };
  backchannelSenders.set(provider, (client, sub, sid) => deliver.call(client, sub, sid));
}

export async function queueLogout(db: Db, clientId: string, sub: string, sid: string, reason: LogoutReason) {
  await db
    .insert(oidcLogoutDeliveries)
    .values({ clientId, accountId: sub, sid, reason })
    .onConflictDoNothing({ target: [oidcLogoutDeliveries.clientId, oidcLogoutDeliveries.sid] });
}
