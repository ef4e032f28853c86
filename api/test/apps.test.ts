import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { DEFAULT_REDIRECT_ALLOW_LIST } from '@portal/contracts/redirect/defaults';
import { operatorActor } from '../src/domain/audit/log.js';
import { createClient, deleteClient } from '../src/domain/identity-provider/oidc/clients.js';
import { buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';

const appFields = [
  'id',
  'nombre',
  'descripcion',
  'longDescription',
  'iconUrl',
  'webUrl',
  'iosUrl',
  'androidUrl',
  'isEnabledWeb',
  'isEnabledMovil',
  'tags',
  // Where the app starts its own sign-in with the portal (OpenID Connect), or null.
  'inicioSesionUrl',
].sort();

// The provider's issuer, on purpose not the API's address: the launch names the issuer (OIDC_ISSUER).
const issuer = 'https://cuentas.portal.example.com';

forEachBackend((backend) => {
  let t: TestApp;
  before(async () => {
    // The allow-list `npm start` hands the API: it names the seeded apps' hosts.
    t = await buildTestApp(backend, { oidcIssuer: issuer, redirectAllowList: [...DEFAULT_REDIRECT_ALLOW_LIST] });
  });
  after(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('lists the first 10 apps by default, ordered by id, with paging data', async () => {
    const response = await get('/apps/listar');
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.deepEqual(
      {
        total: body.total,
        totalPages: body.totalPages,
        currentPage: body.currentPage,
        hasNextPage: body.hasNextPage,
        count: body.count,
      },
      { total: 5, totalPages: 1, currentPage: 1, hasNextPage: false, count: 5 },
    );
    assert.deepEqual(
      body.data.map((app: { id: number }) => app.id),
      [1, 2, 3, 4, 5],
    );
  });

  it('returns the seeded apps with every App field and their tags', async () => {
    const { data } = (await get('/apps/listar?page=1&limit=100')).json();
    assert.deepEqual(
      data.map((app: { nombre: string }) => app.nombre),
      ['Control Max 360', 'Beto Pro', 'TX30', 'C+Suite Completa', 'Calculadora TXI'],
    );
    for (const app of data) {
      assert.deepEqual(Object.keys(app).sort(), appFields, `fields of app ${app.id}`);
      assert.ok(app.descripcion.length > 0 && app.longDescription.length > 0, `texts of app ${app.id}`);
      assert.ok(app.tags.length > 0, `tags of app ${app.id}`);
      for (const tag of app.tags) assert.deepEqual(Object.keys(tag), ['descripcion']);
    }
    const [controlMax, betoPro, tx30, suite, calculator] = data;
    assert.match(controlMax.webUrl, /^https:\/\//);
    assert.equal(controlMax.isEnabledWeb && controlMax.isEnabledMovil, true);
    assert.equal(betoPro.isEnabledWeb && betoPro.isEnabledMovil, true);
    assert.equal(tx30.isEnabledWeb, true);
    assert.equal(suite.nombre, 'C+Suite Completa');
    assert.equal(calculator.webUrl, '/calculadora-txi');
    assert.equal(calculator.isEnabledWeb, true);
  });

  it('pages with page and limit', async () => {
    const body = (await get('/apps/listar?page=2&limit=2')).json();
    assert.deepEqual(
      body.data.map((app: { id: number }) => app.id),
      [3, 4],
    );
    assert.deepEqual(
      {
        total: body.total,
        totalPages: body.totalPages,
        currentPage: body.currentPage,
        hasNextPage: body.hasNextPage,
        count: body.count,
      },
      { total: 5, totalPages: 3, currentPage: 2, hasNextPage: true, count: 2 },
    );
    const last = (await get('/apps/listar?page=3&limit=2')).json();
    assert.deepEqual([last.data.map((app: { id: number }) => app.id), last.hasNextPage], [[5], false]);
  });

  const badQueries: Array<[string, string]> = [
    ['limit=101', "Datos inválidos: 'limit' debe ser menor o igual que 100"],
    ['limit=0', "Datos inválidos: 'limit' debe ser mayor o igual que 1"],
    ['page=0', "Datos inválidos: 'page' debe ser mayor o igual que 1"],
    ['page=abc', "Datos inválidos: 'page' debe ser un número entero"],
    ['sort=nombre', "Datos inválidos: el campo 'sort' no está permitido"],
  ];
  for (const [query, message] of badQueries) {
    it(`refuses ?${query} with 400 in Spanish`, async () => {
      const response = await get(`/apps/listar?${query}`);
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { statusCode: 400, code: 'VALIDATION_ERROR', message });
    });
  }

  it('gets one app by id', async () => {
    const response = await get('/apps/obtener-por-id/1');
    assert.equal(response.statusCode, 200);
    const app = response.json();
    assert.equal(app.nombre, 'Control Max 360');
    assert.deepEqual(Object.keys(app).sort(), appFields);
    assert.ok(app.tags.some((tag: { descripcion: string }) => tag.descripcion === 'Control'));
  });

  it('answers an unknown app id with 404 App no encontrada', async () => {
    const response = await get('/apps/obtener-por-id/999');
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { statusCode: 404, code: 'APP_NOT_FOUND', message: 'App no encontrada' });
  });

  it('answers a non-numeric app id with 400', async () => {
    const response = await get('/apps/obtener-por-id/x');
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().message, "Datos inválidos: 'id' debe ser un número entero");
  });

  it('an app whose client has an initiate-login URI is launched there (Core §4: iss, target_link_uri); the others keep the partner hand-off', async () => {
    const register = (appId: number, initiateLoginUri: string) =>
      createClient(
        t.app.db,
        operatorActor,
        { nombre: `App ${appId}`, redirectUris: [`https://app${appId}.example.com/callback`], appId, initiateLoginUri },
        async () => {},
      );
    const initiate = 'https://betopro.example.com/oidc/iniciar?origen=portal';
    const clients = [
      await register(2, initiate),
      // No web address to land on: C+Suite has none, the calculator's is a portal path.
      await register(4, 'https://suite.example.com/oidc/iniciar'),
      await register(5, 'https://calculadora.example.com/oidc/iniciar'),
    ];
    try {
      const { data } = (await get('/apps/listar?limit=100')).json<{
        data: { id: number; webUrl: string | null; inicioSesionUrl: string | null }[];
      }>();
      const betoPro = data.find((app) => app.id === 2);
      assert.ok(betoPro?.webUrl);
      const expected = `${initiate}&iss=${encodeURIComponent(issuer)}&target_link_uri=${encodeURIComponent(betoPro.webUrl)}`;
      assert.deepEqual(
        data.map((app) => [app.id, app.inicioSesionUrl]),
        [
          [1, null],
          [2, expected],
          [3, null],
          [4, null],
          [5, null],
        ],
      );
      const launch = new URL(expected);
      assert.deepEqual(
        [launch.searchParams.get('iss'), launch.searchParams.get('target_link_uri'), launch.searchParams.get('origen')],
        [issuer, betoPro.webUrl, 'portal'],
      );
      assert.equal((await get('/apps/obtener-por-id/2')).json().inicioSesionUrl, expected);
      assert.equal((await get('/apps/obtener-por-id/1')).json().inicioSesionUrl, null);

      // Control Max 360 has no client: the spec's redirect_url hand-off still gives it a partner token.
      const controlMax = data.find((app) => app.id === 1);
      assert.ok(controlMax?.webUrl);
      const minted = await t.app.inject({
        method: 'POST',
        url: '/auth/partner-token',
        headers: { authorization: `Bearer ${await login(t.app)}` },
        payload: { redirect_url: controlMax.webUrl },
      });
      assert.equal(minted.statusCode, 200, minted.body);
      assert.equal(minted.json().audience, new URL(controlMax.webUrl).origin);
    } finally {
      for (const { client } of clients) await deleteClient(t.app.db, operatorActor, client.clientId);
    }
  });
});
