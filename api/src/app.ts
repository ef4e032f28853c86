import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { clientErrorHandler, errorHandler, frameworkErrorHandler, notFoundHandler } from './error-handler.js';
import { buildCachedSerializer } from './lib/serializer-compiler.js';
import { createValidatorCompiler } from './lib/validator-compiler.js';
import { validationError } from './lib/validation.js';
import answers from './plugins/app/answers.js';
import authentication from './plugins/app/authentication.js';
import codes from './plugins/app/codes.js';
import companyAccess from './plugins/app/company-access.js';
import type { Clock } from './domain/clock.js';
import counters from './plugins/app/counters.js';
import domainLookup from './plugins/app/domain-lookup.js';
import type { DomainLookup } from './domain/companies/domain-lookup.js';
import drain from './plugins/app/drain.js';
import limits from './plugins/app/limits.js';
import outboundLimits from './plugins/app/outbound-limits.js';
import metrics from './plugins/app/metrics.js';
import type { MailTransport } from './domain/mail/mailer.js';
import identityProvider from './plugins/app/identity-provider.js';
import mailer from './plugins/app/mailer.js';
import partnerEvents from './plugins/app/partner-events.js';
import auditLog from './plugins/app/audit-log.js';
import auditStreams from './plugins/app/audit-streams.js';
import samlIdp from './plugins/app/saml-idp.js';
import type { SamlIdpKey } from './domain/tokens/saml-key.js';
import passwords from './plugins/app/passwords.js';
import type { SigningKey } from './domain/tokens/keys.js';
import sessionMemory from './plugins/app/session-memory.js';
import tokens from './plugins/app/tokens.js';
import cors from './plugins/external/cors.js';
import database from './plugins/external/database.js';
import helmet from './plugins/external/helmet.js';
import rateLimit from './plugins/external/rate-limit.js';
import redis from './plugins/external/redis.js';
import swagger from './plugins/external/swagger.js';
import adminAppsRoutes from './routes/apps/admin.js';
import adminRoutes from './routes/admin/index.js';
import appsRoutes from './routes/apps/index.js';
import authRoutes from './routes/auth/index.js';
import billingRoutes from './routes/billing/index.js';
import companyRoutes from './routes/companies/index.js';
import setupLinkRoutes from './routes/setup-link/index.js';
import healthRoutes from './routes/health/index.js';
import oidcRoutes from './routes/oidc/index.js';
import samlRoutes from './routes/saml/index.js';
import scimRoutes from './routes/scim/index.js';
import { canonicalScimUrl } from './routes/scim/paths.js';
import userPlansRoutes from './routes/user-plans/index.js';
import usersRoutes from './routes/users/index.js';
import wellKnownRoutes from './routes/well-known/index.js';
import { ErrorResponse } from './schemas/common.js';
import { errorForLog, requestForLog } from './lib/log-lines.js';
import { REQUEST_ID_HEADER, requestIdGenerator } from './lib/request-id.js';
import { enterRequestScope } from './lib/request-scope.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /**
     * Whether this instance works the queues (mail outbox, partner events, back-channel and SAML logouts). The API
     * does; the operator's command line only writes rows and sends its own mail (`mailer.deliverDue`), leaving every
     * delivery to the running API instances, which poll and are woken by the database's channel.
     */
    worksQueues: boolean;
  }
}

export interface BuildAppOptions {
  config: Config;
  /** Open database to use instead of opening one from `config` (tests). The app closes it on `close()`. */
  database?: Database;
  signingKey?: SigningKey;
  /** The SAML identity provider's key already loaded (tests reuse one). */
  samlIdpKey?: SamlIdpKey;
  /** Replaces the mail transport chosen from `config` (tests capture the mails). */
  mailTransport?: MailTransport;
  /** Replaces the DNS lookup of the TXT records that prove a company's domain (tests answer it). */
  domainLookup?: DomainLookup;
  /** Replaces `Date.now` for codes, limits and the outbox (tests move time instead of sleeping). */
  clock?: Clock;
  /** Where the JSON log lines go instead of standard output (tests read them). */
  logStream?: { write(line: string): void };
  /** False for a process that must not work the queues (the operator's command line); true by default. */
  worksQueues?: boolean;
  /**
   * False for a process that answers no requests (the operator's command line): no routes and no API document, whose
   * hundreds of schemas cost most of a start; true by default.
   */
  answersRequests?: boolean;
}

export const bodyLimitBytes = 100 * 1024;
/**
 * A client has this long to send a request's headers (Node's default is 60 s, checked every 30 s): one that trickles
 * them holds a socket no longer than this. Its body is the request deadline's (plugins/app/answers.ts).
 */
