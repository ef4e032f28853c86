// The request a piece of work runs for, without passing it down every call: the mail outbox stores its id with a
// queued mail and the audit log with an entry, the OpenID Connect provider's errors are logged with its logger
// (docs/decisions/0054-request-ids.md), and the device sign-in records the client's address as the API reads it. Work the request hands on (`mailer.later`, a promise) keeps it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';

interface RequestScope {
  id: string;
  log: FastifyBaseLogger;
  /** Fastify's `request.ip`: the client's address behind the proxies TRUST_PROXY names. */
  ip: string;
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
 * The client's address of the request this code runs for, as the API reads it behind its proxies (never an
 * X-Forwarded-For entry the client wrote itself); undefined outside a request.
 */
export function currentRequestAddress(): string | undefined {
  return scope.getStore()?.ip;
}

/**
 * `onRequest`: the rest of the request runs in its scope (Fastify runs the handler of a request whose body arrived
 * later in the context the body parser started from, so the scope holds there too).
 */
export function enterRequestScope(request: FastifyRequest, done: () => void): void {
  scope.run({ id: request.id, log: request.log, ip: request.ip }, done);
}
