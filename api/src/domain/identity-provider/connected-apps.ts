// The registry of partner apps (table connected_apps, docs/decisions/0126-connected-apps.md): what an app is,
// whatever protocol signs people into it: its name, its catalogue app, whether it is the suite's own. Its protocol
// connection (an OpenID Connect client in oidc/clients.ts, a SAML service provider in saml/apps.ts) is read with these
// facts, written beside them in one transaction, and goes with the app (the foreign key cascades).
import { asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  type ConnectedAppFacts,
  type ConnectedAppProtocol,
  connectedApps,
  oidcClients,
  samlApps,
} from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { identityProviderMessages as M } from './messages.js';

/** The columns of a protocol connection's row read with its app's facts (an `OidcClientRow`, a `SamlAppRow`). */
const appFactColumns = { name: connectedApps.name, appId: connectedApps.appId, firstParty: connectedApps.firstParty };
export const clientColumns = { ...getTableColumns(oidcClients), ...appFactColumns };
export const samlAppColumns = { ...getTableColumns(samlApps), ...appFactColumns };

/** The Spanish 404 of a registry id that names no connected app. */
export const connectedAppNotFound = () => new HttpError(404, M.connectedAppNotFound, 'CONNECTED_APP_NOT_FOUND');

/** OpenID Connect clients with their app's facts: add `.where(…)`, `.orderBy(…)`, `.for(…)` as needed. */
export const selectClients = (db: Db) =>
  db.select(clientColumns).from(oidcClients).innerJoin(connectedApps, eq(connectedApps.id, oidcClients.connectedAppId));

/** SAML apps with their app's facts. */
export const selectSamlApps = (db: Db) =>
  db.select(samlAppColumns).from(samlApps).innerJoin(connectedApps, eq(connectedApps.id, samlApps.connectedAppId));

/** Registers an app for a protocol connection about to be written in the same transaction; answers its id. */
export async function registerApp(db: Db, protocol: ConnectedAppProtocol, facts: ConnectedAppFacts): Promise<number> {
  const [row] = await db
    .insert(connectedApps)
    .values({ protocol, ...facts })
    .returning({ id: connectedApps.id });
  if (!row) throw new Error('insert returned no row');
  return row.id;
}

/** Sets an app's facts (in its connection's transaction). */
export async function updateAppFacts(db: Db, id: number, facts: ConnectedAppFacts): Promise<void> {
  await db
    .update(connectedApps)
    .set({ ...facts, updatedAt: sql`now()` })
    .where(eq(connectedApps.id, id));
}

/** Removes an app with its protocol connection and everything that belongs to it (subscriptions included). */
export async function removeApp(db: Db, id: number): Promise<void> {
  await db.delete(connectedApps).where(eq(connectedApps.id, id));
}

/** One connected app as the admin panel's list shows it, with the key its protocol's own paths take. */
export interface ConnectedAppView {
  id: number;
  protocolo: ConnectedAppProtocol;
  nombre: string;
  appId: number | null;
  primeraParte: boolean;
  /** The OpenID Connect client's `client_id` (the key of /admin/clientes-oidc/:clientId), else null. */
  clientId: string | null;
  /** The SAML app's id (the key of /admin/aplicaciones-saml/:id), else null. */
  samlAppId: number | null;
  /** The SAML app's entityID, else null. */
  entityId: string | null;
  /** May sign people in on devices (the device grant). */
  dispositivos: boolean;
  creadaEn: string;
}

/** Every connected app, by name, whatever its protocol: the admin panel's 'Aplicaciones conectadas'. */
export async function listConnectedApps(db: Db): Promise<ConnectedAppView[]> {
  const rows = await db
    .select({
      id: connectedApps.id,
      protocol: connectedApps.protocol,
      name: connectedApps.name,
      appId: connectedApps.appId,
      firstParty: connectedApps.firstParty,
      createdAt: connectedApps.createdAt,
      clientId: oidcClients.clientId,
      deviceFlow: oidcClients.deviceFlow,
      samlAppId: samlApps.id,
      entityId: samlApps.entityId,
    })
    .from(connectedApps)
    .leftJoin(oidcClients, eq(oidcClients.connectedAppId, connectedApps.id))
    .leftJoin(samlApps, eq(samlApps.connectedAppId, connectedApps.id))
    .orderBy(asc(connectedApps.name), asc(connectedApps.id));
  return rows.map((row) => ({
    id: row.id,
    protocolo: row.protocol,
    nombre: row.name,
    appId: row.appId,
    primeraParte: row.firstParty,
    clientId: row.clientId,
    samlAppId: row.samlAppId,
    entityId: row.entityId,
    dispositivos: row.deviceFlow === true,
    creadaEn: row.createdAt.toISOString(),
  }));
}

/** The connected app of an OpenID Connect client, or undefined. */
export async function appOfClient(db: Db, clientId: string): Promise<number | undefined> {
  const [row] = await db
    .select({ id: oidcClients.connectedAppId })
    .from(oidcClients)
    .where(eq(oidcClients.clientId, clientId));
  return row?.id;
}

/** The connected app of a SAML app, or undefined. */
export async function appOfSamlApp(db: Db, samlAppId: number): Promise<number | undefined> {
  const [row] = await db.select({ id: samlApps.connectedAppId }).from(samlApps).where(eq(samlApps.id, samlAppId));
  return row?.id;
}
