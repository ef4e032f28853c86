// The request a piece of work runs for, without passing it down every call: the mail outbox stores its id with a
// queued mail and the audit log with an entry, and the OpenID Connect provider's errors are logged with its logger
// (docs/decisions/0054-request-ids.md). Work the request hands on (`mailer.later`, a promise) keeps it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';

interface RequestScope {
  id: string;
  log: FastifyBaseLogger;
}

const scope = new AsyncLocalStorage<RequestScope>();

/** The id of the request this code runs for; undefined outside one (the operator's command, background loops). */
export function currentRequestId(): string | undefined {
  return scope.getStore()?.id;
}

/** The logger of the request this code runs for (its lines carry its `reqId`), if any. */
export function currentRequestLog(): FastifyBaseLogger | undefined {
  return scope.getStore()?.log;
}

/**
 * `onRequest`: the rest of the request runs in its scope (Fastify runs the handler of a request whose body arrived
 * later in the context the body parser started from, so the scope holds there too).
 */
export function enterRequestScope(request: FastifyRequest, done: () => void): void {
  scope.run({ id: request.id, log: request.log }, done);
}
