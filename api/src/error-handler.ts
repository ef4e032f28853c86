import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, isDatabaseUnavailable, messages } from './lib/errors.js';
import { securityHeaderEntries, setSecurityHeaders } from './plugins/external/helmet.js';
import { sendScimFrameworkError } from './routes/scim/index.js';

// Fastify's own client errors, answered in Spanish. Its English messages never reach the client.
const fastifyClientErrors: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: messages.invalidJson,
  FST_ERR_CTP_EMPTY_JSON_BODY: messages.emptyJson,
  FST_ERR_CTP_BODY_TOO_LARGE: messages.bodyTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: messages.unsupportedMediaType,
  FST_ERR_BAD_URL: messages.badUrl,
  FST_ERR_MAX_PARAM_LENGTH: messages.urlTooLong,
};

const statusMessages: Record<number, string> = {
  404: messages.notFound,
  405: messages.methodNotAllowed,
  413: messages.bodyTooLarge,
  415: messages.unsupportedMediaType,
};

function toHttpError(error: FastifyError | HttpError): HttpError {
  if (error instanceof HttpError) return error;
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const message = fastifyClientErrors[error.code] ?? statusMessages[status] ?? messages.badRequest;
    return new HttpError(status, message);
  }
  if (isDatabaseUnavailable(error) || error.code === handlerTimeout) {
    return new HttpError(503, messages.unavailable, 'SERVICE_UNAVAILABLE');
  }
  return new HttpError(500, messages.internal);
}

/** The request's deadline (REQUEST_TIMEOUT_MS, `plugins/app/answers.ts`) ran out: it gets the Spanish 503. */
const handlerTimeout = 'FST_ERR_HANDLER_TIMEOUT';

/**
 * 5xx are logged without flooding: a database outage once when it starts and once when it ends (the outage tracker of
 * the database plugin); a request that ran out of time as one line without a stack; anything else with its stack.
 */
function logFailure(error: FastifyError | HttpError, request: FastifyRequest) {
  const outage = request.server.databaseOutage;
  if (!(error instanceof HttpError) && isDatabaseUnavailable(error) && outage) {
    outage.refused(error, request.log);
  } else if ((error as FastifyError).code === handlerTimeout) {
    if (outage?.active) outage.refused(error, request.log);
    else request.log.warn({ url: request.routeOptions.url, method: request.method }, error.message);
  } else {
    request.log.error({ err: error }, 'request failed');
  }
}

/** The one error handler: every failure becomes `{ statusCode, message, code? }`, never a stack trace. */
export function errorHandler(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) {
  const answer = toHttpError(error);
  if (answer.statusCode >= 500) logFailure(error, request);
  const body: { statusCode: number; message: string; code?: string; retryAfter?: number } = {
    statusCode: answer.statusCode,
    message: answer.message,
  };
  if (answer.code) body.code = answer.code;
  if (answer.retryAfter !== undefined) {
    body.retryAfter = answer.retryAfter;
    reply.header('retry-after', String(answer.retryAfter));
  }
  return reply.code(answer.statusCode).type('application/json; charset=utf-8').send(body);
}

/** Fastify's `frameworkErrors`: URLs it refuses before routing (and so before any hook) get the same answer. */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  setSecurityHeaders(reply);
  // SCIM's own error body under /scim/v2 (routes/scim/index.ts).
  if (request.url.startsWith('/scim/v2/')) return sendScimFrameworkError(error, request, reply);
  return errorHandler(error, request, reply);
}

export function notFoundHandler(_request: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).send({ statusCode: 404, message: messages.notFound });
}

/**
 * Fastify's `clientErrorHandler`: what Node refuses before a request exists (headers not whole within the headers
 * timeout, headers over Node's 16 KB, bytes that are not HTTP) is answered in the API's shape and Spanish, with the
 * security headers, and the connection is closed. Fastify's own answer is English and bare.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [statusCode, message, code] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, messages.requestTimeout, 'REQUEST_TIMEOUT']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, messages.headersTooLarge, 'HEADERS_TOO_LARGE']
        : [400, messages.badRequest, 'BAD_REQUEST'];
  const body = JSON.stringify({ statusCode, message, code });
  const head = [
    `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...securityHeaderEntries.map(([name, value]) => `${name}: ${value}`),
  ];
  if (socket.writable) socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  else socket.destroy();
}
