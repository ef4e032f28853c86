// Requests the API sends to addresses someone else chose (a company's OpenID Connect provider, a partner's event
// receiver): refused before any byte leaves when the name or address leads to a loopback, private, link-local or
// otherwise reserved address, so a URL cannot turn the API into a way into the internal network (server-side request
// forgery) nor a probe of its ports. The address is decided before connecting: a literal address is judged as written;
// a name is resolved once, every address it resolves to is judged (one special-use address refuses the name), and the
// connection goes to the address that was judged, so a name that answers a public address when checked and a private
// one when connected (DNS rebinding) cannot slip between the two. Redirects are never followed. As a last line, a
// connection whose peer is special-use anyway is cut before the request is written.
import { lookup as systemLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

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
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible form ([::127.0.0.1] is ::7f00:1)
  ['fc00::', 7], // unique local
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['64:ff9b::', 96], // NAT64: an IPv4 address behind the operator's translator
  ['64:ff9b:1::', 48], // NAT64 for local use (RFC 8215)
  ['2002::', 16], // 6to4: an IPv4 address inside (2002:7f00:1:: is 127.0.0.1)
  ['100::', 64], // discard-only
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT, ::ffff:0:a.b.c.d): an IPv4 address behind a translator
  ['2001::', 23], // IETF protocol assignments: Teredo (2001::/32, an IPv4 address inside), AMT, ORCHID…
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

/** A name that is this machine whatever the resolver says (RFC 6761): `localhost`, `*.localhost`, with a final dot. */
export function isLocalName(hostname: string): boolean {
  return /(^|\.)localhost\.?$/i.test(hostname);
}

/** One address a name resolves to, as `dns.lookup` gives it with `all`. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address of a name (the system's resolver unless a test gives another). */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    systemLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/** The guard's refusal of a host (a literal address or a name) before resolving it, or null. */
export function refusedHost(hostname: string): SpecialUseAddressError | null {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) return isSpecialUseAddress(host) ? new SpecialUseAddressError(host) : null;
  return isLocalName(host) ? new SpecialUseAddressError(host) : null;
}

type LookupCallback = (error: Error | null, address?: string | ResolvedAddress[], family?: number) => void;

/**
 * The `lookup` the guarded connections use (Node's net calls it with `all` when it may try several addresses): the
 * name's addresses, all judged; the connection then goes to those very addresses.
 */
function checkedLookup(resolve: Resolve) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    const refused = refusedHost(hostname);
    if (refused) return void process.nextTick(callback, refused);
    resolve(hostname).then(
      (addresses) => {
        const special = addresses.find(({ address }) => isSpecialUseAddress(address));
        if (special) return callback(new SpecialUseAddressError(special.address));
        const [first] = addresses;
        if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }));
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: Error) => callback(error),
    );
  };
}

/**
 * The lookup for a socket of our own to an address someone else chose (a company's syslog receiver): every address
 * the name resolves to judged, the connection made to those.
 */
export const guardedLookup = checkedLookup(systemResolve) as unknown as LookupFunction;

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
 * A dispatcher whose connections resolve their names through the checked lookup, and that cuts, as a last line, a new
 * connection whose peer is special-use anyway (when it is established, before the request is written: undici emits
 * 'connect' before it writes). A literal address never reaches a lookup: `guardedFetchWith` judges it first.
 */
function guardedDispatcher(resolve: Resolve): Dispatcher {
  const agent = new (builtInAgent())({ connect: { lookup: checkedLookup(resolve) } });
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

type Fetch = (url: string, options?: RequestInit) => Promise<Response>;

/**
 * fetch through the guard, resolving names with `resolve`: a literal address or a local name is refused before any
 * connection, a name by what it resolves to; redirects are answered as they come, never followed. A refusal fails as
 * fetch fails: a TypeError whose cause is the guard's SpecialUseAddressError.
 */
export function guardedFetchWith(resolve: Resolve): Fetch & { close(): Promise<void> } {
  let dispatcher: Dispatcher | undefined;
  const guarded = async (url: string, options: RequestInit = {}) => {
    let hostname: string;
    try {
      hostname = new URL(url).hostname;
    } catch (error) {
      throw new TypeError('fetch failed', { cause: error });
    }
    const refused = refusedHost(hostname);
    if (refused) throw new TypeError('fetch failed', { cause: refused });
    dispatcher ??= guardedDispatcher(resolve);
    return fetch(url, { ...options, redirect: 'manual', dispatcher } as RequestInit);
  };
  return Object.assign(guarded, { close: async () => dispatcher?.close() });
}

/** fetch through the guard with the system's resolver (one dispatcher per process, its connections kept alive). */
export const guardedFetch: Fetch = guardedFetchWith(systemResolve);

/** The fetch for requests to addresses someone else chose: guarded unless the operator lifted it (`privateNetwork`). */
export function outboundFetch(privateNetwork: boolean): Fetch {
  return privateNetwork ? (url, options) => fetch(url, options) : guardedFetch;
}
