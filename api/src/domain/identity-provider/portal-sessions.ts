// One session with the portal's: each provider session is linked to the portal session that signed it in, lives no
// longer than it, and an app's logout ends it.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Db } from '../../db/client.js';
import { oidcSessionLinks, sessions, users } from '../../db/schema.js';

const seconds = (ms: number) => Math.floor(ms / 1000);

/** What the portal passes along with a finished interaction, for the session link (routes/oidc/interactions.ts). */
export interface PortalLogin {
  sessionId: string;
  /** The portal session's expiry, epoch seconds: the provider session never outlives it. */
  expiresAt: number;
}

/** True while the portal session a provider session was signed in with is live (not ended, expired or outdated). */
export async function portalSessionAlive(db: Db, sessionUid: string, accountId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(oidcSessionLinks)
    .innerJoin(sessions, eq(sessions.id, oidcSessionLinks.portalSessionId))
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(oidcSessionLinks.sessionUid, sessionUid),
        eq(sql`${sessions.userId}::text`, accountId),
        isNull(sessions.endedAt),
        gt(sessions.expiresAt, sql`now()`),
        eq(sessions.tokenVersion, users.tokenVersion),
        eq(users.status, 'active'),
      ),
    );
  return row !== undefined;
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
