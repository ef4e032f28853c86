// Requests the API sends to addresses someone else chose (a company's OpenID Connect provider): refused when the
// connection lands on a loopback, private, link-local or otherwise reserved address, so a URL cannot turn the API into
// a way into the internal network (server-side request forgery). The check is on the connected socket's remote
// address, as oidc-provider's back-channel logouts do (node_modules/oidc-provider/lib/helpers/fetch_request.js): a
// name that resolves to a public address when checked and to a private one when connected (DNS rebinding), or an
// address written as a literal, is judged by where the connection actually went, before any byte of the request.
import { BlockList, isIP } from 'node:net';

const v4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved
  ['255.255.255.255', 32], // broadcast
] as const)
  v4.addSubnet(network, prefix, 'ipv4');

const v6 = new BlockList();
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['64:ff9b::', 96], // NAT64: an IPv4 address behind the operator's translator
] as const)
  v6.addSubnet(network, prefix, 'ipv6');

const mapped = new BlockList();
mapped.addSubnet('::ffff:0:0', 96, 'ipv6');

/**
 * Whether `ip` (as a socket's remoteAddress gives it) is loopback, private, link-local or otherwise reserved. An
 * IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged by its IPv4 part; anything that is not an address counts as
 * special-use (refused).
 */
export function isSpecialUseAddress(ip: string): boolean {
  const address = ip.replace(/%.*$/, ''); // an IPv6 zone (fe80::1%eth0)
  const family = isIP(address);
  if (family === 4) return v4.check(address, 'ipv4');
  if (family !== 6) return true;
  if (mapped.check(address, 'ipv6')) {
    // The URL parser writes the address canonically (::ffff:7f00:1): its last two groups are the IPv4 address.
    const groups = new URL(`http://[${address}]`).hostname.slice(1, -1).split(':');
    const high = Number.parseInt(groups.at(-2) ?? '', 16);
    const low = Number.parseInt(groups.at(-1) ?? '', 16);
    if (!Number.isInteger(high) || !Number.isInteger(low)) return true;
    return v4.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4');
  }
  return v6.check(address, 'ipv6');
}

/** Why a connection was cut: its peer is a special-use address. Found in a failed fetch's `cause`. */
export class SpecialUseAddressError extends Error {
  readonly code = 'ERR_SPECIAL_USE_ADDRESS';
  constructor(readonly address: string) {
    super(`the connection reached a special-use address (${address})`);
    this.name = 'SpecialUseAddressError';
  }
}

/** Whether `error`, or one of its causes, is a connection cut by the guard. */
export function refusedSpecialUse(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current && typeof current === 'object'; depth++) {
    if (current instanceof SpecialUseAddressError) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** An undici dispatcher, as fetch's `dispatcher` option takes it (undici is Node's own: no types of its here). */
export interface Dispatcher {
  close(): Promise<void>;
}

type AgentClass = new (
  options?: object,
) => Dispatcher & { on(event: 'connect', listener: (origin: URL, targets: readonly object[]) => void): unknown };

/** The Agent class of the fetch built into Node (its undici), found through its global dispatcher as oidc-provider does. */
function builtInAgent(): AgentClass {
  void Response; // loads Node's undici, which sets the global dispatcher
  const global = globalThis as Record<symbol, { constructor?: AgentClass } | undefined>;
  const Agent = (global[Symbol.for('undici.globalDispatcher.2')] ?? global[Symbol.for('undici.globalDispatcher.1')])
    ?.constructor;
  if (typeof Agent !== 'function') throw new Error('the fetch built into Node has no Agent to guard');
  return Agent;
}

/**
 * A dispatcher for fetch that cuts every new connection whose peer is a special-use address, when it is established
 * and before the request is written (undici emits 'connect' before it writes). `options` go to undici's Agent (the
 * tests give a `connect.lookup` that answers a loopback address for a public-looking name).
 */
export function guardedDispatcher(options: object = {}): Dispatcher {
  const agent = new (builtInAgent())(options);
  agent.on('connect', (_origin, targets) => {
    const client = targets[targets.length - 1] as Record<symbol, unknown> & { destroy(error: Error): unknown };
    const key = Object.getOwnPropertySymbols(client).find((symbol) => symbol.description === 'socket');
    const socket = key && (client[key] as { remoteAddress?: string; destroy(error: Error): unknown } | undefined);
    const address = socket?.remoteAddress ?? '';
    if (!isSpecialUseAddress(address)) return;
    const refusal = new SpecialUseAddressError(address || 'desconocida');
    // Without a socket to judge (another undici), the whole client is cut: the guard fails closed.
    if (socket) socket.destroy(refusal);
    else client.destroy(refusal);
  });
  return agent;
}

let shared: Dispatcher | undefined;

/** fetch through the guarded dispatcher (one per process, its connections kept alive), with openid-client's arguments. */
export const guardedFetch = (url: string, options: RequestInit = {}): Promise<Response> => {
  shared ??= guardedDispatcher();
  return fetch(url, { ...options, dispatcher: shared } as RequestInit);
};

/** The fetch for requests to addresses someone else chose: guarded unless the operator lifted it (`privateNetwork`). */
export function outboundFetch(privateNetwork: boolean): (url: string, options?: RequestInit) => Promise<Response> {
  return privateNetwork ? (url, options) => fetch(url, options) : guardedFetch;
}
