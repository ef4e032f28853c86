// The directory tokens this instance has lately let in, kept in memory so that a sync's thousands of requests do not
// each read the token (docs/decisions/0114-scim-tokens-in-memory.md). Kept beside the session state and trusted as it
// is (domain/sessions/state-cache.ts): used only while its notification channel is up and proved alive, and
// forgotten whole on every '*' notification, which migration 0039's triggers send when a token is revoked, moved or
// deleted, and migration 0020's when a company changes (suspended) or goes. On this instance a revocation's request
// also forgets them at once; on the others they go when its notification arrives, and a channel gone silent stops
// being trusted within the session state's `trustMs`. Only tokens that let a request in are kept: an unknown, revoked
// or malformed one reads the database every time (nothing to fill memory with).
import type { CompanyStatus } from '../../../db/schema.js';

export interface KeptToken {
  companyId: number;
  tokenId: number;
  companyStatus: CompanyStatus;
  /** When (Date.now()) this instance last wrote or read the token's last use. */
  lastUsedAt: number;
}

/** What the memory needs of the session state: whether it is trusted now, and its invalidations. */
export interface TokenMemorySource {
  readonly serving: boolean;
  onInvalidate(listener: (scope: number | 'all') => void): void;
}

export interface TokenMemory {
  /** The token of that hash, if kept and the memory is trusted now. */
  get(hash: string): KeptToken | undefined;
  /** Taken before the database read whose result may be stored. */
  ticket(): number;
  /** Keeps what was read, unless everything was forgotten since `ticket` (the read may predate a revocation). */
  store(ticket: number, hash: string, token: KeptToken): void;
  forgetAll(): void;
  readonly stats: { hits: number; misses: number };
}

export const maxKeptTokens = 1000;
/** A kept token is read again after this long even without a notification. */
export const keptTokenMs = 60_000;

export function createTokenMemory(source: TokenMemorySource): TokenMemory {
  const kept = new Map<string, { token: KeptToken; until: number }>();
  let generation = 0;
  const stats = { hits: 0, misses: 0 };
  const forgetAll = () => {
    generation += 1;
    kept.clear();
  };
  // A user's own notification concerns no token; '*' (and a lost or regained channel) may.
  source.onInvalidate((scope) => {
    if (scope === 'all') forgetAll();
  });
  return {
    stats,
    get(hash) {
      const entry = source.serving ? kept.get(hash) : undefined;
      if (!entry || entry.until <= Date.now()) {
        if (entry) kept.delete(hash);
        stats.misses += 1;
        return undefined;
      }
      stats.hits += 1;
      return entry.token;
    },
    ticket: () => generation,
    store(ticket, hash, token) {
      if (ticket !== generation || !source.serving) return;
      if (kept.size >= maxKeptTokens) kept.delete(kept.keys().next().value as string);
      kept.set(hash, { token, until: Date.now() + keptTokenMs });
    },
    forgetAll,
  };
}

const memories = new WeakMap<object, TokenMemory>();

/** The token memory of the instance whose session state this is (the SCIM routes read it, revocation empties it). */
export function tokenMemoryOf(source: TokenMemorySource): TokenMemory {
  let memory = memories.get(source);
  if (!memory) {
    memory = createTokenMemory(source);
    memories.set(source, memory);
  }
  return memory;
}
