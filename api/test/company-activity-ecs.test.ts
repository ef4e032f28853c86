// A company's activity log as a SIEM collector reads it: Elastic Common Schema documents, oldest first, page after page
// by a cursor that never skips an entry, not even one whose transaction commits after a later one's (PostgreSQL).
import assert from 'node:assert/strict';
import { generate } from 'otplib';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { rowsOf } from '../src/db/client.js';
import { auditLog, users } from '../src/db/schema.js';
import type { EcsDocument } from '../src/domain/audit/ecs.js';
import { placeEntries } from '../src/domain/audit/positions.js';
import { encodeCursor } from '../src/domain/key-cursor.js';
import { seal, sealingKey } from '../src/lib/sealed.js';
import { directoryActor, recordAudit, systemActor } from '../src/domain/audit/log.js';
import { setupLinkActor } from '../src/domain/companies/setup-links.js';
import { addMember } from '../src/domain/companies/members.js';
import {
  buildTestApp,
  createUser,
  databaseUrl,
  forEachBackend,
  login,
  schemaOfApp,
  type TestApp,
} from './helpers/app.js';

const password = 'clave-del-colector';

/** A document as the API answers it (the shape its schema declares). */
type Doc = EcsDocument;
interface EcsPage {
  data: Doc[];
  siguiente: string;
  hayMas: boolean;
}

