import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { readMigrations } from '../src/db/migrate.js';
import { auditLog, userPlans, users } from '../src/db/schema.js';
import { post } from './helpers/accounts.js';
import { buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';

forEachBackend((backend) => {
  let t: TestApp;
  let ana: { id: number; token: string };
  let beto: { id: number; token: string };
  let admin: string;
  before(async () => {
    t = await buildTestApp(backend);
    const make = async (email: string) => {
      const id = await createUser(t.app, { email, password: 'clave-perfil', status: 'active' });
      return { id, token: await login(t.app, email, 'clave-perfil') };
    };
    ana = await make('ana@portal.test');
    beto = await make('beto@portal.test');
    admin = await login(t.app);
  });
  after(() => t.close());

  const edit = (id: number, body: unknown, token: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/auth/editar/${id}`,
      payload: body as object,
      headers: { authorization: `Bearer ${token}` },
    });
  const row = async (id: number) => (await t.app.db.select().from(users).where(eq(users.id, id)))[0]!;
  const edits = (targetId: number) =>
    t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.edit'), eq(auditLog.targetId, targetId)));
  const forbidden = { statusCode: 403, code: 'FORBIDDEN', message: 'No tienes permisos para realizar esta acción' };

  describe('POST /auth/update-user', () => {
    it('updates the own name and phone, stored in E.164, and answers { user }', async () => {
      const response = await post(
        t.app,
        '/auth/update-user',
        { idUsuario: ana.id, name: ' Ana María ', phone: '+51 999 888 777' },
        ana.token,
      );
      assert.equal(response.statusCode, 200);
      assert.equal((await edits(ana.id)).length, 0, 'editing oneself is not an admin action');
      const { user } = response.json();
      assert.equal(user.name, 'Ana María');
      assert.equal(user.phone, '+51999888777');
      assert.equal((await row(ana.id)).phone, '+51999888777');
      assert.equal(user.id, ana.id);
      assert.ok(Array.isArray(user.planesUsuarios));
      assert.doesNotMatch(response.body, /argon2|password/i);
    });

    it('edits the last name beside the name, with the same rule; without one the stored last name stays', async () => {
      const saved = await post(
        t.app,
        '/auth/update-user',
        { idUsuario: ana.id, name: 'Ana', lastName: '  Quispe Mamani ', phone: '+51 999 888 777' },
        ana.token,
      );
      assert.equal(saved.statusCode, 200, saved.body);
      assert.equal(saved.json().user.lastName, 'Quispe Mamani');
      assert.equal((await row(ana.id)).lastName, 'Quispe Mamani');
      // What GET /auth/user answers afterwards too.
      const current = await t.app.inject({
        method: 'GET',
        url: '/auth/user',
        headers: { authorization: `Bearer ${ana.token}` },
      });
      assert.equal(current.json().lastName, 'Quispe Mamani');

      const kept = await post(t.app, '/auth/update-user', { idUsuario: ana.id, name: 'Ana María' }, ana.token);
      assert.equal(kept.statusCode, 200);
      assert.equal(kept.json().user.lastName, 'Quispe Mamani');

      const before = await row(ana.id);
      for (const lastName of ['', '   ', 'a'.repeat(101), 'Quispe\u0007']) {
        for (const name of ['Ana', lastName]) {
          const refused = await post(t.app, '/auth/update-user', { idUsuario: ana.id, name, lastName }, ana.token);
          assert.equal(refused.statusCode, 400, JSON.stringify(lastName));
          const body = refused.json();
          assert.equal(body.code, 'VALIDATION_ERROR');
          assert.match(body.message, /^Datos inválidos: |contiene un carácter no admitido/);
          assert.doesNotMatch(body.message, /must|should|required property/i);
        }
      }
      assert.deepEqual(await row(ana.id), before, 'a refused last name writes nothing');
      assert.equal((await edits(ana.id)).length, 0, 'editing oneself is not an admin action');
    });

    it('refuses a user editing another user with 403 and changes nothing', async () => {
      const response = await post(t.app, '/auth/update-user', { idUsuario: beto.id, name: 'Pirata' }, ana.token);
      assert.equal(response.statusCode, 403);
      assert.deepEqual(response.json(), forbidden);
      assert.equal((await row(beto.id)).name, 'Prueba');
    });

    it('lets an administrator update anyone; an unknown id is 404', async () => {
      const response = await post(t.app, '/auth/update-user', { idUsuario: beto.id, name: 'Beto' }, admin);
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().user.name, 'Beto');
      const [record] = await edits(beto.id);
      assert.equal(record?.actorEmail, 'admin@portal.test');
      assert.deepEqual(record?.details, { name: 'Beto' });
      const missing = await post(t.app, '/auth/update-user', { idUsuario: 999999, name: 'Nadie' }, admin);
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), { statusCode: 404, code: 'USER_NOT_FOUND', message: 'Usuario no encontrado' });
    });

    it('refuses a phone that is too short or not valid for its country with a Spanish 400, and writes nothing', async () => {
      const before = await row(ana.id);
      for (const [phone, message] of [
        ['+51 12 345 6', 'El teléfono debe tener al menos 10 dígitos'],
        ['+51 812 345 678', 'El teléfono no es válido para el país elegido'],
        ['+52 512 345 6789', 'El teléfono no es válido para el país elegido'],
      ] as const) {
        const response = await post(t.app, '/auth/update-user', { idUsuario: ana.id, name: 'Otra', phone }, ana.token);
        assert.equal(response.statusCode, 400, phone);
        assert.deepEqual(response.json(), { statusCode: 400, code: 'INVALID_PHONE', message });
      }
      assert.deepEqual(await row(ana.id), before);
    });

    it('keeps a phone stored before numbers were checked when it comes back unchanged, and clears an empty one', async () => {
      await t.app.db.update(users).set({ phone: '555-0101' }).where(eq(users.id, beto.id));
      const kept = await post(
        t.app,
        '/auth/update-user',
        { idUsuario: beto.id, name: 'Beto', phone: '555-0101' },
        beto.token,
      );
      assert.equal(kept.statusCode, 200, kept.body);
      assert.equal((await row(beto.id)).phone, '555-0101');
      const changed = await post(
        t.app,
        '/auth/update-user',
        { idUsuario: beto.id, name: 'Beto', phone: '555-0102' },
        beto.token,
      );
      assert.equal(changed.statusCode, 400);
      assert.equal((await row(beto.id)).phone, '555-0101');
      const cleared = await post(
        t.app,
        '/auth/update-user',
        { idUsuario: beto.id, name: 'Beto', phone: '' },
        beto.token,
      );
      assert.equal(cleared.json().user.phone, '');
      // A number written without '+' is Peruvian (spec §9).
      const national = await post(
        t.app,
        '/auth/update-user',
        { idUsuario: beto.id, name: 'Beto', phone: '912 345 678' },
        beto.token,
      );
      assert.equal(national.json().user.phone, '+51912345678');
    });

    it('needs a session and a valid body', async () => {
      assert.equal((await post(t.app, '/auth/update-user', { idUsuario: ana.id, name: 'X' })).statusCode, 401);
      assert.equal(
        (await post(t.app, '/auth/update-user', { idUsuario: String(ana.id), name: 'X' }, ana.token)).statusCode,
        400,
      );
      assert.equal(
        (await post(t.app, '/auth/update-user', { idUsuario: ana.id, name: '' }, ana.token)).statusCode,
        400,
      );
    });

    it("records an administrator's change of someone's last name", async () => {
      const response = await post(
        t.app,
        '/auth/update-user',
        { idUsuario: beto.id, name: 'Beto', lastName: 'Rojas' },
        admin,
      );
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().user.lastName, 'Rojas');
      const records = (await edits(beto.id)).map((record) => record.details);
      assert.deepEqual(
        records.filter((details) => (details as { lastName?: string }).lastName !== undefined),
        [{ name: 'Beto', lastName: 'Rojas' }],
      );
    });
  });

  describe('PUT /auth/editar/{id}', () => {
    it('edits the own profile fields', async () => {
      const google = 'https://lh3.googleusercontent.com/a/ACg8oc-ana=s96-c';
      const response = await edit(ana.id, { lastName: 'Gómez', picture: google }, ana.token);
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().user.lastName, 'Gómez');
      assert.equal(response.json().user.picture, google);
      assert.equal((await edit(ana.id, { picture: null }, ana.token)).json().user.picture, null);
    });

    it("refuses, in Spanish, a picture anywhere but the identity provider's avatar host, and keeps the stored one", async () => {
      const google = 'https://lh4.googleusercontent.com/a/ACg8oc-beto=s96-c';
      assert.equal((await edit(beto.id, { picture: google }, beto.token)).statusCode, 200);
      const refusal = {
        statusCode: 400,
        code: 'PICTURE_NOT_ALLOWED',
        message:
          'La foto de perfil solo puede ser la de tu cuenta de Google (una dirección https de googleusercontent.com).',
      };
      for (const picture of [
        // A tracking pixel: every administrator who opens the users list would fetch it.
        'https://attacker.example/pixel.png?u=beto',
        'http://lh4.googleusercontent.com/a/x',
        'https://lh4.googleusercontent.com.attacker.example/a',
        'https://lh4.googleusercontent.com@attacker.example/a',
      ]) {
        const response = await edit(beto.id, { picture }, beto.token);
        assert.deepEqual(response.json(), refusal, picture);
        // An administrator gets the same answer.
        assert.deepEqual((await edit(beto.id, { picture }, admin)).json(), refusal, picture);
      }
      assert.equal((await row(beto.id)).picture, google);
    });

    it("refuses another user's profile, and role or status from a non-administrator, with 403", async () => {
      assert.deepEqual((await edit(beto.id, { name: 'Pirata' }, ana.token)).json(), forbidden);
      assert.equal((await edit(ana.id, { role: 1 }, ana.token)).statusCode, 403);
      assert.equal((await edit(ana.id, { status: 'active' }, ana.token)).statusCode, 403);
      assert.equal((await row(ana.id)).role, 2);
      assert.equal((await row(beto.id)).name, 'Beto');
    });

    it('lets an administrator change role and verify a pending user, who gets the free plans', async () => {
      const id = await createUser(t.app, {
        email: 'pendiente@portal.test',
        password: 'clave-p',
        status: 'pending_verification',
      });
      const response = await edit(id, { status: 'active', role: 1 }, admin);
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().user.status, 'active');
      assert.equal(response.json().user.role, 1);
      assert.equal((await t.app.db.select().from(userPlans).where(eq(userPlans.userId, id))).length, 3);
      assert.equal(response.json().user.planesUsuarios.length, 3);
      const [record] = await edits(id);
      assert.deepEqual(record?.details, { role: 1, status: 'active' });
    });

    it("stores an administrator's phone edit in E.164, and refuses an invalid one without writing or recording", async () => {
      const response = await edit(beto.id, { phone: '+1 (201) 555-0123' }, admin);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal((await row(beto.id)).phone, '+12015550123');
      const recorded = (await edits(beto.id)).length;
      const refused = await edit(beto.id, { name: 'Cambiado', phone: '+1 (201) 555-012' }, admin);
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.json().code, 'INVALID_PHONE');
      assert.equal((await row(beto.id)).name, 'Beto');
      assert.equal((await row(beto.id)).phone, '+12015550123');
      assert.equal((await edits(beto.id)).length, recorded);
    });

    it('answers 404 for an unknown id and 400 for a bad one', async () => {
      assert.equal((await edit(999999, { name: 'X' }, admin)).statusCode, 404);
      assert.equal((await edit(0, { name: 'X' }, admin)).statusCode, 400);
      assert.equal((await edit(ana.id, { status: 'borrado' }, admin)).statusCode, 400);
      assert.equal((await edit(ana.id, { picture: 'javascript:alert(1)' }, ana.token)).statusCode, 400);
    });
  });

  describe('migration 0016', () => {
    it("drops stored pictures the rule refuses and keeps the providers' ones", async () => {
      const google = 'https://lh3.googleusercontent.com/a/ACg8oc-kept=s96-c';
      const stored = [
        google,
        'https://attacker.example/pixel.png',
        'http://lh3.googleusercontent.com/a/x',
        'https://lh3.googleusercontent.com.attacker.example/a',
        'https://lh3.googleusercontent.com@attacker.example/a',
        'https://lh3.googleusercontent.com:8443/a',
      ];
      const ids: number[] = [];
      for (const [i, picture] of stored.entries()) {
        const id = await createUser(t.app, {
          email: `foto${i}@portal.test`,
          password: 'clave-perfil',
          status: 'active',
        });
        await t.app.db.update(users).set({ picture }).where(eq(users.id, id));
        ids.push(id);
      }
      const migration = readMigrations().find((m) => m.name === '0016_users_foreign_pictures.sql');
      assert.ok(migration);
      await t.database.transaction((session) => session.exec(migration.sql));
      const after = await Promise.all(ids.map(async (id) => (await row(id)).picture));
      assert.deepEqual(after, [google, null, null, null, null, null]);
    });
  });

  describe('POST /auth/update-presentacion', () => {
    it('marks the own presentation as seen', async () => {
      assert.equal((await row(ana.id)).presentacion, true);
      const response = await post(t.app, '/auth/update-presentacion', { userId: ana.id }, ana.token);
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().user.presentacion, false);
      assert.equal((await row(ana.id)).presentacion, false);
    });

    it('is for the own user only, even for an administrator', async () => {
      assert.deepEqual(
        (await post(t.app, '/auth/update-presentacion', { userId: beto.id }, ana.token)).json(),
        forbidden,
      );
      assert.equal((await post(t.app, '/auth/update-presentacion', { userId: beto.id }, admin)).statusCode, 403);
      assert.equal((await row(beto.id)).presentacion, true);
    });
  });
});
