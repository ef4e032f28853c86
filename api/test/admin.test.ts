import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { auditLog, plans, userPlans, users } from '../src/db/schema.js';
import { buildTestApp, createUser, forEachBackend, login, type TestApp, sessionToken } from './helpers/app.js';

// The admin calls. Each is refused without a token (401) and to a plain user (403), and works for an admin.

interface Call {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  payload?: object;
}

forEachBackend((backend) => {
  let t: TestApp;
  let adminToken: string;
  let userToken: string;
  let plainUserId: number;
  let adminId: number;

  before(async () => {
    t = await buildTestApp(backend);
    adminToken = await login(t.app);
    plainUserId = await createUser(t.app, { email: 'plain@example.com', password: 'secreto-1', status: 'active' });
    userToken = await login(t.app, 'plain@example.com', 'secreto-1');
    const [admin] = await t.app.db.select({ id: users.id }).from(users).where(eq(users.role, 1));
    adminId = admin!.id;
  });
  after(() => t.close());

  const call = (token: string | undefined, { method, url, payload }: Call) =>
    t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  const asAdmin = (c: Call) => call(adminToken, c);

  const auditRows = async (action: string, targetId: number) =>
    t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)));

  describe('access', () => {
    const adminCalls = (): Call[] => [
      { method: 'GET', url: '/user/listar' },
      { method: 'POST', url: '/user/verify-emails', payload: { userIds: [plainUserId] } },
      { method: 'GET', url: '/user/stats' },
      { method: 'PUT', url: `/auth/cambiar-estado/${plainUserId}` },
      {
        method: 'POST',
        url: '/plan-usuario/cambiar-plan-app',
        payload: { idUsuario: plainUserId, idApp: 1, idPlan: 2, fechaVencimiento: '2030-01-01T00:00:00.000Z' },
      },
      { method: 'POST', url: '/apps/register', payload: { nombre: 'Intrusa' } },
      { method: 'PUT', url: '/apps/update/1', payload: { nombre: 'Intrusa' } },
      { method: 'GET', url: '/admin/dashboard' },
      { method: 'GET', url: '/admin/auditoria' },
    ];

    it('answers every admin call without a token with 401 and a plain user with 403, changing nothing', async () => {
      for (const c of adminCalls()) {
        const anonymous = await call(undefined, c);
        assert.equal(anonymous.statusCode, 401, `${c.method} ${c.url} anonymous`);
        assert.equal(anonymous.json().message, 'No autenticado');
        const plain = await call(userToken, c);
        assert.equal(plain.statusCode, 403, `${c.method} ${c.url} as a user`);
        assert.deepEqual(plain.json(), {
          statusCode: 403,
          code: 'FORBIDDEN',
          message: 'No tienes permisos para realizar esta acción',
        });
      }
      const apps = (await t.app.inject({ method: 'GET', url: '/apps/listar?limit=100' })).json();
      assert.equal(apps.total, 5);
      assert.equal(apps.data[0].nombre, 'Control Max 360');
      assert.equal((await t.app.db.select().from(auditLog)).length, 0);
    });

    it("lets a user read their own plans but not another user's", async () => {
      const own = await call(userToken, {
        method: 'POST',
        url: '/plan-usuario/user-app-plans',
        payload: { idUsuario: plainUserId },
      });
      assert.equal(own.statusCode, 200);
      const other = await call(userToken, {
        method: 'POST',
        url: '/plan-usuario/user-app-plans',
        payload: { idUsuario: adminId },
      });
      assert.equal(other.statusCode, 403);
      const anonymous = await call(undefined, {
        method: 'POST',
        url: '/plan-usuario/user-app-plans',
        payload: { idUsuario: plainUserId },
      });
      assert.equal(anonymous.statusCode, 401);
    });
  });

  describe('GET /user/listar', () => {
    before(async () => {
      // 12 more users, one second apart, so that "newest first" is observable.
      const base = Date.UTC(2026, 0, 1);
      await t.app.db.insert(users).values(
        Array.from({ length: 12 }, (_, i) => ({
          email: `lista${String(i).padStart(2, '0')}@Example.org`.toLowerCase(),
          name: i % 2 === 0 ? 'Ana' : 'Luis',
          lastName: i < 6 ? 'Pérez' : 'García',
          status: (i % 3 === 0 ? 'pending_verification' : i % 3 === 1 ? 'active' : 'suspended') as 'active',
          createdAt: new Date(base + i * 1000),
        })),
      );
    });

    it('pages 50 a page by default, newest first, with the paging fields', async () => {
      const body = (await asAdmin({ method: 'GET', url: '/user/listar' })).json();
      // The administrator, the plain user and the 12 listed users.
      assert.deepEqual(
        {
          total: body.total,
          totalPages: body.totalPages,
          currentPage: body.currentPage,
          hasNextPage: body.hasNextPage,
          count: body.count,
        },
        { total: 14, totalPages: 1, currentPage: 1, hasNextPage: false, count: 14 },
      );
      const times = body.data.map((user: { createdAt: string }) => Date.parse(user.createdAt));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
      );
      assert.ok(body.data.every((user: object) => !('passwordHash' in user) && !('password_hash' in user)));
      assert.deepEqual(Object.keys(body.data[0]).sort(), [
        'createdAt',
        'email',
        'id',
        'lastName',
        'name',
        'phone',
        'picture',
        'role',
        'status',
      ]);
    });

    it('filters by email substring ignoring case, and pages the result', async () => {
      const first = (await asAdmin({ method: 'GET', url: '/user/listar?email=LISTA&limit=5&page=1' })).json();
      assert.deepEqual([first.total, first.totalPages, first.count, first.hasNextPage], [12, 3, 5, true]);
      assert.deepEqual(
        first.data.map((u: { email: string }) => u.email),
        [
          'lista11@example.org',
          'lista10@example.org',
          'lista09@example.org',
          'lista08@example.org',
          'lista07@example.org',
        ],
      );
      const last = (await asAdmin({ method: 'GET', url: '/user/listar?email=lista&limit=5&page=3' })).json();
      assert.deepEqual([last.currentPage, last.count, last.hasNextPage], [3, 2, false]);
      assert.deepEqual(
        last.data.map((u: { email: string }) => u.email),
        ['lista01@example.org', 'lista00@example.org'],
      );
      const exact = (await asAdmin({ method: 'GET', url: '/user/listar?email=a07@EXAMPLE' })).json();
      assert.deepEqual(
        exact.data.map((u: { email: string }) => u.email),
        ['lista07@example.org'],
      );
    });

    it('treats % and _ in the email filter as plain characters', async () => {
      const body = (await asAdmin({ method: 'GET', url: '/user/listar?email=%25' })).json();
      assert.equal(body.total, 0);
      const underscore = (await asAdmin({ method: 'GET', url: '/user/listar?email=lista_1' })).json();
      assert.equal(underscore.total, 0);
    });

    it('filters by status and by name, combined with the email filter', async () => {
      const pending = (await asAdmin({ method: 'GET', url: '/user/listar?status=pending_verification' })).json();
      assert.equal(pending.total, 4);
      assert.ok(pending.data.every((u: { status: string }) => u.status === 'pending_verification'));
      const named = (await asAdmin({ method: 'GET', url: '/user/listar?name=ana%20p%C3%A9rez&email=lista' })).json();
      assert.deepEqual(
        named.data.map((u: { email: string }) => u.email),
        ['lista04@example.org', 'lista02@example.org', 'lista00@example.org'],
      );
      const suspendedLuis = (await asAdmin({ method: 'GET', url: '/user/listar?name=luis&status=suspended' })).json();
      assert.deepEqual(
        suspendedLuis.data.map((u: { email: string }) => u.email),
        ['lista11@example.org', 'lista05@example.org'],
      );
    });

    it('answers a page past the end with no rows, and refuses bad queries in Spanish', async () => {
      const beyond = (await asAdmin({ method: 'GET', url: '/user/listar?page=9&limit=10' })).json();
      assert.deepEqual([beyond.count, beyond.total, beyond.totalPages, beyond.hasNextPage], [0, 14, 2, false]);
      const bad: Array<[string, string]> = [
        ['limit=101', "Datos inválidos: 'limit' debe ser menor o igual que 100"],
        ['limit=0', "Datos inválidos: 'limit' debe ser mayor o igual que 1"],
        ['page=0', "Datos inválidos: 'page' debe ser mayor o igual que 1"],
        ['status=borrado', "Datos inválidos: 'status' no es un valor permitido"],
        ['rol=1', "Datos inválidos: el campo 'rol' no está permitido"],
      ];
      for (const [query, message] of bad) {
        const response = await asAdmin({ method: 'GET', url: `/user/listar?${query}` });
        assert.equal(response.statusCode, 400, query);
        assert.equal(response.json().message, message, query);
      }
    });
  });

  describe('POST /user/verify-emails and GET /user/stats', () => {
    it('activates only the pending users among those sent, and records each in the audit log', async () => {
      const pending = await createUser(t.app, {
        email: 'pendiente@example.com',
        password: 'secreto-1',
        status: 'pending_verification',
      });
      const suspended = await createUser(t.app, {
        email: 'suspendido@example.com',
        password: 'secreto-1',
        status: 'suspended',
      });
      const statsBefore = (await asAdmin({ method: 'GET', url: '/user/stats' })).json();

      const response = await asAdmin({
        method: 'POST',
        url: '/user/verify-emails',
        payload: { userIds: [pending, suspended, plainUserId, 999999] },
      });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), { verified: 1, userIds: [pending] });

      const statuses = await t.app.db.select({ id: users.id, status: users.status }).from(users);
      assert.equal(statuses.find((u) => u.id === pending)?.status, 'active');
      assert.equal(statuses.find((u) => u.id === suspended)?.status, 'suspended');
      assert.equal(statuses.find((u) => u.id === plainUserId)?.status, 'active');

      const [row] = await auditRows('user.verify', pending);
      assert.equal(row?.actorId, adminId);
      assert.equal(row?.actorEmail, 'admin@portal.test');
      assert.deepEqual(row?.details, { from: 'pending_verification', to: 'active' });
      assert.equal((await auditRows('user.verify', suspended)).length, 0);

      // Activated by hand the account has no password (nobody proved the registered one is the owner's; the person
      // creates one with «¿Olvidaste tu contraseña?») and starts on the free plan of each app.
      const refused = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'pendiente@example.com', password: 'secreto-1' },
      });
      assert.equal(refused.statusCode, 401);
      const [activated] = await t.app.db.select().from(users).where(eq(users.id, pending));
      assert.equal(activated?.passwordHash, null);
      const token = await sessionToken(t.app, activated!);
      const me = (await call(token, { method: 'GET', url: '/auth/user' })).json();
      assert.deepEqual(
        me.planesUsuarios.map((p: { plan: { nombre: string } }) => p.plan.nombre),
        ['free', 'free', 'free'],
      );

      const statsAfter = (await asAdmin({ method: 'GET', url: '/user/stats' })).json();
      assert.equal(statsAfter.activeUsers, statsBefore.activeUsers + 1);
      assert.equal(statsAfter.pendingVerification, statsBefore.pendingVerification - 1);
    });

    it('counts the users for the stat cards', async () => {
      const stats = (await asAdmin({ method: 'GET', url: '/user/stats' })).json();
      const all = await t.app.db.select().from(users);
      assert.deepEqual(stats, {
        totalUsers: all.length,
        activeUsers: all.filter((u) => u.status === 'active').length,
        pendingVerification: all.filter((u) => u.status === 'pending_verification').length,
        administrators: 1,
      });
    });

    it('refuses an empty or malformed list', async () => {
      for (const payload of [{ userIds: [] }, { userIds: ['1'] }, {}]) {
        const response = await asAdmin({ method: 'POST', url: '/user/verify-emails', payload });
        assert.equal(response.statusCode, 400);
        assert.match(response.json().message, /^Datos inválidos/);
      }
    });
  });

  describe('PUT /auth/cambiar-estado/{id}', () => {
    it('suspends an active user, ending their sessions, and reactivates them', async () => {
      const id = await createUser(t.app, { email: 'estado@example.com', password: 'secreto-1', status: 'active' });
      const token = await login(t.app, 'estado@example.com', 'secreto-1');
      assert.equal((await call(token, { method: 'GET', url: '/auth/user' })).statusCode, 200);

      const suspend = await asAdmin({ method: 'PUT', url: `/auth/cambiar-estado/${id}` });
      assert.equal(suspend.statusCode, 200);
      assert.equal(suspend.json().user.status, 'suspended');
      // The session that was open is told why at its next call, on any authenticated route.
      for (const url of ['/auth/user', '/user/listar']) {
        const told = await call(token, { method: 'GET', url });
        assert.equal(told.statusCode, 403, url);
        assert.deepEqual(told.json(), {
          statusCode: 403,
          code: 'USER_SUSPENDED',
          message: 'Tu cuenta está suspendida. Contacta con soporte.',
        });
      }
      const refused = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'estado@example.com', password: 'secreto-1' },
      });
      assert.equal(refused.json().code, 'USER_SUSPENDED');
      // A token that was already dead when the account was suspended (logged out) stays a plain 401.
      const other = await createUser(t.app, { email: 'estado-2@example.com', password: 'secreto-1', status: 'active' });
      const loggedOut = await login(t.app, 'estado-2@example.com', 'secreto-1');
      assert.equal((await call(loggedOut, { method: 'POST', url: '/auth/logout' })).statusCode, 204);
      await asAdmin({ method: 'PUT', url: `/auth/cambiar-estado/${other}` });
      assert.equal((await call(loggedOut, { method: 'GET', url: '/auth/user' })).statusCode, 401);

      const reactivate = await asAdmin({ method: 'PUT', url: `/auth/cambiar-estado/${id}` });
      assert.equal(reactivate.json().user.status, 'active');
      // The old token stays dead; a new sign-in works.
      assert.equal((await call(token, { method: 'GET', url: '/auth/user' })).statusCode, 401);
      const fresh = await login(t.app, 'estado@example.com', 'secreto-1');
      assert.equal((await call(fresh, { method: 'GET', url: '/auth/user' })).statusCode, 200);

      const rows = await auditRows('user.status_change', id);
      assert.deepEqual(
        rows.map((row) => row.details),
        [
          { from: 'active', to: 'suspended' },
          { from: 'suspended', to: 'active' },
        ],
      );
    });

    it("refuses pending users, unknown ids and the admin's own account", async () => {
      const pending = await createUser(t.app, {
        email: 'sin-verificar@example.com',
        password: 'secreto-1',
        status: 'pending_verification',
      });
      const response = await asAdmin({ method: 'PUT', url: `/auth/cambiar-estado/${pending}` });
      assert.equal(response.statusCode, 409);
      assert.equal(response.json().code, 'USER_PENDING');
      assert.equal((await asAdmin({ method: 'PUT', url: '/auth/cambiar-estado/999999' })).statusCode, 404);
      const own = await asAdmin({ method: 'PUT', url: `/auth/cambiar-estado/${adminId}` });
      assert.equal(own.statusCode, 409);
      assert.equal(own.json().message, 'No puedes cambiar el estado de tu propia cuenta');
      assert.equal((await auditRows('user.status_change', pending)).length, 0);
    });
  });

  describe('plans per user and app', () => {
    let proPlanOfApp1: number;
    let proPlanOfApp2: number;
    let customer: number;

    before(async () => {
      const all = await t.app.db.select().from(plans);
      proPlanOfApp1 = all.find((p) => p.appId === 1 && p.nombre === 'PRO')!.id;
      proPlanOfApp2 = all.find((p) => p.appId === 2 && p.nombre === 'PRO')!.id;
      customer = await createUser(t.app, { email: 'cliente@example.com', password: 'secreto-1', status: 'active' });
    });

    it('lists, per app with plans, the current plan (or none) and the plans to choose from', async () => {
      const response = await asAdmin({
        method: 'POST',
        url: '/plan-usuario/user-app-plans',
        payload: { idUsuario: customer },
      });
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.deepEqual(
        body.map((info: { app: { nombre: string } }) => info.app.nombre),
        ['Control Max 360', 'Beto Pro', 'TX30'],
      );
      assert.ok(body.every((info: { planActual: unknown }) => info.planActual === null));
      assert.deepEqual(
        body[0].planesApp.map((p: { nombre: string }) => p.nombre),
        ['free', 'PRO'],
      );
      const admins = (
        await asAdmin({ method: 'POST', url: '/plan-usuario/user-app-plans', payload: { idUsuario: adminId } })
      ).json();
      assert.equal(admins[0].planActual.nombre, 'free');
      const missing = await asAdmin({
        method: 'POST',
        url: '/plan-usuario/user-app-plans',
        payload: { idUsuario: 999999 },
      });
      assert.equal(missing.statusCode, 404);
    });

    it("sets a plan with its expiry, shows it in the user's planesUsuarios and records it", async () => {
      const response = await asAdmin({
        method: 'POST',
        url: '/plan-usuario/cambiar-plan-app',
        payload: { idUsuario: customer, idApp: 1, idPlan: proPlanOfApp1, fechaVencimiento: '2027-03-15T00:00:00.000Z' },
      });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json().planActual, {
        id: proPlanOfApp1,
        nombre: 'PRO',
        fechaVencimiento: '2027-03-15T00:00:00.000Z',
        origen: 'propio',
        empresa: null,
      });

      const token = await login(t.app, 'cliente@example.com', 'secreto-1');
      const me = (await call(token, { method: 'GET', url: '/auth/user' })).json();
      const plan = me.planesUsuarios.find((p: { app: { id: number } }) => p.app.id === 1);
      assert.equal(plan.plan.nombre, 'PRO');
      assert.equal(plan.fechaVencimiento, '2027-03-15T00:00:00.000Z');

      const [row] = await auditRows('user.plan_change', customer);
      assert.deepEqual(row?.details, {
        appId: 1,
        app: 'Control Max 360',
        fromPlanId: null,
        fromPlan: null,
        toPlanId: proPlanOfApp1,
        toPlan: 'PRO',
        fromFechaVencimiento: null,
        toFechaVencimiento: '2027-03-15T00:00:00.000Z',
      });
    });

    it('refuses plan 0, a plan of another app, unknown users and apps, and bad dates, changing nothing', async () => {
      const cases: Array<[object, number, string]> = [
        [{ idPlan: 0 }, 400, 'PLAN_REQUIRED'],
        [{ idPlan: proPlanOfApp2 }, 400, 'PLAN_NOT_IN_APP'],
        [{ idUsuario: 999999 }, 404, 'USER_NOT_FOUND'],
        [{ idApp: 999 }, 404, 'APP_NOT_FOUND'],
        [{ fechaVencimiento: '15/03/2027' }, 400, 'VALIDATION_ERROR'],
        [{ fechaVencimiento: '2027-03-15' }, 400, 'VALIDATION_ERROR'],
        [{ idPlan: '1' }, 400, 'VALIDATION_ERROR'],
      ];
      for (const [change, status, code] of cases) {
        const payload = {
          idUsuario: customer,
          idApp: 1,
          idPlan: proPlanOfApp1,
          fechaVencimiento: '2031-01-01T00:00:00.000Z',
          ...change,
        };
        const response = await asAdmin({ method: 'POST', url: '/plan-usuario/cambiar-plan-app', payload });
        assert.equal(response.statusCode, status, JSON.stringify(change));
        assert.equal(response.json().code, code, JSON.stringify(change));
      }
      const [current] = await t.app.db
        .select()
        .from(userPlans)
        .where(and(eq(userPlans.userId, customer), eq(userPlans.appId, 1)));
      assert.equal(current?.fechaVencimiento?.toISOString(), '2027-03-15T00:00:00.000Z');
      assert.equal((await auditRows('user.plan_change', customer)).length, 1);
    });
  });

  describe('apps: register and update', () => {
    it('creates an app at the end of the list, edits it, and records both', async () => {
      const created = await asAdmin({
        method: 'POST',
        url: '/apps/register',
        payload: {
          nombre: '  Medidor X ',
          descripcion: 'Lecturas',
          webUrl: 'https://medidor.example.com',
          tags: [{ descripcion: 'Medición' }],
        },
      });
      assert.equal(created.statusCode, 201);
      const app = created.json();
      assert.equal(app.nombre, 'Medidor X');
      assert.deepEqual(app.tags, [{ descripcion: 'Medición' }]);
      const list = (await t.app.inject({ method: 'GET', url: '/apps/listar?limit=100' })).json();
      assert.equal(list.data.at(-1).id, app.id);

      const updated = await asAdmin({
        method: 'PUT',
        url: `/apps/update/${app.id}`,
        payload: { descripcion: 'Lecturas en vivo', isEnabledWeb: true },
      });
      assert.equal(updated.statusCode, 200);
      assert.deepEqual(
        [updated.json().descripcion, updated.json().isEnabledWeb, updated.json().nombre],
        ['Lecturas en vivo', true, 'Medidor X'],
      );

      assert.equal((await auditRows('app.create', app.id)).length, 1);
      const [edit] = await auditRows('app.update', app.id);
      assert.deepEqual(edit?.details, {
        fields: ['descripcion', 'isEnabledWeb'],
        before: { descripcion: 'Lecturas', isEnabledWeb: false },
      });

      const log = (await asAdmin({ method: 'GET', url: '/admin/auditoria?targetType=app' })).json();
      assert.deepEqual(
        log.data.map((e: { action: string }) => e.action),
        ['app.update', 'app.create'],
      );
      assert.equal(log.data[0].targetLabel, 'Medidor X');
      assert.equal(log.data[0].actorEmail, 'admin@portal.test');
    });

    it('refuses bad app data in Spanish and unknown ids with 404', async () => {
      const bad: Array<[string, object]> = [
        ['/apps/register', {}],
        ['/apps/register', { nombre: '   ' }],
        // One-line texts shown in the catalogue take no control character.
        ['/apps/register', { nombre: 'Medidor\u0007' }],
        ['/apps/register', { nombre: 'Medidor', tags: [{ descripcion: 'Nuevo\r\n' }] }],
        ['/apps/register', { nombre: 'Medidor', tags: [{ descripcion: '   ' }] }],
      ];
      // Links are checked apart, with messages naming the form's labels: test/app-links.test.ts.
      for (const [url, payload] of bad) {
        const response = await asAdmin({ method: 'POST', url, payload });
        assert.equal(response.statusCode, 400, JSON.stringify(payload));
        assert.match(response.json().message, /^Datos inválidos/);
      }
      assert.equal((await asAdmin({ method: 'PUT', url: '/apps/update/1', payload: {} })).statusCode, 400);
      const missing = await asAdmin({ method: 'PUT', url: '/apps/update/999', payload: { nombre: 'Nada' } });
      assert.deepEqual([missing.statusCode, missing.json().message], [404, 'App no encontrada']);
    });
  });

  describe('dashboard and audit log', () => {
    it('computes the figures from the database', async () => {
      const body = (await asAdmin({ method: 'GET', url: '/admin/dashboard' })).json();
      const all = await t.app.db.select().from(users);
      assert.equal(body.totalUsers.value, all.length);
      // The seeded apps 1, 2, 3 and 5 are enabled, plus the one created above.
      assert.equal(body.activeApps.value, 5);
      // The customer's PRO plan of app 1 (19 USD a month), assigned this month.
      assert.equal(body.activeSubscriptions.value, 1);
      assert.equal(body.newSubscriptions.value, 1);
      assert.equal(body.newSubscriptions.changePercent, null);
      assert.equal(body.newUsersPerDay.length, 14);
      const today = new Date().toISOString().slice(0, 10);
      const createdToday = all.filter((u) => u.createdAt.toISOString().slice(0, 10) === today).length;
      assert.deepEqual(body.newUsersPerDay.at(-1), { date: today, count: createdToday });
      assert.equal(body.monthlyRevenue.length, 6);
      // The PRO plan an administrator granted is not revenue; without billing there is none.
      assert.deepEqual(body.monthlyRevenue.at(-1), { month: today.slice(0, 7), amount: 0 });
      assert.ok(body.monthlyRevenue.every((month: { amount: number }) => month.amount === 0));
      assert.equal(body.revenueSource, 'none');
      const pro = body.planDistribution.find(
        (d: { app: string; plan: string }) => d.app === 'Control Max 360' && d.plan === 'PRO',
      );
      assert.equal(pro.users, 1);
      const total = body.planDistribution.reduce((sum: number, d: { users: number }) => sum + d.users, 0);
      assert.equal(pro.percentage, Math.round((1 / total) * 1000) / 10);
    });

    it('pages the audit log newest first and filters by action', async () => {
      const body = (await asAdmin({ method: 'GET', url: '/admin/auditoria?limit=2' })).json();
      assert.equal(body.count, 2);
      assert.ok(body.total >= 6);
      const times = body.data.map((e: { createdAt: string }) => Date.parse(e.createdAt));
      assert.ok(times[0] >= times[1]);
      const verifies = (await asAdmin({ method: 'GET', url: '/admin/auditoria?action=user.verify' })).json();
      assert.deepEqual(
        verifies.data.map((e: { targetLabel: string }) => e.targetLabel),
        ['pendiente@example.com'],
      );
      const bad = await asAdmin({ method: 'GET', url: '/admin/auditoria?action=borrar' });
      assert.equal(bad.statusCode, 400);
    });
  });
});