forEachBackend((backend) => {
  describe("a company's activity log read as ECS documents by cursor", () => {
    let test: TestApp;
    let admin: string;
    let counter = 0;
    const call = (method: string, url: string, token: string | undefined, payload?: unknown) =>
      test.app.inject({
        method: method as 'GET',
        url,
        ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
        ...(payload !== undefined ? { payload: payload as object } : {}),
      });
    const read = async (companyId: number, token: string, desde?: string, limit = 50) => {
      const answer = await call(
        'GET',
        `/empresas/${companyId}/auditoria?formato=ecs&limit=${limit}${desde ? `&desde=${desde}` : ''}`,
        token,
      );
      assert.equal(answer.statusCode, 200, answer.body);
      return answer.json<EcsPage>();
    };
    /** The page after `cursor` once it holds at least `count` documents (or after 30 s, as it is then). */
    const until = async (companyId: number, token: string, cursor: string, count: number) => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const page = await read(companyId, token, cursor);
        if (page.data.length >= count || Date.now() > deadline) return page;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    /** Every document from the first, `limit` at a time; answers them and the cursor to go on from. */
    const readAll = async (companyId: number, token: string, limit: number, from?: string) => {
      const docs: Doc[] = [];
      let cursor = from;
      for (;;) {
        const page = await read(companyId, token, cursor, limit);
        docs.push(...page.data);
        cursor = page.siguiente;
        if (!page.hayMas) return { docs, cursor };
      }
    };
    /**
     * Every committed entry of the company, read from the first once the feed has them all: on a PostgreSQL server
     * shared with other work, a transaction still running elsewhere holds newer entries back for a moment (by design).
     */
    const caughtUp = async (companyId: number, token: string) => {
      const [row] = await test.app.db
        .select({ count: sql<number>`count(*)::int` })
        .from(auditLog)
        .where(eq(auditLog.companyId, companyId));
      const deadline = Date.now() + 30_000;
      for (;;) {
        const all = await readAll(companyId, token, 100);
        if (all.docs.length === row?.count || Date.now() > deadline) return all;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const names = new Map<number, string>();
    async function company() {
      const nombre = `Colector ${++counter} S.A.`;
      const created = await call('POST', '/admin/empresas', admin, { nombre });
      assert.equal(created.statusCode, 201, created.body);
      const { id } = created.json<{ id: number }>();
      names.set(id, nombre);
      return id;
    }
    async function owner(companyId: number) {
      const email = `dueno${++counter}@colector.test`;
      const id = await createUser(test.app, { email, password, status: 'active' });
      await addMember(test.app.db, companyId, id, 'propietario');
      return { id, email, token: await login(test.app, email, password) };
    }

    before(async () => {
      test = await buildTestApp(backend, { loginRateLimitPerMinute: 1_000, authRateLimitPerMinute: 1_000 });
      admin = await login(test.app);
    });
    after(() => test.close());

    it('a rules change is an ECS document with its action, outcome, who and the company; nothing of another company', async () => {
      const id = await company();
      const other = await company();
      const it_ = await owner(id);
      const changed = await call('PATCH', `/empresas/${id}/ajustes`, it_.token, { sesionMaximaHoras: 12 });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal(
        (await call('PATCH', `/empresas/${other}/ajustes`, admin, { sesionMaximaHoras: 8 })).statusCode,
        200,
      );

      const { docs: data } = await caughtUp(id, it_.token);
      const rules = data.find((doc) => doc.event.action === 'company.settings_change');
      assert.ok(rules, JSON.stringify(data));
      assert.deepEqual(rules.organization, { id: String(id), name: names.get(id) });
      assert.equal(rules.event.outcome, 'success');
      assert.equal(rules.event.kind, 'event');
      assert.equal(rules.event.dataset, 'portal.audit');
      assert.deepEqual(rules.user, { id: String(it_.id), email: it_.email });
      assert.equal(rules.portal.origen, 'administrador');
      assert.ok(!Number.isNaN(Date.parse(rules['@timestamp'])));
      assert.ok(
        data.every((doc) => doc.organization.id === String(id)),
        'only its own entries',
      );
      // A person who may not manage the company reads nothing of it.
      const stranger = await owner(other);
      assert.equal((await call('GET', `/empresas/${id}/auditoria?formato=ecs`, stranger.token)).statusCode, 403);
    });

    it('pages oldest first without a gap or a repeat; with nothing new the cursor stays; a forged cursor is a Spanish 400', async () => {
      const id = await company();
      const it_ = await owner(id);
      for (const hours of [1, 2, 3, 4, 5])
        assert.equal(
          (await call('PATCH', `/empresas/${id}/ajustes`, it_.token, { sesionMaximaHoras: hours })).statusCode,
          200,
        );
      const whole = await caughtUp(id, it_.token);
      const { docs, cursor } = await readAll(id, it_.token, 2);
      assert.deepEqual(
        docs.map((doc) => doc.event.id),
        whole.docs.map((doc) => doc.event.id),
      );
      assert.equal(new Set(docs.map((doc) => doc.event.id)).size, docs.length, 'no repeat');
      const ids = docs.map((doc) => Number(doc.event.id));
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
        'one writer: the order of the entries',
      );
      // Nothing new: the same cursor comes back, and a new entry is the only one after it.
      const idle = await read(id, it_.token, cursor);
      assert.deepEqual([idle.data, idle.siguiente], [[], cursor]);
      assert.equal(
        (await call('PATCH', `/empresas/${id}/ajustes`, it_.token, { sesionMaximaHoras: 6 })).statusCode,
        200,
      );
      const next = await until(id, it_.token, cursor, 1);
      assert.deepEqual(
        next.data.map((doc) => doc.event.action),
        ['company.settings_change'],
      );
      // The cursor is opaque: it shows neither the entry's place nor its id.
      const [last] = await rowsOf<{ position: string; id: string }>(
        test.app.db,
        sql`SELECT position::text AS position, entry_id::text AS id FROM audit_positions
            WHERE entry_id = ${Number(docs.at(-1)?.event.id)}`,
      );
      const readable = Buffer.from(cursor, 'base64url').toString('latin1');
      const plain = [`[${last?.position}]`, encodeCursor([Number(last?.position)])];
      assert.ok(last && plain.every((text) => !readable.includes(text) && !cursor.includes(text)), cursor);
      // A cursor handed out before entries had places named the last entry read (its transaction and id): it goes on
      // after that entry.
      const cursorKey = sealingKey(test.signingKey.privateKey, 'portal audit log cursor');
      const [third] = whole.docs.slice(2);
      const older = seal(cursorKey, `audit-cursor:${id}`, encodeCursor([5, Number(third?.event.id)]));
      assert.deepEqual(
        (await readAll(id, it_.token, 3, older)).docs.map((doc) => doc.event.id),
        [...whole.docs.slice(3), ...next.data].map((doc) => doc.event.id),
      );
      // Forged, altered, the old readable kind, or another company's: a Spanish 400.
      const other = await company();
      const otherOwner = await owner(other);
      const otherCursor = (await caughtUp(other, otherOwner.token)).cursor;
      const altered = `${cursor.slice(0, -2)}${cursor.endsWith('A') ? 'B' : 'A'}${cursor.at(-1)}`;
      for (const forgedCursor of [
        'abc',
        altered,
        ...plain.slice(1),
        encodeCursor([5, Number(last?.id)]),
        otherCursor,
      ]) {
        const forged = await call(
          'GET',
          `/empresas/${id}/auditoria?formato=ecs&desde=${encodeURIComponent(forgedCursor)}`,
          it_.token,
        );
        assert.equal(forged.statusCode, 400, forgedCursor);
        assert.equal(forged.json<{ code: string }>().code, 'INVALID_CURSOR');
        assert.match(forged.json<{ message: string }>().message, /cursor/);
      }
    });

    it("every document carries ECS's version and categorization; user.email is an address or absent; a setup link's caller is source.ip", async () => {
      const id = await company();
      const it_ = await owner(id);
      assert.equal(
        (await call('PATCH', `/empresas/${id}/ajustes`, it_.token, { sesionMaximaHoras: 10 })).statusCode,
        200,
      );
      const link = {
        linkId: 7,
        companyId: id,
        companyName: names.get(id) ?? '',
        expiresAt: '',
        address: '203.0.113.7',
      };
      await recordAudit(test.app.db, setupLinkActor(link), [
        { action: 'company.provider_update', target: { type: 'company', id }, details: {}, companyId: id },
      ]);
      for (const actor of [directoryActor, systemActor])
        await recordAudit(test.app.db, actor, [
          {
            action: 'company.seat_assign',
            target: { type: 'company', id },
            details: { userId: it_.id, email: it_.email, appId: 1 },
            companyId: id,
          },
        ]);
      const { docs } = await caughtUp(id, it_.token);
      const expected: Record<string, string[]> = {
        authentication: ['start', 'end', 'info'],
        configuration: ['access', 'change', 'creation', 'deletion', 'info'],
        iam: ['admin', 'change', 'creation', 'deletion', 'group', 'info', 'user'],
        session: ['start', 'end', 'info'],
      };
      for (const doc of docs) {
        assert.equal(doc.ecs.version, '8.17.0');
        assert.ok(Array.isArray(doc.event.category) && doc.event.category.length > 0, JSON.stringify(doc.event));
        for (const category of doc.event.category)
          for (const type of doc.event.type) assert.ok(expected[category]?.includes(type), `${category}/${type}`);
        assert.ok(['success', 'failure'].includes(doc.event.outcome));
        assert.ok(doc.user?.email === undefined || /^[^\s@]+@[^\s@]+$/.test(doc.user.email), doc.user?.email);
      }
      const rules = docs.find((doc) => doc.event.action === 'company.settings_change');
      assert.deepEqual([rules?.event.category, rules?.event.type], [['configuration'], ['change']]);
      const byLink = docs.find((doc) => doc.event.action === 'company.provider_update');
      assert.deepEqual(byLink?.source, { ip: '203.0.113.7' });
      assert.equal(byLink?.user, undefined, 'a setup link has no address of its own');
      // The directory's and the portal's own entries name no user, only the member they changed.
      const seats = docs.filter((doc) => doc.event.action === 'company.seat_assign');
      assert.deepEqual(
        seats.map((doc) => [doc.portal.origen, doc.user]),
        [
          ['scim', { target: { id: String(it_.id), email: it_.email } }],
          ['sistema', { target: { id: String(it_.id), email: it_.email } }],
        ],
      );
    });

    it('where an entry came from is decided when it is written: its author since made a platform administrator, or gone, it reads the same', async () => {
      const id = await company();
      const it_ = await owner(id);
      const changed = await call('PATCH', `/empresas/${id}/ajustes`, it_.token, { sesionMaximaHoras: 9 });
      assert.equal(changed.statusCode, 200, changed.body);
      const origins = async () => {
        const log = await call('GET', `/empresas/${id}/auditoria?action=company.settings_change`, admin);
        const [entry] = log.json<{ data: { actorEmail: string; origen: string }[] }>().data;
        const { docs } = await caughtUp(id, admin);
        const doc = docs.find((one) => one.event.action === 'company.settings_change');
        return [entry?.actorEmail, entry?.origen, doc?.portal.origen];
      };
      assert.deepEqual(await origins(), [it_.email, 'administrador', 'administrador']);
      const promoted = await call('PUT', `/auth/editar/${it_.id}`, admin, { role: 1 });
      assert.equal(promoted.statusCode, 200, promoted.body);
      assert.deepEqual(await origins(), [it_.email, 'administrador', 'administrador'], 'made a platform administrator');
      // The operator deletes the account: the entry keeps its author's address, and where it came from.
      await test.app.db.delete(users).where(eq(users.id, it_.id));
      assert.deepEqual(await origins(), [it_.email, 'administrador', 'administrador'], 'the account deleted');
    });

    it('carries no credential, whatever the entry holds', async () => {
      const id = await company();
      const it_ = await owner(id);
      await recordAudit(test.app.db, { user: { id: it_.id, email: it_.email } }, [
        {
          action: 'company.setup_link_create',
          target: { type: 'company', id },
          details: { secreto: 's3cr3t', token: 't0k3n', enlace: { clave: 'k3y', caduca: '2026-12-01' }, nombre: 'IT' },
          companyId: id,
        },
      ]);
      const { docs: data } = await caughtUp(id, it_.token);
      const text = JSON.stringify(data);
      for (const secret of ['s3cr3t', 't0k3n', 'k3y']) assert.ok(!text.includes(secret), secret);
      const doc = data.find((one) => one.event.action === 'company.setup_link_create');
      assert.deepEqual(doc?.portal.detalles, { enlace: { caduca: '2026-12-01' }, nombre: 'IT' });
    });

    it("a member's wrong passwords, lock, wrong second-factor code and refused sign-in are failures in each of their companies' logs", async () => {
      const first = await company();
      const second = await company();
      const owners = [await owner(first), await owner(second)];
      const email = `miembro${++counter}@colector.test`;
      const userId = await createUser(test.app, { email, password, status: 'active' });
      for (const companyId of [first, second]) await addMember(test.app.db, companyId, userId, 'miembro');
      const stranger = `ajeno${++counter}@colector.test`;
      await createUser(test.app, { email: stranger, password, status: 'active' });
      const from = '198.51.100.23';
      const signIn = (who: string, typed: string, remoteAddress = from) =>
        test.app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { email: who, password: typed },
          remoteAddress,
        });
      for (let tries = 0; tries < 5; tries++) assert.equal((await signIn(email, 'no-es-la-clave')).statusCode, 401);
      assert.equal((await signIn(stranger, 'no-es-la-clave')).statusCode, 401);
      // A wrong authenticator code at the second step.
      const session = await login(test.app, email, password);
      const setup = await call('POST', '/auth/totp', session);
      const { secret } = setup.json<{ secret: string }>();
      const confirmed = await call('POST', '/auth/totp/confirmar', session, {
        code: await generate({ secret, epoch: Math.floor(Date.now() / 1000) }),
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      const ticket = (await signIn(email, password, '127.0.0.1')).json<{ ticket: string }>().ticket;
      const wrongCode = await test.app.inject({
        method: 'POST',
        url: '/auth/login/segundo-paso',
        payload: { ticket, code: '000000' },
      });
      assert.equal(wrongCode.statusCode, 401, wrongCode.body);
      // The first company's networks refuse the right password from elsewhere.
      const rules = await call('PATCH', `/empresas/${first}/ajustes`, owners[0]?.token, {
        redesPermitidas: ['192.0.2.0/24'],
      });
      assert.equal(rules.statusCode, 200, rules.body);
      const refused = await signIn(email, password, '127.0.0.1');
      assert.equal(refused.json<{ code: string }>().code, 'RED_NO_PERMITIDA');

      // Read by the platform's administrator: the new networks ended the owner's session too.
      for (const [at, companyId] of [first, second].entries()) {
        const { docs } = await caughtUp(companyId, admin);
        const failed = docs.filter((doc) => doc.event.outcome === 'failure');
        assert.deepEqual(
          failed.map((doc) => [doc.event.action, doc.user?.email, doc.source?.ip, doc.event.category]),
          [
            ...Array.from({ length: 5 }, () => ['auth.sign_in_failure', email, from, ['authentication']]),
            ['auth.lockout', email, from, ['authentication']],
            ['auth.second_factor_failure', email, '127.0.0.1', ['authentication']],
            ['auth.sign_in_refused', email, '127.0.0.1', ['authentication']],
          ],
          `company ${at + 1}`,
        );
        assert.equal(failed.at(-1)?.portal.detalles.motivo, 'red');
        assert.ok(!JSON.stringify(docs).includes(stranger), 'no one else');
      }
    });

    it('many writers at once and a reader paging all the while: every entry read once, in the order of its place', async () => {
      const id = await company();
      const it_ = await owner(id);
      const { cursor: start } = await caughtUp(id, it_.token);
      let writing = true;
      const writers = Array.from({ length: 6 }, async (_, writer) => {
        for (let round = 0; round < 8; round++)
          await test.app.db.transaction(async (tx) => {
            await recordAudit(
              tx,
              { user: { id: it_.id, email: it_.email } },
              Array.from({ length: 1 + (round % 3) }, (_, n) => ({
                action: 'company.settings_change' as const,
                target: { type: 'company' as const, id },
                details: { escritor: writer, ronda: round, n },
                companyId: id,
              })),
            );
            // Held open a moment, each for another time: transactions commit in another order than they wrote.
            await new Promise((resolve) => setTimeout(resolve, (writer * 7 + round * 3) % 10));
          });
      });
      // Another instance's sequencer placing entries the while, each round slow to commit: the places are still given
      // one round at a time, whichever instance gives them.
      const otherInstance = (async () => {
        while (writing)
          await test.app.db.transaction(async (tx) => {
            await placeEntries(tx);
            await new Promise((resolve) => setTimeout(resolve, 5));
          });
      })();
      const seen: string[] = [];
      const reader = (async () => {
        let cursor = start;
        for (;;) {
          const last = !writing;
          const page = await read(id, it_.token, cursor, 5);
          seen.push(...page.data.map((doc) => doc.event.id));
          cursor = page.siguiente;
          if (last && page.data.length === 0) return;
        }
      })();
      await Promise.all(writers);
      writing = false;
      await Promise.all([reader, otherInstance]);

      const written = await rowsOf<{ id: string; position: string | null }>(
        test.app.db,
        sql`SELECT a.id::text AS id, p.position::text AS position
            FROM audit_log a LEFT JOIN audit_positions p ON p.entry_id = a.id
            WHERE a.company_id = ${id} AND a.details ? 'escritor' ORDER BY p.position`,
      );
      // 1, 2, 3, 1, 2, 3, 1, 2 entries a writer.
      assert.equal(written.length, 6 * 15);
      assert.ok(
        written.every((row) => row.position !== null),
        'every entry has its place',
      );
      assert.equal(new Set(seen).size, seen.length, 'none read twice');
      assert.deepEqual(
        seen,
        written.map((row) => row.id),
        'every entry read, in the order of its place',
      );
    });

    if (backend === 'postgres')
      it('an entry whose transaction commits after a later one comes after it, and never holds it back', async () => {
        const id = await company();
        const it_ = await owner(id);
        const { cursor } = await caughtUp(id, it_.token);
        // A slow writer: its transaction has its entry, not yet committed.
        const slow = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schemaOfApp(test)}` });
        await slow.connect();
        try {
          await slow.query('BEGIN');
          await slow.query(
            `SELECT audit_write('{"actorEmail": "lento@colector.test"}',
               jsonb_build_array(jsonb_build_object('action', 'company.rename', 'targetType', 'company',
                 'targetId', $1::int, 'companyId', $1::int)))`,
            [id],
          );
          // A faster writer's entry commits meanwhile: read at once, the slow one still open.
          await recordAudit(test.app.db, { user: { id: it_.id, email: it_.email } }, [
            { action: 'company.invitation_create', target: { type: 'company', id }, details: {}, companyId: id },
          ]);
          const fast = await read(id, it_.token, cursor);
          assert.deepEqual(
            fast.data.map((doc) => [doc.event.action, doc.user?.email]),
            [['company.invitation_create', it_.email]],
          );
          await slow.query('COMMIT');
          const next = await until(id, it_.token, fast.siguiente, 1);
          assert.deepEqual(
            next.data.map((doc) => [doc.event.action, doc.user?.email]),
            [['company.rename', 'lento@colector.test']],
          );
        } finally {
          await slow.end();
        }
      });
  });
});
