// The SAML apps administrators register (table saml_apps, each the protocol connection of a connected app:
// connected-apps.ts) from their service provider metadata: every address, key and preference is read from that
// metadata; the name, the catalogue app and whether it is the suite's own are the administrator's, kept in the
// registry. Each change is audited with what changed.
import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, like } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  apps,
  connectedApps,
  samlApps,
  samlLogoutDeliveries,
  type SamlAppRow,
  type SamlNameIdFormat,
} from '../../../db/schema.js';
import { HttpError } from '../../../lib/errors.js';
import { type AuditActor, recordAudit } from '../../audit/log.js';
import { registerApp, removeApp, selectSamlApps, updateAppFacts } from '../connected-apps.js';
import { readSpMetadata } from './metadata.js';
import { samlIdpMessages as M } from './messages.js';

/** What an administrator sends: a name, the SP's metadata XML, and the catalogue app it is (its plan goes along). */
export interface SamlAppInput {
  nombre: string;
  metadata: string;
  appId?: number | null;
  /** The suite's own app: the person is never asked for consent (as an OpenID Connect first-party client). */
  primeraParte?: boolean;
}

/** A change: without `metadata` the stored metadata stays. */
export type SamlAppChange = Omit<SamlAppInput, 'metadata'> & { metadata?: string };

/** A registered SAML app as the admin API answers it. */
export interface SamlAppView {
  id: number;
  /** Its connected app's registry id (its event subscriptions go under /admin/aplicaciones-conectadas/:idApp). */
  idAplicacion: number;
  nombre: string;
  entityId: string;
  appId: number | null;
  primeraParte: boolean;
  urlsAcs: string[];
  urlCierreSesion: string | null;
  /** Its HTTP-Redirect SingleLogoutService, where the person's browser carries the logout when there is no SOAP one. */
  urlCierreSesionNavegador: string | null;
  formatoNameId: SamlNameIdFormat;
  /** Single logouts owed to the app and not yet delivered (failing ones included, until given up). */
  cierresPendientes: number;
  /** Why the latest undelivered single logout failed, or null. */
  ultimoErrorCierre: string | null;
  creadaEn: string;
  actualizadaEn: string;
}

export const samlAppNotFound = () => new HttpError(404, M.appNotFound, 'SAML_APP_NOT_FOUND');

interface LogoutFacts {
  pending: number;
  lastError: string | null;
}

async function logoutFacts(db: Db, ids: number[]): Promise<Map<number, LogoutFacts>> {
  const facts = new Map<number, LogoutFacts>(ids.map((id) => [id, { pending: 0, lastError: null }]));
  if (ids.length === 0) return facts;
  const undelivered = and(inArray(samlLogoutDeliveries.samlAppId, ids), isNull(samlLogoutDeliveries.deliveredAt));
  const pending = await db
    .select({ id: samlLogoutDeliveries.samlAppId, value: count() })
    .from(samlLogoutDeliveries)
    .where(and(undelivered, isNull(samlLogoutDeliveries.failedAt)))
    .groupBy(samlLogoutDeliveries.samlAppId);
  for (const row of pending) (facts.get(row.id) as LogoutFacts).pending = Number(row.value);
  const errors = await db
    .selectDistinctOn([samlLogoutDeliveries.samlAppId], {
      id: samlLogoutDeliveries.samlAppId,
      lastError: samlLogoutDeliveries.lastError,
    })
    .from(samlLogoutDeliveries)
    .where(and(undelivered, isNotNull(samlLogoutDeliveries.lastError)))
    .orderBy(samlLogoutDeliveries.samlAppId, desc(samlLogoutDeliveries.id));
  for (const row of errors) (facts.get(row.id) as LogoutFacts).lastError = row.lastError;
  return facts;
}

function view(row: SamlAppRow, facts: LogoutFacts | undefined): SamlAppView {
  return {
    id: row.id,
    idAplicacion: row.connectedAppId,
    nombre: row.name,
    entityId: row.entityId,
    appId: row.appId,
    primeraParte: row.firstParty,
    urlsAcs: row.acsUrls,
    urlCierreSesion: row.sloUrl,
    urlCierreSesionNavegador: row.sloRedirectUrl,
    formatoNameId: row.nameIdFormat,
    cierresPendientes: facts?.pending ?? 0,
    ultimoErrorCierre: facts?.lastError ?? null,
    creadaEn: row.createdAt.toISOString(),
    actualizadaEn: row.updatedAt.toISOString(),
  };
}

export async function findSamlApp(db: Db, id: number): Promise<SamlAppRow | undefined> {
  const [row] = await selectSamlApps(db).where(eq(samlApps.id, id));
  return row;
}

export async function findSamlAppByEntityId(db: Db, entityId: string): Promise<SamlAppRow | undefined> {
  const [row] = await selectSamlApps(db).where(eq(samlApps.entityId, entityId));
  return row;
}

export async function listSamlApps(db: Db): Promise<SamlAppView[]> {
  const rows = await selectSamlApps(db).orderBy(asc(connectedApps.name), asc(samlApps.id));
  const facts = await logoutFacts(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => view(row, facts.get(row.id)));
}

export async function samlAppView(db: Db, id: number): Promise<SamlAppView> {
  const row = await findSamlApp(db, id);
  if (!row) throw samlAppNotFound();
  return view(row, (await logoutFacts(db, [id])).get(id));
}

/**
 * What an administrator's input sets, checked (a name, readable metadata, an existing catalogue app): the registry's
 * facts of the app, and the service provider's own columns.
 */
