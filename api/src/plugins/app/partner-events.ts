import fp from 'fastify-plugin';
import { createPartnerEventsWorker, type PartnerEventsWorker } from '../../domain/partner-events/worker.js';
import type { SubscriptionDeps } from '../../domain/partner-events/subscriptions.js';
import { openWakeChannel } from '../../db/wake-channel.js';
import { outboundFetch } from '../../lib/outbound/special-use.js';
import { sealingKey } from '../../lib/sealed.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Events for partner apps (docs/decisions/0085-partner-events.md): the subscriptions' dependencies for the admin
     * routes, and this instance's fan-out, sender and expiry job.
     */
    partnerEvents: { subscriptions: SubscriptionDeps; worker: PartnerEventsWorker };
  }
}

/** Migration 0025's triggers notify it when they write an event. */
const eventsChannel = 'portal_partner_events';

export default fp(
  async (app) => {
    const key = sealingKey(app.signingKey.privateKey, 'portal partner subscription secret');
    // Event endpoints follow the back-channel logouts' rule: private and loopback addresses only where the operator
    // allowed those (OIDC_BACKCHANNEL_PRIVATE_NETWORK); otherwise each connection is checked where it lands.
    const privateNetwork = app.config.oidcBackchannelPrivateNetwork;
    const worker = createPartnerEventsWorker({
      db: app.db,
      clock: app.clock,
      sealingKey: key,
      fetch: outboundFetch(privateNetwork),
      timeoutMs: app.config.partnerEventsTimeoutMs,
      metrics: app.metrics,
      log: app.log,
      databaseLost: (error) => app.databaseOutage.lost(error),
    });
    // Woken at once when an event is queued, the channel opened again after the database restarts; the poll otherwise.
    const listener = app.worksQueues
      ? openWakeChannel(app.database, eventsChannel, () => worker.wake(), app.log, 'partner events')
      : undefined;
    await listener?.ready;
    app.addHook('onReady', async () => {
      if (app.worksQueues) worker.start();
    });
    app.addHook('onClose', async () => {
      await listener?.close();
      await worker.close();
    });
    app.decorate('partnerEvents', {
      subscriptions: { db: app.db, sealingKey: key, privateNetwork, now: app.clock },
      worker,
    });
  },
  { name: 'partner-events', dependencies: ['database', 'tokens', 'metrics', 'counters'] },
);
