import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { count, eq } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.js';
import { migrate, readMigrations } from '../src/db/migrate.js';
import { appTags, apps, plans, roles, userPlans, users } from '../src/db/schema.js';
import { defaultAdminEmail, seed } from '../src/db/seed.js';
import { productionPasswordCost } from '../src/domain/accounts/passwords.js';
import { adminEmail, adminPassword, buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';

forEachBackend((backend) => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(backend);
  });
  after(() => t.close());

  const total = async (table: typeof apps | typeof appTags | typeof plans | typeof users | typeof userPlans) => {
    const [row] = await t.app.db.select({ value: count() }).from(table);
    return row?.value;
  };

  it("a transaction whose 'begin' fails gives its connection back: more such failures than the pool holds, then work as usual", async () => {
    // An isolation level the server refuses makes the 'begin' statement itself fail, as a timeout on a busy server does.
    for (let i = 0; i < 12; i += 1)
      await assert.rejects(t.app.db.transaction(async () => {}, { isolationLevel: 'desconocido' as 'serializable' }));
    const answered = await t.app.db.transaction(async (tx) => tx.select({ value: count() }).from(apps));
    assert.ok((answered[0]?.value ?? 0) > 0);
  });

  it('records each migration once, and a second run applies nothing', async () => {
    const recorded = async () =>
      (
        await t.database.transaction((session) =>
          session.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name'),
        )
      ).map((row) => row.name);
    const names = readMigrations().map((migration) => migration.name);
    assert.deepEqual(await recorded(), names);
    assert.deepEqual(await migrate(t.database), []);
    assert.deepEqual(await recorded(), names);
  });

  it('seeds 5 apps, 6 plans and 1 administrator, and seeding again changes nothing', async () => {
    const snapshot = async () => ({
      apps: await total(apps),
      tags: await total(appTags),
      plans: await total(plans),
      users: await total(users),
      userPlans: await total(userPlans),
    });
    const first = await snapshot();
    assert.equal(first.apps, 5);
    assert.equal(first.plans, 6);
    const result = await seed(t.app.db, { adminEmail, adminPassword });
    assert.deepEqual(result, { catalogueCreated: false, adminCreated: undefined });
    await seed(t.app.db, { adminEmail, adminPassword });
    assert.deepEqual(await snapshot(), first);
    const admins = await t.app.db.select().from(users).where(eq(users.role, roles.admin));
    assert.equal(admins.length, 1);
    assert.deepEqual([admins[0]?.email, admins[0]?.status, admins[0]?.presentacion], [adminEmail, 'active', false]);
  });

  it('gives apps 1-3 a free and a PRO plan with Spanish features and prices', async () => {
    const rows = await t.app.db.select().from(plans).orderBy(plans.appId, plans.id);
    assert.deepEqual(
      rows.map((plan) => [plan.appId, plan.nombre]),
      [
        [1, 'free'],
        [1, 'PRO'],
        [2, 'free'],
        [2, 'PRO'],
        [3, 'free'],
        [3, 'PRO'],
      ],
    );
    const betoFree = rows.find((plan) => plan.appId === 2 && plan.nombre === 'free');
    assert.ok(betoFree?.caracteristicas.includes('20 consultas gratuitas'));
    const betoPro = rows.find((plan) => plan.appId === 2 && plan.nombre === 'PRO');
    assert.deepEqual([betoPro?.precioMensual, betoPro?.precioAnual], [15, 150]);
  });

  it('moves the app id sequence past the seeded ids', async () => {
    const [created] = await t.app.db.insert(apps).values({ nombre: 'Nueva app' }).returning({ id: apps.id });
    assert.equal(created?.id, 6);
    await t.app.db.delete(apps).where(eq(apps.id, 6));
  });

  it("stores passwords as argon2id: at the lowest cost in the suites, at OWASP's in production", async () => {
    const [admin] = await t.app.db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, adminEmail));
    assert.match(String(admin?.hash), /^\$argon2id\$v=19\$m=8,t=1,p=1\$/);
    // A process that does not lower it, as every process the product starts: scripts/check-production-api.mjs reads
    // the same prefix from the compiled API's database.
    assert.deepEqual(productionPasswordCost, { memoryCost: 19456, timeCost: 2, parallelism: 1 });
  });

  it('without ADMIN_PASSWORD creates the default administrator once, with a generated password that works', async () => {
    const first = await seed(t.app.db, { adminEmail: undefined, adminPassword: undefined });
    assert.equal(first.adminCreated?.email, defaultAdminEmail);
    const password = first.adminCreated?.generatedPassword;
    assert.ok(password && password.length >= 20);
    assert.ok(await login(t.app, defaultAdminEmail, password));
    const second = await seed(t.app.db, { adminEmail: undefined, adminPassword: undefined });
    assert.equal(second.adminCreated, undefined, 'the password is only ever announced once');
  });
});

describe('embedded database directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-api-lock-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses to open a directory another running API holds', async () => {
    // The parent process (the test runner) stands in for another API that is alive.
    writeFileSync(join(dataDir, 'pglite.lock'), String(process.ppid));
    await assert.rejects(openDatabase({ databaseUrl: undefined, dataDir }), /Otra instancia de la API \(pid \d+\)/);
  });
});
