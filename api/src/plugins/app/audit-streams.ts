import fp from 'fastify-plugin';
import { companyFeed } from '../../domain/audit/ecs.js';
import type { AuditStreamDeps } from '../../domain/audit-streams/destinations.js';
import { type AuditStreamWorker, createAuditStreamWorker } from '../../domain/audit-streams/worker.js';
import { sealingKey } from '../../lib/sealed.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * A company's activity log streamed to its SIEM (docs/decisions/0139-audit-streams.md): the destinations'
     * dependencies for the company routes, and this instance's sender.
     */
    auditStreams: {
      destinations: AuditStreamDeps;
      worker: AuditStreamWorker;
      /** The company's log read by a collector, by the sealed cursor (docs/decisions/0127-activity-log-as-ecs.md). */
      feed(companyId: number, desde: string | undefined, limit: number): ReturnType<typeof companyFeed>;
    };
  }
}

export default fp(
  async (app) => {
    const key = sealingKey(app.signingKey.privateKey, 'portal audit stream secret');
    // The partner events' rule: private and loopback addresses only where the operator allowed those
    // (OIDC_BACKCHANNEL_PRIVATE_NETWORK); otherwise each connection is checked where it lands.
    const privateNetwork = app.config.oidcBackchannelPrivateNetwork;
    const worker = createAuditStreamWorker({
      db: app.db,
      clock: app.clock,
      sealingKey: key,
      privateNetwork,
      timeoutMs: app.config.partnerEventsTimeoutMs,
      hostname: new URL(app.config.apiPublicUrl).hostname,
      mailer: app.mailer,
      portalUrl: app.config.portalUrl,
      log: app.log,
      databaseLost: (error) => app.databaseOutage.lost(error),
    });
    // Woken as soon as entries take their places, on whichever instance.
    app.auditLog.onPlaced(() => worker.wake());
    app.addHook('onReady', async () => {
      if (app.worksQueues) worker.start();
    });
    app.addHook('onClose', () => worker.close());
    const cursorKey = sealingKey(app.signingKey.privateKey, 'portal audit log cursor');
    app.decorate('auditStreams', {
      destinations: { db: app.db, sealingKey: key, privateNetwork, now: app.clock },
      worker,
      // Every entry committed before the call is placed first: a collector reads what it just did.
      feed: async (companyId, desde, limit) => {
        await app.auditLog.sequencer.run();
        return companyFeed(app.db, cursorKey, companyId, desde, limit);
      },
    });
  },
  { name: 'audit-streams', dependencies: ['database', 'tokens', 'mailer', 'audit-log'] },
);
