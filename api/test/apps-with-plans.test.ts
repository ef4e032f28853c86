import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { buildTestApp, forEachBackend, type TestApp } from './helpers/app.js';

forEachBackend((backend) => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(backend);
  });
  after(() => t.close());

  it('GET /apps/listar-con-planes lists every app by id with its plans, free first, prices as numbers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/apps/listar-con-planes' });
    assert.equal(response.statusCode, 200);
    const apps = response.json();
    assert.deepEqual(
      apps.map((app: { id: number }) => app.id),
      [1, 2, 3, 4, 5],
    );
    for (const app of apps) {
      assert.deepEqual(Object.keys(app).sort(), [
        'descripcion',
        'iconUrl',
        'id',
        'longDescription',
        'nombre',
        'planes',
      ]);
    }
    const beto = apps[1];
    assert.equal(beto.nombre, 'Beto Pro');
    assert.deepEqual(
      beto.planes.map((plan: { nombre: string }) => plan.nombre),
      ['free', 'PRO'],
    );
    const [free, pro] = beto.planes;
    assert.deepEqual(Object.keys(pro).sort(), ['caracteristicas', 'id', 'nombre', 'precioAnual', 'precioMensual']);
    assert.deepEqual([free.precioMensual, free.precioAnual], [0, 0]);
    assert.deepEqual([pro.precioMensual, pro.precioAnual], [15, 150]);
    assert.ok(pro.caracteristicas.includes('Consultas ilimitadas'));
    assert.deepEqual(apps[3].planes, [], 'the suite entry has no plans of its own');
  });

  it('needs no session', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/apps/listar-con-planes',
      headers: { authorization: 'Bearer nada' },
    });
    assert.equal(response.statusCode, 200);
  });
});
