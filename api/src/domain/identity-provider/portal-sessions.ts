// One session with the portal's: each provider session is linked to the portal session that signed it in, lives no
// longer than it, and an app's logout ends it.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Db } from '../../db/client.js';
import { oidcDeviceGrants, oidcSessionLinks, sessions, type User } from '../../db/schema.js';
import { companyRuleBroken, wayOfSession } from '../sign-in-limits/company-rules.js';
import type { ProviderMemory } from './provider-memory.js';

const seconds = (ms: number) => Math.floor(ms / 1000);

/** What the portal passes along with a finished interaction, for the session link (routes/oidc/interactions.ts). */
export interface PortalLogin {
  sessionId: string;
  /** The portal session's expiry, epoch seconds: the provider session never outlives it. */
  expiresAt: number;
}

/** The portal session a provider session was signed in with, as the login policy judges it. */
export interface LinkedPortalSession {
  /** Live: not ended, expired or outdated, the account active, within its companies' rules (`portal_session_live`). */
  live: boolean;
  userId: number;
  method: string | null;
  ssoCompanyId: number | null;
}

/** The portal session the provider session `sessionUid` of `accountId` was signed in with, or undefined. */
export async function linkedPortalSession(
  db: Db,
  sessionUid: string,
  accountId: string,
): Promise<LinkedPortalSession | undefined> {
  const [row] = await db
    .select({
      live: sql<boolean>`portal_session_live(${sessions.id})`,
      userId: sessions.userId,
      method: sessions.method,
      ssoCompanyId: sessions.ssoCompanyId,
    })
    .from(oidcSessionLinks)
    .innerJoin(sessions, eq(sessions.id, oidcSessionLinks.portalSessionId))
    .where(and(eq(oidcSessionLinks.sessionUid, sessionUid), eq(sql`${sessions.userId}::text`, accountId)));
  return row ? { ...row, live: row.live === true } : undefined;
}

/**
 * Where the standings of the portal sessions behind the person's provider sessions are kept with the account, all in
 * one slot (a person's memory holds a few slots: one per app's provider session would crowd out their grants).
 */
const standingsKey = 'oidc:standings';

/** By provider session uid: until when (this instance's clock) the portal session it was signed in with stays live. */
type Standings = ReadonlyMap<string, number>;

/** Provider sessions whose standing is kept per person at most (a person signed in to that many apps at once). */
const maxStandings = 64;

/** The refresh token's fields these checks read (the library's RefreshToken). */
export interface RefreshTokenFacts {
  grantId?: unknown;
  sessionUid?: unknown;
  gty?: unknown;
}

export interface RefreshChecks {
  /**
   * Whether a refresh token of `user` still stands for the portal session behind it (docs/decisions/0116): a device's
   * own session, or the browser session its provider session was signed in with. A session no longer live (ended,
   * expired, outdated, or past its companies' length or inactivity limits) is ended now, which revokes what was
   * issued under it (its triggers); so is a device's refreshing from `address` (the device's, as the API reads it)
   * outside its companies' networks (decision 0148). A device's live session counts the refresh as its last use, from
   * that address, and lives on from it. A device's token with no session of its own (approved before devices had one)
   * does not stand. `lifetimeSeconds`: how long a device's session lasts unused (its refresh token's lifetime).
   *
   * A browser app's refresh is answered from the session memory while it keeps the database's verdict on that portal
   * session (decision 0165): kept with the account until time alone would end the session, and forgotten when a row
   * it was read from changes (the triggers notify).
   */
  refreshTokenStands(user: User, token: RefreshTokenFacts, lifetimeSeconds: number, address: string): Promise<boolean>;
  /** Checks answered from memory, and those that read the database, since start. */
  readonly stats: { hits: number; misses: number };
}

