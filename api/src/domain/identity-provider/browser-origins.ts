// Which web origins a browser may call the provider's client endpoints from (the CORS preflight, routes/oidc/preflight.ts):
// the origins of the registered redirect URIs, as clientAllowsOrigin (client-facts.ts) judges the request that follows.
// Kept in this instance's memory while the session memory is trusted, and forgotten with every '*' it receives, the
// notification migration 0018's trigger sends for any change to oidc_clients.
import { oidcClients } from '../../db/schema.js';
import type { Db } from '../../db/client.js';
import type { SessionMemory } from '../sessions/memory.js';
import { redirectOrigin } from './client-facts.js';

/** The origins of the public clients' redirect URIs, and of every client's. */
export interface ClientOrigins {
  publicClients: ReadonlySet<string>;
  anyClient: ReadonlySet<string>;
}

export interface BrowserOrigins {
  current(): Promise<ClientOrigins>;
}

export async function readClientOrigins(db: Db): Promise<ClientOrigins> {
  const rows = await db
    .select({ redirectUris: oidcClients.redirectUris, secretHash: oidcClients.secretHash })
    .from(oidcClients);
  const publicClients = new Set<string>();
  const anyClient = new Set<string>();
  for (const row of rows) {
    for (const uri of row.redirectUris) {
      const origin = redirectOrigin(uri);
      if (origin === undefined) continue;
      anyClient.add(origin);
      if (row.secretHash === null) publicClients.add(origin);
    }
  }
  return { publicClients, anyClient };
}

/** Without a session memory (or while it is not trusted), every preflight reads the table: one small query. */
export function createBrowserOrigins(
  db: Db,
  memory: Pick<SessionMemory, 'serving' | 'onInvalidate'> | undefined,
): BrowserOrigins {
  let kept: ClientOrigins | undefined;
  let generation = 0;
  memory?.onInvalidate((scope) => {
    if (scope !== 'all') return;
    kept = undefined;
    generation += 1;
  });
  return {
    async current() {
      if (kept && memory?.serving) return kept;
      const started = generation;
      const read = await readClientOrigins(db);
      // A read that raced a change to the clients is used once and not kept.
      if (memory?.serving && started === generation) kept = read;
      return read;
    },
  };
}
