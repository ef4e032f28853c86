// The guide for the apps' teams (docs/integrar-una-app.md) cannot rot: each code block is the example file it names,
// and each example runs here against the real portal (the single-page app's, in Chromium: the browser suite).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { receptorDeCierre } from '../../docs/ejemplos-oidc/cierre-de-sesion.js';
import { iniciarSesionEnDispositivo } from '../../docs/ejemplos-oidc/dispositivo.js';
import { abrirInicioDeSesion, appNativa, recibirVuelta } from '../../docs/ejemplos-oidc/nativa.js';
import {
  conectar,
  empezarInicioDeSesion,
  renovar,
  terminarInicioDeSesion,
  urlDeCierre,
} from '../../docs/ejemplos-oidc/servidor.js';
import { adminEmail, adminPassword, backends, login } from './helpers/app.js';
import { type OidcTestApi, registerClient, startOidcApi, TestBrowser } from './helpers/oidc.js';

const docs = fileURLToPath(new URL('../../docs/', import.meta.url));

it('every code block of the guide is the example file it names, character for character', () => {
  const guide = readFileSync(`${docs}integrar-una-app.md`, 'utf8');
  const blocks = [
    ...guide.matchAll(/Archivo: \[(ejemplos-oidc\/[a-z-]+\.ts)\](?:(?!```)[\s\S])*?\n\n```ts\n([\s\S]*?)```/g),
  ];
  assert.deepEqual(blocks.map(([, file]) => file).sort(), [
    'ejemplos-oidc/cierre-de-sesion.ts',
    'ejemplos-oidc/dispositivo.ts',
    'ejemplos-oidc/nativa.ts',
    'ejemplos-oidc/servidor.ts',
    'ejemplos-oidc/spa.ts',
  ]);
  for (const [, file, code] of blocks) assert.equal(code, readFileSync(`${docs}${file}`, 'utf8'), `${file} drifted`);
});

for (const backend of backends.slice(0, 1))
  describe("the guide's examples against the portal", () => {
    let api: OidcTestApi;
    let browser: TestBrowser;

    before(async () => {
      api = await startOidcApi(backend);
      browser = new TestBrowser(api.issuer);
      browser.portalToken = await login(api.app, adminEmail, adminPassword);
    });
    after(() => api.close());

    it('a server app signs in, reads the person and their plan, refreshes, and is told of the logout', async () => {
      let told: Promise<{ persona: string; sesion: string }> | undefined;
      const receiver = createServer(async (request, response) => {
        let body = '';
        for await (const chunk of request) body += chunk;
        told = receive(body);
        await told;
        response.writeHead(200).end();
      });
      receiver.listen(0, '127.0.0.1');
      await once(receiver, 'listening');
      const { port } = receiver.address() as { port: number };
      const redirect = 'https://planta.example.com/callback';
      const client = await registerClient(api.app, {
        nombre: 'Planta',
        redirectUris: [redirect],
        postLogoutRedirectUris: ['https://planta.example.com/'],
        backchannelLogoutUri: `http://127.0.0.1:${port}/cierre`,
        primeraParte: true,
        appId: 1,
        scopes: ['openid', 'profile', 'email', 'plan', 'offline_access'],
      });
      const receive = receptorDeCierre(api.issuer, client.clientId);
      try {
        const portal = await conectar(api.issuer, client.clientId, client.clientSecret ?? '', { local: true });
        const { url, pendiente } = await empezarInicioDeSesion(portal, redirect);
        const landed = await browser.signInTo(url);
        const { tokens, persona } = await terminarInicioDeSesion(portal, landed, pendiente);
        assert.equal(persona.email, adminEmail);
        assert.equal((persona.plan as { nombre: string }).nombre, 'free');
        const renewed = await renovar(portal, tokens.refresh_token ?? '');
        assert.ok(renewed.refresh_token && renewed.refresh_token !== tokens.refresh_token);

        // The person ends the session from the app: the portal's session in that browser ends too.
        const { url: done } = await browser.navigate(
          urlDeCierre(portal, tokens.id_token ?? '', 'https://planta.example.com/'),
        );
        assert.match(done, new RegExp(`^${api.issuer}/oidc/session/end\\?`), 'the automatic form page');
        const page = await (await browser.request(done)).text();
        const action = /action="([^"]+)"/.exec(page)?.[1] ?? '';
        const xsrf = /name="xsrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
        const back = await browser.navigate(action, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ xsrf, logout: 'yes' }),
        });
        assert.equal(back.url, 'https://planta.example.com/');
        await api.app.identityProvider.logouts.deliverDue();
        assert.ok(told, 'the back-channel receiver was called');
        assert.deepEqual(await told, { persona: persona.id, sesion: persona.sesion });
      } finally {
        receiver.close();
        browser.portalToken = await login(api.app, adminEmail, adminPassword);
      }
    });

    it('a device without a keyboard shows a code, the person confirms it at /dispositivo, the device gets tokens', async () => {
      const panel = await registerClient(api.app, { nombre: 'Panel de planta', publico: true, dispositivos: true });
      let shown = '';
      const signedIn = iniciarSesionEnDispositivo(api.issuer, panel.clientId, (texto) => (shown = texto), {
        local: true,
      });
      while (!shown) await new Promise((resolve) => setTimeout(resolve, 20));
      const codigo = /el código ([A-Z]{4}-[A-Z]{4})$/.exec(shown)?.[1];
      assert.ok(codigo, shown);
      assert.match(shown, /^Abre http:\/\/localhost:8080\/dispositivo y escribe/);
      // The person, signed in to the portal, answers as the page does.
      const answered = await api.app.inject({
        method: 'POST',
        url: '/oidc/dispositivo/confirmar',
        payload: { codigo, permitir: true },
        headers: { authorization: `Bearer ${browser.portalToken}` },
      });
      assert.equal(answered.statusCode, 200, answered.body);
      const { persona, tokenDeAcceso, tokenDeActualizacion } = await signedIn;
      assert.ok(persona && tokenDeAcceso && tokenDeActualizacion);
    });

    it('the mobile app by its own scheme and the desktop app on a loopback port of its choice', async () => {
      const mobile = await registerClient(api.app, {
        nombre: 'Beto Pro (móvil)',
        redirectUris: ['betopro://auth/callback'],
        publico: true,
        primeraParte: true,
        appId: 2,
        scopes: ['openid', 'profile', 'plan', 'offline_access'],
      });
      const phone = appNativa(api.issuer, mobile.clientId, 'betopro://auth/callback');
      const handedBack = await browser.signInTo(await abrirInicioDeSesion(phone));
      assert.match(handedBack, /^betopro:\/\/auth\/callback\?code=/);
      const signedIn = await recibirVuelta(phone, handedBack);
      assert.equal((signedIn.persona.plan as { nombre: string }).nombre, 'free');
      assert.ok(signedIn.tokenDeActualizacion);

      const desktop = await registerClient(api.app, {
        nombre: 'TX30',
        redirectUris: ['http://127.0.0.1/callback'],
        publico: true,
        primeraParte: true,
        appId: 3,
        scopes: ['openid', 'profile', 'plan', 'offline_access'],
      });
      // The desktop app listens on a port it chooses now, and receives the browser there.
      const listener = createServer((_request, response) => response.end('Ya puedes volver a la aplicación.'));
      listener.listen(0, '127.0.0.1');
      await once(listener, 'listening');
      const { port } = listener.address() as { port: number };
      try {
        const pc = appNativa(api.issuer, desktop.clientId, `http://127.0.0.1:${port}/callback`);
        const landed = await browser.signInTo(await abrirInicioDeSesion(pc));
        assert.ok(landed.startsWith(`http://127.0.0.1:${port}/callback?code=`), landed);
        assert.equal((await fetch(landed)).status, 200);
        const onPc = await recibirVuelta(pc, landed);
        assert.equal(onPc.persona.id, signedIn.persona.id, 'the same person on the phone and on the computer');
      } finally {
        listener.close();
      }
    });
  });
