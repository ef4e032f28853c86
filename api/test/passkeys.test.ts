// Passkeys (docs/decisions/0018-passkeys.md): adding one in 'Seguridad', signing in with it alone or as the second step
// of a password sign-in, removing it, and the attacks on each step. The browser and its authenticator are a software
// authenticator (helpers/soft-authenticator.ts, an ES256 key from node:crypto); the API checks everything with
// @simplewebauthn/server. Attackers use plain HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { passkeys, roles, sessions, totpFactors, users, webauthnChallenges } from '../src/db/schema.js';
import { buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';
import { type CeremonyOverrides, SoftAuthenticator } from './helpers/soft-authenticator.js';

type Method = 'GET' | 'POST' | 'DELETE';

interface CeremonyAnswer {
  ceremonyId: string;
  // biome-ignore lint/suspicious/noExplicitAny: the WebAuthn options JSON, read field by field by the tests.
  options: Record<string, any>;
}

const password = 'clave-de-llaves';

const sessionOf = async (app: FastifyInstance, token: string) => {
  const verified = await app.tokens.verify(token);
  assert.ok(verified, 'the token is valid');
  const [row] = await app.db.select().from(sessions).where(eq(sessions.id, verified.sessionId));
  assert.ok(row);
  return row;
};

forEachBackend((backend) => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(backend, {
      adminSecondFactor: 'required',
      loginRateLimitPerMinute: 10_000,
      authRateLimitPerMinute: 10_000,
    });
  });
  after(() => t.close());

  const call = (method: Method, url: string, options: { token?: string; payload?: unknown } = {}) =>
    t.app.inject({
      method,
      url,
      headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
      ...(options.payload === undefined ? {} : { payload: options.payload as object }),
    });
  const authenticator = (settings: { backedUp?: boolean; counting?: boolean } = {}) =>
    new SoftAuthenticator({ rpId: t.app.config.webauthn.rpId, origin: t.app.config.webauthn.origins[0]!, ...settings });
  const newAccount = async (email: string) => {
    const id = await createUser(t.app, { email, password, status: 'active' });
    await t.app.db.update(users).set({ name: 'Ana', lastName: 'Pérez' }).where(eq(users.id, id));
    return { id, email, token: await login(t.app, email, password) };
  };
  const storedPasskeys = (userId: number) => t.app.db.select().from(passkeys).where(eq(passkeys.userId, userId));
  const registrationOptions = async (token: string) => {
    const response = await call('POST', '/auth/passkeys/opciones-registro', { token });
    assert.equal(response.statusCode, 200, response.body);
    return response.json<CeremonyAnswer>();
  };
  /** Adds a passkey through HTTP as the 'Seguridad' tab does; answers the authenticator holding it. */
  const addPasskey = async (token: string, device = authenticator(), name = 'Mi portátil') => {
    const { ceremonyId, options } = await registrationOptions(token);
    const added = await call('POST', '/auth/passkeys', {
      token,
      payload: { ceremonyId, name, response: device.register(options as never) },
    });
    assert.equal(added.statusCode, 201, added.body);
    return device;
  };
  const signInOptions = async (ticket?: string) => {
    const response = await call('POST', '/auth/passkeys/opciones-inicio', {
      payload: ticket === undefined ? {} : { ticket },
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json<CeremonyAnswer>();
  };
  const completeSignIn = (
    ceremony: CeremonyAnswer,
    device: SoftAuthenticator,
    extra: { ticket?: string; overrides?: CeremonyOverrides } = {},
  ) =>
    call('POST', '/auth/passkeys/iniciar-sesion', {
      payload: {
        ceremonyId: ceremony.ceremonyId,
        response: device.assert(ceremony.options as never, extra.overrides),
        ...(extra.ticket === undefined ? {} : { ticket: extra.ticket }),
      },
    });
  const signInWith = async (device: SoftAuthenticator, overrides?: CeremonyOverrides) =>
    completeSignIn(await signInOptions(), device, { overrides });
  const passwordStep = async (email: string) => {
    const response = await call('POST', '/auth/login', { payload: { email, password } });
    assert.equal(response.statusCode, 403, response.body);
    const body = response.json<{ code: string; ticket: string; methods: string[] }>();
    assert.equal(body.code, 'SECOND_FACTOR_REQUIRED');
    return body;
  };
  const assertError = (
    response: Awaited<ReturnType<typeof call>>,
    statusCode: number,
    code: string,
    message?: string,
  ) => {
    assert.equal(response.statusCode, statusCode, response.body);
    assert.equal(response.json().code, code, response.body);
    if (message) assert.equal(response.json().message, message);
  };
  const notVerifiedSignIn = (response: Awaited<ReturnType<typeof call>>) =>
    assertError(response, 401, 'PASSKEY_NOT_VERIFIED', 'No se pudo iniciar sesión con esta llave de acceso');
  const ceremonyGone = 'La solicitud de la llave de acceso expiró o ya se usó. Inténtalo de nuevo';

  describe('adding a passkey', () => {
    it('answers the options for this account, stores the passkey and lists it; the session counts as verified', async () => {
      const account = await newAccount('alta-llave@portal.test');
      const { ceremonyId, options } = await registrationOptions(account.token);
      assert.match(ceremonyId, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(options.rp.id, 'localhost');
      assert.equal(options.rp.name, t.app.config.webauthn.rpName);
      assert.equal(options.user.name, 'alta-llave@portal.test');
      assert.equal(options.user.displayName, 'Ana Pérez');
      assert.equal(Buffer.from(options.user.id, 'base64url').toString(), String(account.id), 'the handle is the id');
      assert.deepEqual(options.authenticatorSelection, {
        residentKey: 'required',
        userVerification: 'required',
        requireResidentKey: true,
      });
      assert.equal(options.attestation, 'none');
      assert.equal(options.timeout, 300_000);
      assert.deepEqual(options.excludeCredentials, []);
      const [stored] = await t.app.db
        .select()
        .from(webauthnChallenges)
        .where(eq(webauthnChallenges.userId, account.id));
      assert.equal(stored?.purpose, 'register');
      assert.equal(stored?.challenge, options.challenge);
      assert.equal(stored?.sessionId, (await t.app.tokens.verify(account.token))?.sessionId);
      assert.notEqual(stored?.id, ceremonyId, 'kept as its SHA-256 only');

      const device = authenticator({ backedUp: true });
      const added = await call('POST', '/auth/passkeys', {
        token: account.token,
        payload: { ceremonyId, name: '  iPhone de Ana  ', response: device.register(options as never) },
      });
      assert.equal(added.statusCode, 201, added.body);
      const passkey = added.json();
      assert.equal(passkey.id, device.credentialId);
      assert.equal(passkey.name, 'iPhone de Ana', 'trimmed');
      assert.equal(passkey.lastUsedAt, null);
      assert.equal(passkey.backedUp, true);
      assert.ok(!Number.isNaN(Date.parse(passkey.createdAt)));

      const list = await call('GET', '/auth/passkeys', { token: account.token });
      assert.equal(list.statusCode, 200);
      assert.deepEqual(list.json(), [passkey]);
      const [row] = await storedPasskeys(account.id);
      assert.equal(row?.publicKey, Buffer.from(device.cosePublicKey()).toString('base64url'));
      assert.deepEqual(row?.transports, ['internal', 'hybrid']);
      assert.equal(row?.deviceType, 'multiDevice');
      assert.equal(row?.counter, 0);
      assert.equal((await sessionOf(t.app, account.token)).secondFactor, true);
      const status = await call('GET', '/auth/seguridad', { token: account.token });
      assert.equal(status.json().passkeys, 1);

      // The next options exclude it, so the authenticator does not make a second one.
      const next = await registrationOptions(account.token);
      assert.deepEqual(next.options.excludeCredentials, [
        { id: device.credentialId, type: 'public-key', transports: ['internal', 'hybrid'] },
      ]);
    });

    it('is for signed-in portal sessions only', async () => {
      for (const [method, url, payload] of [
        ['GET', '/auth/passkeys', undefined],
        ['POST', '/auth/passkeys/opciones-registro', undefined],
        ['POST', '/auth/passkeys', { ceremonyId: 'a'.repeat(43), name: 'x', response: {} }],
        ['DELETE', '/auth/passkeys/abc', undefined],
      ] as const) {
        assert.equal((await call(method, url, { payload })).statusCode, 401, `${method} ${url}`);
      }
    });

    it('refuses a ceremony used twice, and the same credential registered again', async () => {
      const account = await newAccount('dos-veces@portal.test');
      const device = authenticator();
      const { ceremonyId, options } = await registrationOptions(account.token);
      const response = device.register(options as never);
      const payload = { ceremonyId, name: 'Llave', response };
      assert.equal((await call('POST', '/auth/passkeys', { token: account.token, payload })).statusCode, 201);
      const again = await call('POST', '/auth/passkeys', { token: account.token, payload });
      assertError(again, 400, 'PASSKEY_CEREMONY_EXPIRED', ceremonyGone);

      const other = await newAccount('copia@portal.test');
      const fresh = await registrationOptions(other.token);
      const copy = await call('POST', '/auth/passkeys', {
        token: other.token,
        payload: { ceremonyId: fresh.ceremonyId, name: 'Copia', response: device.register(fresh.options as never) },
      });
      assertError(copy, 409, 'PASSKEY_EXISTS', 'Esta llave de acceso ya está registrada');
      assert.equal((await storedPasskeys(other.id)).length, 0);
    });

    it('refuses options asked by one session and completed by another session of the same account', async () => {
      const account = await newAccount('dos-sesiones@portal.test');
      const otherSession = await login(t.app, account.email, password);
      const { ceremonyId, options } = await registrationOptions(account.token);
      const response = await call('POST', '/auth/passkeys', {
        token: otherSession,
        payload: { ceremonyId, name: 'Ajena', response: authenticator().register(options as never) },
      });
      assertError(response, 400, 'PASSKEY_CEREMONY_EXPIRED', ceremonyGone);
      assert.equal((await storedPasskeys(account.id)).length, 0);
      assert.equal((await sessionOf(t.app, otherSession)).secondFactor, false);
    });

    it('refuses an expired registration ceremony', async () => {
      const account = await newAccount('caducada-alta@portal.test');
      const { ceremonyId, options } = await registrationOptions(account.token);
      await t.app.db
        .update(webauthnChallenges)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(webauthnChallenges.userId, account.id));
      const response = await call('POST', '/auth/passkeys', {
        token: account.token,
        payload: { ceremonyId, name: 'Tarde', response: authenticator().register(options as never) },
      });
      assertError(response, 400, 'PASSKEY_CEREMONY_EXPIRED');
      assert.equal((await storedPasskeys(account.id)).length, 0);
    });

    it('refuses an answer from another origin, another challenge, without user verification, or garbage', async () => {
      const account = await newAccount('origen-alta@portal.test');
      const cases: Array<[string, (options: CeremonyAnswer['options']) => unknown]> = [
        ['origin', (options) => authenticator().register(options as never, { origin: 'https://evil.example' })],
        ['challenge', (options) => authenticator().register(options as never, { challenge: 'AAAA' })],
        ['rp id', (options) => authenticator().register(options as never, { rpId: 'evil.example' })],
        ['user verification', (options) => authenticator().register(options as never, { userVerified: false })],
        ['type', (options) => authenticator().register(options as never, { type: 'webauthn.get' })],
        ['garbage', () => ({ id: 5, response: 'x' })],
        ['empty', () => ({})],
        [
          'id not the signed one',
          (options) => ({ ...authenticator().register(options as never), id: 'AAAA', rawId: 'AAAA' }),
        ],
      ];
      for (const [label, answer] of cases) {
        const { ceremonyId, options } = await registrationOptions(account.token);
        const response = await call('POST', '/auth/passkeys', {
          token: account.token,
          payload: { ceremonyId, name: 'Llave', response: answer(options) },
        });
        assertError(response, 400, 'PASSKEY_NOT_VERIFIED', 'No se pudo verificar la llave de acceso');
        assert.ok(label);
      }
      assert.equal((await storedPasskeys(account.id)).length, 0);
      assert.equal((await sessionOf(t.app, account.token)).secondFactor, false);
    });

    it('refuses a name with control characters or over 60 characters, in Spanish, storing nothing', async () => {
      const account = await newAccount('nombre-llave@portal.test');
      for (const [name, message] of [
        ['Mi\u0007llave', "Datos inválidos: 'name' contiene un carácter no admitido"],
        ['x'.repeat(61), "Datos inválidos: 'name' debe tener como máximo 60 caracteres"],
        ['   ', "Datos inválidos: 'name' no es válido"],
      ] as const) {
        const { ceremonyId, options } = await registrationOptions(account.token);
        const response = await call('POST', '/auth/passkeys', {
          token: account.token,
          payload: { ceremonyId, name, response: authenticator().register(options as never) },
        });
        assertError(response, 400, 'VALIDATION_ERROR', message);
      }
      assert.equal((await storedPasskeys(account.id)).length, 0);
    });
  });

  describe('signing in with a passkey', () => {
    it('signs in without a password: the token works and the session proved a second factor', async () => {
      const account = await newAccount('entra-llave@portal.test');
      const device = await addPasskey(account.token);
      const ceremony = await signInOptions();
      assert.deepEqual(ceremony.options.allowCredentials, [], 'discoverable: the authenticator chooses');
      assert.equal(ceremony.options.userVerification, 'required');
      assert.equal(ceremony.options.rpId, 'localhost');
      assert.equal(ceremony.options.timeout, 300_000);
      const [stored] = await t.app.db
        .select()
        .from(webauthnChallenges)
        .where(eq(webauthnChallenges.challenge, ceremony.options.challenge));
      assert.equal(stored?.purpose, 'sign_in');
      assert.equal(stored?.userId, null);

      const response = await completeSignIn(ceremony, device);
      assert.equal(response.statusCode, 200, response.body);
      const { access_token: token, user } = response.json();
      assert.equal(user.email, account.email);
      const me = await call('GET', '/auth/user', { token });
      assert.equal(me.statusCode, 200);
      assert.equal(me.json().email, account.email);
      assert.equal((await sessionOf(t.app, token)).secondFactor, true);
      const [row] = await storedPasskeys(account.id);
      assert.equal(row?.counter, 1);
      assert.ok(row?.lastUsedAt);
      const list = await call('GET', '/auth/passkeys', { token });
      assert.equal(list.json()[0].lastUsedAt, row?.lastUsedAt?.toISOString());
    });

    it('signs in with a synced passkey whose counter stays at zero', async () => {
      const account = await newAccount('sincronizada@portal.test');
      const device = await addPasskey(account.token, authenticator({ backedUp: true, counting: false }));
      assert.equal((await signInWith(device)).statusCode, 200);
      assert.equal((await signInWith(device)).statusCode, 200);
    });

    it('refuses the same assertion replayed', async () => {
      const account = await newAccount('repetida@portal.test');
      const device = await addPasskey(account.token);
      const ceremony = await signInOptions();
      const payload = { ceremonyId: ceremony.ceremonyId, response: device.assert(ceremony.options as never) };
      assert.equal((await call('POST', '/auth/passkeys/iniciar-sesion', { payload })).statusCode, 200);
      const replay = await call('POST', '/auth/passkeys/iniciar-sesion', { payload });
      assertError(replay, 401, 'PASSKEY_CEREMONY_EXPIRED', ceremonyGone);
      // Nor with a new ceremony: its challenge is another one.
      const fresh = await signInOptions();
      notVerifiedSignIn(
        await call('POST', '/auth/passkeys/iniciar-sesion', {
          payload: { ceremonyId: fresh.ceremonyId, response: payload.response },
        }),
      );
    });

    it('refuses an expired sign-in ceremony', async () => {
      const account = await newAccount('caducada@portal.test');
      const device = await addPasskey(account.token);
      const ceremony = await signInOptions();
      await t.app.db
        .update(webauthnChallenges)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(webauthnChallenges.challenge, ceremony.options.challenge));
      assertError(await completeSignIn(ceremony, device), 401, 'PASSKEY_CEREMONY_EXPIRED', ceremonyGone);
    });

    it('refuses an unknown ceremony id', async () => {
      const account = await newAccount('desconocida@portal.test');
      const device = await addPasskey(account.token);
      const ceremony = await signInOptions();
      const response = await completeSignIn({ ...ceremony, ceremonyId: 'b'.repeat(43) }, device);
      assertError(response, 401, 'PASSKEY_CEREMONY_EXPIRED');
    });

    it('refuses an assertion made for another origin', async () => {
      const account = await newAccount('origen@portal.test');
      const device = await addPasskey(account.token);
      notVerifiedSignIn(await signInWith(device, { origin: 'https://evil.example' }));
      notVerifiedSignIn(await signInWith(device, { rpId: 'evil.example' }));
      assert.equal((await storedPasskeys(account.id))[0]?.lastUsedAt, null);
    });

    it('refuses an assertion without user verification', async () => {
      const account = await newAccount('sin-verificar@portal.test');
      const device = await addPasskey(account.token);
      notVerifiedSignIn(await signInWith(device, { userVerified: false }));
    });

    it('refuses a counter that goes back or stays (a cloned authenticator)', async () => {
      const account = await newAccount('contador@portal.test');
      const device = await addPasskey(account.token);
      assert.equal((await signInWith(device, { counter: 5 })).statusCode, 200);
      notVerifiedSignIn(await signInWith(device, { counter: 3 }));
      notVerifiedSignIn(await signInWith(device, { counter: 5 }));
      assert.equal((await storedPasskeys(account.id))[0]?.counter, 5);
      assert.equal((await signInWith(device, { counter: 6 })).statusCode, 200);
    });

    it('refuses a user handle that is not the passkey owner', async () => {
      const account = await newAccount('asa@portal.test');
      const device = await addPasskey(account.token);
      const foreign = Buffer.from(String(account.id + 1)).toString('base64url');
      notVerifiedSignIn(await signInWith(device, { userHandle: foreign }));
      // No handle at all is fine (security keys without one): the signature decides.
      assert.equal((await signInWith(device, { userHandle: null })).statusCode, 200);
    });

    it('refuses a signature by another key under a registered credential id', async () => {
      const account = await newAccount('firma@portal.test');
      const device = await addPasskey(account.token);
      const impostor = authenticator();
      const ceremony = await signInOptions();
      const forged = {
        ...impostor.assert(ceremony.options as never),
        id: device.credentialId,
        rawId: device.credentialId,
      };
      notVerifiedSignIn(
        await call('POST', '/auth/passkeys/iniciar-sesion', {
          payload: { ceremonyId: ceremony.ceremonyId, response: forged },
        }),
      );
    });

    it('refuses an unknown credential and garbage answers without a 500', async () => {
      for (const response of [{}, { id: 'no-existe' }, { id: 5 }, { id: 'x'.repeat(2000) }, { response: null }]) {
        const ceremony = await signInOptions();
        notVerifiedSignIn(
          await call('POST', '/auth/passkeys/iniciar-sesion', {
            payload: { ceremonyId: ceremony.ceremonyId, response },
          }),
        );
      }
      const account = await newAccount('basura@portal.test');
      const device = await addPasskey(account.token);
      for (const broken of [
        { response: 'x' },
        { response: { clientDataJSON: 5 } },
        { response: { clientDataJSON: 'no-es-json', authenticatorData: '', signature: '' } },
        { type: 'otra' },
      ]) {
        const ceremony = await signInOptions();
        const honest = device.assert(ceremony.options as never);
        notVerifiedSignIn(
          await call('POST', '/auth/passkeys/iniciar-sesion', {
            payload: { ceremonyId: ceremony.ceremonyId, response: { ...honest, ...broken } },
          }),
        );
      }
    });

    it('answers 403 USER_SUSPENDED for a suspended account', async () => {
      const account = await newAccount('suspendida-llave@portal.test');
      const device = await addPasskey(account.token);
      await t.app.db.update(users).set({ status: 'suspended' }).where(eq(users.id, account.id));
      assertError(await signInWith(device), 403, 'USER_SUSPENDED', 'Tu cuenta está suspendida. Contacta con soporte.');
    });

    it('a removed passkey no longer signs in', async () => {
      const account = await newAccount('quitada@portal.test');
      const device = await addPasskey(account.token);
      const removed = await call('DELETE', `/auth/passkeys/${device.credentialId}`, { token: account.token });
      assert.equal(removed.statusCode, 204);
      assert.deepEqual((await call('GET', '/auth/passkeys', { token: account.token })).json(), []);
      notVerifiedSignIn(await signInWith(device));
      const again = await call('DELETE', `/auth/passkeys/${device.credentialId}`, { token: account.token });
      assertError(again, 404, 'PASSKEY_NOT_FOUND', 'Llave de acceso no encontrada');
    });
  });

  describe('another account', () => {
    it("cannot delete someone else's passkey", async () => {
      const owner = await newAccount('duena@portal.test');
      const device = await addPasskey(owner.token);
      const intruder = await newAccount('intrusa@portal.test');
      const response = await call('DELETE', `/auth/passkeys/${device.credentialId}`, { token: intruder.token });
      assertError(response, 404, 'PASSKEY_NOT_FOUND', 'Llave de acceso no encontrada');
      assert.equal((await storedPasskeys(owner.id)).length, 1);
    });

    it("cannot use its passkey with a ceremony bound to the first account's ticket", async () => {
      const victim = await newAccount('victima-llave@portal.test');
      await addPasskey(victim.token);
      const attacker = await newAccount('atacante-llave@portal.test');
      const attackerDevice = await addPasskey(attacker.token);
      const { ticket } = await passwordStep(victim.email);
      const ceremony = await signInOptions(ticket);
      notVerifiedSignIn(await completeSignIn(ceremony, attackerDevice, { ticket }));
      // The victim's ticket is not used up by that, and gave no session.
      assert.equal((await call('POST', '/auth/passkeys/opciones-inicio', { payload: { ticket } })).statusCode, 200);
    });
  });

  describe('the second step of a password sign-in', () => {
    it('asks the passkey after the password; the ticket lists exactly that passkey and signs in once', async () => {
      const account = await newAccount('segundo-paso-llave@portal.test');
      const device = await addPasskey(account.token);
      await addPasskey(await newAccount('ajena-paso@portal.test').then((other) => other.token));
      const { ticket, methods } = await passwordStep(account.email);
      assert.deepEqual(methods, ['passkey']);

      const ceremony = await signInOptions(ticket);
      assert.deepEqual(
        ceremony.options.allowCredentials.map((credential: { id: string }) => credential.id),
        [device.credentialId],
      );
      const [stored] = await t.app.db
        .select()
        .from(webauthnChallenges)
        .where(eq(webauthnChallenges.challenge, ceremony.options.challenge));
      assert.equal(stored?.userId, account.id);
      const second = await signInOptions(ticket);

      // Without its ticket, a ceremony bound to an account signs in nobody.
      const bare = await signInOptions(ticket);
      assertError(await completeSignIn(bare, device), 401, 'SIGN_IN_TICKET_EXPIRED');

      const response = await completeSignIn(ceremony, device, { ticket });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal((await sessionOf(t.app, response.json().access_token)).secondFactor, true);

      // The ticket is used up: neither a second ceremony nor new options get anywhere with it.
      assertError(await completeSignIn(second, device, { ticket }), 401, 'SIGN_IN_TICKET_EXPIRED');
      const options = await call('POST', '/auth/passkeys/opciones-inicio', { payload: { ticket } });
      assertError(
        options,
        401,
        'SIGN_IN_TICKET_EXPIRED',
        'El tiempo para confirmar tu identidad terminó. Inicia sesión de nuevo',
      );
    });

    it('refuses options for an unknown ticket', async () => {
      const response = await call('POST', '/auth/passkeys/opciones-inicio', { payload: { ticket: 'c'.repeat(43) } });
      assertError(response, 401, 'SIGN_IN_TICKET_EXPIRED');
    });
  });

  describe('an administrator under ADMIN_SECOND_FACTOR=required', () => {
    const newAdmin = async (email: string) => {
      const account = await newAccount(email);
      await t.app.db.update(users).set({ role: roles.admin }).where(eq(users.id, account.id));
      return account;
    };

    it('cannot delete the last passkey, but can while another passkey remains', async () => {
      const admin = await newAdmin('admin-llaves@portal.test');
      const first = await addPasskey(admin.token);
      const last = await call('DELETE', `/auth/passkeys/${first.credentialId}`, { token: admin.token });
      assertError(
        last,
        409,
        'LAST_SECOND_FACTOR',
        'Un administrador debe conservar un segundo factor: agrega otro antes de quitar este',
      );
      const second = await addPasskey(admin.token, authenticator(), 'Llave de repuesto');
      assert.equal(
        (await call('DELETE', `/auth/passkeys/${first.credentialId}`, { token: admin.token })).statusCode,
        204,
      );
      assertError(
        await call('DELETE', `/auth/passkeys/${second.credentialId}`, { token: admin.token }),
        409,
        'LAST_SECOND_FACTOR',
      );
      assert.equal((await storedPasskeys(admin.id)).length, 1);
    });

    it('can delete the last passkey while a confirmed authenticator app remains', async () => {
      const admin = await newAdmin('admin-totp-llave@portal.test');
      const device = await addPasskey(admin.token);
      await t.app.db
        .insert(totpFactors)
        .values({ userId: admin.id, secret: 'JBSWY3DPEHPK3PXP', confirmedAt: new Date() });
      assert.equal(
        (await call('DELETE', `/auth/passkeys/${device.credentialId}`, { token: admin.token })).statusCode,
        204,
      );
    });

    it('an ordinary account may remove its only passkey', async () => {
      const account = await newAccount('comun-llave@portal.test');
      const device = await addPasskey(account.token);
      assert.equal(
        (await call('DELETE', `/auth/passkeys/${device.credentialId}`, { token: account.token })).statusCode,
        204,
      );
    });
  });
});
