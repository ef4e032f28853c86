import { Resolver } from 'node:dns/promises';

/**
 * Where a domain's TXT records are read from when a company proves it owns that domain. The app takes one as an
 * option (tests answer it themselves); the default asks the machine's DNS resolver.
 */
export interface DomainLookup {
  /** The TXT records at `name`, each record's strings joined; none when the name or its TXT records do not exist. */
  txt(name: string): Promise<string[]>;
}

/** The DNS could not answer (no answer in time, a server failure, no resolver): nothing can be concluded. */
export class DomainLookupUnavailable extends Error {
  constructor(readonly reason: string) {
    super(`DNS lookup failed: ${reason}`);
    this.name = 'DomainLookupUnavailable';
  }
}

export interface DnsLookupOptions {
  /** How long one lookup may take in all (2 s by default: the request waits on it). */
  timeoutMs?: number;
  /** Resolver addresses (`127.0.0.1:5353`) instead of the machine's (tests). */
  servers?: string[];
}

/** The answers that say there is no such record: the name does not exist (NXDOMAIN) or has no TXT record. */
const noRecord = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * A lookup through `node:dns/promises`: NXDOMAIN and no data are "no record"; a timeout, SERVFAIL, a refused or
 * unreachable resolver are `DomainLookupUnavailable`, so a flaky DNS never reads as a missing record.
 */
export function dnsLookup(options: DnsLookupOptions = {}): DomainLookup {
  const timeoutMs = options.timeoutMs ?? 2_000;
  return {
    async txt(name) {
      // One resolver per lookup: cancelling it on the deadline ends this query alone.
      const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
      if (options.servers) resolver.setServers(options.servers);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          resolver.cancel();
          reject(new DomainLookupUnavailable('ETIMEOUT'));
        }, timeoutMs);
      });
      try {
        const records = await Promise.race([resolver.resolveTxt(name), deadline]);
        return records.map((strings) => strings.join(''));
      } catch (error) {
        if (error instanceof DomainLookupUnavailable) throw error;
        const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
        if (noRecord.has(code)) return [];
        throw new DomainLookupUnavailable(code);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
