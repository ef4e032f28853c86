import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, inArray, sql } from 'drizzle-orm';
import { users } from '../src/db/schema.js';
import { renewEmailSample } from '../src/domain/user-directory/email-search.js';
import { buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';

// The stat cards and the unfiltered totals come from counters the database keeps (migration 0009); a text-filtered list
// stops counting past 1 000. Every figure is checked against a plain count of the table after each kind of change:
// sign-up, verification, suspension, role change, deletion.

forEachBackend((backend) => {
  let t: TestApp;
  let adminToken: string;

  before(async () => {
    // Its set-up writes tens of thousands of rows in single statements (see buildTestApp).
    t = await buildTestApp(backend, {}, { databaseTimeoutMs: 60_000 });
    adminToken = await login(t.app);
  });
  after(() => t.close());

  const get = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${adminToken}` } });
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };

  /** The stat cards' figures counted the slow way, from the table itself. */
  async function countedFromTable() {
    const all = await t.app.db.select({ status: users.status, role: users.role }).from(users);
    return {
      totalUsers: all.length,
      activeUsers: all.filter((u) => u.status === 'active').length,
      pendingVerification: all.filter((u) => u.status === 'pending_verification').length,
      administrators: all.filter((u) => u.role === 1).length,
    };
  }

  async function assertCountsMatch(step: string) {
    const expected = await countedFromTable();
    assert.deepEqual(await get('/user/stats'), expected, step);
    const listed = await get('/user/listar?limit=1');
    assert.equal(listed.total, expected.totalUsers, `${step}: list total`);
    assert.equal(listed.totalCapped, false);
    for (const status of ['active', 'pending_verification', 'suspended']) {
      const byStatus = await get(`/user/listar?limit=1&status=${status}`);
      const rows = await t.app.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.status, status as 'active'));
      assert.equal(byStatus.total, rows.length, `${step}: ${status}`);
    }
  }

  describe('counters kept by the database', () => {
    it('follow sign-ups, verification, suspension, role changes and deletions', async () => {
      await assertCountsMatch('start');
      const auth = { authorization: `Bearer ${adminToken}` };

      const pending = await Promise.all(
        [1, 2, 3].map((n) =>
          createUser(t.app, { email: `cuenta${n}@example.com`, password: 'secreto-1', status: 'pending_verification' }),
        ),
      );
      await assertCountsMatch('after three sign-ups');

      const verified = await t.app.inject({
        method: 'POST',
        url: '/user/verify-emails',
        headers: auth,
        payload: { userIds: pending.slice(0, 2) },
      });
      assert.equal(verified.statusCode, 200);
      await assertCountsMatch('after verifying two');

      assert.equal(
        (await t.app.inject({ method: 'PUT', url: `/auth/cambiar-estado/${pending[0]}`, headers: auth })).statusCode,
        200,
      );
      await assertCountsMatch('after a suspension');

      const promoted = await t.app.inject({
        method: 'PUT',
        url: `/auth/editar/${pending[1]}`,
        headers: auth,
        payload: { role: 1, name: 'Nueva' },
      });
      assert.equal(promoted.statusCode, 200, promoted.body);
      assert.equal((await get('/user/stats')).administrators, 2);
      await assertCountsMatch('after a promotion');

      // A change of name only leaves the counters as they are.
      await t.app.db.update(users).set({ name: 'Otra' }).where(eq(users.id, pending[2]!));
      await assertCountsMatch('after a rename');

      await t.app.db.delete(users).where(inArray(users.id, pending));
      await assertCountsMatch('after deleting them');
    });

    it('stay exact under concurrent sign-ups and status changes (several connections on PostgreSQL)', async () => {
      const ids = await Promise.all(
        Array.from({ length: 24 }, (_, n) =>
          createUser(t.app, { email: `a-la-vez${n}@example.com`, password: 'secreto-1', status: 'active' }),
        ),
      );
      await Promise.all(
        ids.flatMap((id, n) => [
          t.app.db
            .update(users)
            .set({ status: n % 2 === 0 ? 'suspended' : 'active', role: n % 3 === 0 ? 1 : 2 })
            .where(eq(users.id, id)),
          createUser(t.app, {
            email: `otra-vez${n}@example.com`,
            password: 'secreto-1',
            status: 'pending_verification',
          }),
        ]),
      );
      await assertCountsMatch('after concurrent changes');
    });

    it('follow statements that write thousands of users at once (an import, a bulk change, a purge)', async () => {
      // Migration 0012: one counter write per statement. Under 0009's row triggers a million-row INSERT never ended.
      await t.app.db.execute(sql`
        insert into users (email, name, status, role)
        select 'importado' || n || '@example.org', 'Importado',
               (array['active', 'pending_verification', 'suspended'])[1 + n % 3]::text, 1 + n % 2
        from generate_series(1, 6000) as n`);
      await assertCountsMatch('after importing 6000 in one statement');
      await t.app.db.execute(sql`
        update users set status = case status when 'active' then 'suspended' else 'active' end,
                         role = case when id % 5 = 0 then 1 else role end
        where email like 'importado%'`);
      await assertCountsMatch('after changing their status and role in one statement');
      await t.app.db.execute(sql`update users set name = 'Renombrado' where email like 'importado%'`);
      await assertCountsMatch('after renaming them in one statement');
      await t.app.db.execute(sql`delete from users where email like 'importado%'`);
      await assertCountsMatch('after deleting them in one statement');
    });

    it('never drift: summed by status and role they equal a fresh count of the table', async () => {
      const fromCounters = await t.app.db.execute(
        sql`select status, role, sum(n)::int as n from user_counts group by status, role having sum(n) <> 0 order by 1, 2`,
      );
      const fromTable = await t.app.db.execute(
        sql`select status, role, count(*)::int as n from users group by status, role order by 1, 2`,
      );
      assert.deepEqual(rowsOf(fromCounters), rowsOf(fromTable));
    });
  });

  describe('a text filter past 1 000 matches', () => {
    before(async () => {
      await t.app.db.execute(sql`
        insert into users (email, name, status, created_at)
        select 'masivo' || lpad(n::text, 5, '0') || '@example.net', 'Masivo', 'active',
               timestamptz '2026-01-01' + n * interval '1 second'
        from generate_series(1, 10050) as n`);
    });

    it('stops counting at 1 000, says so, and still pages through the rows', async () => {
      const first = await get('/user/listar?email=masivo&limit=50');
      assert.deepEqual(
        [first.total, first.totalCapped, first.totalPages, first.hasNextPage, first.count],
        [1000, true, 20, true, 50],
      );
      assert.equal(first.data[0].email, 'masivo10050@example.net');
      // Past the cap the rows are still there, page by page.
      const past = await get('/user/listar?email=masivo&limit=50&page=201');
      assert.deepEqual([past.count, past.hasNextPage, past.data[0].email], [50, false, 'masivo00050@example.net']);
      const last = await get('/user/listar?email=masivo&limit=50&page=202');
      assert.deepEqual([last.count, last.hasNextPage], [0, false]);
    });

    it('finds the same rows once a sample of addresses steers the search (rarest part to the index, dense filters walked)', async () => {
      await renewEmailSample(t.app.db);
      const emails = async (query: string) => {
        const page = await get(`/user/listar?${query}`);
        return [page.total, page.totalCapped, page.data.map((u: { email: string }) => u.email)];
      };
      const tenFrom = (n: number) =>
        Array.from({ length: 10 }, (_, i) => `masivo${String(n + 9 - i).padStart(5, '0')}@example.net`);
      // 'masivo' is in a third of the table: the index is asked for the digits, the whole fragment checked on the rows.
      assert.deepEqual(await emails('email=MASIVO0001&limit=20'), [10, false, tenFrom(10)]);
      assert.deepEqual(await emails('email=o00012%40example&limit=20'), [1, false, ['masivo00012@example.net']]);
      // Wildcards stay literal whichever part goes to the index.
      assert.deepEqual(await emails('email=masivo_0001'), [0, false, []]);
      assert.deepEqual(await emails('email=masivo%250001'), [0, false, []]);
      // A domain of 10 050 addresses: dense, the page walked newest first, the count capped.
      const domain = await get('/user/listar?email=%40EXAMPLE.NET&limit=3');
      assert.deepEqual(
        [domain.total, domain.totalCapped, domain.hasNextPage, domain.data.map((u: { email: string }) => u.email)],
        [1000, true, true, ['masivo10050@example.net', 'masivo10049@example.net', 'masivo10048@example.net']],
      );
      // With a status filter too.
      const active = await get('/user/listar?email=masivo0001&status=suspended');
      assert.deepEqual([active.total, active.count], [0, 0]);
    });

    it('counts exactly up to the cap and without a text filter', async () => {
      const narrow = await get('/user/listar?email=masivo0001&limit=5');
      assert.deepEqual([narrow.total, narrow.totalCapped, narrow.totalPages], [10, false, 2]);
      // The page that holds the last match (here the first, then the second) tells the total itself.
      const whole = await get('/user/listar?email=masivo0001&limit=20');
      assert.deepEqual([whole.total, whole.totalPages, whole.count, whole.hasNextPage], [10, 1, 10, false]);
      const second = await get('/user/listar?email=masivo0001&limit=4&page=3');
      assert.deepEqual([second.total, second.totalPages, second.count, second.hasNextPage], [10, 3, 2, false]);
      // A page past the end still gets the count.
      const beyond = await get('/user/listar?email=masivo0001&limit=4&page=9');
      assert.deepEqual([beyond.total, beyond.totalPages, beyond.count], [10, 3, 0]);
      const none = await get('/user/listar?email=nadie-masivo');
      assert.deepEqual([none.total, none.totalPages, none.count], [0, 0, 0]);
      const all = await get('/user/listar?limit=5');
      assert.equal(all.totalCapped, false);
      assert.equal(all.total, (await countedFromTable()).totalUsers);
      assert.ok(all.total > 10000);
    });

    it('answers a domain surely past the cap from the sample, and counts it again once deletions and email changes took it below', async () => {
      await renewEmailSample(t.app.db);
      const inTable = async () => {
        const [row] = rowsOf(
          await t.app.db.execute(sql`select count(*)::int as n from users where strpos(email, '@example.net') > 0`),
        ) as Array<{ n: number }>;
        return row?.n ?? 0;
      };
      const domain = async () => {
        const page = await get('/user/listar?email=%40example.net&limit=3');
        return [page.total, page.totalCapped, page.hasNextPage];
      };
      assert.ok((await inTable()) > 10_000);
      assert.deepEqual(await domain(), [1000, true, true]);
      // The sample is kept (taken again only after 10 minutes): what it vouched for is now mostly gone, by a deletion
      // and by an email change, each in one statement of thousands of rows.
      await t.app.db.execute(sql`delete from users where email like 'masivo0%' and email < 'masivo05000'`);
      await t.app.db.execute(
        sql`update users set email = replace(email, '@example.net', '@example.org')
            where email like 'masivo%@example.net' and email < 'masivo10000'`,
      );
      const left = await inTable();
      assert.ok(left > 3 && left < 1000, String(left));
      assert.deepEqual(await domain(), [left, false, true]);
    });
  });
});

function rowsOf(result: unknown): unknown[] {
  const rows = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
  return rows.map((row) => ({ ...(row as object) }));
}
