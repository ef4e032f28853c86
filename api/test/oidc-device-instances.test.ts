// Sign-in on a device (RFC 8628) across two API instances on one database, as behind a load balancer: the device asks
// one instance for a code and polls either, the person looks the code up and answers on the other. The tokens come
// once, a refusal reaches the device wherever it polls, and the wrong-code limit counts the guesses made on both
// instances: their counters are shared through Redis, as every deployment of several instances has them.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import * as oidc from 'openid-client';
import { maxWrongDeviceCodesPerPerson } from '../src/domain/identity-provider/oidc/device.js';
import { testRedisUrl } from './helpers/accounts.js';
import { createUser, forEachBackend, login } from './helpers/app.js';
import { type TwoInstances, twoInstances } from './helpers/instances.js';
import { answerDevice, bodyOf, deviceRelyingParty, pollDevice, registerClient } from './helpers/oidc.js';

const password = 'clave-de-la-persona';

forEachBackend((backend) => {
  describe('device sign-in across two instances', () => {
    const prefix = `test-${randomBytes(4).toString('hex')}:`;
    let pair: TwoInstances;
    let panel: { clientId: string };
    let people = 0;

    /** A person signed in to the portal: one session, good at either instance. */
    async function newPerson() {
      people += 1;
      const email = `persona-${people}-${backend}@dispositivos.test`;
      await createUser(pair.a, { email, password, status: 'active' });
      return { email, token: await login(pair.a, email, password) };
    }

    /** The device asks the public address (instance A) for a code, as openid-client does. */
    async function deviceStarts(scope = 'openid') {
      const config = await deviceRelyingParty(pair.issuer, panel.clientId);
      return oidc.initiateDeviceAuthorization(config, { scope });
    }

    /** The person's answer to a code at `instance`, as /dispositivo sends it. */
    const confirm = (instance: FastifyInstance, userCode: string, allow: boolean, token: string, address?: string) =>
      answerDevice(instance, 'confirmar', { codigo: userCode, permitir: allow }, token, address);
    const pollAtA = (deviceCode: string) => pollDevice(pair.issuer, deviceCode, panel.clientId);
    const pollAtB = (deviceCode: string) => pollDevice(pair.urlOfB, deviceCode, panel.clientId);

    before(async () => {
      // The per-minute limit of every sign-in route is lifted: the wrong-code limit is what is tested here.
      pair = await twoInstances(backend, {
        trustProxy: false,
        authRateLimitPerMinute: 100_000,
        redisUrl: testRedisUrl,
        redisKeyPrefix: prefix,
      });
      panel = await registerClient(pair.a, {
        nombre: 'Panel de planta',
        publico: true,
        dispositivos: true,
        scopes: ['openid', 'email'],
      });
    });
    after(async () => {
      if (!pair) return;
      const keys = await pair.a.redis?.keys(`${prefix}*`);
      if (keys?.length) await pair.a.redis?.del(...keys);
      await pair.close();
    });

    it('a code asked for at A is confirmed at B; the device polls A, then B, and gets tokens exactly once', async () => {
      const person = await newPerson();
      const started = await deviceStarts('openid email');
      assert.equal((await bodyOf(pollAtA(started.device_code))).error, 'authorization_pending');
      // The last poll is remembered for both instances: polling B at once is too soon as well.
      assert.equal((await bodyOf(pollAtB(started.device_code))).error, 'slow_down');

      const seen = await answerDevice(pair.b, 'consultar', { codigo: started.user_code }, person.token);
      assert.equal(seen.statusCode, 200, seen.body);
      assert.equal(seen.json().codigo, started.user_code);
      assert.equal(seen.json().cliente.nombre, 'Panel de planta');
      const allowed = await confirm(pair.b, started.user_code, true, person.token);
      assert.equal(allowed.statusCode, 200, allowed.body);
      assert.deepEqual(allowed.json(), { resultado: 'permitido' });

      const granted = await pollAtA(started.device_code);
      assert.equal(granted.status, 200);
      const tokens = (await granted.json()) as { access_token: string; token_type: string };
      assert.equal(tokens.token_type, 'Bearer');
      const userinfo = await fetch(`${pair.urlOfB}/oidc/me`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      assert.equal(userinfo.status, 200, 'the tokens are good at either instance');
      assert.equal(((await userinfo.json()) as { email: string }).email, person.email);

      // Answered, the code is spent at A as well.
      const again = await confirm(pair.a, started.user_code, true, person.token);
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().code, 'DEVICE_CODE_USED');

      const replay = await pollAtB(started.device_code);
      assert.equal(replay.status, 400);
      assert.equal((await bodyOf(replay)).error, 'invalid_grant');
      assert.equal((await bodyOf(pollAtA(started.device_code))).error, 'invalid_grant');
    });

    it('refused at B: the device polling A is told access_denied and gets no token', async () => {
      const person = await newPerson();
      const started = await deviceStarts();
      const refused = await confirm(pair.b, started.user_code, false, person.token);
      assert.equal(refused.statusCode, 200, refused.body);
      assert.deepEqual(refused.json(), { resultado: 'rechazado' });
      const answerToDevice = await pollAtA(started.device_code);
      assert.equal(answerToDevice.status, 400);
      const body = await bodyOf(answerToDevice);
      assert.equal(body.error, 'access_denied');
      assert.equal(body.message, 'Acceso denegado');
      const seen = await answerDevice(pair.a, 'consultar', { codigo: started.user_code }, person.token);
      assert.equal(seen.statusCode, 409, 'the code is spent at A too');
    });

    it(`wrong codes typed alternately at A and B count together: after ${maxWrongDeviceCodesPerPerson}, 429 on both, even for the right code`, async () => {
      const guesser = await newPerson();
      const started = await deviceStarts();
      const address = '192.0.2.40';
      const instances = [pair.a, pair.b];
      for (let i = 0; i < maxWrongDeviceCodesPerPerson; i += 1) {
        const guess = await answerDevice(
          instances[i % 2] ?? pair.a,
          'consultar',
          { codigo: `BBBB-BB${'BCDFGHJKLMNPQRSTVWXZ'[i]}B` },
          guesser.token,
          address,
        );
        assert.equal(guess.statusCode, 404, `guess ${i + 1}: ${guess.body}`);
      }
      for (const instance of instances) {
        const stalled = await confirm(instance, started.user_code, true, guesser.token, address);
        assert.equal(stalled.statusCode, 429, stalled.body);
        assert.equal(stalled.json().code, 'CODE_GUESSES_EXCEEDED');
        assert.match(stalled.json().message, /^Demasiados códigos incorrectos/);
        assert.ok(Number(stalled.headers['retry-after']) > 0);
      }
      assert.equal((await bodyOf(pollAtA(started.device_code))).error, 'authorization_pending');
    });
  });
});
