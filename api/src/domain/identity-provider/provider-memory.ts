// What the OpenID Connect provider reads on every userinfo, introspection or refresh (the access token, its grant, the
// provider session a session-bound token depends on, the client, the account, the plan) kept in this instance's
// session memory (docs/decisions/0014), so those calls cost no database round trip while the memory is trusted.
// Invalidation is the memory's: migration 0018's triggers (0024 for sessions) notify the account's id when a stored
// access token, grant or provider session changes or goes, and '*' when a client does; the users' and plans' own
// triggers (0011) cover the account and its plan. Writes this instance makes forget at once.
import type { User } from '../../db/schema.js';
import type { ReadTicket } from '../sessions/state-cache.js';
import type { SessionMemory } from '../sessions/memory.js';

/**
 * The kinds whose payloads are kept by id: read often, never consumed (codes and refresh tokens always read the
 * database). Provider sessions are kept too, by uid only (oidc/adapter.ts `findByUid`), under the kind 'Session'.
 */
export const keptKinds = new Set(['AccessToken', 'Grant']);

/** Remembered for the adapter: which account a payload belongs to, so its entry can be found by id alone. */
const maxIndexed = 100_000;

export interface ProviderMemory {
  /** A kept value of the user (under the provider's key), or undefined when not kept or not trusted. */
  get(userId: number, key: string): unknown;
  /** A kept payload by kind and id alone (the token endpoint and userinfo know only the token). */
  payload(kind: string, id: string): unknown;
  ticket(): ReadTicket | undefined;
  /** Keeps a value read from the database under the ticket taken before the read (a read that raced a change is not). */
  store(ticket: ReadTicket | undefined, user: User, key: string, value: unknown): void;
  storePayload(ticket: ReadTicket | undefined, user: User, kind: string, id: string, payload: unknown): void;
  /** This instance changed what an account's kept values were read from. */
  forget(userId: number): void;
  forgetPayload(kind: string, id: string): void;
  /** Clients by id, kept while the memory is trusted and forgotten with every '*' (migration 0018 notifies one). */
  client(clientId: string): { found: boolean; value: unknown };
  /** Taken before a client is read from the database: a read that raced a change ('*') is not kept. */
  clientTicket(): number;
  storeClient(ticket: number, clientId: string, value: unknown): void;
}

const payloadKey = (kind: string, id: string) => `oidc:${kind}:${id}`;

/** Without a session memory (tests that build the provider alone), nothing is kept. */
export function createProviderMemory(state: SessionMemory | undefined): ProviderMemory {
  const accountOf = new Map<string, number>();
  const clients = new Map<string, unknown>();
  let clientsGeneration = 0;
  state?.onInvalidate((scope) => {
    if (scope !== 'all') return;
    clients.clear();
    clientsGeneration += 1;
  });
  const kept = (userId: number, key: string) => {
    const found = state?.session(userId, key)?.session;
    return found && 'oidc' in found ? found.oidc : undefined;
  };
  const keep = (ticket: ReadTicket | undefined, user: User, key: string, value: unknown) => {
    if (state && ticket) state.storeSession(ticket, user.id, user, key, { oidc: value });
  };
  return {
    get: kept,
    payload(kind, id) {
      const key = payloadKey(kind, id);
      const userId = accountOf.get(key);
      return userId === undefined ? undefined : kept(userId, key);
    },
    ticket: () => state?.ticket(),
    store: keep,
    storePayload(ticket, user, kind, id, payload) {
      const key = payloadKey(kind, id);
      if (accountOf.size >= maxIndexed) accountOf.delete(accountOf.keys().next().value as string);
      accountOf.set(key, user.id);
      keep(ticket, user, key, payload);
    },
    forget(userId) {
      state?.forget(userId);
    },
    forgetPayload(kind, id) {
      const userId = accountOf.get(payloadKey(kind, id));
      if (userId !== undefined) state?.forget(userId);
    },
    client(clientId) {
      if (!state?.serving || !clients.has(clientId)) return { found: false, value: undefined };
      return { found: true, value: clients.get(clientId) };
    },
    clientTicket: () => clientsGeneration,
    storeClient(ticket, clientId, value) {
      if (!state?.serving || ticket !== clientsGeneration) return;
      if (clients.size >= 1_000) clients.clear();
      clients.set(clientId, value);
    },
  };
}
