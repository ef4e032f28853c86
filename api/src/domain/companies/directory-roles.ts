// The roles of an app that follow the directory's groups (docs/decisions/0136-app-roles-from-directory-groups.md): a
// rule of a group may give roles of its app; the group's members holding the app's seat in the company have them
// while a group gives them. A seat given takes them at once (trigger `company_seats_group_app_roles`); a seat taken
// back takes them away (`company_seats_app_roles`); this brings them in line after the groups or the rules change.
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';
import { recordAudit } from '../audit/log.js';
import { directoryActor } from '../audit/log.js';

/** Each of these people's roles from the company's groups, as the rules give them now and as they hold them. */
export async function followGroupAppRoles(tx: Db, companyId: number, userIds: number[]): Promise<void> {
  const people = [...new Set(userIds)];
  if (people.length === 0) return;
  const wanted = await rowsOf<{ user_id: number; app_id: number; clave: string }>(
    tx,
    sql`SELECT DISTINCT s.user_id, s.app_id, k.clave
        FROM company_seats s
        JOIN company_scim_users su ON su.company_id = s.company_id AND su.user_id = s.user_id AND su.active
        JOIN company_scim_group_members gm ON gm.scim_user_id = su.id
        JOIN company_group_rules r ON r.group_id = gm.group_id AND r.company_id = s.company_id AND r.app_id = s.app_id
        CROSS JOIN LATERAL unnest(r.roles_app) AS k(clave)
        JOIN app_roles ar ON ar.app_id = s.app_id AND ar.clave = k.clave
        WHERE s.company_id = ${companyId} AND s.user_id IN ${people}`,
  );
  const held = await rowsOf<{ user_id: number; app_id: number; clave: string }>(
    tx,
    sql`SELECT user_id, app_id, clave FROM user_app_roles
        WHERE company_id = ${companyId} AND fuente = 'grupo' AND user_id IN ${people}
        FOR UPDATE`,
  );
  const keyOf = (row: { user_id: number; app_id: number }) => `${row.user_id}:${row.app_id}`;
  const before = new Map<string, string[]>();
  const after = new Map<string, string[]>();
  for (const row of held) before.set(keyOf(row), [...(before.get(keyOf(row)) ?? []), row.clave]);
  for (const row of wanted) after.set(keyOf(row), [...(after.get(keyOf(row)) ?? []), row.clave]);
  const changes: { userId: number; appId: number; antes: string[]; despues: string[] }[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const antes = [...(before.get(key) ?? [])].sort();
    const despues = [...(after.get(key) ?? [])].sort();
    if (antes.join(' ') === despues.join(' ')) continue;
    const [userId, appId] = key.split(':').map(Number) as [number, number];
    changes.push({ userId, appId, antes, despues });
  }
  if (changes.length === 0) return;
  for (const change of changes) {
    const gone = change.antes.filter((clave) => !change.despues.includes(clave));
    const added = change.despues.filter((clave) => !change.antes.includes(clave));
    if (gone.length > 0)
      await tx.execute(
        sql`DELETE FROM user_app_roles
            WHERE company_id = ${companyId} AND fuente = 'grupo' AND user_id = ${change.userId}
              AND app_id = ${change.appId} AND clave IN ${gone}`,
      );
    if (added.length > 0)
      await tx.execute(
        sql`INSERT INTO user_app_roles (user_id, app_id, clave, company_id, fuente)
            SELECT ${change.userId}, ${change.appId}, clave, ${companyId}, 'grupo' FROM unnest(${sql`array[${sql.join(
              added.map((clave) => sql`${clave}`),
              sql`, `,
            )}]::text[]`}) AS k(clave)
            ON CONFLICT DO NOTHING`,
      );
  }
  // The roles' names, as the log keeps them beside the keys: one read for every app changed.
  const names = new Map<number, Record<string, string>>();
  for (const row of await rowsOf<{ app_id: number; clave: string; nombre: string }>(
    tx,
    sql`SELECT app_id, clave, nombre FROM app_roles WHERE app_id IN ${[...new Set(changes.map((change) => change.appId))]}`,
  ))
    names.set(Number(row.app_id), { ...names.get(Number(row.app_id)), [row.clave]: row.nombre });
  const namesOf = (appId: number, keys: string[]) =>
    Object.fromEntries([...new Set(keys)].sort().map((key) => [key, names.get(appId)?.[key] ?? key]));
  const emails = new Map(
    (
      await rowsOf<{ id: number; email: string }>(
        tx,
        sql`SELECT id, email FROM users WHERE id IN ${changes.map((change) => change.userId)}`,
      )
    ).map((row) => [Number(row.id), row.email]),
  );
  await recordAudit(
    tx,
    directoryActor,
    changes.map((change) => ({
      action: 'company.app_roles_change' as const,
      target: { type: 'company' as const, id: companyId },
      details: {
        userId: change.userId,
        email: emails.get(change.userId) ?? null,
        appId: change.appId,
        antes: change.antes,
        despues: change.despues,
        nombres: namesOf(change.appId, [...change.antes, ...change.despues]),
        fuenteRoles: 'grupo',
      },
      companyId,
    })),
  );
}