export function createRefreshChecks(db: Db, memory: ProviderMemory): RefreshChecks {
  const stats = { hits: 0, misses: 0 };
  return {
    stats,
    async refreshTokenStands(user, token, lifetimeSeconds, address) {
      const grantId = typeof token.grantId === 'string' ? token.grantId : '';
      const sessionUid = typeof token.sessionUid === 'string' ? token.sessionUid : '';
      const byDevice = String(token.gty ?? '')
        .split(' ')
        .includes('device_code');
      // A device is judged from where it refreshes and each refresh is its last use, written: the database's, always.
      const kept = sessionUid && !byDevice ? (memory.get(user.id, standingsKey) as Standings | undefined) : undefined;
      if (Date.now() < (kept?.get(sessionUid) ?? 0)) {
        stats.hits += 1;
        return true;
      }
      stats.misses += 1;
      const ticket = memory.ticket();
      const [row] = await db
        .select({
          id: sessions.id,
          // Seconds it stays live by the database's clock (the instances' clocks may differ from it); null: not live.
          liveFor: sql<number | null>`extract(epoch from portal_session_live_until(${sessions.id}) - now())::float8`,
          userId: sessions.userId,
          method: sessions.method,
          ssoCompanyId: sessions.ssoCompanyId,
          device: oidcDeviceGrants.grantId,
        })
        .from(sessions)
        .leftJoin(
          oidcDeviceGrants,
          and(eq(oidcDeviceGrants.portalSessionId, sessions.id), eq(oidcDeviceGrants.grantId, grantId)),
        )
        .where(
          sql`${sessions.id} = coalesce(
            (select ${oidcDeviceGrants.portalSessionId} from ${oidcDeviceGrants} where ${oidcDeviceGrants.grantId} = ${grantId}),
            (select ${oidcSessionLinks.portalSessionId} from ${oidcSessionLinks} where ${oidcSessionLinks.sessionUid} = ${sessionUid}))`,
        );
      if (!row) return !byDevice;
      const liveFor = row.liveFor === null ? 0 : Number(row.liveFor);
      const live = liveFor > 0;
      // A device refreshes for itself: where it is now meets the networks, as where it asked for its code did. A browser
      // app's refresh comes from the app's server, which is not where the person is.
      const brokenHere =
        live &&
        row.device !== null &&
        (await companyRuleBroken(db, row.userId, wayOfSession(row), address)) !== undefined;
      if (!live || brokenHere) {
        await db
          .update(sessions)
          .set({ endedAt: sql`now()`, ...(brokenHere ? { address } : {}) })
          .where(and(eq(sessions.id, row.id), isNull(sessions.endedAt)));
        return false;
      }
      if (row.device !== null) {
        await db
          .update(sessions)
          .set({
            address,
            lastSeenAt: sql`now()`,
            expiresAt: sql`now() + make_interval(secs => ${lifetimeSeconds})`,
          })
          .where(eq(sessions.id, row.id));
        return true;
      }
      if (sessionUid && !byDevice && row.userId === user.id) {
        const standings = new Map(memory.get(user.id, standingsKey) as Standings | undefined);
        if (standings.size >= maxStandings) standings.delete(standings.keys().next().value as string);
        standings.set(sessionUid, Date.now() + liveFor * 1000);
        memory.store(ticket, user, standingsKey, standings);
      }
      return true;
    },
  };
}

/** When the portal session was signed in, epoch seconds (0 when it is gone). */
export async function signedInAt(db: Db, sessionId: string): Promise<number> {
  const [row] = await db.select({ createdAt: sessions.createdAt }).from(sessions).where(eq(sessions.id, sessionId));
  return row ? seconds(row.createdAt.getTime()) : 0;
}

/**
 * The provider session's link to the portal session, written as the provider session is signed in (the answer with
 * the code goes out after this); an app's logout ends the portal session it is linked to.
 */
export function linkPortalSessions(provider: Provider, db: Db, logoutsQueued: () => void): void {
  provider.use(async (ctx, next) => {
    await next();
    const oidc = (ctx as KoaContextWithOIDC).oidc;
    const session = oidc?.session;
    if (!session) return;
    if (oidc.route === 'resume' && session.accountId) {
      const portal = (oidc.entities.Interaction?.result as { portal?: PortalLogin } | undefined)?.portal;
      if (portal) await linkSession(db, session.uid, portal.sessionId, Number(session.accountId));
    }
    if (oidc.route === 'end_session_confirm' && (session as { destroyed?: boolean }).destroyed) {
      await endLinkedPortalSession(db, session.uid);
      logoutsQueued();
    }
  });
}

async function linkSession(db: Db, sessionUid: string, portalSessionId: string, userId: number) {
  await db
    .insert(oidcSessionLinks)
    .values({ sessionUid, portalSessionId, userId })
    .onConflictDoUpdate({ target: oidcSessionLinks.sessionUid, set: { portalSessionId, userId } });
}

/**
 * An app's RP-initiated logout: the portal session in that browser ends too (its triggers tell the other apps:
 * docs/triggers.md).
 */
async function endLinkedPortalSession(db: Db, sessionUid: string) {
  await db
    .update(sessions)
    .set({ endedAt: sql`now()` })
    .where(
      and(
        isNull(sessions.endedAt),
        eq(
          sessions.id,
          sql`(select ${oidcSessionLinks.portalSessionId} from ${oidcSessionLinks} where ${oidcSessionLinks.sessionUid} = ${sessionUid})`,
        ),
      ),
    );
}