async function settingsOf(db: Db, input: SamlAppInput, httpAllowed: boolean) {
  const name = typeof input.nombre === 'string' ? input.nombre.trim() : '';
  if (!name) throw new HttpError(400, M.nameRequired, 'VALIDATION_ERROR');
  const facts = readSpMetadata(input.metadata, httpAllowed);
  const appId = input.appId ?? null;
  if (appId !== null) {
    const [app] = await db.select({ id: apps.id }).from(apps).where(eq(apps.id, appId));
    if (!app) throw new HttpError(400, M.unknownApp(appId), 'VALIDATION_ERROR');
  }
  return {
    app: { name, appId, firstParty: input.primeraParte === true },
    entityId: facts.entityId,
    metadata: input.metadata,
    acsUrls: facts.acsUrls,
    sloUrl: facts.sloUrl,
    sloRedirectUrl: facts.sloRedirectUrl,
    nameIdFormat: facts.nameIdFormat,
    authnRequestsSigned: facts.authnRequestsSigned,
    signingCertificates: facts.signingCertificates,
  };
}

/** A unique violation on saml_apps.entity_id: that service provider is already registered. */
async function oneAppPerEntity<T>(entityId: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause ?? (error as { code?: string });
    if (cause.code === '23505') throw new HttpError(409, M.entityIdTaken(entityId), 'SAML_ENTITY_ID_TAKEN');
    throw error;
  }
}

const auditDetails = (row: SamlAppRow) => ({
  nombre: row.name,
  entityId: row.entityId,
  appId: row.appId,
  primeraParte: row.firstParty,
  urlsAcs: row.acsUrls,
  urlCierreSesion: row.sloUrl,
  urlCierreSesionNavegador: row.sloRedirectUrl,
  formatoNameId: row.nameIdFormat,
});

/** `httpAllowed`: the portal is served over http (a trial), so an app's addresses may be http too. */
export async function createSamlApp(
  db: Db,
  actor: AuditActor,
  input: SamlAppInput,
  httpAllowed = false,
): Promise<SamlAppRow> {
  const settings = await settingsOf(db, input, httpAllowed);
  if (await findSamlAppByEntityId(db, settings.entityId))
    throw new HttpError(409, M.entityIdTaken(settings.entityId), 'SAML_ENTITY_ID_TAKEN');
  return oneAppPerEntity(settings.entityId, () =>
    db.transaction(async (tx) => {
      const { app, ...own } = settings;
      const [inserted] = await tx
        .insert(samlApps)
        .values({
          ...own,
          connectedAppId: await registerApp(tx, 'saml', app),
          subjectSalt: randomBytes(32).toString('base64url'),
        })
        .returning();
      if (!inserted) throw new Error('insert returned no row');
      const row = { ...inserted, ...app };
      await recordAudit(tx, actor, [
        { action: 'saml_app.create', target: { type: 'saml_app', id: row.id }, details: auditDetails(row) },
      ]);
      return row;
    }),
  );
}

export async function updateSamlApp(
  db: Db,
  actor: AuditActor,
  id: number,
  input: SamlAppChange,
  httpAllowed = false,
): Promise<SamlAppView> {
  const before = await findSamlApp(db, id);
  if (!before) throw samlAppNotFound();
  // A change that does not name `primeraParte` (an older form) keeps what the app had.
  const settings = await settingsOf(
    db,
    { ...input, metadata: input.metadata ?? before.metadata, primeraParte: input.primeraParte ?? before.firstParty },
    httpAllowed,
  );
  const taken = await findSamlAppByEntityId(db, settings.entityId);
  if (taken && taken.id !== id) throw new HttpError(409, M.entityIdTaken(settings.entityId), 'SAML_ENTITY_ID_TAKEN');
  await oneAppPerEntity(settings.entityId, () =>
    db.transaction(async (tx) => {
      const { app, ...own } = settings;
      const [updated] = await tx
        .update(samlApps)
        .set({ ...own, updatedAt: new Date() })
        .where(eq(samlApps.id, id))
        .returning();
      if (!updated) throw samlAppNotFound();
      await updateAppFacts(tx, updated.connectedAppId, app);
      const row = { ...updated, ...app };
      await recordAudit(tx, actor, [
        {
          action: 'saml_app.update',
          target: { type: 'saml_app', id },
          details: { antes: auditDetails(before), despues: auditDetails(row) },
        },
      ]);
    }),
  );
  return samlAppView(db, id);
}

/**
 * Reads the HTTP-Redirect logout address of the apps registered before the portal kept it (migration 0038) from their
 * stored metadata, once at start; an app whose metadata no longer reads is left as it is. Answers how many were filled.
 */
export async function fillRedirectLogoutAddresses(db: Db, httpAllowed = false): Promise<number> {
  const rows = await db
    .select({ id: samlApps.id, metadata: samlApps.metadata })
    .from(samlApps)
    .where(and(isNull(samlApps.sloRedirectUrl), like(samlApps.metadata, '%SingleLogoutService%')));
  let filled = 0;
  for (const row of rows) {
    let address: string | null;
    try {
      address = readSpMetadata(row.metadata, httpAllowed).sloRedirectUrl;
    } catch {
      continue;
    }
    if (!address) continue;
    await db
      .update(samlApps)
      .set({ sloRedirectUrl: address })
      .where(and(eq(samlApps.id, row.id), isNull(samlApps.sloRedirectUrl)));
    filled += 1;
  }
  return filled;
}

/** Deletes an app with its pending sign-ins, consents, sessions and owed logouts. */
export async function deleteSamlApp(db: Db, actor: AuditActor, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await selectSamlApps(tx).where(eq(samlApps.id, id)).for('update');
    if (!row) throw samlAppNotFound();
    // The app goes with its service provider: its event subscriptions too.
    await removeApp(tx, row.connectedAppId);
    await recordAudit(tx, actor, [
      { action: 'saml_app.delete', target: { type: 'saml_app', id }, details: auditDetails(row) },
    ]);
  });
}
