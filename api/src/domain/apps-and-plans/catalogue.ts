import { appLinksProblem } from '@portal/contracts/apps/links';
import { and, eq } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Db } from '../../db/client.js';
import { appTags, apps, plans } from '../../db/schema.js';
import { HttpError, present } from '../../lib/errors.js';
import type { App } from '../../schemas/apps.js';
import type { CreateAppBody, UpdateAppBody } from '../../schemas/admin.js';
import { type AuditActor, recordAudit } from '../audit/log.js';
import { findApp } from './apps.js';
import { appMessages } from './messages.js';

type NewApp = Static<typeof CreateAppBody>;
type AppChange = Static<typeof UpdateAppBody>;

/** Links a browser would run or send elsewhere are refused, naming the form's label. */
function checkLinks(links: Parameters<typeof appLinksProblem>[0]) {
  const problem = appLinksProblem(links);
  if (problem) throw new HttpError(400, problem, 'INVALID_APP_LINK');
}

async function replaceTags(db: Db, appId: number, tags: { descripcion: string }[]) {
  await db.delete(appTags).where(eq(appTags.appId, appId));
  if (tags.length > 0)
    await db.insert(appTags).values(tags.map(({ descripcion }) => ({ appId, descripcion: descripcion.trim() })));
}

/** Adds an app to the catalogue, with its tags and an audit entry, in the caller's transaction. */
export async function createApp(tx: Db, actor: AuditActor, body: NewApp): Promise<App> {
  const { tags = [], ...fields } = body;
  checkLinks(fields);
  // Notifies session-state `*` (trigger `apps_session_notify`, docs/triggers.md).
  const [row] = await tx
    .insert(apps)
    .values({ ...fields, nombre: fields.nombre.trim() })
    .returning({ id: apps.id });
  const { id } = present(row, 'the new app');
  await replaceTags(tx, id, tags);
  await recordAudit(tx, actor, [
    { action: 'app.create', target: { type: 'app', id }, details: { nombre: fields.nombre.trim() } },
  ]);
  return present(await findApp(tx, id), 'the new app');
}

/** Changes the fields sent (tags, when sent, are replaced) and audits what changed, in the caller's transaction. */
export async function updateApp(tx: Db, actor: AuditActor, id: number, body: AppChange): Promise<App> {
  const { tags, ...fields } = body;
  checkLinks(fields);
  const before = await findApp(tx, id);
  if (!before) throw new HttpError(404, appMessages.appNotFound, 'APP_NOT_FOUND');
  if (Object.keys(fields).length > 0) {
    // Notifies session-state `*` (trigger `apps_session_notify`, docs/triggers.md).
    await tx
      .update(apps)
      .set(fields.nombre ? { ...fields, nombre: fields.nombre.trim() } : fields)
      .where(eq(apps.id, id));
  }
  if (tags) await replaceTags(tx, id, tags);
  const after = present(await findApp(tx, id), 'the updated app');
  const changed = (Object.keys(body) as (keyof AppChange)[]).filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
  await recordAudit(tx, actor, [
    {
      action: 'app.update',
      target: { type: 'app', id },
      details: { fields: changed, before: Object.fromEntries(changed.map((key) => [key, before[key]])) },
    },
  ]);
  return after;
}

/** The plan `planId` when it is one of app `appId`'s, else undefined. */
export async function findPlanOfApp(db: Db, planId: number, appId: number) {
  const [plan] = await db
    .select({ id: plans.id })
    .from(plans)
    .where(and(eq(plans.id, planId), eq(plans.appId, appId)));
  return plan;
}
