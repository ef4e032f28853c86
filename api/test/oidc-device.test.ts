// Sign-in on a device (RFC 8628) as a partner's panel or command-line tool does it: openid-client asks for a code and
// polls, the person answers through the portal's API as /dispositivo does. Allowed, refused, expired, guessed (one
// after another and all at once), answered twice, answered without a session, a client not allowed the grant, and
// the library's own English pages never reachable.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { oidcConsents, oidcPayloads } from '../src/db/schema.js';
import {
  maxWrongDeviceCodesPerAddress,
  maxWrongDeviceCodesPerPerson,
} from '../src/domain/identity-provider/oidc/device.js';
import { adminEmail, adminPassword, createUser, forEachBackend, login } from './helpers/app.js';
import {
  answerDevice,
  bodyOf,
  deviceGrant,
  deviceRelyingParty,
  type OidcTestApi,
  pollDevice,
  portalUrl,
  registerClient,
  startOidcApi,
} from './helpers/oidc.js';

const password = 'clave-de-la-persona';

forEachBackend((backend) => {
  describe('device sign-in (RFC 8628)', () => {
    let api: OidcTestApi;
    let panel: { clientId: string };
    let webOnly: { clientId: string; clientSecret?: string };
    let person: { id: number; email: string; token: string };
    let people = 0;

    const relyingParty = (clientId: string, secret?: string) => deviceRelyingParty(api.issuer, clientId, secret);
    const answer = (path: 'consultar' | 'confirmar', body: object, token?: string, remoteAddress?: string) =>
      answerDevice(api.app, path, body, token, remoteAddress);
    const poll = (deviceCode: string) => pollDevice(api.issuer, deviceCode, panel.clientId);

    async function newPerson() {
      people += 1;
      const email = `persona-${people}-${backend}@portal.test`;
      const id = await createUser(api.app, { email, password, status: 'active' });
      return { id, email, token: await login(api.app, email, password) };
    }

    before(async () => {
      // The per-minute limit of every sign-in route is lifted: the wrong-code limits are what is tested here.
      api = await startOidcApi(backend, { trustProxy: false, authRateLimitPerMinute: 100_000 });
      panel = await registerClient(api.app, {
        nombre: 'Panel de planta',
        publico: true,
        dispositivos: true,
        scopes: ['openid', 'profile', 'email', 'offline_access'],
      });
      webOnly = await registerClient(api.app, {
        nombre: 'Solo web',
        redirectUris: ['https://web.example.com/callback'],
      });
      person = await newPerson();
    });
    after(async () => api?.close());

    it('a client may ask for the grant only when the administrator says so; a public one then needs no redirect', async () => {
      const admin = await login(api.app, adminEmail, adminPassword);
      const create = (body: object) =>
        api.app.inject({
          method: 'POST',
          url: '/admin/clientes-oidc',
          payload: body,
          headers: { authorization: `Bearer ${admin}` },
        });
      const created = await create({ nombre: 'Quiosco', publico: true, dispositivos: true });
      assert.equal(created.statusCode, 201, created.body);
      const { clientId } = created.json<{ clientId: string }>();
      const read = await api.app.inject({
        method: 'GET',
        url: `/admin/clientes-oidc/${clientId}`,
        headers: { authorization: `Bearer ${admin}` },
      });
      assert.equal(read.json<{ dispositivos: boolean }>().dispositivos, true);
      assert.deepEqual(read.json<{ redirectUris: string[] }>().redirectUris, []);

      for (const body of [
        { nombre: 'Web sin redirección', publico: true },
        { nombre: 'Confidencial sin redirección', dispositivos: true },
      ]) {
        const refused = await create(body);
        assert.equal(refused.statusCode, 400, refused.body);
        assert.equal(refused.json<{ message: string }>().message, 'Indica al menos una URI de redirección');
      }

      const discovery = await bodyOf(fetch(`${api.issuer}/.well-known/openid-configuration`));
      assert.equal(discovery.device_authorization_endpoint, `${api.issuer}/oidc/device/auth`);
      assert.ok(discovery.grant_types_supported?.includes(deviceGrant));
    });

    it("the device shows the portal's /dispositivo; the person sees app, permissions and address; the device gets tokens", async () => {
      const config = await relyingParty(panel.clientId);
      const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid profile email offline_access' });
      assert.equal(started.verification_uri, `${portalUrl}/dispositivo`);
      assert.equal(started.verification_uri_complete, `${portalUrl}/dispositivo?codigo=${started.user_code}`);
      assert.match(started.user_code, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
      assert.equal(started.interval, 5);

      // Typed in lower case without the dash: the same code.
      const typed = started.user_code.replace('-', '').toLowerCase();
      const seen = await answer('consultar', { codigo: typed }, person.token);
      assert.equal(seen.statusCode, 200, seen.body);
      const view = seen.json();
      assert.equal(view.codigo, started.user_code);
      assert.equal(view.cliente.nombre, 'Panel de planta');
      assert.deepEqual(
        view.permisos.map((item: { scope: string }) => item.scope),
        ['openid', 'profile', 'email', 'offline_access'],
      );
      assert.equal(view.permisos[2].descripcion, 'Ver tu email');
      assert.equal(view.dispositivo.ip, '127.0.0.1');
      assert.ok(Date.now() - Date.parse(view.dispositivo.iniciadoEn) < 60_000);

      // Looking is not answering: the device still waits, and one polling too fast is told to slow down.
      const pending = await poll(started.device_code);
      assert.equal(pending.status, 400);
      const pendingBody = await bodyOf(pending);
      assert.equal(pendingBody.error, 'authorization_pending');
      assert.equal(pendingBody.message, 'La persona aún no ha confirmado el código en el portal');
      const tooFast = await bodyOf(poll(started.device_code));
      assert.equal(tooFast.error, 'slow_down');
      assert.equal(tooFast.message, 'Consultas demasiado seguidas: espera unos segundos más entre una y otra');

      const allowed = await answer('confirmar', { codigo: started.user_code, permitir: true }, person.token);
      assert.equal(allowed.statusCode, 200, allowed.body);
      assert.deepEqual(allowed.json(), { resultado: 'permitido' });

      const tokens = await oidc.pollDeviceAuthorizationGrant(config, started);
      assert.ok(tokens.access_token);
      assert.ok(tokens.refresh_token, 'offline_access gives the device a refresh token');
      const claims = tokens.claims();
      assert.ok(claims?.sub);
      const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      assert.equal(userinfo.email, person.email);

      // A third-party app's access is remembered, so /perfil lists it and can take it back.
      const [consent] = await api.app.db
        .select()
        .from(oidcConsents)
        .where(and(eq(oidcConsents.userId, person.id), eq(oidcConsents.clientId, panel.clientId)));
      assert.ok(consent?.scopes.includes('email'));

      // The code is spent: answering again, or polling again, gets nothing more.
      const again = await answer('confirmar', { codigo: started.user_code, permitir: true }, person.token);
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().code, 'DEVICE_CODE_USED');
      assert.equal(again.json().message, 'Este código ya se usó o se rechazó. Pide uno nuevo en el dispositivo.');
      const replay = await bodyOf(poll(started.device_code));
      assert.equal(replay.error, 'invalid_grant');
    });

    it('refused: the device is told access_denied and gets no token', async () => {
      const config = await relyingParty(panel.clientId);
      const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
      const refused = await answer('confirmar', { codigo: started.user_code, permitir: false }, person.token);
      assert.deepEqual(refused.json(), { resultado: 'rechazado' });
      const answerToDevice = await poll(started.device_code);
      const body = await bodyOf(answerToDevice);
      assert.equal(body.error, 'access_denied');
      assert.equal(body.message, 'Acceso denegado');
      const seen = await answer('consultar', { codigo: started.user_code }, person.token);
      assert.equal(seen.statusCode, 409);
    });

    it('Permitir and Rechazar racing on one code: one answer counts, the other is told the code was used', async () => {
      const config = await relyingParty(panel.clientId);
      const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
      const answers = await Promise.all(
        [true, false, true, false].map((permitir) =>
          answer('confirmar', { codigo: started.user_code, permitir }, person.token),
        ),
      );
      assert.deepEqual(answers.map((one) => one.statusCode).sort(), [200, 409, 409, 409]);
    });

    it('nobody signed in cannot see or answer a code: 401, and the device still waits', async () => {
      const config = await relyingParty(panel.clientId);
      const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
      const seen = await answer('consultar', { codigo: started.user_code });
      assert.equal(seen.statusCode, 401);
      const allowed = await answer('confirmar', { codigo: started.user_code, permitir: true }, 'token-inventado');
      assert.equal(allowed.statusCode, 401);
      assert.equal((await bodyOf(poll(started.device_code))).error, 'authorization_pending');
    });

    it('an expired code: the page says so in Spanish and the device is told expired_token', async () => {
      const config = await relyingParty(panel.clientId);
      const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
      const past = Math.floor(Date.now() / 1000) - 5;
      await api.app.db
        .update(oidcPayloads)
        .set({
          payload: sql`jsonb_set(${oidcPayloads.payload}, '{exp}', ${String(past)}::jsonb)`,
          expiresAt: new Date(past * 1000),
        })
        .where(
          and(
            eq(oidcPayloads.kind, 'DeviceCode'),
            sql`${oidcPayloads.payload}->>'userCode' = ${started.user_code.replace('-', '')}`,
          ),
        );
      const seen = await answer('consultar', { codigo: started.user_code }, person.token);
      assert.equal(seen.statusCode, 410, seen.body);
      assert.equal(seen.json().message, 'El código expiró. Pide uno nuevo en el dispositivo.');
      const allowed = await answer('confirmar', { codigo: started.user_code, permitir: true }, person.token);
      assert.equal(allowed.statusCode, 410);
      const body = await bodyOf(poll(started.device_code));
      assert.equal(body.error, 'expired_token');
      assert.equal(body.message, 'El código del dispositivo expiró: pide uno nuevo');
    });

    it('a mistyped code is told apart from a guess: a vowel or a short code is a typo, not counted', async () => {
      const typo = await answer('consultar', { codigo: 'ABCD-EFGH' }, person.token);
      assert.equal(typo.statusCode, 400);
      assert.equal(typo.json().code, 'DEVICE_CODE_MALFORMED');
      // It says why 'ABCD-EFGH' is not one: the codes use no vowels.
      assert.equal(
        typo.json().message,
        'El código tiene 8 letras sin vocales, como BCDF-GHJK: no lleva A, E, I, O, U ni números. Revísalo en la pantalla del dispositivo.',
      );
      const wrong = await answer('consultar', { codigo: 'BBBB-BBBB' }, person.token);
      assert.equal(wrong.statusCode, 404);
      assert.equal(wrong.json().message, 'Código incorrecto. Revisa el código que muestra el dispositivo.');
    });

    it("wrong codes stall a guesser: the person's day of wrong codes, then 429 even for the right code", async () => {
      const guesser = await newPerson();
      const config = await relyingParty(panel.clientId);
      const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
      const address = '192.0.2.10';
      for (let i = 0; i < maxWrongDeviceCodesPerPerson; i += 1) {
        const guess = await answer(
          'consultar',
          { codigo: `BBBB-BB${'BCDFGHJKLMNPQRSTVWXZ'[i]}B` },
          guesser.token,
          address,
        );
        assert.equal(guess.statusCode, 404, guess.body);
      }
      const stalled = await answer('confirmar', { codigo: started.user_code, permitir: true }, guesser.token, address);
      assert.equal(stalled.statusCode, 429);
      assert.equal(stalled.json().code, 'CODE_GUESSES_EXCEEDED');
      assert.match(stalled.json().message, /^Demasiados códigos incorrectos/);
      assert.ok(Number(stalled.headers['retry-after']) > 0);
      assert.equal((await bodyOf(poll(started.device_code))).error, 'authorization_pending');
      // Another person is not held by this one's guesses.
      const other = await answer('consultar', { codigo: started.user_code }, person.token, '192.0.2.11');
      assert.equal(other.statusCode, 200);
    });

    it('the same limit under a burst: guesses fired all at once get no more lookups than one after another', async () => {
      const guesser = await newPerson();
      const burst = await Promise.all(
        Array.from({ length: maxWrongDeviceCodesPerPerson + 15 }, (_, i) =>
          answer(
            'consultar',
            { codigo: `CCCC-${'BCDFGHJKLMNPQRSTVWXZ'[i % 20]}CC${'BCDFG'[Math.floor(i / 20)]}` },
            guesser.token,
            '192.0.2.20',
          ),
        ),
      );
      const counts = burst.reduce<Record<number, number>>((tally, one) => {
        tally[one.statusCode] = (tally[one.statusCode] ?? 0) + 1;
        return tally;
      }, {});
      assert.deepEqual(counts, { 404: maxWrongDeviceCodesPerPerson, 429: 15 });
    });

    it('an address guessing for many accounts is stalled too, at once under a burst', async () => {
      const guessers = await Promise.all(Array.from({ length: 4 }, () => newPerson()));
      const perGuesser = Math.ceil((maxWrongDeviceCodesPerAddress + 8) / guessers.length);
      const burst = await Promise.all(
        guessers.flatMap((guesser, g) =>
          Array.from({ length: Math.min(perGuesser, maxWrongDeviceCodesPerPerson) }, (_, i) =>
            answer(
              'consultar',
              { codigo: `DDDD-${'BCDFGHJKLMNPQRSTVWXZ'[i]}D${'BCDF'[g]}D` },
              guesser.token,
              '192.0.2.30',
            ),
          ),
        ),
      );
      const wrong = burst.filter((one) => one.statusCode === 404).length;
      const stalled = burst.filter((one) => one.statusCode === 429).length;
      assert.equal(wrong, maxWrongDeviceCodesPerAddress);
      assert.equal(wrong + stalled, burst.length);
    });

    it('a client the administrator did not allow the grant is told unauthorized_client, in Spanish too', async () => {
      const config = await relyingParty(webOnly.clientId, webOnly.clientSecret);
      await assert.rejects(oidc.initiateDeviceAuthorization(config, { scope: 'openid' }), (error: unknown) => {
        const failed = error as oidc.ResponseBodyError;
        assert.equal(failed.error, 'unauthorized_client');
        assert.equal(
          (failed.cause as { message?: string }).message,
          'La aplicación no puede usar este tipo de autorización',
        );
        return true;
      });
    });

    it("the library's own English pages are never served: its code page is the API's Spanish 404", async () => {
      for (const url of ['/oidc/device', '/oidc/device?user_code=BCDF-GHJK']) {
        const response = await fetch(`${api.issuer}${url}`);
        assert.equal(response.status, 404);
        const body = await bodyOf(response);
        assert.equal(body.message, 'Recurso no encontrado');
        assert.doesNotMatch(JSON.stringify(body), /Sign-in|Enter the code|Confirm Device/);
      }
      const confirm = await fetch(`${api.issuer}/oidc/device`, { method: 'POST', body: 'user_code=BCDF-GHJK' });
      assert.equal(confirm.status, 404);
    });
  });
});
