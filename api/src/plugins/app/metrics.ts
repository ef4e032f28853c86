// The one owner of the API's Prometheus metrics (docs/decisions/0053-metrics.md): a registry per app instance, the
// request histogram, the counters the domain reports through `app.metrics`, the figures read at scrape time, and
// where `/metrics` is served. Labels carry route patterns and fixed words only, never an id, an email or an address.
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CodeMetrics } from '../../domain/account-codes/codes.js';
import type { LogoutDeliveryMetrics } from '../../domain/identity-provider/oidc/logout-deliveries.js';
import { outboxBacklog } from '../../domain/mail/outbox.js';
import type { PartnerDeliveryMetrics } from '../../domain/partner-events/deliveries.js';
import { partnerBacklog } from '../../domain/partner-events/worker.js';
import type { LockMetrics } from '../../domain/sign-in-limits/limits.js';
import { HttpError, messages } from '../../lib/errors.js';

export type SignInMethod = 'password' | 'passkey' | 'google' | 'apple' | 'second_step';
/**
 * `success`: a session started; `failure`: wrong password, code or passkey; `locked`: refused unseen while a sign-in
 * lock holds; `second_step`: right password, the second factor asked for; `refused`: right credentials for an account
 * that may not sign in (suspended, waiting for its code).
 */
export type SignInResult = 'success' | 'failure' | 'locked' | 'second_step' | 'refused';

export interface Metrics extends CodeMetrics, LockMetrics, LogoutDeliveryMetrics, PartnerDeliveryMetrics {
  readonly registry: Registry;
  signIn(method: SignInMethod, result: SignInResult): void;
  /** The OpenID Connect provider issued tokens at its token endpoint, by grant type. */
  oidcTokensIssued(grantType: string): void;
  mailSendFailed(): void;
  mailSent(): void;
  /** A statement failed, whatever the reason. */
  databaseFailure(): void;
  /** The Prometheus text of a scrape, with the figures read from the database now. */
  scrape(): Promise<string>;
  /** Starts the listener of METRICS_PORT on METRICS_HOST when configured; answers its address, else undefined. */
  listen(): Promise<string | undefined>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** The route label of a request no route matched: its raw URL could be anything a client typed. */
export const unmatchedRoute = 'unmatched';
const metricsPath = '/metrics';

/** A counter whose value lives elsewhere (the session memory's own tally), read at scrape time. */
function mirroredCounter(registry: Registry, name: string, help: string, read: () => number | undefined) {
  return new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const value = read();
      this.reset();
      if (value) this.inc(value);
    },
  });
}

