import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { isAllowedRedirect } from '@portal/contracts/redirect/allow-list';
import { buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';

const partsModule = new URL('../../scripts/lib/parts.mjs', import.meta.url).href;

interface SeededApp {
  nombre: string;
  webUrl: string | null;
}

/**
 * Out of the box (the allow-list `npm start` hands the API when REDIRECT_ALLOW_LIST is unset), every seeded app the
 * launcher opens at an address of its own carries the signed-in person: the launcher asks for a partner token for it
 * (the browser's allow-list accepts it) and the API mints one (its own copy of the list accepts it too).
 */
forEachBackend((backend) => {
  let t: TestApp;
  let allowList: string[];
  before(async () => {
    const parts = await import(partsModule);
    const { loadConfig } = await import('../src/config.js');
    allowList = loadConfig(parts.apiEnvironment(parts.readLayout({}), {})).redirectAllowList;
    t = await buildTestApp(backend, { redirectAllowList: allowList });
  });
  after(() => t.close());

  it('a launch of each seeded web app at its own address carries a partner token for it by default', async () => {
    const { data } = (await t.app.inject({ method: 'GET', url: '/apps/listar?page=1&limit=100' })).json<{
      data: SeededApp[];
    }>();
    // App 5 (the calculator) is a page of the portal itself and app 4 (the suite) opens nothing.
    const external = data.filter((app) => app.webUrl?.startsWith('https://'));
    assert.deepEqual(
      external.map((app) => app.nombre),
      ['Control Max 360', 'Beto Pro', 'TX30'],
    );

    const session = await login(t.app);
    for (const { nombre, webUrl } of external) {
      assert.ok(isAllowedRedirect(webUrl, allowList), `${nombre}: the launcher asks for a token`);
      const minted = await t.app.inject({
        method: 'POST',
        url: '/auth/partner-token',
        headers: { authorization: `Bearer ${session}` },
        payload: { redirect_url: webUrl },
      });
      assert.equal(minted.statusCode, 200, `${nombre}: ${minted.body}`);
      assert.equal(minted.json<{ audience: string }>().audience, new URL(webUrl!).origin);
    }
  });
});
