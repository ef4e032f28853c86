import type { IncomingMessage } from 'node:http';

/**
 * The client's address as the API resolves it behind its proxies (TRUST_PROXY, Fastify's `request.ip`), kept for
 * the provider's requests: Koa's `ctx.ip` reads no forwarded header there (issuer-address.ts), so behind a proxy it
 * names the proxy, and with `proxy` set it would believe the leftmost X-Forwarded-For entry, the client's own.
 */
const addresses = new WeakMap<IncomingMessage, string>();

/** Records the address the API resolved for a request, before the provider is handed it. */
export function recordClientAddress(request: IncomingMessage, address: string): void {
  addresses.set(request, address);
}

/** The address the API resolved for the request; Koa's own reading only for a request the API never saw. */
export function clientAddress(ctx: { req: IncomingMessage; ip: string }): string {
  return addresses.get(ctx.req) ?? ctx.ip;
}
