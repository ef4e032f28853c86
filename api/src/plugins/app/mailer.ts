import fp from 'fastify-plugin';
import { consoleTransport, type Mailer, type MailTransport, smtpTransport } from '../../domain/mail/mailer.js';
import { createOutboxMailer } from '../../domain/mail/outbox.js';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export interface MailerPluginOptions {
  /** Replaces the transport chosen from the configuration (tests capture mails). */
  transport?: MailTransport;
}

export default fp<MailerPluginOptions>(
  async (app, options) => {
    const { config } = app;
    const transport =
      options.transport ??
      (config.smtpUrl
        ? smtpTransport(config.smtpUrl, config.mailFrom)
        : consoleTransport((text) => {
            if (config.logLevel !== 'silent') process.stdout.write(text);
          }));
    const outbox = createOutboxMailer({
      db: app.db,
      clock: app.clock,
      transport,
      log: app.log,
      databaseLost: (error) => app.databaseOutage.lost(error),
      metrics: app.metrics,
    });
    app.addHook('onReady', async () => {
      if (app.worksQueues) outbox.start();
    });
    app.addHook('onClose', () => outbox.close());
    const { enqueue, wake, later, deliverDue } = outbox;
    app.decorate('mailer', { enqueue, wake, later, deliverDue } satisfies Mailer);
  },
  { name: 'mailer', dependencies: ['database', 'counters', 'metrics'] },
);
