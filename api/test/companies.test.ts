// Customer companies and their licences: platform administrators create, rename, suspend and list companies and sell
// them licences; a company's administrators read their own company and change its settings, and nothing of another.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { auditLog, companies, companyLicences, companyMembers, companySeats, plans } from '../src/db/schema.js';
import { addMember } from '../src/domain/companies/members.js';
import { buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';

type Json = Record<string, unknown>;

forEachBackend((backend) => {
  describe(`companies and licences (${backend})`, () => {
    let test: TestApp;
    let app: FastifyInstance;
    let admin: string;
    let counter = 0;

    const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
      app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

    /** A new company's id, made through the API. */
    async function company(name = `Empresa ${++counter} S.A.`): Promise<number> {
      const created = await call('POST', '/admin/empresas', admin, { nombre: name });
      assert.equal(created.statusCode, 201, created.body);
      return created.json<{ id: number }>().id;
    }

    /** An active account signed in, and its id. */
    async function person(role?: { companyId: number; role: 'propietario' | 'administrador' | 'miembro' }) {
      const email = `persona${++counter}@empresa.test`;
      const id = await createUser(app, { email, password: 'clave-de-prueba-1', status: 'active' });
      if (role) await addMember(app.db, role.companyId, id, role.role);
      return { id, email, token: await login(app, email, 'clave-de-prueba-1') };
    }

    /** An app with two plans (its first two), from the seeded catalogue. */
    async function appWithPlans(): Promise<{ appId: number; planIds: number[]; otherAppPlan: number }> {
      const rows = await app.db.select({ id: plans.id, appId: plans.appId }).from(plans).orderBy(plans.appId, plans.id);
      const byApp = new Map<number, number[]>();
      for (const row of rows) byApp.set(row.appId, [...(byApp.get(row.appId) ?? []), row.id]);
      const [first, second] = [...byApp.entries()].filter(([, ids]) => ids.length >= 2);
      assert.ok(first && second, 'the seeded catalogue has apps with two plans');
      return { appId: first[0], planIds: first[1], otherAppPlan: second[1][0] ?? 0 };
    }

    const inAYear = () => new Date(Date.now() + 365 * 86_400_000).toISOString();

    before(async () => {
      test = await buildTestApp(backend);
      app = test.app;
      admin = await login(app);
    });
    after(() => test.close());

    it('creates a company with a trimmed name, audited with its company id', async () => {
      const created = await call('POST', '/admin/empresas', admin, { nombre: '  Minera Andina S.A.  ' });
      assert.equal(created.statusCode, 201, created.body);
      const { id } = created.json<{ id: number }>();
      assert.deepEqual(Object.keys(created.json()), ['id']);
      const [row] = await app.db.select().from(companies).where(eq(companies.id, id));
      assert.equal(row?.name, 'Minera Andina S.A.');
      assert.equal(row?.status, 'active');
      const [entry] = await app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'company.create'), eq(auditLog.targetId, id)));
      assert.equal(entry?.companyId, id);
      assert.equal(entry?.actorEmail, 'admin@portal.test');

      const detail = await call('GET', `/empresas/${id}`, admin);
      assert.equal(detail.statusCode, 200, detail.body);
      const body = detail.json<Json>();
      assert.deepEqual(body, {
        id,
        nombre: 'Minera Andina S.A.',
        estado: 'activa',
        altaPorDominio: 'aprobacion',
        exigirSegundoFactor: false,
        permitirDispositivosConfiables: true,
        confiarSegundoFactorDelProveedor: false,
        redesPermitidas: [],
        metodosPermitidos: ['contrasena', 'google', 'apple', 'llave', 'empresa'],
        sesionMaximaHoras: null,
        inactividadMinutos: null,
        miembros: 0,
        pendientes: 0,
        createdAt: body.createdAt,
        miRol: null,
        tuAcceso: { direccion: '127.0.0.1', metodo: 'contrasena', deOtraEmpresa: false },
      });
    });

    it('refuses a name already used, in any case, also when two arrive at once', async () => {
      await company('Constructora Norte');
      const again = await call('POST', '/admin/empresas', admin, { nombre: 'CONSTRUCTORA norte ' });
      assert.equal(again.statusCode, 409);
      assert.equal(again.json<Json>().code, 'EMPRESA_EXISTENTE');
      assert.match(again.json<{ message: string }>().message, /Ya existe una empresa/);

      const both = await Promise.all(
        [1, 2, 3].map(() => call('POST', '/admin/empresas', admin, { nombre: 'Transportes Sur' })),
      );
      assert.deepEqual(both.map((answer) => answer.statusCode).sort(), [201, 409, 409]);
      for (const answer of both.filter((one) => one.statusCode === 409)) {
        assert.equal(answer.json<Json>().code, 'EMPRESA_EXISTENTE');
      }
      const [{ value } = { value: 0 }] = await app.db
        .select({ value: sql<number>`count(*)`.mapWith(Number) })
        .from(companies)
        .where(sql`lower(${companies.name}) = 'transportes sur'`);
      assert.equal(value, 1);
    });

    it("renames, suspends and reactivates a company, each audited; a suspended company's administrator is refused", async () => {
      const id = await company('Áridos del Valle');
      const owner = await person({ companyId: id, role: 'administrador' });
      await company('Ocupado Ltda.');

      const taken = await call('PATCH', `/admin/empresas/${id}`, admin, { nombre: 'ocupado ltda.' });
      assert.equal(taken.statusCode, 409);
      assert.equal(taken.json<Json>().code, 'EMPRESA_EXISTENTE');

      const renamed = await call('PATCH', `/admin/empresas/${id}`, admin, { nombre: ' Áridos del Valle SpA ' });
      assert.equal(renamed.statusCode, 200, renamed.body);
      assert.equal(renamed.json<Json>().nombre, 'Áridos del Valle SpA');
      assert.equal(renamed.json<Json>().miembros, 1);
      // Its own name in another case is a rename, not a clash with itself.
      const recased = await call('PATCH', `/admin/empresas/${id}`, admin, { nombre: 'ÁRIDOS DEL VALLE SpA' });
      assert.equal(recased.statusCode, 200, recased.body);

      const suspended = await call('PATCH', `/admin/empresas/${id}`, admin, { estado: 'suspendida' });
      assert.equal(suspended.statusCode, 200);
      assert.equal(suspended.json<Json>().estado, 'suspendida');
      const refused = await call('GET', `/empresas/${id}`, owner.token);
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json<Json>().code, 'EMPRESA_SUSPENDIDA');
      const platform = await call('GET', `/empresas/${id}`, admin);
      assert.equal(platform.statusCode, 200);
      assert.equal(platform.json<Json>().estado, 'suspendida');

      const reactivated = await call('PATCH', `/admin/empresas/${id}`, admin, { estado: 'activa' });
      assert.equal(reactivated.json<Json>().estado, 'activa');
      const back = await call('GET', `/empresas/${id}`, owner.token);
      assert.equal(back.statusCode, 200);
      assert.equal(back.json<Json>().miRol, 'administrador');

      const entries = await app.db
        .select({ action: auditLog.action, details: auditLog.details })
        .from(auditLog)
        .where(eq(auditLog.companyId, id))
        .orderBy(auditLog.id);
      assert.deepEqual(
        entries.map((entry) => entry.action),
        ['company.create', 'company.rename', 'company.rename', 'company.status_change', 'company.status_change'],
      );
      assert.deepEqual(entries[3]?.details, { de: 'activa', a: 'suspendida' });

      const unknown = await call('PATCH', '/admin/empresas/999999', admin, { estado: 'activa' });
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.json<Json>().code, 'EMPRESA_NO_ENCONTRADA');
    });

    it('lists companies newest first, paged, filtered by a part of the name and by state, with their counts', async () => {
      const prefix = `Lista ${Date.now()}`;
      const ids: number[] = [];
      for (let index = 0; index < 5; index++) ids.push(await company(`${prefix} %_${index}`));
      const someone = await person({ companyId: ids[0] ?? 0, role: 'miembro' });
      await addMember(app.db, ids[0] ?? 0, (await person()).id, 'miembro', 'pending_approval');
      assert.ok(someone.id);
      const { appId, planIds } = await appWithPlans();
      const sold = await call('POST', `/admin/empresas/${ids[0]}/licencias`, admin, {
        idApp: appId,
        idPlan: planIds[0],
        puestos: 5,
        fechaVencimiento: inAYear(),
      });
      assert.equal(sold.statusCode, 201, sold.body);
      await call('PATCH', `/admin/empresas/${ids[1]}`, admin, { estado: 'suspendida' });

      const first = await call(
        'GET',
        `/admin/empresas?limit=2&nombre=${encodeURIComponent(prefix.toUpperCase())}`,
        admin,
      );
      assert.equal(first.statusCode, 200, first.body);
      const page = first.json<{
        data: Json[];
        total: number;
        totalPages: number;
        hasNextPage: boolean;
        count: number;
      }>();
      assert.equal(page.total, 5);
      assert.equal(page.totalPages, 3);
      assert.equal(page.hasNextPage, true);
      assert.equal(page.count, 2);
      assert.deepEqual(
        page.data.map((row) => row.id),
        [ids[4], ids[3]],
      );
      const last = await call('GET', `/admin/empresas?limit=2&page=3&nombre=${encodeURIComponent(prefix)}`, admin);
      const oldest = last.json<{ data: Json[] }>().data;
      assert.equal(oldest.length, 1);
      assert.deepEqual(oldest[0], {
        id: ids[0],
        nombre: `${prefix} %_0`,
        estado: 'activa',
        miembros: 1,
        licencias: 1,
        createdAt: oldest[0]?.createdAt,
      });

      const suspended = await call(
        'GET',
        `/admin/empresas?estado=suspendida&nombre=${encodeURIComponent(prefix)}`,
        admin,
      );
      assert.deepEqual(
        suspended.json<{ data: Json[] }>().data.map((row) => row.id),
        [ids[1]],
      );
      // A wildcard typed is a letter: '%' finds only names with a '%'.
      const literal = await call('GET', `/admin/empresas?nombre=${encodeURIComponent('%_3')}`, admin);
      assert.deepEqual(
        literal.json<{ data: Json[] }>().data.map((row) => row.id),
        [ids[3]],
      );
    });

    it('sells a licence, refuses a second one of the same app, and lowering seats below use keeps every seat with an aviso', async () => {
      const id = await company();
      const { appId, planIds, otherAppPlan } = await appWithPlans();
      const expiry = inAYear();
      const created = await call('POST', `/admin/empresas/${id}/licencias`, admin, {
        idApp: appId,
        idPlan: planIds[0],
        puestos: 5,
        fechaVencimiento: expiry,
      });
      assert.equal(created.statusCode, 201, created.body);
      const licence = created.json<Json>();
      assert.deepEqual(Object.keys(licence).sort(), [
        'app',
        'enUso',
        'excedidos',
        'fechaVencimiento',
        'id',
        'libres',
        'plan',
        'puestos',
        'vencida',
      ]);
      assert.equal((licence.app as Json).id, appId);
      assert.equal((licence.plan as Json).id, planIds[0]);
      assert.deepEqual(
        [licence.puestos, licence.enUso, licence.libres, licence.excedidos, licence.vencida],
        [5, 0, 5, 0, false],
      );
      assert.equal(licence.fechaVencimiento, expiry);

      const again = await call('POST', `/admin/empresas/${id}/licencias`, admin, {
        idApp: appId,
        idPlan: planIds[1],
        puestos: 1,
        fechaVencimiento: expiry,
      });
      assert.equal(again.statusCode, 409);
      assert.equal(again.json<Json>().code, 'LICENCIA_EXISTENTE');

      const wrongPlan = await call('POST', `/admin/empresas/${id}/licencias`, admin, {
        idApp: appId,
        idPlan: otherAppPlan,
        puestos: 1,
        fechaVencimiento: expiry,
      });
      assert.equal(wrongPlan.statusCode, 400);
      assert.equal(wrongPlan.json<Json>().code, 'PLAN_NOT_IN_APP');
      const noApp = await call('POST', `/admin/empresas/${id}/licencias`, admin, {
        idApp: 999_999,
        idPlan: planIds[0],
        puestos: 1,
        fechaVencimiento: expiry,
      });
      assert.equal(noApp.statusCode, 404);
      assert.equal(noApp.json<Json>().code, 'APP_NOT_FOUND');

      // Three members hold seats (written as the seat assignment does; the trigger counts them).
      const holders = [
        await person({ companyId: id, role: 'miembro' }),
        await person({ companyId: id, role: 'miembro' }),
      ];
      const manager = await person({ companyId: id, role: 'administrador' });
      for (const holder of [...holders, manager]) {
        await app.db.insert(companySeats).values({ companyId: id, userId: holder.id, appId });
      }
      const lowered = await call('PUT', `/admin/empresas/${id}/licencias/${appId}`, admin, {
        idPlan: planIds[1],
        puestos: 1,
        fechaVencimiento: expiry,
      });
      assert.equal(lowered.statusCode, 200, lowered.body);
      const after = lowered.json<Json>();
      assert.deepEqual([after.puestos, after.enUso, after.libres, after.excedidos], [1, 3, 0, 2]);
      assert.equal((after.plan as Json).id, planIds[1]);
      assert.equal(after.aviso, 'Hay 2 puestos asignados de más: la empresa debe retirar 2 antes de asignar otros');
      const [{ value: seatsLeft } = { value: 0 }] = await app.db
        .select({ value: sql<number>`count(*)`.mapWith(Number) })
        .from(companySeats)
        .where(eq(companySeats.companyId, id));
      assert.equal(seatsLeft, 3, 'nobody lost a seat');

      // The company's administrator reads the same, warning included.
      const listed = await call('GET', `/empresas/${id}/licencias`, manager.token);
      assert.equal(listed.statusCode, 200, listed.body);
      assert.deepEqual(listed.json(), [after]);

      // Expired (written directly: the API takes no past date): shown as such, with what it means.
      await app.db
        .update(companyLicences)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(companyLicences.companyId, id));
      const [expired] = (await call('GET', `/empresas/${id}/licencias`, manager.token)).json<Json[]>();
      assert.equal(expired?.vencida, true);
      assert.match(String(expired?.aviso), /La licencia ha vencido/);

      const missing = await call('PUT', `/admin/empresas/${id}/licencias/999999`, admin, {
        idPlan: planIds[0],
        puestos: 1,
        fechaVencimiento: expiry,
      });
      assert.equal(missing.statusCode, 404);
      const audited = await app.db
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(and(eq(auditLog.companyId, id), sql`${auditLog.action} like 'company.licence%'`));
      assert.deepEqual(
        audited.map((entry) => entry.action),
        ['company.licence_create', 'company.licence_update'],
      );
    });

    it('answers bad input with a Spanish 400 and changes nothing', async () => {
      const id = await company('Sin Cambios S.A.');
      const { appId, planIds } = await appWithPlans();
      const good = { idApp: appId, idPlan: planIds[0], puestos: 3, fechaVencimiento: inAYear() };
      const bad: [string, string, object][] = [
        ['POST', '/admin/empresas', { nombre: '   ' }],
        ['POST', '/admin/empresas', { nombre: 'x'.repeat(101) }],
        ['POST', '/admin/empresas', { nombre: 'Dos\nlíneas' }],
        ['POST', '/admin/empresas', {}],
        ['POST', '/admin/empresas', { nombre: 'Extra', otro: 1 }],
        ['PATCH', `/admin/empresas/${id}`, {}],
        ['PATCH', `/admin/empresas/${id}`, { estado: 'borrada' }],
        ['PATCH', `/admin/empresas/${id}`, { nombre: '' }],
        ['POST', `/admin/empresas/${id}/licencias`, { ...good, puestos: 0 }],
        ['POST', `/admin/empresas/${id}/licencias`, { ...good, puestos: 100_001 }],
        ['POST', `/admin/empresas/${id}/licencias`, { ...good, puestos: 2.5 }],
        ['POST', `/admin/empresas/${id}/licencias`, { ...good, fechaVencimiento: 'mañana' }],
        ['POST', `/admin/empresas/${id}/licencias`, { ...good, fechaVencimiento: '2020-01-01T00:00:00.000Z' }],
        ['PATCH', `/empresas/${id}/ajustes`, { altaPorDominio: 'siempre' }],
        ['PATCH', `/empresas/${id}/ajustes`, {}],
      ];
      for (const [method, url, payload] of bad) {
        const answer = await call(method as 'POST', url, admin, payload);
        assert.equal(answer.statusCode, 400, `${method} ${url} ${JSON.stringify(payload)}: ${answer.body}`);
        const message = answer.json<{ message: string }>().message;
        assert.doesNotMatch(message, /must|should|required property/i, message);
      }
      const past = await call('POST', `/admin/empresas/${id}/licencias`, admin, {
        ...good,
        fechaVencimiento: '2020-01-01T00:00:00.000Z',
      });
      assert.equal(past.json<Json>().message, 'La fecha de vencimiento debe ser posterior a este momento');
      const [row] = await app.db.select().from(companies).where(eq(companies.id, id));
      assert.equal(row?.name, 'Sin Cambios S.A.');
      assert.equal(row?.domainJoin, 'approval');
      const licences = await app.db.select().from(companyLicences).where(eq(companyLicences.companyId, id));
      assert.equal(licences.length, 0);
      const entries = await app.db.select().from(auditLog).where(eq(auditLog.companyId, id));
      assert.equal(entries.length, 1, 'only its creation');
    });

    it("changes the company's settings, audited, by its own administrator", async () => {
      const id = await company();
      const manager = await person({ companyId: id, role: 'propietario' });
      const changed = await call('PATCH', `/empresas/${id}/ajustes`, manager.token, {
        altaPorDominio: 'automatica',
        exigirSegundoFactor: true,
      });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal(changed.json<Json>().altaPorDominio, 'automatica');
      assert.equal(changed.json<Json>().exigirSegundoFactor, true);
      assert.equal(changed.json<Json>().miRol, 'propietario');
      const [row] = await app.db.select().from(companies).where(eq(companies.id, id));
      assert.equal(row?.domainJoin, 'automatic');
      assert.equal(row?.requireSecondFactor, true);
      const [entry] = await app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.companyId, id), eq(auditLog.action, 'company.settings_change')));
      assert.equal(entry?.actorId, manager.id);
      assert.deepEqual(entry?.details, {
        altaPorDominio: { de: 'aprobacion', a: 'automatica' },
        exigirSegundoFactor: { de: false, a: true },
      });
    });

    it('keeps each company to its own administrators and the platform routes to platform administrators', async () => {
      const mine = await company();
      const other = await company();
      const manager = await person({ companyId: mine, role: 'administrador' });
      const member = await person({ companyId: mine, role: 'miembro' });
      const plain = await person();

      assert.equal((await call('GET', `/empresas/${mine}`, manager.token)).statusCode, 200);
      assert.equal((await call('GET', `/empresas/${mine}/licencias`, manager.token)).statusCode, 200);
      for (const [method, url, payload] of [
        ['GET', `/empresas/${other}`, undefined],
        ['GET', `/empresas/${other}/licencias`, undefined],
        ['PATCH', `/empresas/${other}/ajustes`, { exigirSegundoFactor: true }],
        ['GET', '/empresas/999999', undefined],
      ] as const) {
        const answer = await call(method, url, manager.token, payload);
        assert.equal(answer.statusCode, 403, `${method} ${url}`);
      }
      // A plain member of the company does not manage it.
      assert.equal((await call('GET', `/empresas/${mine}`, member.token)).statusCode, 403);
      assert.equal(
        (await call('PATCH', `/empresas/${mine}/ajustes`, member.token, { exigirSegundoFactor: true })).statusCode,
        403,
      );

      const { appId, planIds } = await appWithPlans();
      const licence = { idApp: appId, idPlan: planIds[0], puestos: 3, fechaVencimiento: inAYear() };
      for (const token of [manager.token, member.token, plain.token]) {
        for (const [method, url, payload] of [
          ['GET', '/admin/empresas', undefined],
          ['POST', '/admin/empresas', { nombre: 'Intrusa S.A.' }],
          ['PATCH', `/admin/empresas/${mine}`, { estado: 'suspendida' }],
          ['POST', `/admin/empresas/${mine}/licencias`, licence],
          ['PUT', `/admin/empresas/${mine}/licencias/${appId}`, licence],
        ] as const) {
          const answer = await call(method, url, token, payload);
          assert.equal(answer.statusCode, 403, `${method} ${url}: ${answer.body}`);
        }
      }
      const [row] = await app.db.select().from(companies).where(eq(companies.id, mine));
      assert.equal(row?.status, 'active');
      assert.equal(row?.requireSecondFactor, false);
      const [{ value } = { value: 0 }] = await app.db
        .select({ value: sql<number>`count(*)`.mapWith(Number) })
        .from(companies)
        .where(eq(companies.name, 'Intrusa S.A.'));
      assert.equal(value, 0);
      const [membership] = await app.db
        .select()
        .from(companyMembers)
        .where(and(eq(companyMembers.companyId, other), eq(companyMembers.userId, manager.id)));
      assert.equal(membership, undefined);
    });
  });
});
