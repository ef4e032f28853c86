import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { compile } from '@fastify/proxy-addr';
import type { Config } from '../config.js';

/** The header a balancer names a request by, and the API answers it with. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** An id a proxy may hand over: letters, digits and `._:-`, 8 to 128 of them (a UUID, a trace id, nginx's $request_id). */
const acceptable = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * How each request is named in every log line it writes (Fastify's `reqId`) and in its answer's `X-Request-Id`: the
 * id the balancer sent when the connection comes from a proxy TRUST_PROXY names (so one person's failure can be followed
 * from the balancer's log into the API's), else a fresh UUID. A client that is no trusted proxy never chooses its id:
 * it could otherwise make its lines pass for someone else's.
 */
export function requestIdGenerator(trustProxy: Config['trustProxy']): (request: IncomingMessage) => string {
  const trusted =
    trustProxy === false
      ? () => false
      : typeof trustProxy === 'number'
        ? () => trustProxy > 0
        : (() => {
            const fromList = compile(trustProxy);
            return (address: string | undefined) => address !== undefined && fromList(address, 0);
          })();
  return (request) => {
    const sent = request.headers[REQUEST_ID_HEADER];
    if (typeof sent === 'string' && acceptable.test(sent) && trusted(request.socket?.remoteAddress)) return sent;
    return randomUUID();
  };
}
