import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { apps } from '../src/db/schema.js';
import { buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';

/**
 * Admin-set app links that a browser would run, or that leave for any host, are refused
 * (docs/decisions/0009-app-links-rule.md).
 */
forEachBackend((backend) => {
  let t: TestApp;
  let admin: string;
  before(async () => {
    t = await buildTestApp(backend);
    admin = await login(t.app);
  });
  after(() => t.close());

  const send = (method: 'POST' | 'PUT', url: string, payload: object) =>
    t.app.inject({ method, url, payload, headers: { authorization: `Bearer ${admin}` } });

  const refusedWeb = [
    '//evil.example.com/phish',
    '/\\evil.example.com',
    'javascript:alert(document.cookie)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'http://intranet.example.com',
    'ftp://archivos.example.com',
    'https://usuario:clave@evil.example.com',
    ' https://espacio.example.com',
  ];
  const refusedDeepLinks = [
    'javascript://%0aalert(1)',
    'JAVASCRIPT://x',
    'data://text/html,hola',
    'vbscript://msgbox',
    'file:///etc/passwd',
    'http://apps.example.com/ios',
    'javascript:alert(1)',
    'sin-esquema',
    // Schemes that start programs or Android intents on the device: only https and the apps' own.
    'ms-msdt:/id PCWDiagnostic /skip force',
    'ms-msdt://id%20PCWDiagnostic',
    'intent://abrir#Intent;scheme=medidor;package=com.evil;end',
    'search-ms://query=factura',
    'miapp://abrir',
  ];

  describe('refused, naming the form label, and nothing written', () => {
    for (const webUrl of refusedWeb) {
      it(`webUrl ${JSON.stringify(webUrl)}`, async () => {
        const before = (await t.app.db.select().from(apps)).length;
        const created = await send('POST', '/apps/register', { nombre: 'Enlace malo', webUrl });
        assert.equal(created.statusCode, 400);
        assert.deepEqual(created.json(), {
          statusCode: 400,
          code: 'INVALID_APP_LINK',
          message:
            'La URL web debe empezar por https:// (http:// solo para localhost o 127.0.0.1) o ser una ruta del portal como /calculadora-txi',
        });
        assert.equal((await t.app.db.select().from(apps)).length, before);
        const [stored] = await t.app.db.select().from(apps).where(eq(apps.id, 1));
        const updated = await send('PUT', '/apps/update/1', { webUrl });
        assert.equal(updated.statusCode, 400);
        assert.match(updated.json().message, /^La URL web debe/);
        assert.deepEqual((await t.app.db.select().from(apps).where(eq(apps.id, 1)))[0], stored);
      });
    }
    for (const link of refusedDeepLinks) {
      it(`iosUrl / androidUrl ${JSON.stringify(link)}`, async () => {
        const [stored] = await t.app.db.select().from(apps).where(eq(apps.id, 1));
        for (const [field, label] of [
          ['iosUrl', 'URL iOS'],
          ['androidUrl', 'URL Android'],
        ] as const) {
          const created = await send('POST', '/apps/register', { nombre: 'Enlace malo', [field]: link });
          assert.equal(created.statusCode, 400);
          assert.equal(
            created.json().message,
            `La ${label} debe ser una dirección https:// o el enlace de la app móvil (betopro://… o controlmax://…); no se admite otro esquema`,
          );
          assert.equal((await send('PUT', '/apps/update/1', { [field]: link })).statusCode, 400);
        }
        assert.deepEqual((await t.app.db.select().from(apps).where(eq(apps.id, 1)))[0], stored);
      });
    }
  });

  it("accepts https, http on localhost, portal paths, the apps' own schemes and empty links", async () => {
    const accepted = await send('POST', '/apps/register', {
      nombre: 'Enlaces buenos',
      webUrl: 'https://medidor.example.com/inicio?x=1',
      iosUrl: 'betopro://auth/success',
      androidUrl: 'https://play.google.com/store/apps/details?id=com.empresa.medidor',
    });
    assert.equal(accepted.statusCode, 201, accepted.body);
    const id = accepted.json().id;
    for (const payload of [
      { webUrl: 'http://localhost:5173/app' },
      { webUrl: 'http://127.0.0.1:8080/x' },
      { webUrl: '/calculadora-txi' },
      { iosUrl: 'https://apps.apple.com/app/id123', androidUrl: 'controlmax://inicio' },
      { iosUrl: 'BetoPro://auth/welcome', androidUrl: 'https://play.google.com/store/apps/details?id=x' },
      { webUrl: null, iosUrl: null, androidUrl: null },
    ]) {
      const updated = await send('PUT', `/apps/update/${id}`, payload);
      assert.equal(updated.statusCode, 200, `${JSON.stringify(payload)}: ${updated.body}`);
    }
  });
});
