import { sql } from 'drizzle-orm';
import { type Database, type Db, rowsOf } from '../../db/client.js';
import type { User } from '../../db/schema.js';
import { type CurrentUserView, currentUserViewUntil } from '../accounts/queries.js';
import {
  createSessionStateCache,
  type SessionStateCache,
  sessionStateChannel,
  type StateLogger,
} from './state-cache.js';

/** What `verify` (verify.ts) keeps of a token's session row (and revocation) between requests, per instance. */
export interface SessionFlags {
  revoked: boolean;
  live: boolean;
  secondFactor: boolean;
  /** How the session was signed in (sessions.method); null for sessions from before it was recorded. */
  method: string | null;
  /** The company whose provider signed it in (sessions.sso_company_id), for method 'empresa'. */
  ssoCompanyId: number | null;
  /** When (Date.now()) last seen is next due to be written. */
  touchAt: number;
  /**
   * The person's companies' rules (docs/decisions/0103-company-rules.md), the strictest of them: the moment the
   * session ends by the longest a session lasts (epoch ms), and the longest it may stay unused (ms); null: no limit.
   */
  endsAt: number | null;
  idleMs: number | null;
  /** When (Date.now()) the session was last used, as far as this instance knows. */
  usedAt: number;
}

/**
 * What the OpenID Connect provider keeps per user beside the sessions (domain/identity-provider/provider-memory.ts):
 * its stored payloads (access tokens, grants), the account, the plan claims; under keys of its own ('oidc:…').
 */
export interface ProviderEntry {
  readonly oidc: unknown;
}

/**
 * The session memory of this instance (state-cache.ts): per user, the user row, each session's flags (verify.ts)
 * and the answer of GET /auth/user, and what the OpenID Connect provider keeps of that user.
 */
export type SessionMemory = SessionStateCache<User, SessionFlags | ProviderEntry, CurrentUserView>;

/** The memory, notifying its channel through `db` (an ordinary connection) and listening through `database`. */
export function createSessionMemory(database: Pick<Database, 'listen'>, db: Db, log: StateLogger): SessionMemory {
  return createSessionStateCache<User, SessionFlags | ProviderEntry, CurrentUserView>(
    database,
    (channel, payload) => db.execute(sql`select pg_notify(${channel}, ${payload})`),
    log,
    undefined,
    // The schema's own channel (migration 0029): the triggers name it with the same function.
    async () => {
      const [row] = await rowsOf<{ channel: string }>(db, sql`select portal_session_channel() as channel`);
      return row?.channel ?? sessionStateChannel;
    },
  );
}

/**
 * `currentUserView` for GET /auth/user: the answer kept in memory with the session state when the user row
 * is the one kept there, so that the most frequent signed-in request reads nothing from the database. A kept answer
 * is not used past the earliest expiry it names (`now`: the app's clock), which no notification announces.
 */
export async function cachedCurrentUserView(
  db: Db,
  state: SessionMemory,
  user: User,
  now = Date.now(),
): Promise<CurrentUserView> {
  const kept = state.view(user.id, user, now);
  if (kept) return kept;
  const ticket = state.ticket();
  const { view, validUntil } = await currentUserViewUntil(db, user, now);
  state.storeView(ticket, user.id, user, view, validUntil);
  return view;
}
