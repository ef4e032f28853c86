import { sql } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { rowsOf } from '../../db/client.js';
import { openWakeChannel } from '../../db/wake-channel.js';
import { type AuditSequencer, createAuditSequencer } from '../../domain/audit/positions.js';
import { isDatabaseUnavailable } from '../../lib/errors.js';

/** The companies whose entries just took their places, or '*': any may have (a channel opened again). */
export type PlacedCompanies = number[] | '*';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The places of the companies' entries in their streams (docs/decisions/0162-audit-positions-after-commit.md):
     * this instance's sequencer, and who hears of new places, whichever instance gave them.
     */
    auditLog: {
      sequencer: AuditSequencer;
      onPlaced(listener: (companies: PlacedCompanies) => void): void;
    };
  }
}

export default fp(
  async (app) => {
    const sequencer = createAuditSequencer({
      db: app.db,
      reportFailure: (error) => {
        if (isDatabaseUnavailable(error)) app.databaseOutage.lost(error);
        else app.log.error({ err: error }, 'placing audit entries failed');
      },
    });
    const listeners: ((companies: PlacedCompanies) => void)[] = [];
    const placed = (companies: PlacedCompanies) => {
      for (const listener of listeners) listener(companies);
    };
    // One channel for both: an entry committed (no payload) and the companies a sequencer placed entries of.
    const heard = (payload?: string) => {
      if (payload === undefined || payload === '') sequencer.wake();
      if (payload === undefined || payload === '*') placed('*');
      else if (payload !== '') placed(payload.split(',').map(Number));
    };
    const [row] = await rowsOf<{ channel: string }>(app.db, sql`SELECT portal_audit_channel() AS channel`);
    const listener =
      app.worksQueues && row
        ? openWakeChannel(app.database, row.channel, heard, app.log, 'audit log places')
        : undefined;
    // Once listening, the channel wakes the sequencer: what committed while no instance listened takes its place.
    await listener?.ready;
    app.addHook('onClose', async () => {
      await listener?.close();
      await sequencer.close();
    });
    app.decorate('auditLog', { sequencer, onPlaced: (listener) => void listeners.push(listener) });
  },
  { name: 'audit-log', dependencies: ['database'] },
);
