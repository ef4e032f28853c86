import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { auditLog, users } from '../src/db/schema.js';
import { listRoutes } from './helpers/hostile.js';
import { adminEmail, buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';

const partnerOrigin = 'https://socio.example.com';
const allowList = [partnerOrigin, 'https://*.portal.example.com', 'betopro://auth/success'];

/**
 * What a partner app receives is a token scoped to it, not the portal session (docs/decisions/0007-partner-tokens.md).
 */
forEachBackend((backend) => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(backend, { redirectAllowList: allowList, apiPublicUrl: 'https://api.portal.example.com' });
  });
  after(() => t.close());

  const call = (method: string, url: string, token: string | undefined, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  const mint = async (session: string, target = `${partnerOrigin}/bienvenida?x=1`) => {
    const response = await call('POST', '/auth/partner-token', session, { redirect_url: target });
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{ access_token: string; token_type: string; expires_in: number; audience: string }>();
  };

  let people = 0;
  const person = async () => {
    const email = `socio-${++people}@portal.test`;
    const id = await createUser(t.app, { email, password: 'clave-de-socio', status: 'active' });
    return { id, email, session: await login(t.app, email, 'clave-de-socio') };
  };

  describe('minting', () => {
    it('answers a token for the target: aud its origin, iss the API, 1 h, verifiable offline with the JWKS', async () => {
      const { id, session } = await person();
      const minted = await mint(session);
      assert.equal(minted.token_type, 'Bearer');
      assert.equal(minted.audience, partnerOrigin);
      assert.equal(minted.expires_in, 3600);
      assert.notEqual(minted.access_token, session);

      // What a partner app does: the API's public keys, its issuer, its own origin as audience.
      const jwks = createLocalJWKSet((await call('GET', '/.well-known/jwks.json', undefined)).json());
      const { payload, protectedHeader } = await jwtVerify(minted.access_token, jwks, {
        issuer: 'https://api.portal.example.com',
        audience: partnerOrigin,
        algorithms: ['ES256'],
        typ: 'partner+jwt',
      });
      assert.equal(protectedHeader.typ, 'partner+jwt');
      assert.equal(payload.sub, String(id));
      assert.equal(payload.exp! - payload.iat!, 3600);
      await assert.rejects(
        jwtVerify(minted.access_token, jwks, {
          issuer: 'https://api.portal.example.com',
          audience: 'https://otro.example.com',
        }),
      );
      // A portal session has no audience and no issuer: a partner verifying as documented refuses it.
      await assert.rejects(
        jwtVerify(session, jwks, { issuer: 'https://api.portal.example.com', audience: partnerOrigin }),
      );
    });

    it('the OpenAPI description tells partner apps how to verify it offline (issuer, audience, lifetime)', () => {
      const { description } = (t.app.swagger() as { info: { description: string } }).info;
      for (const part of [
        'Token para apps asociadas',
        '/.well-known/jwks.json',
        'typ: partner+jwt',
        '`iss`',
        '`aud`',
        '`exp`',
        'PARTNER_TOKEN_TTL_SECONDS',
      ]) {
        assert.ok(description.includes(part), part);
      }
    });

    it('scopes a mobile deep link to its scheme', async () => {
      const { session } = await person();
      const minted = await mint(session, 'betopro://auth/success');
      assert.equal(minted.audience, 'betopro');
    });

    it('refuses a target off the allow-list in Spanish, an anonymous caller, and a partner token minting another', async () => {
      const { session } = await person();
      for (const target of [
        'https://evil.example.net/',
        'https://x.devtunnels.ms/',
        '//socio.example.com',
        'javascript:alert(1)',
      ]) {
        const refused = await call('POST', '/auth/partner-token', session, { redirect_url: target });
        assert.equal(refused.statusCode, 400, target);
        assert.deepEqual(refused.json(), {
          statusCode: 400,
          message: 'La dirección de destino no está permitida',
          code: 'REDIRECT_NOT_ALLOWED',
        });
      }
      assert.equal(
        (await call('POST', '/auth/partner-token', undefined, { redirect_url: partnerOrigin })).statusCode,
        401,
      );
      const minted = await mint(session);
      assert.equal(
        (await call('POST', '/auth/partner-token', minted.access_token, { redirect_url: partnerOrigin })).statusCode,
        401,
      );
    });

    it('mints nothing for a host ending in a dot, even with the dotted wildcard start-up once let through', async () => {
      // What the review configured: the start-up check now refuses it (config.test.ts), and matching refuses it too.
      const dotted = await buildTestApp(backend, {
        redirectAllowList: ['https://*.devtunnels.ms.', 'https://mi-tunel.devtunnels.ms.', ...allowList],
      });
      try {
        const session = await login(dotted.app, adminEmail, 'clave-de-prueba-admin');
        for (const target of [
          'https://attacker.devtunnels.ms./cb',
          'https://mi-tunel.devtunnels.ms./cb',
          'https://test.portal.example.com./cb',
          'https://socio.example.com./bienvenida',
        ]) {
          const refused = await dotted.app.inject({
            method: 'POST',
            url: '/auth/partner-token',
            payload: { redirect_url: target },
            headers: { authorization: `Bearer ${session}` },
          });
          assert.equal(refused.statusCode, 400, `${target}: ${refused.body}`);
          assert.equal(refused.json().message, 'La dirección de destino no está permitida');
        }
      } finally {
        await dotted.close();
      }
    });

    it('lives PARTNER_TOKEN_TTL_SECONDS, and never past the session it comes from', async () => {
      const short = await buildTestApp(backend, { redirectAllowList: allowList, partnerTokenTtlSeconds: 120 });
      const brief = await buildTestApp(backend, { redirectAllowList: allowList, tokenTtlSeconds: 600 });
      try {
        for (const [app, expected] of [
          [short, 120],
          [brief, 600],
        ] as const) {
          const session = await login(app.app, adminEmail, 'clave-de-prueba-admin');
          const response = await app.app.inject({
            method: 'POST',
            url: '/auth/partner-token',
            payload: { redirect_url: partnerOrigin },
            headers: { authorization: `Bearer ${session}` },
          });
          const { expires_in: expiresIn, access_token: token } = response.json<{
            expires_in: number;
            access_token: string;
          }>();
          assert.ok(expiresIn <= expected && expiresIn >= expected - 2, `${expiresIn} ≈ ${expected}`);
          const exp = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).exp;
          const sessionExp = JSON.parse(Buffer.from(session.split('.')[1]!, 'base64url').toString()).exp;
          assert.ok(exp <= sessionExp);
        }
      } finally {
        await short.close();
        await brief.close();
      }
    });
  });

  describe('what a partner token may do', () => {
    it('reads its own identity and plans', async () => {
      const { id, email, session } = await person();
      const { access_token: token } = await mint(session);
      const user = await call('GET', '/auth/user', token);
      assert.equal(user.statusCode, 200);
      assert.equal(user.json().email, email);
      const plans = await call('POST', '/plan-usuario/user-app-plans', token, { idUsuario: id });
      assert.equal(plans.statusCode, 200);
      assert.ok(Array.isArray(plans.json()));
    });

    it("an administrator's partner token reads nobody else's plans and makes no admin call or write", async () => {
      const admin = await t.app.db
        .select()
        .from(users)
        .where(eq(users.email, adminEmail))
        .then((rows) => rows[0]!);
      const adminSession = await login(t.app);
      const { access_token: token } = await mint(adminSession);
      const victim = await person();
      const auditBefore = (await t.app.db.select().from(auditLog)).length;
      const usersBefore = await t.app.db.select().from(users).orderBy(users.id);

      assert.equal(
        (await call('POST', '/plan-usuario/user-app-plans', token, { idUsuario: victim.id })).statusCode,
        403,
      );
      const refused: Array<[string, string, unknown?]> = [
        ['GET', '/user/listar'],
        ['GET', '/user/stats'],
        ['POST', '/user/verify-emails', { userIds: [victim.id] }],
        ['GET', '/admin/dashboard'],
        ['GET', '/admin/auditoria'],
        ['PUT', `/auth/cambiar-estado/${victim.id}`, {}],
        ['PUT', `/auth/editar/${victim.id}`, { role: 1 }],
        ['PUT', `/auth/editar/${admin.id}`, { name: 'Cambiado' }],
        ['POST', '/auth/update-user', { idUsuario: admin.id, name: 'Cambiado' }],
        ['POST', '/auth/update-presentacion', { userId: admin.id }],
        [
          'POST',
          '/auth/update-password',
          { currentPassword: 'clave-de-prueba-admin', newPassword: 'robada-por-socio' },
        ],
        [
          'POST',
          '/plan-usuario/cambiar-plan-app',
          { idUsuario: victim.id, idApp: 1, idPlan: 2, fechaVencimiento: '2030-01-01T00:00:00.000Z' },
        ],
        ['POST', '/apps/register', { nombre: 'App del socio' }],
        ['PUT', '/apps/update/1', { nombre: 'Cambiada' }],
        ['POST', '/facturacion/checkout', { userId: admin.id, priceId: 'price_x' }],
        ['GET', '/facturacion/planes'],
        ['POST', '/facturacion/portal', { userId: admin.id }],
        ['POST', '/facturacion/customer-session', { userId: admin.id }],
        ['POST', '/auth/logout'],
      ];
      for (const [method, url, payload] of refused) {
        const response = await call(method, url, token, payload);
        assert.ok([401, 403].includes(response.statusCode), `${method} ${url} answered ${response.statusCode}`);
        // The same call with the admin's portal session is accepted (so the refusal is the token's kind).
        if (method === 'GET')
          assert.equal(
            (await call(method, url, adminSession)).statusCode < 400 || url.startsWith('/facturacion'),
            true,
          );
      }
      assert.equal((await t.app.db.select().from(auditLog)).length, auditBefore, 'no admin action was recorded');
      assert.deepEqual(await t.app.db.select().from(users).orderBy(users.id), usersBefore, 'no account changed');
      assert.equal(
        (await call('GET', '/auth/user', token)).statusCode,
        200,
        'the token still works: logout with it did nothing',
      );
    });

    it('every route but the two partner reads refuses it (401/403) wherever an anonymous caller gets 401', async () => {
      const { session } = await person();
      const { access_token: token } = await mint(session);
      const partnerReads = new Set(['GET /auth/user', 'POST /plan-usuario/user-app-plans']);
      let checked = 0;
      for (const route of listRoutes(t.app)) {
        if (route.method === 'HEAD' || route.method === 'OPTIONS' || partnerReads.has(`${route.method} ${route.url}`))
          continue;
        const url = route.url.replace(/:(\w+)/g, '1');
        const payload = ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined;
        const anonymous = await call(route.method, url, undefined, payload);
        if (anonymous.statusCode !== 401) continue;
        checked++;
        const partner = await call(route.method, url, token, payload);
        assert.ok(
          [401, 403].includes(partner.statusCode),
          `${route.method} ${route.url} answered ${partner.statusCode}`,
        );
      }
      assert.ok(checked >= 3, `${checked} protected routes checked`);
    });
  });

  describe('a partner token is no portal session, and dies with it', () => {
    it('is refused as a session: the portal calls a session makes answer 401 to it', async () => {
      const { session } = await person();
      const { access_token: token } = await mint(session);
      const header = decodeProtectedHeader(token);
      assert.equal(header.typ, 'partner+jwt');
      assert.equal((await call('POST', '/auth/logout', token)).statusCode, 401);
      assert.equal((await call('POST', '/auth/update-user', token, { idUsuario: 1, name: 'x' })).statusCode, 401);
    });

    it('is killed by the logout of the session it was minted from', async () => {
      const { session } = await person();
      const { access_token: token } = await mint(session);
      assert.equal((await call('GET', '/auth/user', token)).statusCode, 200);
      assert.equal((await call('POST', '/auth/logout', session)).statusCode, 204);
      assert.equal((await call('GET', '/auth/user', token)).statusCode, 401);
      // The other order: a session already logged out mints nothing.
      assert.equal(
        (await call('POST', '/auth/partner-token', session, { redirect_url: partnerOrigin })).statusCode,
        401,
      );
    });

    it('is killed by a password change and by a suspension', async () => {
      const changer = await person();
      const { access_token: token } = await mint(changer.session);
      const changed = await call('POST', '/auth/update-password', changer.session, {
        currentPassword: 'clave-de-socio',
        newPassword: 'clave-nueva-1',
      });
      assert.equal(changed.statusCode, 200);
      assert.equal((await call('GET', '/auth/user', token)).statusCode, 401);

      const suspended = await person();
      const { access_token: other } = await mint(suspended.session);
      const admin = await login(t.app);
      assert.equal((await call('PUT', `/auth/cambiar-estado/${suspended.id}`, admin, {})).statusCode, 200);
      // A partner is told only that the token no longer works (the portal's own session hears USER_SUSPENDED).
      assert.equal((await call('GET', '/auth/user', other)).statusCode, 401);
      assert.equal((await call('GET', '/auth/user', suspended.session)).statusCode, 403);
    });
  });
});