function createMetrics(app: FastifyInstance): Omit<Metrics, 'scrape' | 'listen'> & { refresh(): Promise<void> } {
  const registry = new Registry();
  // Node's own figures under their usual names (process_*, nodejs_*), which existing dashboards expect.
  collectDefaultMetrics({ register: registry });

  const requestDuration = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern, method and status class',
    labelNames: ['route', 'method', 'status_class'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // One child per series, kept: prom-client builds and hashes a label object per `observe(labels, …)` call.
  const seriesOf = new Map<string, ReturnType<typeof requestDuration.labels>>();
  const series = (route: string, method: string, statusClass: string) => {
    const key = `${route} ${method} ${statusClass}`;
    let child = seriesOf.get(key);
    if (!child) {
      child = requestDuration.labels(route, method, statusClass);
      seriesOf.set(key, child);
    }
    return child;
  };
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    if (route !== metricsPath) {
      series(
        route ?? unmatchedRoute,
        knownMethods.has(request.method) ? request.method : 'other',
        `${Math.floor(reply.statusCode / 100)}xx`,
      ).observe(reply.elapsedTime / 1000);
    }
    done();
  });

  const signIns = new Counter({
    name: 'portal_sign_ins_total',
    help: 'Sign-in attempts by method and result',
    labelNames: ['method', 'result'],
    registers: [registry],
  });
  const locks = new Counter({
    name: 'portal_sign_in_locks_total',
    help: 'Sign-in locks opened by failures, by scope (one address, or the whole account)',
    labelNames: ['scope'],
    registers: [registry],
  });
  const codesSent = new Counter({
    name: 'portal_codes_sent_total',
    help: 'Emailed codes issued and queued for mailing, by purpose',
    labelNames: ['purpose'],
    registers: [registry],
  });
  const codesVerified = new Counter({
    name: 'portal_codes_verified_total',
    help: 'Emailed codes accepted, by purpose',
    labelNames: ['purpose'],
    registers: [registry],
  });
  const codesRefused = new Counter({
    name: 'portal_codes_refused_total',
    help: 'Emailed codes refused, by purpose and reason (wrong, exhausted, locked)',
    labelNames: ['purpose', 'reason'],
    registers: [registry],
  });
  const mailsSent = new Counter({
    name: 'portal_mail_sent_total',
    help: 'Mails the mail server accepted',
    registers: [registry],
  });
  const mailFailures = new Counter({
    name: 'portal_mail_send_failures_total',
    help: 'Mail sends that failed (each is retried later)',
    registers: [registry],
  });
  const oidcTokens = new Counter({
    name: 'portal_oidc_tokens_issued_total',
    help: 'Token endpoint answers that issued tokens, by grant type (authorization_code, refresh_token)',
    labelNames: ['grant_type'],
    registers: [registry],
  });
  const backchannelLogouts = new Counter({
    name: 'portal_oidc_backchannel_logouts_total',
    help: 'Back-channel logouts sent to apps, by result (delivered, failed and retried later, given_up)',
    labelNames: ['result'],
    registers: [registry],
  });
  const outboxPending = new Gauge({
    name: 'portal_mail_outbox_pending',
    help: 'Mails in the outbox not yet sent',
    registers: [registry],
  });
  const outboxOldest = new Gauge({
    name: 'portal_mail_outbox_oldest_age_seconds',
    help: 'Age of the oldest mail not yet sent (0 when none)',
    registers: [registry],
  });
  const partnerDeliveries = new Counter({
    name: 'portal_partner_event_deliveries_total',
    help:
      'Tries to deliver an event to a partner app, by outcome (entregado; reintento: failed, tried again later; ' +
      'fallido: the last try failed; desactivada: the receiver answered 410 and its subscription was disabled)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const partnerPending = new Gauge({
    name: 'portal_partner_event_outbox_pending',
    help: 'Event deliveries to partner apps not yet delivered (waiting, being sent or to be retried)',
    registers: [registry],
  });
  const partnerOldest = new Gauge({
    name: 'portal_partner_event_outbox_oldest_age_seconds',
    help: 'Age of the oldest event not yet delivered to a partner app, or not yet fanned out (0 when none)',
    registers: [registry],
  });
  const databaseUp = new Gauge({
    name: 'portal_database_up',
    help: '1 when the scrape could read the database, else 0',
    registers: [registry],
  });
  const databaseWritable = new Gauge({
    name: 'portal_database_writable',
    help: '1 when the database can write, 0 while it cannot (a full disk): the same answer readiness gives',
    registers: [registry],
  });
  const databaseFailures = new Counter({
    name: 'portal_database_query_failures_total',
    help: 'Statements that failed: database unreachable, timed out, refused (a constraint, a deadlock)',
    registers: [registry],
  });
  const poolStats = () => (app.hasDecorator('database') ? app.database.poolStats?.() : undefined);
  new Gauge({
    name: 'portal_database_pool_connections_in_use',
    help: 'PostgreSQL connections checked out of the pool (0 on the embedded database)',
    registers: [registry],
    collect() {
      const pool = poolStats();
      this.set(pool ? pool.total - pool.idle : 0);
    },
  });
  new Gauge({
    name: 'portal_database_pool_waiting',
    help: 'Queries waiting for a free PostgreSQL connection (0 on the embedded database)',
    registers: [registry],
    collect() {
      this.set(poolStats()?.waiting ?? 0);
    },
  });

  const redisLink = () => (app.hasDecorator('redisLink') ? app.redisLink : null);
  new Gauge({
    name: 'portal_redis_up',
    help: '1 while Redis answers (or none is configured), 0 during an outage: requests needing a counter get 503',
    registers: [registry],
    collect() {
      this.set(redisLink()?.up === false ? 0 : 1);
    },
  });
  new Gauge({
    name: 'portal_redis_persistent',
    help: '1 when Redis keeps an append-only file (sign-in locks survive its restart), else 0; 1 without Redis',
    registers: [registry],
    collect() {
      this.set(redisLink()?.persistent === false ? 0 : 1);
    },
  });
  mirroredCounter(registry, 'portal_redis_outages_total', 'Times Redis stopped answering', () => redisLink()?.outages);
  mirroredCounter(
    registry,
    'portal_redis_refused_requests_total',
    'Requests answered 503 because Redis did not answer',
    () => redisLink()?.refused,
  );

  const memory = () => (app.hasDecorator('sessionState') ? app.sessionState : undefined);
  new Gauge({
    name: 'portal_session_memory_entries',
    help: 'Users whose session state this instance keeps in memory',
    registers: [registry],
    collect() {
      this.set(memory()?.entries ?? 0);
    },
  });
  new Gauge({
    name: 'portal_session_memory_channel_up',
    help: '1 while the invalidation channel is up and the memory answers, else 0 (every request reads the database)',
    registers: [registry],
    collect() {
      this.set(memory()?.serving ? 1 : 0);
    },
  });
  mirroredCounter(
    registry,
    'portal_session_memory_hits_total',
    'Session lookups answered from memory',
    () => memory()?.stats.hits,
  );
  mirroredCounter(
    registry,
    'portal_session_memory_misses_total',
    'Session lookups that read the database',
    () => memory()?.stats.misses,
  );
  mirroredCounter(
    registry,
    'portal_session_memory_invalidations_total',
    'Invalidations received on the channel',
    () => memory()?.stats.notifications,
  );
  mirroredCounter(
    registry,
    'portal_session_memory_channel_losses_total',
    'Times the invalidation channel was lost',
    () => memory()?.stats.losses,
  );

  /** One cheap query on the outbox's partial index of unsent mail: it also proves the database answers. */
  async function refresh() {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('database did not answer the scrape')), app.config.databaseTimeoutMs);
    });
    let up = false;
    try {
      const backlog = await Promise.race([outboxBacklog(app.db, app.clock()), late]);
      outboxPending.set(backlog.pending);
      outboxOldest.set(backlog.oldestAgeSeconds);
      up = true;
      const partners = await Promise.race([partnerBacklog(app.db, app.clock()), late]);
      partnerPending.set(partners.pending);
      partnerOldest.set(partners.oldestAgeSeconds);
      // Known, or probed at most every few seconds (db/writes.ts), as readiness asks it.
      databaseWritable.set((await Promise.race([app.databaseWrites.check(), late])) ? 1 : 0);
    } catch {
      // A database out of reach cannot write either.
      if (!up) databaseWritable.set(0);
    } finally {
      databaseUp.set(up ? 1 : 0);
      clearTimeout(timer);
    }
  }

  return {
    registry,
    refresh,
    signIn: (method, result) => signIns.inc({ method, result }),
    lockOpened: (scope) => locks.inc({ scope }),
    codeSent: (purpose) => codesSent.inc({ purpose }),
    codeVerified: (purpose) => codesVerified.inc({ purpose }),
    codeRefused: (purpose, reason) => codesRefused.inc({ purpose, reason }),
    mailSent: () => mailsSent.inc(),
    mailSendFailed: () => mailFailures.inc(),
    databaseFailure: () => databaseFailures.inc(),
    oidcTokensIssued: (grantType) =>
      oidcTokens.inc({
        grant_type: grantType === 'authorization_code' || grantType === 'refresh_token' ? grantType : 'other',
      }),
    backchannelLogout: (result) => backchannelLogouts.inc({ result }),
    partnerDelivery: (outcome) => partnerDeliveries.inc({ outcome }),
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The bearer secret, compared in constant time (both sides hashed, so their lengths never differ). */
function bearerMatches(request: FastifyRequest, expected: Buffer): boolean {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer (\S+)$/i.exec(header);
  return timingSafeEqual(digest(match?.[1] ?? ''), expected) && match !== null;
}

async function answerScrape(metrics: Pick<Metrics, 'scrape' | 'registry'>, reply: FastifyReply) {
  const body = await metrics.scrape();
  return reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(body);
}

export default fp(
  async (app) => {
    const { refresh, ...recorders } = createMetrics(app);
    const { port, host, token } = app.config.metrics;
    let server: FastifyInstance | undefined;

    const metrics: Metrics = {
      ...recorders,
      async scrape() {
        await refresh();
        return recorders.registry.metrics();
      },
      async listen() {
        if (port === undefined) return undefined;
        server = Fastify({ logger: false });
        server.get(metricsPath, (_request, reply) => answerScrape(metrics, reply));
        return server.listen({ port, host });
      },
    };
    app.decorate('metrics', metrics);
    app.addHook('onClose', async () => {
      await server?.close();
    });

    // On the API's own port only behind the secret; without one the path does not exist there.
    if (token !== undefined) {
      const expected = digest(token);
      app.get(
        metricsPath,
        {
          schema: { hide: true },
          onRequest: async (request, reply) => {
            if (!bearerMatches(request, expected)) {
              reply.header('www-authenticate', 'Bearer');
              throw new HttpError(401, messages.metricsTokenRequired, 'METRICS_TOKEN_REQUIRED');
            }
          },
        },
        (_request, reply) => answerScrape(metrics, reply),
      );
    }
  },
  { name: 'metrics' },
);
