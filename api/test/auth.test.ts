import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { base64url, createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { revokedTokens, users } from '../src/db/schema.js';
import {
  adminEmail,
  adminPassword,
  buildTestApp,
  createUser,
  forEachBackend,
  generateEcKeyPem,
  login,
  type TestApp,
} from './helpers/app.js';

forEachBackend((backend) => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(backend);
  });
  after(() => t.close());

  const loginRequest = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
  const currentUser = (token?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/auth/user',
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });
  const adminId = async () => {
    const [admin] = await t.app.db.select({ id: users.id }).from(users).where(eq(users.email, adminEmail));
    assert.ok(admin);
    return admin.id;
  };
  /** A token signed with the server's own key, for claims the server would never issue itself. */
  const forge = (claims: Record<string, unknown>, header: Record<string, unknown> = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: t.signingKey.kid, ...header })
      .sign(t.signingKey.privateKey);

  describe('POST /auth/login', () => {
    it('returns an ES256 JWT with a kid that verifies against the published JWKS', async () => {
      const response = await loginRequest(`  ${adminEmail.toUpperCase()} `, adminPassword);
      assert.equal(response.statusCode, 200);
      const token = response.json().access_token;
      // The user beside the token, as verification answers: a sign-in is one round trip.
      assert.deepEqual(Object.keys(response.json()), ['access_token', 'user']);
      const me = await t.app.inject({
        method: 'GET',
        url: '/auth/user',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.deepEqual(response.json().user, me.json());

      const header = decodeProtectedHeader(token);
      assert.equal(header.alg, 'ES256');
      assert.ok(header.kid);

      const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
      assert.deepEqual(
        jwks.keys.map((key: { kid: string; alg: string; use: string }) => [key.kid, key.alg, key.use]),
        [[header.kid, 'ES256', 'sig']],
      );
      assert.equal(jwks.keys[0].d, undefined, 'no private part published');
      const { payload } = await jwtVerify(token, createLocalJWKSet(jwks));
      assert.equal(payload.sub, String(await adminId()));
      assert.equal(payload.role, 1);
      assert.equal(payload.tv, 0);
      // The jti is the session row's id: 32 random bytes in base64url.
      assert.match(String(payload.jti), /^[A-Za-z0-9_-]{43}$/);
      assert.equal(payload.exp! - payload.iat!, 86400);
    });

    it('gives the same 401 for a wrong password and an unknown email', async () => {
      const wrongPassword = await loginRequest(adminEmail, 'no-es-la-clave');
      const unknownEmail = await loginRequest('nadie@portal.test', adminPassword);
      const expected = { statusCode: 401, code: 'INVALID_CREDENTIALS', message: 'Credenciales inválidas' };
      assert.equal(wrongPassword.statusCode, 401);
      assert.deepEqual(wrongPassword.json(), expected);
      assert.equal(unknownEmail.statusCode, 401);
      assert.deepEqual(unknownEmail.json(), expected);
    });

    it('refuses a pending account with the right password: 403 EMAIL_NOT_VERIFIED', async () => {
      const registered = await t.app.inject({
        method: 'POST',
        url: '/auth/register',
        payload: {
          email: 'pendiente@portal.test',
          password: 'clave-pendiente',
          name: 'Ana',
          lastName: 'Pérez',
          phone: '+51 987654321',
        },
      });
      assert.equal(registered.statusCode, 201);
      const response = await loginRequest('pendiente@portal.test', 'clave-pendiente');
      assert.equal(response.statusCode, 403);
      // The id of the registration whose password it is: the verification page sends it with the code.
      assert.deepEqual(response.json(), {
        statusCode: 403,
        code: 'EMAIL_NOT_VERIFIED',
        message: 'Debes verificar tu email antes de iniciar sesión',
        registrationId: registered.json().registrationId,
      });
      assert.equal((await loginRequest('pendiente@portal.test', 'otra-clave')).statusCode, 401);
    });

    it('refuses a suspended account: 403 USER_SUSPENDED', async () => {
      await createUser(t.app, { email: 'suspendido@portal.test', password: 'clave-suspendida', status: 'suspended' });
      const response = await loginRequest('suspendido@portal.test', 'clave-suspendida');
      assert.equal(response.statusCode, 403);
      assert.deepEqual(response.json(), {
        statusCode: 403,
        code: 'USER_SUSPENDED',
        message: 'Tu cuenta está suspendida. Contacta con soporte.',
      });
    });

    it('refuses an email over 254 characters with 400', async () => {
      const response = await loginRequest(`${'a'.repeat(250)}@b.cd`, 'x');
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().message, "Datos inválidos: 'email' debe tener como máximo 254 caracteres");
    });
  });

  describe('GET /auth/user', () => {
    it('returns the signed-in user with planesUsuarios and without the password hash', async () => {
      const response = await currentUser(await login(t.app));
      assert.equal(response.statusCode, 200);
      const user = response.json();
      assert.deepEqual(Object.keys(user).sort(), [
        'createdAt',
        'email',
        'empresas',
        'id',
        'lastName',
        'name',
        'phone',
        'picture',
        'planesUsuarios',
        'presentacion',
        'role',
        'status',
      ]);
      assert.equal(user.email, adminEmail);
      assert.equal(user.role, 1);
      assert.equal(user.status, 'active');
      assert.equal(user.presentacion, false);
      assert.ok(!Number.isNaN(Date.parse(user.createdAt)));
      assert.deepEqual(
        user.planesUsuarios.map((entry: { app: { id: number; nombre: string }; plan: { nombre: string } }) => [
          entry.app.id,
          entry.app.nombre,
          entry.plan.nombre,
        ]),
        [
          [1, 'Control Max 360', 'free'],
          [2, 'Beto Pro', 'free'],
          [3, 'TX30', 'free'],
        ],
      );
      assert.deepEqual(Object.keys(user.planesUsuarios[0]).sort(), [
        'app',
        'empresa',
        'fechaVencimiento',
        'id',
        'origen',
        'plan',
      ]);
      assert.equal(user.planesUsuarios[0].origen, 'propio');
      assert.equal(user.planesUsuarios[0].empresa, null);
      assert.deepEqual(user.empresas, []);
      assert.ok(user.planesUsuarios[0].plan.descripcion);
      assert.equal(user.planesUsuarios[0].fechaVencimiento, null);
      assert.doesNotMatch(response.body, /argon2|password/i);
    });

    const unauthenticated = { statusCode: 401, code: 'UNAUTHENTICATED', message: 'No autenticado' };

    it('answers 401 without a token', async () => {
      const response = await currentUser();
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), unauthenticated);
      assert.equal(response.headers['www-authenticate'], 'Bearer');
    });

    it('answers 401 to a malformed Authorization header', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/auth/user',
        headers: { authorization: 'Basic YWRtaW46YWRtaW4=' },
      });
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), unauthenticated);
    });

    it('answers 401 to a token whose payload was altered', async () => {
      const [header, payload, signature] = (await login(t.app)).split('.');
      const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload!)));
      const altered = base64url.encode(JSON.stringify({ ...claims, exp: claims.exp + 3600 }));
      const response = await currentUser(`${header}.${altered}.${signature}`);
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), unauthenticated);
    });

    it('answers 401 to an unsigned alg none token', async () => {
      const now = Math.floor(Date.now() / 1000);
      const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT', kid: t.signingKey.kid }));
      const payload = base64url.encode(
        JSON.stringify({
          sub: String(await adminId()),
          role: 1,
          tv: 0,
          jti: crypto.randomUUID(),
          iat: now,
          exp: now + 3600,
        }),
      );
      const response = await currentUser(`${header}.${payload}.`);
      assert.equal(response.statusCode, 401);
    });

    it('answers 401 to an expired token signed with the right key', async () => {
      const now = Math.floor(Date.now() / 1000);
      // The jti of a live session row, so only the expiry differs.
      const sessionJti = String(decodeJwt(await login(t.app)).jti);
      const token = await forge({
        sub: String(await adminId()),
        role: 1,
        tv: 0,
        jti: sessionJti,
        iat: now - 7200,
        exp: now - 3600,
      });
      assert.equal((await currentUser(token)).statusCode, 401);
      const fresh = await forge({
        sub: String(await adminId()),
        role: 1,
        tv: 0,
        jti: sessionJti,
        iat: now,
        exp: now + 3600,
      });
      assert.equal((await currentUser(fresh)).statusCode, 200, 'the same claims with a future exp are accepted');
    });

    it('answers 401 to a token signed with our key under an unknown kid', async () => {
      const now = Math.floor(Date.now() / 1000);
      const token = await forge(
        { sub: String(await adminId()), role: 1, tv: 0, jti: crypto.randomUUID(), iat: now, exp: now + 3600 },
        { kid: 'otra-clave' },
      );
      assert.equal((await currentUser(token)).statusCode, 401);
    });

    it('answers 401 to a token signed by a foreign key, with or without our kid', async () => {
      const now = Math.floor(Date.now() / 1000);
      const foreignKey = createPrivateKey(generateEcKeyPem());
      const claims = {
        sub: String(await adminId()),
        role: 1,
        tv: 0,
        jti: crypto.randomUUID(),
        iat: now,
        exp: now + 3600,
      };
      for (const kid of [t.signingKey.kid, 'otra-clave']) {
        const token = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid }).sign(foreignKey);
        assert.equal((await currentUser(token)).statusCode, 401, `kid ${kid}`);
      }
    });

    it('answers 401 to a token of a user who was suspended after signing in', async () => {
      const id = await createUser(t.app, { email: 'activo@portal.test', password: 'clave-activa', status: 'active' });
      const token = await login(t.app, 'activo@portal.test', 'clave-activa');
      assert.equal((await currentUser(token)).statusCode, 200);
      await t.app.db.update(users).set({ status: 'suspended' }).where(eq(users.id, id));
      assert.equal((await currentUser(token)).statusCode, 401);
    });
  });

  describe('ending sessions', () => {
    it('POST /auth/logout revokes the presented token only', async () => {
      const token = await login(t.app);
      const other = await login(t.app);
      const response = await t.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(response.statusCode, 204);
      assert.equal(response.body, '');
      assert.equal((await currentUser(token)).statusCode, 401);
      assert.equal((await currentUser(other)).statusCode, 200);
      const again = await t.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(again.statusCode, 401);
    });

    it('POST /auth/logout drops revoked tokens that have expired anyway', async () => {
      await t.app.db.insert(revokedTokens).values({ jti: 'caducado', expiresAt: new Date(Date.now() - 1000) });
      const token = await login(t.app);
      await t.app.inject({ method: 'POST', url: '/auth/logout', headers: { authorization: `Bearer ${token}` } });
      const rows = await t.app.db.select().from(revokedTokens);
      assert.ok(!rows.some((row) => row.jti === 'caducado'));
    });

    it('POST /auth/logout needs a token', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/auth/logout' });
      assert.equal(response.statusCode, 401);
    });

    it('a token_version bump ends every earlier session', async () => {
      const id = await createUser(t.app, { email: 'version@portal.test', password: 'clave-version', status: 'active' });
      const before = await login(t.app, 'version@portal.test', 'clave-version');
      await t.app.db
        .update(users)
        .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, id));
      assert.equal((await currentUser(before)).statusCode, 401);
      const after = await login(t.app, 'version@portal.test', 'clave-version');
      assert.equal((await currentUser(after)).statusCode, 200);
    });
  });

  describe('requireAdmin', () => {
    it('refuses a signed-in ordinary user with 403 and lets an administrator through', async () => {
      const id = await createUser(t.app, { email: 'usuario@portal.test', password: 'clave-usuario', status: 'active' });
      const [user] = await t.app.db.select().from(users).where(eq(users.id, id));
      const [admin] = await t.app.db.select().from(users).where(eq(users.email, adminEmail));
      // The administrator's check reads the database again through the request's own token.
      const adminToken = await login(t.app, adminEmail, adminPassword);
      const request = (auth: unknown) =>
        ({ auth, headers: { authorization: `Bearer ${adminToken}` }, method: 'GET', routeOptions: {} }) as Parameters<
          typeof t.app.requireAdmin
        >[0];
      const reply = { header: () => reply } as unknown as Parameters<typeof t.app.requireAdmin>[1];
      await assert.rejects(
        t.app.requireAdmin(request({ user, jti: 'x', expiresAt: new Date(), kind: 'session' }), reply),
        {
          statusCode: 403,
          message: 'No tienes permisos para realizar esta acción',
        },
      );
      await t.app.requireAdmin(request({ user: admin, jti: 'x', expiresAt: new Date(), kind: 'session' }), reply);
      // An administrator's partner-scoped token never administers.
      await assert.rejects(
        t.app.requireAdmin(request({ user: admin, jti: 'x', expiresAt: new Date(), kind: 'partner' }), reply),
        {
          statusCode: 403,
        },
      );
    });
  });
});
