// A person's consents to SAML apps, beside their OpenID Connect ones in /perfil: listed as `saml-<id>`, and taken back
// there (the app asks again next time, and is told by a single logout of each session it has of the person).
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  connectedApps,
  samlAppPeople,
  samlApps,
  samlConsents,
  samlLogoutDeliveries,
  samlSessions,
  type SamlAppRow,
} from '../../../db/schema.js';
import { scopeDescriptions } from '../scopes.js';

/** What the app is given, as the consent screen lists it. */
export function releases(app: Pick<SamlAppRow, 'appId'>) {
  return [
    { scope: 'openid', descripcion: scopeDescriptions.openid },
    { scope: 'profile', descripcion: scopeDescriptions.profile },
    { scope: 'email', descripcion: scopeDescriptions.email },
    ...(app.appId !== null ? [{ scope: 'plan', descripcion: scopeDescriptions.plan }] : []),
    { scope: 'organization', descripcion: 'Ver los nombres de las empresas a las que perteneces' },
  ];
}

/** How a SAML app is named among the authorized apps (an OpenID Connect client id is 22 characters, never this). */
export const samlConsentId = (samlAppId: number) => `saml-${samlAppId}`;
const consentIdPattern = /^saml-([1-9][0-9]{0,9})$/;

/** The SAML app a consent id names, or undefined when it is not one. */
export function samlAppOfConsentId(clientId: string): number | undefined {
  const match = consentIdPattern.exec(clientId);
  const id = match ? Number(match[1]) : Number.NaN;
  return Number.isSafeInteger(id) && id <= 2_147_483_647 ? id : undefined;
}

export async function listSamlConsents(db: Db, userId: number) {
  const rows = await db
    .select({
      id: samlApps.id,
      name: connectedApps.name,
      appId: connectedApps.appId,
      grantedAt: samlConsents.grantedAt,
    })
    .from(samlConsents)
    .innerJoin(samlApps, eq(samlApps.id, samlConsents.samlAppId))
    .innerJoin(connectedApps, eq(connectedApps.id, samlApps.connectedAppId))
    .where(eq(samlConsents.userId, userId))
    .orderBy(desc(samlConsents.grantedAt));
  return rows.map((row) => ({
    clientId: samlConsentId(row.id),
    nombre: row.name,
    permisos: releases(row),
    autorizadaEn: row.grantedAt.toISOString(),
  }));
}

/** Forgets the consent and queues the app's single logout of each of its sessions of the person; false: none. */
export async function revokeSamlConsent(db: Db, userId: number, samlAppId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const forgotten = await tx
      .delete(samlConsents)
      .where(and(eq(samlConsents.userId, userId), eq(samlConsents.samlAppId, samlAppId)))
      .returning({ id: samlConsents.samlAppId });
    if (forgotten.length === 0) return false;
    // As an OpenID Connect consent taken back: the app receives none of the person's events any more.
    await tx.delete(samlAppPeople).where(and(eq(samlAppPeople.userId, userId), eq(samlAppPeople.samlAppId, samlAppId)));
    const ended = await tx
      .delete(samlSessions)
      .where(and(eq(samlSessions.userId, userId), eq(samlSessions.samlAppId, samlAppId)))
      .returning();
    const [app] = await tx
      .select({ sloUrl: samlApps.sloUrl, sloRedirectUrl: samlApps.sloRedirectUrl })
      .from(samlApps)
      .where(eq(samlApps.id, samlAppId));
    if ((app?.sloUrl || app?.sloRedirectUrl) && ended.length > 0) {
      // An app with only the browser's logout is not reached from here (the person is on the portal, not signing
      // out): its logout is recorded, and shown failed by the loop, rather than pretended.
      await tx.insert(samlLogoutDeliveries).values(
        ended.map((session) => ({
          samlAppId,
          userId,
          nameId: session.nameId,
          nameIdFormat: session.nameIdFormat,
          sessionIndex: session.sessionIndex,
          binding: app.sloUrl ? ('soap' as const) : ('redirect' as const),
        })),
      );
      await tx.execute(sql`select pg_notify('portal_saml_logout', '')`);
    }
    return true;
  });
}