export const headersTimeoutMs = 10_000;

/** The whole API, migrated, seeded and ready to `listen` or to `inject` requests into. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: options.config.logLevel,
      // No value of an address's query, nor of a failed query's parameters, in any line (lib/log-lines.ts).
      serializers: { req: requestForLog, err: errorForLog },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // Each request's id, in every line it logs and in its answer (lib/request-id.ts).
    genReqId: requestIdGenerator(options.config.trustProxy),
    bodyLimit: bodyLimitBytes,
    schemaErrorFormatter: validationError,
    frameworkErrors: frameworkErrorHandler,
    // SCIM's resource names in any case and with a trailing slash (routes/scim/paths.ts).
    rewriteUrl: (request) => canonicalScimUrl(request.url ?? '/'),
    clientErrorHandler,
    http: { headersTimeout: headersTimeoutMs, connectionsCheckingInterval: 1_000 },
    // Keep-alive connections would hold `close()` open for their idle timeout.
    forceCloseConnections: 'idle',
    // Fastify's own 503 while closing is English and skips every hook (no security headers): the drain plugin answers
    // instead, and Fastify still adds `Connection: close`.
    return503OnClosing: false,
    // Each response schema's serializer compiled once per process (lib/serializer-compiler.ts).
    schemaController: { compilersFactory: { buildSerializer: buildCachedSerializer } },
    // A fresh embedded database migrates at start; on a busy machine that outlasts Fastify's 10 s default.
    pluginTimeout: 120_000,
    // Behind load balancers the client's address comes from X-Forwarded-For, for the per-IP limits (TRUST_PROXY).
    trustProxy:
      typeof options.config.trustProxy === 'number'
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(options.config.trustProxy)
        : options.config.trustProxy,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(createValidatorCompiler());
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  app.addSchema(ErrorResponse);
  app.decorate('config', options.config);
  app.decorate('worksQueues', options.worksQueues ?? true);
  // Every answer names its request (errors and 404s included), as the log lines do; what it queues names it too.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    enterRequestScope(request, done);
  });

  // Every request is answered within REQUEST_TIMEOUT_MS whatever hangs beneath it (database, Redis, a provider), at
  // worst with the Spanish 503; answers made in one turn of the event loop leave together at its end. Before every
  // other plugin: the deadline starts first, and the answer a handler decided is kept.
  app.register(answers);
  // Every service reports to it, and its request histogram sees every answer.
  app.register(metrics);
  app.register(database, { database: options.database });
  app.register(redis);
  app.register(helmet);
  app.register(cors);
  // After the security headers and CORS (its refusals carry them), before the rate limit (they are not counted).
  app.register(drain);
  app.register(rateLimit);
  const answersRequests = options.answersRequests ?? true;
  if (answersRequests) app.register(swagger);

  app.register(passwords);
  app.register(sessionMemory);
  app.register(tokens, { signingKey: options.signingKey });
  app.register(authentication);
  app.register(companyAccess);
  app.register(counters, { clock: options.clock });
  app.register(limits);
  app.register(outboundLimits);
  app.register(codes);
  app.register(mailer, { transport: options.mailTransport });
  app.register(domainLookup, { lookup: options.domainLookup });
  app.register(identityProvider);
  app.register(partnerEvents);
  app.register(auditLog);
  app.register(auditStreams);
  app.register(samlIdp, { key: options.samlIdpKey });

  if (answersRequests) {
    app.register(healthRoutes);
    app.register(wellKnownRoutes, { prefix: '/.well-known' });
    app.register(appsRoutes, { prefix: '/apps' });
    app.register(adminAppsRoutes, { prefix: '/apps' });
    app.register(usersRoutes, { prefix: '/user' });
    app.register(userPlansRoutes, { prefix: '/plan-usuario' });
    app.register(adminRoutes, { prefix: '/admin' });
    app.register(authRoutes, { prefix: '/auth' });
    app.register(billingRoutes, { prefix: '/facturacion' });
    app.register(companyRoutes, { prefix: '/empresas' });
    app.register(setupLinkRoutes, { prefix: '/configuracion-empresa' });
    app.register(oidcRoutes);
    app.register(samlRoutes, { prefix: '/saml/idp' });
    app.register(scimRoutes, { prefix: '/scim/v2' });
  }

  try {
    await app.ready();
  } catch (error) {
    // Releases whatever started before the failure (database connection, PGlite lock file).
    await app.close().catch(() => {});
    throw error;
  }
  return app;
}
