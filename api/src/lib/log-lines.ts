// What the API's JSON log lines show of a request and of an error: never a value a person or an app sent as a
// secret. An address's query carries them (a provider's `code`, an `id_token_hint`, a `?token=`), and a failed
// query's parameters may hold a token or a code hash (drizzle puts them in its error's message).
import type { FastifyRequest } from 'fastify';
import { DrizzleQueryError } from 'drizzle-orm';
import { stdSerializers } from 'pino';

/** What stands for every value of a query in a log line. */
export const redactedValue = '[redacted]';

/** A parameter name worth keeping: short and plain (a long or odd one could itself be a token sent bare). */
const plainName = /^[A-Za-z0-9_.[\]-]{1,40}$/;

/** `/path?code=[redacted]&state=[redacted]`: the path and its parameters' names, none of their values. */
export function withoutQueryValues(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  const names = url
    .slice(mark + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const name = pair.split('=', 1)[0] ?? '';
      return plainName.test(name) ? `${name}=${redactedValue}` : redactedValue;
    });
  return `${url.slice(0, mark)}?${names.join('&')}`;
}

/** Pino's `req`: Fastify's default fields, the URL without its query's values, and the route that matched. */
export function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: withoutQueryValues(request.url),
    route: request.routeOptions?.url,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * `error` as it may be logged: a failed query (here or among its causes) keeps its statement and its cause (the
 * server's reason) and loses its parameters. Copies, so the error itself stays as thrown.
 */
function withoutQueryParameters(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 5) return error;
  const cause = withoutQueryParameters(error.cause, depth + 1);
  const failedQuery = error instanceof DrizzleQueryError;
  if (!failedQuery && cause === error.cause) return error;
  const copy = Object.assign(Object.create(Object.getPrototypeOf(error)), error) as Error & { params?: unknown };
  copy.cause = cause;
  copy.message = error.message;
  copy.stack = error.stack;
  if (failedQuery) {
    delete copy.params;
    copy.message = `Failed query: ${error.query}`;
    const frames = error.stack?.indexOf('\n    at ') ?? -1;
    copy.stack = `${error.name}: ${copy.message}${frames === -1 ? '' : error.stack?.slice(frames)}`;
  }
  return copy;
}

/** Pino's `err`, its failed queries without their parameters. */
export function errorForLog(error: unknown) {
  return stdSerializers.err(withoutQueryParameters(error) as Error);
}
