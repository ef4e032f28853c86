// OpenID Connect clients managed by administrators (/admin/clientes-oidc): the rules of a client in Spanish, the
// secret shown once and kept only as a hash, rotation, deletion, the audit log, and nobody else allowed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, asc, eq, sql } from 'drizzle-orm';
import { auditLog, oidcClients } from '../src/db/schema.js';
import { selectClients } from '../src/domain/identity-provider/connected-apps.js';
import { adminEmail, adminPassword, createUser, forEachBackend, login } from './helpers/app.js';
import { spanishErrorProblem } from './helpers/hostile.js';
import { type OidcTestApi, serverApp, startOidcApi, TestBrowser } from './helpers/oidc.js';

forEachBackend((backend) => {
  describe('OpenID Connect clients in the admin panel', () => {
    let api: OidcTestApi;
    let admin: string;

    const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token = admin) =>
      api.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

    before(async () => {
      api = await startOidcApi(backend);
      admin = await login(api.app, adminEmail, adminPassword);
    });
    after(() => api.close());

    it('creates a confidential client: the secret is answered once, stored as a hash, and works', async () => {
      const created = await call('POST', '/admin/clientes-oidc', {
        nombre: '  Control Max 360  ',
        redirectUris: ['https://control.example.com/callback'],
        postLogoutRedirectUris: ['https://control.example.com/'],
        backchannelLogoutUri: 'https://control.example.com/backchannel',
        primeraParte: true,
        appId: 1,
        scopes: ['openid', 'email', 'plan'],
      });
      assert.equal(created.statusCode, 201, created.body);
      const { clientId, clientSecret } = created.json<{ clientId: string; clientSecret: string }>();
      assert.ok(clientSecret && clientSecret.length >= 43);
      // Letters and digits only: an id that began with '-' would be read as an option by the operator's command.
      assert.match(clientId, /^[0-9a-f]{32}$/);
      const [row] = await selectClients(api.app.db).where(eq(oidcClients.clientId, clientId));
      assert.ok(row?.secretHash && row.secretHash !== clientSecret, 'only a hash is kept');
      assert.equal(row.name, 'Control Max 360');

      const read = await call('GET', `/admin/clientes-oidc/${clientId}`);
      assert.equal(read.statusCode, 200);
      assert.equal(read.json<{ clientSecret?: string }>().clientSecret, undefined, 'never shown again');
      assert.deepEqual(read.json<{ scopes: string[]; publico: boolean }>().scopes, ['openid', 'email', 'plan']);
      const listed = await call('GET', '/admin/clientes-oidc');
      assert.ok(listed.json<{ data: { clientId: string }[] }>().data.some((client) => client.clientId === clientId));

      // The secret authenticates at the token endpoint (a wrong one does not).
      const good = await fetch(`${api.issuer}/oidc/token/introspection`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ token: 'x' }),
      });
      assert.equal(good.status, 200);

      // Rotation: the new one works at once, the old one no more.
      const rotated = await call('POST', `/admin/clientes-oidc/${clientId}/secreto`);
      assert.equal(rotated.statusCode, 200);
      const fresh = rotated.json<{ clientSecret: string }>().clientSecret;
      assert.notEqual(fresh, clientSecret);
      const withOld = await fetch(`${api.issuer}/oidc/token/introspection`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ token: 'x' }),
      });
      assert.equal(withOld.status, 401);

      const actions = await api.app.db
        .select({ action: auditLog.action, actor: auditLog.actorEmail, details: auditLog.details })
        .from(auditLog)
        .where(eq(auditLog.targetType, 'oidc_client'));
      assert.deepEqual(
        actions.map((entry) => [entry.action, entry.actor, entry.details.clientId]),
        [
          ['oidc_client.create', adminEmail, clientId],
          ['oidc_client.rotate_secret', adminEmail, clientId],
        ],
      );
      const log = await call('GET', '/admin/auditoria?targetType=oidc_client');
      assert.equal(log.json<{ data: { targetLabel: string }[] }>().data[0]?.targetLabel, 'Control Max 360');
    });

    it('a public client has no secret; one app has one client', async () => {
      const created = await call('POST', '/admin/clientes-oidc', {
        nombre: 'Beto Pro (móvil)',
        redirectUris: ['betopro://auth/callback'],
        publico: true,
        appId: 2,
      });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(created.json<{ clientSecret?: string }>().clientSecret, undefined);
      const { clientId } = created.json<{ clientId: string }>();
      const rotate = await call('POST', `/admin/clientes-oidc/${clientId}/secreto`);
      assert.equal(rotate.statusCode, 409);
      assert.equal(rotate.json<{ message: string }>().message, 'Un cliente público no tiene secreto');
      const second = await call('POST', '/admin/clientes-oidc', {
        nombre: 'Otro de Beto',
        redirectUris: ['https://beto.example.com/cb'],
        appId: 2,
      });
      assert.equal(second.statusCode, 409);
      assert.equal(second.json<{ message: string }>().message, 'Esa app ya tiene un cliente OpenID Connect');
    });

    it('refuses bad clients in Spanish, naming the field, and writes nothing', async () => {
      const before = await api.app.db.select({ id: oidcClients.id }).from(oidcClients);
      const cases: [object, RegExp][] = [
        [{ nombre: ' ', redirectUris: ['https://a.example.com/cb'] }, /El nombre del cliente es requerido/],
        [{ nombre: 'A', redirectUris: ['http://app.example.com/cb'] }, /URIs de redirección.*https.*127\.0\.0\.1/],
        [{ nombre: 'A', redirectUris: ['https://app.example.com/cb#x'] }, /no puede llevar fragmento/],
        [{ nombre: 'A', redirectUris: ['https://*.example.com/cb'] }, /no admite comodines/],
        [{ nombre: 'A', redirectUris: ['https://u:p@app.example.com/cb'] }, /usuario ni contraseña/],
        [{ nombre: 'A', redirectUris: ['betopro://auth'] }, /solo es para clientes públicos/],
        [{ nombre: 'A', redirectUris: ['javascript://x'], publico: true }, /esquema no está permitido/],
        [{ nombre: 'A', redirectUris: ['notaurl'] }, /dirección completa/],
        [{ nombre: 'A', redirectUris: ['https://a.example.com/cb'], scopes: ['email'] }, /deben incluir openid/],
        [
          { nombre: 'A', redirectUris: ['https://a.example.com/cb'], scopes: ['openid', 'admin', ' admin '] },
          /^No existe el permiso 'admin'; los permisos son openid, profile, email, phone, plan, roles, organization, offline_access$/,
        ],
        // What is sent is shown between quotes, the characters a screen hides written out; blank entries are dropped.
        [
          { nombre: 'A', redirectUris: ['https://a.example.com/cb'], scopes: ['openid', '%00', '\r\n', 'error\u202e'] },
          /^No existen los permisos '%00', 'error\\u202e'; los permisos son openid,/,
        ],
        [{ nombre: '!', redirectUris: ['https://a.example.com/cb'], scopes: ['\r\n', ' '] }, /deben incluir openid/],
        [{ nombre: 'A', redirectUris: ['must\u0001'] }, /^URIs de redirección: 'must\\u0001' no es válida \(debe ser/],
        [{ nombre: 'Control\u0001', redirectUris: ['https://a.example.com/cb'] }, /^Datos inválidos: 'nombre'/],
        [
          { nombre: 'A', redirectUris: ['https://a.example.com/cb'], scopes: ['openid', 'plan'] },
          /plan necesita una app/,
        ],
        [{ nombre: 'A', redirectUris: ['https://a.example.com/cb'], appId: 999 }, /No existe la app 999/],
        [
          { nombre: 'A', redirectUris: ['https://a.example.com/cb'], backchannelLogoutUri: 'controlmax://x' },
          /cierre de sesión por canal trasero/,
        ],
        [
          {
            nombre: 'A',
            redirectUris: ['https://a.example.com/cb'],
            initiateLoginUri: 'http://127.0.0.1:4000/iniciar',
          },
          /URI de inicio de sesión: 'http:\/\/127\.0\.0\.1:4000\/iniciar' no es válida \(debe usar https, también/,
        ],
        [{ nombre: 'A', redirectUris: [] }, /^Indica al menos una URI de redirección$/],
        [{ nombre: 'A' }, /^Indica al menos una URI de redirección$/],
      ];
      for (const [body, message] of cases) {
        const refused = await call('POST', '/admin/clientes-oidc', body);
        assert.equal(refused.statusCode, 400, JSON.stringify(body));
        assert.match(refused.json<{ message: string }>().message, message);
        assert.equal(spanishErrorProblem(refused), undefined, JSON.stringify(body));
      }
      const after_ = await api.app.db.select({ id: oidcClients.id }).from(oidcClients);
      assert.equal(after_.length, before.length);
    });

    it('changing and deleting a client: a deleted client loses every token at once; both changes are audited', async () => {
      const created = await call('POST', '/admin/clientes-oidc', {
        nombre: 'Temporal',
        redirectUris: ['https://temporal.example.com/cb'],
        primeraParte: true,
      });
      const { clientId, clientSecret } = created.json<{ clientId: string; clientSecret: string }>();
      const changed = await call('PUT', `/admin/clientes-oidc/${clientId}`, {
        nombre: 'Temporal 2',
        redirectUris: ['https://temporal.example.com/cb', 'https://temporal.example.com/otra'],
        primeraParte: true,
      });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual(changed.json<{ redirectUris: string[] }>().redirectUris, [
        'https://temporal.example.com/cb',
        'https://temporal.example.com/otra',
      ]);
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = admin;
      const rp = await serverApp(api.issuer, clientId, clientSecret, 'https://temporal.example.com/otra');
      const tokens = await rp.exchange(await browser.signInTo(await rp.authorizationUrl(['openid'])));
      assert.equal((await rp.client.introspect(tokens)).active, true);
      const deleted = await call('DELETE', `/admin/clientes-oidc/${clientId}`);
      assert.equal(deleted.statusCode, 204);
      const info = await fetch(`${api.issuer}/oidc/me`, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
      assert.equal(info.status, 401);
      assert.equal((await call('GET', `/admin/clientes-oidc/${clientId}`)).statusCode, 404);
      assert.equal((await call('DELETE', `/admin/clientes-oidc/${clientId}`)).statusCode, 404);

      // Each change in the audit log, by the administrator, with the fields it changed; the refused delete wrote nothing.
      const entries = await api.app.db
        .select({ action: auditLog.action, actor: auditLog.actorEmail, details: auditLog.details })
        .from(auditLog)
        .where(and(eq(auditLog.targetType, 'oidc_client'), sql`${auditLog.details}->>'clientId' = ${clientId}`))
        .orderBy(asc(auditLog.id));
      assert.deepEqual(
        entries.map((entry) => [entry.action, entry.actor, entry.details]),
        [
          ['oidc_client.create', adminEmail, { clientId, nombre: 'Temporal', sujeto: 'opaco' }],
          [
            'oidc_client.update',
            adminEmail,
            { clientId, nombre: 'Temporal 2', sujeto: 'opaco', fields: ['nombre', 'redirectUris'] },
          ],
          ['oidc_client.delete', adminEmail, { clientId, nombre: 'Temporal 2', sujeto: 'opaco' }],
        ],
      );
    });

    it('only administrators: a person gets 403 and an anonymous caller 401, before anything is read', async () => {
      await createUser(api.app, { email: 'persona@clientes.test', password: 'clave-persona', status: 'active' });
      const person = await login(api.app, 'persona@clientes.test', 'clave-persona');
      for (const [method, url] of [
        ['GET', '/admin/clientes-oidc'],
        ['POST', '/admin/clientes-oidc'],
        ['POST', '/admin/clientes-oidc/x/secreto'],
        ['DELETE', '/admin/clientes-oidc/x'],
      ] as const) {
        assert.equal((await call(method, url, method === 'GET' ? undefined : {}, person)).statusCode, 403, url);
        assert.equal((await api.app.inject({ method, url })).statusCode, 401, url);
      }
    });
  });
});
