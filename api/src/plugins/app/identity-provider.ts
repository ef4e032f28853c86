import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type Provider from 'oidc-provider';
import { createLogoutDeliveries } from '../../domain/identity-provider/oidc/logout-deliveries.js';
import type { LogoutQueue } from '../../domain/identity-provider/logout-queue.js';
import { devicePollIntervalSeconds } from '../../domain/identity-provider/oidc/device.js';
import { createIdentityProvider } from '../../domain/identity-provider/oidc/provider.js';
import { createRefreshChecks, type RefreshChecks } from '../../domain/identity-provider/portal-sessions.js';
import { createProviderMemory } from '../../domain/identity-provider/provider-memory.js';
import {
  createKeptIntrospection,
  type KeptIntrospection,
} from '../../domain/identity-provider/oidc/kept-introspection.js';
import { createKeptUserinfo, type KeptUserinfo } from '../../domain/identity-provider/oidc/kept-userinfo.js';
import { openWakeChannel } from '../../db/wake-channel.js';
import { currentRequestLog } from '../../lib/request-scope.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The portal's OpenID Connect provider (docs/decisions/0055-openid-connect-provider.md), its logout queue, and the
     * userinfo and introspection answers made from the session memory.
     */
    identityProvider: {
      provider: Provider;
      logouts: LogoutQueue;
      keptUserinfo: KeptUserinfo;
      keptIntrospection: KeptIntrospection;
      /** Whether a refresh token still stands for its portal session, answered from memory where it can be. */
      refreshes: RefreshChecks;
    };
  }
}

/** The provider's channel: migration 0018's triggers notify it when they queue back-channel logouts. */
const logoutChannel = 'portal_oidc_logout';

export default fp(
  async (app) => {
    let logouts: LogoutQueue | undefined;
    const memory = createProviderMemory(app.sessionState);
    const refreshes = createRefreshChecks(app.db, memory);
    const provider = await createIdentityProvider({
      db: app.db,
      issuer: app.config.oidcIssuer,
      portalUrl: app.config.portalUrl,
      signingKey: app.signingKey,
      backchannelPrivateNetwork: app.config.oidcBackchannelPrivateNetwork,
      defaultSessionTtlSeconds: app.config.tokenTtlSeconds,
      memory,
      refreshes,
      logoutsQueued: () => {
        if (app.worksQueues) logouts?.wake();
      },
      // The device code is a secret: the counter is keyed by its hash.
      devicePollTooSoon: async (deviceCode) =>
        (await app.counters.hold(
          `device-poll:${createHash('sha256').update(deviceCode).digest('base64url')}`,
          devicePollIntervalSeconds * 1000,
        )) > 0,
      events: {
        tokenIssued: (grantType) => app.metrics.oidcTokensIssued(grantType),
        // Raised while the provider answers a request: logged with that request's id.
        serverError: (error) => (currentRequestLog() ?? app.log).error({ err: error }, 'OpenID Connect provider error'),
      },
    });
    logouts = createLogoutDeliveries({
      db: app.db,
      provider,
      metrics: app.metrics,
      log: app.log,
      databaseLost: (error) => app.databaseOutage.lost(error),
    });
    const deliveries = logouts;
    // Woken at once when a logout is queued, the channel opened again after the database restarts; without a channel
    // (or while it is down) the loop's poll still finds them.
    const listener = app.worksQueues
      ? openWakeChannel(app.database, logoutChannel, () => deliveries.wake(), app.log, 'back-channel logouts')
      : undefined;
    await listener?.ready;
    app.addHook('onReady', async () => {
      if (app.worksQueues) deliveries.start();
    });
    app.addHook('onClose', async () => {
      await listener?.close();
      await deliveries.close();
    });
    app.decorate('identityProvider', {
      provider,
      logouts: deliveries,
      keptUserinfo: createKeptUserinfo(provider, memory),
      keptIntrospection: createKeptIntrospection(provider, memory),
      refreshes,
    });
  },
  { name: 'identity-provider', dependencies: ['database', 'tokens', 'metrics', 'session-memory', 'counters'] },
);
