// A company's own rules for its members: networks, sign-in methods, session length and inactivity. An attacker with
// plain HTTP calls: a member signing in from outside the company's networks or with a method it refuses, a plain
// member changing the rules, a session that outlives them; and the people the rules must never touch.
import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { auditLog, sessions } from '../src/db/schema.js';
import { companyCommands } from '../src/cli/companies.js';
import { addMember } from '../src/domain/companies/members.js';
import { authenticationOf } from '../src/domain/identity-provider/authentication-methods.js';
import { migrate } from '../src/db/migrate.js';
import { buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';
import { databaseBefore } from './helpers/database-before.js';

type Json = Record<string, unknown>;
const password = 'clave-de-prueba-1';

forEachBackend((backend) => {
  describe(`company rules (${backend})`, () => {
    let test: TestApp;
    let app: FastifyInstance;
    let admin: string;
    let counter = 0;

    const call = (
      method: 'GET' | 'POST' | 'PATCH',
      url: string,
      token: string | undefined,
      payload?: object,
      remoteAddress?: string,
    ) =>
      app.inject({
        method,
        url,
        ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
        ...(payload ? { payload } : {}),
        ...(remoteAddress ? { remoteAddress } : {}),
      });

    const signIn = (email: string, remoteAddress?: string) =>
      call('POST', '/auth/login', undefined, { email, password }, remoteAddress);

    async function company(): Promise<number> {
      const created = await call('POST', '/admin/empresas', admin, { nombre: `Reglas ${++counter} S.A.` });
      assert.equal(created.statusCode, 201, created.body);
      return created.json<{ id: number }>().id;
    }

    /** An active account (a member of `companyId` with `role` when given), signed in from 127.0.0.1. */
    async function person(companyId?: number, role: 'propietario' | 'administrador' | 'miembro' = 'miembro') {
      const email = `regla${++counter}@empresa.test`;
      const id = await createUser(app, { email, password, status: 'active' });
      if (companyId !== undefined) await addMember(app.db, companyId, id, role);
      return { id, email, token: await login(app, email, password) };
    }

    const rules = (companyId: number, token: string, body: object) =>
      call('PATCH', `/empresas/${companyId}/ajustes`, token, body);

    const alive = async (token: string) => (await call('GET', '/auth/user', token)).statusCode;

    before(async () => {
      test = await buildTestApp(backend, { loginRateLimitPerMinute: 1000, authRateLimitPerMinute: 1000 });
      app = test.app;
      admin = await login(app);
    });
    after(() => test.close());

    it("a networks rule refuses a member's sign-in from 127.0.0.1, ends their session, lets an outsider in, and lifts", async () => {
      const id = await company();
      const member = await person(id);
      const outsider = await person();
      assert.equal(await alive(member.token), 200);

      const set = await rules(id, admin, { redesPermitidas: ['10.0.0.0/8', ' 2001:DB8::/32 ', '192.0.2.7'] });
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(set.json<Json>().redesPermitidas, ['10.0.0.0/8', '2001:db8::/32', '192.0.2.7/32']);
      const read = await call('GET', `/empresas/${id}`, admin);
      assert.deepEqual(read.json<Json>().redesPermitidas, ['10.0.0.0/8', '2001:db8::/32', '192.0.2.7/32']);

      // The member's session from 127.0.0.1 ended at once: the row, and every request with it.
      assert.equal(await alive(member.token), 401);
      const [row] = await app.db.select().from(sessions).where(eq(sessions.userId, member.id));
      assert.ok(row?.endedAt, 'the session row is ended');

      const refused = await signIn(member.email);
      assert.equal(refused.statusCode, 403, refused.body);
      assert.equal(refused.json<Json>().code, 'RED_NO_PERMITIDA');
      assert.match(refused.json<{ message: string }>().message, /solo permite iniciar sesión desde sus redes/);
      assert.match(refused.json<{ message: string }>().message, /127\.0\.0\.1/);
      assert.equal('access_token' in refused.json<Json>(), false);

      // From inside the company's networks (IPv4, IPv6, an IPv4-mapped address): let in.
      for (const address of ['10.20.30.40', '2001:db8::1', '::ffff:10.0.0.9', '192.0.2.7']) {
        const inside = await signIn(member.email, address);
        assert.equal(inside.statusCode, 200, `${address}: ${inside.body}`);
      }
      assert.equal((await signIn(member.email, '192.0.2.8')).statusCode, 403);

      // Someone outside the company is never bound by it; nor is their session.
      assert.equal(await alive(outsider.token), 200);
      assert.equal((await signIn(outsider.email)).statusCode, 200);

      const lifted = await rules(id, admin, { redesPermitidas: [] });
      assert.equal(lifted.statusCode, 200, lifted.body);
      assert.equal((await signIn(member.email)).statusCode, 200);

      const entries = await app.db
        .select({ details: auditLog.details })
        .from(auditLog)
        .where(and(eq(auditLog.companyId, id), eq(auditLog.action, 'company.settings_change')))
        .orderBy(auditLog.id);
      assert.deepEqual(
        entries.map((entry) => entry.details),
        [
          {
            redesPermitidas: { de: [], a: ['10.0.0.0/8', '2001:db8::/32', '192.0.2.7/32'] },
            sesionesTerminadas: 1,
          },
          { redesPermitidas: { de: ['10.0.0.0/8', '2001:db8::/32', '192.0.2.7/32'], a: [] } },
        ],
      );
    });

    it("a methods rule refuses a member's password with METODO_NO_PERMITIDO and ends their password session", async () => {
      const id = await company();
      const owner = await person(id, 'propietario');
      const member = await person(id);
      const set = await rules(id, owner.token, { metodosPermitidos: ['empresa', 'llave', 'empresa'] });
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(set.json<Json>().metodosPermitidos, ['llave', 'empresa']);
      assert.equal(await alive(member.token), 401);
      // The owner's own password session ends too: the rules bind every member, owners included.
      assert.equal(await alive(owner.token), 401);
      const refused = await signIn(member.email);
      assert.equal(refused.statusCode, 403, refused.body);
      assert.equal(refused.json<Json>().code, 'METODO_NO_PERMITIDO');
      assert.equal(
        refused.json<Json>().message,
        `La empresa «Reglas ${counter - 2} S.A.» no permite iniciar sesión con contraseña: usa llave de acceso o el inicio de sesión de la empresa`,
      );
      // A platform administrator lifts it.
      const lifted = await rules(id, admin, {
        metodosPermitidos: ['contrasena', 'google', 'apple', 'llave', 'empresa'],
      });
      assert.equal(lifted.statusCode, 200, lifted.body);
      assert.equal((await signIn(member.email)).statusCode, 200);
    });

    it("refuses an empty methods list, a bad network, limits out of range and a plain member's change, changing nothing", async () => {
      const id = await company();
      const member = await person(id);
      const manager = await person(id, 'administrador');
      const bad: [object, number, string | undefined][] = [
        [{ metodosPermitidos: [] }, 400, 'METODOS_VACIOS'],
        [{ metodosPermitidos: ['sms'] }, 400, 'VALIDATION_ERROR'],
        [{ redesPermitidas: ['10.0.0.0/33'] }, 400, 'RED_INVALIDA'],
        [{ redesPermitidas: ['intranet'] }, 400, 'RED_INVALIDA'],
        [{ redesPermitidas: ['10.0.0.0/8/1'] }, 400, 'RED_INVALIDA'],
        [{ sesionMaximaHoras: 0 }, 400, 'VALIDATION_ERROR'],
        [{ sesionMaximaHoras: 721 }, 400, 'VALIDATION_ERROR'],
        [{ inactividadMinutos: 4 }, 400, 'VALIDATION_ERROR'],
        [{ inactividadMinutos: 1441 }, 400, 'VALIDATION_ERROR'],
      ];
      for (const [body, status, code] of bad) {
        const answer = await rules(id, manager.token, body);
        assert.equal(answer.statusCode, status, `${JSON.stringify(body)}: ${answer.body}`);
        assert.equal(answer.json<Json>().code, code, JSON.stringify(body));
        assert.doesNotMatch(answer.json<{ message: string }>().message, /must|should|required property/i);
      }
      const empty = await rules(id, manager.token, { metodosPermitidos: [] });
      assert.equal(empty.json<Json>().message, 'Deja al menos un método de inicio de sesión permitido');
      const network = await rules(id, manager.token, { redesPermitidas: ['intranet'] });
      assert.match(network.json<{ message: string }>().message, /«intranet» no es una red válida/);

      const plain = await rules(id, member.token, { metodosPermitidos: ['empresa'] });
      assert.equal(plain.statusCode, 403, plain.body);
      const stranger = await person();
      assert.equal((await rules(id, stranger.token, { redesPermitidas: ['10.0.0.0/8'] })).statusCode, 403);

      const read = await call('GET', `/empresas/${id}`, admin);
      assert.deepEqual(read.json<Json>().metodosPermitidos, ['contrasena', 'google', 'apple', 'llave', 'empresa']);
      assert.deepEqual(read.json<Json>().redesPermitidas, []);
      assert.equal(await alive(member.token), 200);
      const entries = await app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.companyId, id), eq(auditLog.action, 'company.settings_change')));
      assert.equal(entries.length, 0);
    });

    it('the strictest company wins for a person in several', async () => {
      const lenient = await company();
      const strict = await company();
      const both = await person(lenient);
      await addMember(app.db, strict, both.id, 'miembro');
      assert.equal((await rules(lenient, admin, { metodosPermitidos: ['contrasena', 'llave'] })).statusCode, 200);
      assert.equal((await signIn(both.email)).statusCode, 200);
      assert.equal((await rules(strict, admin, { metodosPermitidos: ['llave'] })).statusCode, 200);
      const refused = await signIn(both.email);
      assert.equal(refused.json<Json>().code, 'METODO_NO_PERMITIDO');
      assert.match(refused.json<{ message: string }>().message, new RegExp(`Reglas ${counter - 1} S\\.A\\.`));
      assert.equal((await rules(strict, admin, { metodosPermitidos: ['contrasena'] })).statusCode, 200);
      assert.equal((await rules(lenient, admin, { redesPermitidas: ['10.0.0.0/8'] })).statusCode, 200);
      assert.equal((await signIn(both.email)).json<Json>().code, 'RED_NO_PERMITIDA');
      assert.equal((await signIn(both.email, '10.1.1.1')).statusCode, 200);
      assert.equal((await rules(strict, admin, { redesPermitidas: ['192.0.2.0/24'] })).statusCode, 200);
      // Inside one company's networks but not the other's: refused.
      assert.equal((await signIn(both.email, '10.1.1.1')).json<Json>().code, 'RED_NO_PERMITIDA');
      assert.equal((await signIn(both.email, '192.0.2.1')).json<Json>().code, 'RED_NO_PERMITIDA');
    });

    it('a session past the longest allowed or unused too long is refused, from the state kept in memory', async () => {
      const id = await company();
      const set = await rules(id, admin, { sesionMaximaHoras: 2, inactividadMinutos: 30 });
      assert.equal(set.statusCode, 200, set.body);
      assert.equal(set.json<Json>().sesionMaximaHoras, 2);
      assert.equal(set.json<Json>().inactividadMinutos, 30);

      /** Moves the member's session back in time in the database, and has this instance read it again. */
      const shift = async (userId: number, started: string, seen: string) => {
        await app.db
          .update(sessions)
          .set({ createdAt: sql`now() - ${started}::interval`, lastSeenAt: sql`now() - ${seen}::interval` })
          .where(eq(sessions.userId, userId));
        app.sessionState.forget(userId);
      };

      // Unused 31 minutes: refused; unused 29: let in.
      const idle = await person(id);
      await shift(idle.id, '29 minutes', '29 minutes');
      assert.equal(await alive(idle.token), 200);
      await shift(idle.id, '31 minutes', '31 minutes');
      assert.equal(await alive(idle.token), 401);

      // Two hours after it started, however much it is used: the kept state ends it without reading the database. The
      // clock is moved past the two hours, not waited for (and the memory's trust, kept by the loop's own time, holds).
      const busy = await person(id);
      await shift(busy.id, '7198 seconds', '10 seconds');
      assert.equal(await alive(busy.token), 200);
      const misses = app.sessionState.stats.misses;
      const serving = app.sessionState.serving;
      mock.timers.enable({ apis: ['Date'], now: Date.now() });
      try {
        mock.timers.tick(2_500);
        assert.equal(await alive(busy.token), 401);
      } finally {
        mock.timers.reset();
      }
      if (serving) assert.equal(app.sessionState.stats.misses, misses, 'answered from memory');

      // Someone outside the company keeps a session older than that.
      const outsider = await person();
      await shift(outsider.id, '5 hours', '2 hours');
      assert.equal(await alive(outsider.token), 200);

      // A session already older than a new limit ends when the limit is set.
      const old = await person(id);
      await shift(old.id, '3 hours', '1 minute');
      assert.equal((await rules(id, admin, { sesionMaximaHoras: 1 })).statusCode, 200);
      const [row] = await app.db.select().from(sessions).where(eq(sessions.userId, old.id));
      assert.ok(row?.endedAt, 'the session row is ended');
      assert.equal(await alive(old.token), 401);
      // Lifted: the member signs in again, with no limit.
      assert.equal((await rules(id, admin, { sesionMaximaHoras: null, inactividadMinutos: null })).statusCode, 200);
      assert.equal((await signIn(old.email)).statusCode, 200);
    });

    it('the console shows and lifts the rules (empresa reglas <id> --quitar), audited as the operator', async () => {
      const empresa = companyCommands.empresa;
      assert.ok(empresa, 'the console has the empresa order');
      const id = await company();
      const member = await person(id);
      assert.equal(
        (await rules(id, admin, { redesPermitidas: ['10.0.0.0/8'], inactividadMinutos: 15 })).statusCode,
        200,
      );
      assert.equal((await signIn(member.email)).json<Json>().code, 'RED_NO_PERMITIDA');
      assert.throws(() => empresa.checkPositionals?.(['reglas', 'uno'], {}), /«uno» no es el id de una empresa/);
      assert.throws(() => empresa.checkPositionals?.(['reglas', String(id)], { rol: 'miembro' }), /no lleva --rol/);
      const shown = await empresa.run(app, ['reglas', String(id)], {});
      assert.match(shown, /redes: 10\.0\.0\.0\/8/);
      assert.match(shown, /inactividad: 15 min/);
      const lifted = await empresa.run(app, ['reglas', String(id)], { quitar: true });
      assert.match(lifted, /quitadas/);
      assert.match(lifted, /redes: cualquiera/);
      assert.equal((await signIn(member.email)).statusCode, 200);
      assert.match(await empresa.run(app, ['reglas', String(id)], { quitar: true }), /nada que cambiar/);
      const [entry] = await app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.companyId, id), eq(auditLog.actorEmail, 'operador (CLI)')));
      assert.deepEqual(entry?.details, {
        redesPermitidas: { de: ['10.0.0.0/8'], a: [] },
        inactividadMinutos: { de: 15, a: null },
      });
    });

    it("answers the caller's address and sign-in method, for the panel's warning", async () => {
      const id = await company();
      const owner = await person(id, 'propietario');
      const read = await call('GET', `/empresas/${id}`, owner.token);
      assert.deepEqual(read.json<Json>().tuAcceso, {
        direccion: '127.0.0.1',
        metodo: 'contrasena',
        deOtraEmpresa: false,
      });
    });

    it('a member reads the rules of their companies that bind them (GET /auth/reglas-empresa); nobody else does', async () => {
      const strict = await company();
      const lax = await company();
      const member = await person(strict);
      await addMember(app.db, lax, member.id, 'miembro');
      const set = await rules(strict, admin, { metodosPermitidos: ['llave', 'contrasena'], sesionMaximaHoras: 8 });
      assert.equal(set.statusCode, 200, set.body);

      const mine = await call('GET', '/auth/reglas-empresa', member.token);
      assert.equal(mine.statusCode, 200, mine.body);
      const [only, ...others] = mine.json<{ data: Json[] }>().data;
      assert.deepEqual(others, [], 'a company without rules binds nothing and is not listed');
      const named = await call('GET', `/empresas/${strict}`, admin);
      assert.deepEqual(only, {
        empresa: { id: strict, nombre: named.json<Json>().nombre },
        redesPermitidas: [],
        metodosPermitidos: ['contrasena', 'llave'],
        sesionMaximaHoras: 8,
        inactividadMinutos: null,
      });

      const outsider = await person();
      assert.deepEqual((await call('GET', '/auth/reglas-empresa', outsider.token)).json<Json>(), { data: [] });
      assert.equal((await call('GET', '/auth/reglas-empresa', undefined)).statusCode, 401);
    });
  });

  describe(`a database from before migration 0050 (${backend})`, () => {
    it("records whose provider signed each open session in, and ends the guests' that 'only our own sign-in' refuses", async () => {
      const { database, dispose } = await databaseBefore(backend, '0050');
      try {
        const one = async <T>(text: string, params: unknown[] = []) =>
          (await database.transaction((session) => session.query<T>(text, params)))[0] as T;
        const company = async (name: string, methods: string) =>
          (
            await one<{ id: number }>('INSERT INTO companies (name, allowed_methods) VALUES ($1, $2) RETURNING id', [
              name,
              methods,
            ])
          ).id;
        const acme = await company('Acme', '{empresa}');
        const beta = await company('Beta', '{contrasena,google,apple,llave,empresa}');
        /** A person linked to `linked`'s provider, a member of `members`, with an open session of that provider's. */
        const signedIn = (email: string, linked: number, members: number[]) =>
          database.transaction(async (session) => {
            const [user] = await session.query<{ id: number }>(
              "INSERT INTO users (email, status) VALUES ($1, 'active') RETURNING id",
              [email],
            );
            const id = Number(user?.id);
            for (const companyId of members)
              await session.query(
                "INSERT INTO company_members (company_id, user_id, role) VALUES ($1, $2, 'miembro')",
                [companyId, id],
              );
            await session.query(
              'INSERT INTO company_identities (company_id, subject, user_id, email) VALUES ($1, $2, $3, $4)',
              [linked, `sub-${id}`, id, email],
            );
            await session.query(
              `INSERT INTO sessions (id, user_id, device, browser, os, address, token_version, expires_at, method)
               VALUES ($1, $2, 'Computadora', 'Chrome', 'Linux', '127.0.0.1', 0, now() + interval '1 day', 'empresa')`,
              [`sesion-${id}`, id],
            );
            return `sesion-${id}`;
          });
        const own = await signedIn('propia@acme.test', acme, [acme]);
        const guest = await signedIn('invitada@beta.test', beta, [beta, acme]);

        assert.ok((await migrate(database)).includes('0050_session_sso_company.sql'));
        const after = (id: string) =>
          one<{ sso: number | null; ended: boolean }>(
            'SELECT sso_company_id AS sso, ended_at IS NOT NULL AS ended FROM sessions WHERE id = $1',
            [id],
          );
        assert.deepEqual(await after(own), { sso: acme, ended: false });
        assert.deepEqual(await after(guest), { sso: beta, ended: true });
      } finally {
        await database.close();
        await dispose();
      }
    });
  });
});

describe('amr and acr of a portal session', () => {
  it('names the sign-in method with RFC 8176 values and the level', () => {
    assert.deepEqual(authenticationOf({ method: 'contrasena', secondFactor: false }), {
      amr: ['pwd'],
      acr: 'urn:portal:acr:1',
    });
    assert.deepEqual(authenticationOf({ method: 'contrasena', secondFactor: true }), {
      amr: ['pwd', 'mfa'],
      acr: 'urn:portal:acr:2',
    });
    assert.deepEqual(authenticationOf({ method: 'llave', secondFactor: true }), {
      amr: ['hwk', 'user', 'mfa'],
      acr: 'urn:portal:acr:2',
    });
    for (const method of ['google', 'apple', 'empresa']) {
      assert.deepEqual(authenticationOf({ method, secondFactor: false }).amr, ['fed']);
    }
    assert.deepEqual(authenticationOf({ method: null, secondFactor: false }).amr, ['pwd']);
  });
});
