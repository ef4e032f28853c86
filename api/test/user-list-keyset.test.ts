import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';

// `GET /user/listar` pages by cursor (`after` / `before`, the `nextCursor` / `prevCursor` of the page on screen) and
// finds a page number in the second half of an exactly counted list from its end. Whichever way a page is found, it
// must hold exactly the rows of that page in the list's order (`created_at` newest first, then `id`), every row once,
// also when many users share one `created_at` or differ by microseconds only.

interface ListedUser {
  id: number;
  email: string;
}
interface UserPage {
  data: ListedUser[];
  total: number;
  totalCapped: boolean;
  totalPages: number;
  currentPage: number;
  hasNextPage: boolean;
  count: number;
  nextCursor: string | null;
  prevCursor: string | null;
}

/** What a page says apart from its cursors, which differ by how the page was found. */
const summary = (page: UserPage) => ({
  ids: page.data.map((user) => user.id),
  total: page.total,
  totalCapped: page.totalCapped,
  totalPages: page.totalPages,
  currentPage: page.currentPage,
  hasNextPage: page.hasNextPage,
  count: page.count,
});

const cursorOf = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

forEachBackend((backend) => {
  let t: TestApp;
  let adminToken: string;

  before(async () => {
    t = await buildTestApp(backend);
    adminToken = await login(t.app);
    // 150 users: groups of 5 created at the very same instant, and every 3rd group 5 users a microsecond apart (one
    // millisecond holds them all, so a cursor rounded to the millisecond would skip or repeat them). Ids do not follow
    // the time order: the list's order is `created_at`, then `id`.
    await t.app.db.execute(sql`
      insert into users (email, name, last_name, status, created_at)
      select 'pagina' || lpad(n::text, 3, '0') || '@ejemplo.org',
             (array['Ana', 'Luis', 'Sofía'])[1 + n % 3], 'Keyset',
             (array['active', 'active', 'pending_verification', 'suspended'])[1 + n % 4],
             timestamptz '2026-05-01 10:00:00+00' + ((n * 7) % 30) * interval '1 second'
               + case when ((n * 7) % 30) % 3 = 0 then (n % 5) * interval '1 microsecond' else interval '0' end
      from generate_series(1, 150) as n`);
  });
  after(() => t.close());

  const auth = () => ({ authorization: `Bearer ${adminToken}` });
  /** `/user/listar` with the filter `query` and the other parameters. */
  const list = (query: string, rest: string) => `/user/listar?${[query, rest].filter(Boolean).join('&')}`;
  const get = async (url: string): Promise<UserPage> => {
    const response = await t.app.inject({ method: 'GET', url, headers: auth() });
    assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
    return response.json();
  };

  /** Every user's id, newest first, read the slow way: `created_at` compared to the microsecond as text. */
  async function listOrder(keep: (user: { email: string; name: string; status: string }) => boolean) {
    const result = await t.app.db.execute(
      sql`select id, email, name || ' ' || last_name as name, status,
                 to_char(created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') as at from users`,
    );
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
      id: number;
      email: string;
      name: string;
      status: string;
      at: string;
    }>;
    return rows
      .filter(keep)
      .sort((a, b) => (a.at === b.at ? b.id - a.id : a.at < b.at ? 1 : -1))
      .map((row) => row.id);
  }

  /** The pages by number: page=1, 2, … up to the last one. */
  async function pagesByNumber(query: string, limit: number): Promise<UserPage[]> {
    const first = await get(list(query, `limit=${limit}`));
    const pages = [first];
    for (let page = 2; page <= first.totalPages; page++)
      pages.push(await get(list(query, `limit=${limit}&page=${page}`)));
    return pages;
  }

  const filters: Array<{ query: string; keep: (user: { email: string; name: string; status: string }) => boolean }> = [
    { query: '', keep: () => true },
    { query: 'status=active', keep: (u) => u.status === 'active' },
    { query: 'status=suspended', keep: (u) => u.status === 'suspended' },
    { query: 'email=PAGINA0', keep: (u) => u.email.includes('pagina0') },
    { query: 'email=pagina1&status=active', keep: (u) => u.email.includes('pagina1') && u.status === 'active' },
    { query: 'name=sof%C3%ADa', keep: (u) => u.name.toLowerCase().includes('sofía') },
  ];

  describe('pages by cursor and by number', () => {
    for (const { query, keep } of filters) {
      it(`give the same rows, each once, forward and backward (${query || 'no filter'})`, async () => {
        const expected = await listOrder(keep);
        assert.ok(expected.length > 20, 'the filter keeps several pages');
        for (const limit of [7, 50]) {
          const byNumber = await pagesByNumber(query, limit);
          assert.deepEqual(
            byNumber.flatMap((page) => page.data.map((user) => user.id)),
            expected,
            `${query}, ${limit} a page: by number`,
          );

          // Forward: each next page asked with the cursor of the page on screen.
          const forward = [byNumber[0]!];
          while (forward.at(-1)!.nextCursor) {
            const onScreen = forward.at(-1)!;
            forward.push(
              await get(list(query, `limit=${limit}&page=${onScreen.currentPage + 1}&after=${onScreen.nextCursor}`)),
            );
          }
          assert.deepEqual(forward.map(summary), byNumber.map(summary), `${query}, ${limit} a page: forward`);
          assert.equal(forward.at(-1)!.hasNextPage, false);

          // Backward from the last page, each previous page asked with the cursor of the page on screen.
          const backward = [forward.at(-1)!];
          while (backward.at(-1)!.prevCursor) {
            const onScreen = backward.at(-1)!;
            backward.push(
              await get(list(query, `limit=${limit}&page=${onScreen.currentPage - 1}&before=${onScreen.prevCursor}`)),
            );
          }
          assert.deepEqual(
            backward.reverse().map(summary),
            byNumber.map(summary),
            `${query}, ${limit} a page: backward`,
          );
          assert.equal(backward[0]!.currentPage, 1);
        }
      });
    }

    it('give the cursors of the pages beside: none before the first page, none after the last', async () => {
      const first = await get('/user/listar?status=active&limit=7');
      assert.equal(first.prevCursor, null);
      assert.ok(first.nextCursor);
      const last = await get(`/user/listar?status=active&limit=7&page=${first.totalPages}`);
      assert.equal(last.nextCursor, null);
      assert.ok(last.prevCursor);
      const past = await get(`/user/listar?status=active&limit=7&page=${first.totalPages + 1}`);
      assert.deepEqual([past.count, past.hasNextPage, past.nextCursor, past.prevCursor], [0, false, null, null]);
      assert.equal(past.total, first.total);
    });

    it('finds a page in the second half of the list from its end: the same rows as counted from the start', async () => {
      for (const { query, keep } of filters.slice(0, 3)) {
        const expected = await listOrder(keep);
        for (const limit of [7, 10, 50]) {
          const totalPages = Math.ceil(expected.length / limit);
          for (const page of [Math.ceil(totalPages / 2) + 1, totalPages - 1, totalPages]) {
            if (page < 1) continue;
            const found = await get(list(query, `limit=${limit}&page=${page}`));
            const rows = expected.slice((page - 1) * limit, page * limit);
            assert.deepEqual(
              summary(found),
              {
                ids: rows,
                total: expected.length,
                totalCapped: false,
                totalPages,
                currentPage: page,
                hasNextPage: page < totalPages,
                count: rows.length,
              },
              `${query}, page ${page} of ${limit}`,
            );
          }
        }
      }
    });

    it('finds every page by number over many days from the users per day the database keeps, also after changes', async () => {
      // 240 users over 40 days, some at the last microsecond of a day (UTC) and some at its first, so that a day's
      // edge falls inside pages; the page numbers then have to cross days from the newest end and from the oldest.
      await t.app.db.execute(sql`
        insert into users (email, name, status, created_at)
        select 'diario' || lpad(n::text, 3, '0') || '@ejemplo.org', 'Diario',
               (array['active', 'suspended', 'pending_verification'])[1 + n % 3],
               timestamptz '2026-03-01 00:00:00+00' + (n % 40) * interval '1 day'
                 + case n % 4 when 0 then interval '1 day' - interval '1 microsecond'
                              when 1 then interval '0'
                              else (n * 37 % 86400) * interval '1 second' end
        from generate_series(1, 240) as n`);
      const everyPage = async (step: string) => {
        for (const { query, keep } of filters.slice(0, 3)) {
          const expected = await listOrder(keep);
          for (const limit of [7, 50]) {
            const totalPages = Math.ceil(expected.length / limit);
            for (let page = 1; page <= totalPages + 1; page++) {
              const found = await get(list(query, `limit=${limit}&page=${page}`));
              const rows = expected.slice((page - 1) * limit, page * limit);
              assert.deepEqual(
                [found.data.map((user) => user.id), found.total, found.hasNextPage],
                [rows, expected.length, page < totalPages],
                `${step}: ${query || 'no filter'}, page ${page} of ${limit}`,
              );
            }
          }
        }
        // The counters agree with the table, day by day and status by status.
        const counted = await t.app.db.execute(sql`
          select coalesce(k.status, u.status) as status, coalesce(k.day, u.day)::text as day,
                 coalesce(k.n, 0)::int as kept, coalesce(u.n, 0)::int as real
          from (select status, day, sum(n) as n from user_day_counts group by 1, 2) k
          full join (select status, (created_at at time zone 'UTC')::date as day, count(*) as n from users group by 1, 2) u
            on u.status = k.status and u.day = k.day
          where coalesce(k.n, 0) <> coalesce(u.n, 0)`);
        const drift = Array.isArray(counted) ? counted : (counted as { rows: unknown[] }).rows;
        assert.deepEqual(drift, [], `${step}: users per day`);
      };
      await everyPage('inserted');
      // Deletions, status changes, and users moved to another day (an import correcting its dates), each one statement.
      await t.app.db.execute(sql`delete from users where email like 'diario%' and email ~ '[05]@'`);
      await t.app.db.execute(sql`update users set status = 'active' where email like 'diario%' and email ~ '[27]@'`);
      await t.app.db.execute(
        sql`update users set created_at = created_at - interval '3 days 5 hours' where email like 'diario%' and email ~ '[38]@'`,
      );
      await everyPage('changed');
      await t.app.db.execute(sql`delete from users where email like 'diario%'`);
    });

    it('answer the first page when walking back reaches the top of the list (users deleted meanwhile)', async () => {
      await t.app.db.execute(sql`
        insert into users (email, name, status, created_at)
        select 'efimero' || n || '@ejemplo.org', 'Efímero', 'active', timestamptz '2026-06-01' + n * interval '1 minute'
        from generate_series(1, 10) as n`);
      const second = await get('/user/listar?name=ef%C3%ADmero&limit=4&page=2');
      assert.deepEqual(
        second.data.map((user) => user.email),
        ['efimero6@ejemplo.org', 'efimero5@ejemplo.org', 'efimero4@ejemplo.org', 'efimero3@ejemplo.org'],
      );
      await t.app.db.execute(sql`delete from users where email = 'efimero9@ejemplo.org'`);
      const back = await get(`/user/listar?name=ef%C3%ADmero&limit=4&page=1&before=${second.prevCursor}`);
      assert.deepEqual(
        [back.currentPage, back.data.map((user) => user.email), back.prevCursor],
        [1, ['efimero10@ejemplo.org', 'efimero8@ejemplo.org', 'efimero7@ejemplo.org', 'efimero6@ejemplo.org'], null],
      );
      await t.app.db.execute(sql`delete from users where email like 'efimero%'`);
    });
  });

  describe('a cursor that names no place in the list', () => {
    const validTime = '2026-05-01T10:00:00.000000Z';
    const refused: Array<[string, string, string]> = [
      ['not base64url', 'no+es/base64=', 'VALIDATION_ERROR'],
      ['too long', 'A'.repeat(201), 'VALIDATION_ERROR'],
      ['empty', '', 'VALIDATION_ERROR'],
      ['not JSON', cursorOf('hola'), 'INVALID_CURSOR'],
      ['a list', cursorOf([validTime, 1]), 'INVALID_CURSOR'],
      ['null', cursorOf(null), 'INVALID_CURSOR'],
      ['no id', cursorOf({ t: validTime }), 'INVALID_CURSOR'],
      ['an id as text', cursorOf({ t: validTime, i: '1' }), 'INVALID_CURSOR'],
      ['id 0', cursorOf({ t: validTime, i: 0 }), 'INVALID_CURSOR'],
      ['a fractional id', cursorOf({ t: validTime, i: 1.5 }), 'INVALID_CURSOR'],
      ['an id past int4', cursorOf({ t: validTime, i: 2 ** 31 }), 'INVALID_CURSOR'],
      ['another field', cursorOf({ t: validTime, i: 1, status: 'active' }), 'INVALID_CURSOR'],
      ['a time in milliseconds', cursorOf({ t: '2026-05-01T10:00:00.000Z', i: 1 }), 'INVALID_CURSOR'],
      ['30 February', cursorOf({ t: '2026-02-30T10:00:00.000000Z', i: 1 }), 'INVALID_CURSOR'],
      ['hour 25', cursorOf({ t: '2026-05-01T25:00:00.000000Z', i: 1 }), 'INVALID_CURSOR'],
      ['year 0', cursorOf({ t: '0000-01-01T00:00:00.000000Z', i: 1 }), 'INVALID_CURSOR'],
      ['SQL in the time', cursorOf({ t: "2026-05-01'); delete from users; --", i: 1 }), 'INVALID_CURSOR'],
    ];

    it('is a 400 with a Spanish message and a code, for `after` and `before`, and changes nothing', async () => {
      const before = await get('/user/listar?limit=100');
      for (const [what, cursor, code] of refused) {
        for (const parameter of ['after', 'before']) {
          const response = await t.app.inject({
            method: 'GET',
            url: `/user/listar?page=2&${parameter}=${encodeURIComponent(cursor)}`,
            headers: auth(),
          });
          assert.equal(response.statusCode, 400, `${what} (${parameter}): ${response.body}`);
          const body = response.json();
          assert.equal(body.code, code, what);
          assert.match(
            body.message,
            code === 'INVALID_CURSOR'
              ? /^El cursor de la página no es válido: vuelve a la primera página de la lista$/
              : new RegExp(`^Datos inválidos: '${parameter}'`),
            what,
          );
        }
      }
      assert.deepEqual(await get('/user/listar?limit=100'), before);
    });

    it('is a 400 when both `after` and `before` are sent', async () => {
      const first = await get('/user/listar?limit=7');
      const second = await get(`/user/listar?limit=7&page=2&after=${first.nextCursor}`);
      const response = await t.app.inject({
        method: 'GET',
        url: `/user/listar?limit=7&page=2&after=${first.nextCursor}&before=${second.prevCursor}`,
        headers: auth(),
      });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'INVALID_CURSOR');
    });

    it('is only for administrators', async () => {
      const first = await get('/user/listar?limit=7');
      const response = await t.app.inject({ method: 'GET', url: `/user/listar?page=2&after=${first.nextCursor}` });
      assert.equal(response.statusCode, 401);
    });
  });
});
