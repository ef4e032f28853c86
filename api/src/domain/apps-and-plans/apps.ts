import { asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { appTags, apps } from '../../db/schema.js';
import { initiatedLoginUrl } from './launch.js';
import type { App } from '../../schemas/apps.js';

// An app as the API shows it, its tags by id gathered in the same statement: one round trip per list or lookup.
const appFields = {
  id: apps.id,
  nombre: apps.nombre,
  descripcion: apps.descripcion,
  longDescription: apps.longDescription,
  iconUrl: apps.iconUrl,
  webUrl: apps.webUrl,
  iosUrl: apps.iosUrl,
  androidUrl: apps.androidUrl,
  isEnabledWeb: apps.isEnabledWeb,
  isEnabledMovil: apps.isEnabledMovil,
  // The app's OpenID Connect client, when it starts its own sign-in (docs/decisions/0055).
  // Aliased: drizzle writes the columns unqualified here, and a bare "id" names both joined tables' ids.
  initiateLoginUri: sql<
    string | null
  >`(select c.initiate_login_uri from oidc_clients c join connected_apps a on a.id = c.connected_app_id where a.protocol = 'oidc' and a.app_id = ${apps}.${sql.identifier(apps.id.name)})`,
  // Spelled "apps"."id": drizzle writes columns unqualified here, and a bare "id" would be the tag's own.
  tags: sql<
    string[]
  >`array(select ${appTags.descripcion} from ${appTags} where ${appTags.appId} = ${apps}.${sql.identifier(apps.id.name)} order by ${appTags.id})`,
};

type AppRow = { tags: string[]; initiateLoginUri: string | null } & Omit<App, 'tags' | 'inicioSesionUrl'>;

/** The row as the API shows it; with the issuer, where the app starts its own sign-in (lists and lookups). */
const asApp = ({ tags, initiateLoginUri, ...app }: AppRow, issuer?: string): App => ({
  ...app,
  tags: tags.map((descripcion) => ({ descripcion })),
  ...(issuer ? { inicioSesionUrl: initiatedLoginUrl(initiateLoginUri, app.webUrl, issuer) } : {}),
});

function pageQuery(db: Db) {
  return db
    .select({ ...appFields, total: sql<number>`(count(*) over ())::int`.mapWith(Number) })
    .from(apps)
    .orderBy(asc(apps.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('apps_page');
}

// Built once per database: the catalogue is read on every visit to the portal.
const pageQueries = new WeakMap<Db, ReturnType<typeof pageQuery>>();

export async function listApps(db: Db, page: number, limit: number, issuer?: string) {
  let query = pageQueries.get(db);
  if (!query) {
    query = pageQuery(db);
    pageQueries.set(db, query);
  }
  const rows = await query.execute({ limit, offset: (page - 1) * limit });
  // The window count rides on the page's rows; a page past the end has none, and asks for the count alone.
  const total = rows[0]?.total ?? (await db.select({ value: count() }).from(apps))[0]?.value ?? 0;
  const data = rows.map(({ total: _total, ...app }) => asApp(app, issuer));
  const totalPages = Math.ceil(total / limit);
  return { data, total, totalPages, currentPage: page, hasNextPage: page < totalPages, count: data.length };
}

export async function findApp(db: Db, id: number, issuer?: string): Promise<App | undefined> {
  const [row] = await db.select(appFields).from(apps).where(eq(apps.id, id));
  return row && asApp(row, issuer);
}
