// One door for every partner app (docs/decisions/0115, 0116, 0117): the OpenID Connect interaction, the SAML request
// and the device approval all pass the same continuation, so a company's rules hold at each. The attacker is a member
// whose session was made inside the company's network, with plain HTTP calls from another address (behind the API's
// trusted proxy); the apps are openid-client, samlify's ServiceProvider and a device polling the token endpoint.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import * as oidc from 'openid-client';
import { auditLog, oidcDeviceGrants, oidcPayloads, samlConsents, samlRequests, sessions } from '../src/db/schema.js';
import { addMember } from '../src/domain/companies/members.js';
import { createUser, forEachBackend, login } from './helpers/app.js';
import { insertCompany, insertMember } from './helpers/company-fixtures.js';
import {
  answerDevice,
  claimsOf,
  deviceGrant,
  type OidcTestApi,
  openidClient,
  registerClient,
  startOidcApi,
  TestBrowser,
} from './helpers/oidc.js';
import { continuationOf, type Partner, partner, postedForm, redirectQuery } from './helpers/saml-partner.js';

type Json = Record<string, unknown>;
const password = 'clave-de-la-persona-1';
const inside = '127.0.0.1';
const outside = '203.0.113.9';
const redirect = 'https://historiador.example.com/callback';
/** A partner app on the redirect allow-list, reached with a partner token (`POST /auth/partner-token`). */
const partnerTarget = 'https://historiador.example.com/inicio';

forEachBackend((backend) => {
  describe(`one door: the company's rules at every partner-app door (${backend})`, () => {
    let api: OidcTestApi;
    let admin: string;
    let people = 0;
    let samlApp: Partner;
    let webClient: { clientId: string; clientSecret?: string };
    let deviceClient: { clientId: string };

    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const call = (
      method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
      url: string,
      token?: string,
      body?: object,
      from = inside,
    ) =>
      api.app.inject({
        method,
        url,
        remoteAddress: from,
        headers: token ? bearer(token) : {},
        ...(body ? { payload: body } : {}),
      });
    const code = (response: LightMyRequestResponse) => response.json<{ code?: string }>().code;

    /** A company whose members may sign in only from 127.0.0.1, and an active member signed in from there. */
    async function companyAndMember(rules: object = { redesPermitidas: ['127.0.0.1/32'] }) {
      people += 1;
      const companyId = await insertCompany(api.app, `Planta ${people} ${backend}`);
      const email = `operaria${people}@planta.test`;
      const userId = await createUser(api.app, { email, password, status: 'active' });
      await addMember(api.app.db, companyId, userId, 'miembro');
      const set = await call('PATCH', `/empresas/${companyId}/ajustes`, admin, rules);
      assert.equal(set.statusCode, 200, set.body);
      const token = await login(api.app, email, password);
      return { companyId, userId, email, token };
    }

    /** The refused sign-ins in the member's company's log: why, and from where. */
    const refusalsOf = async (member: { companyId: number; userId: number }) =>
      (
        await api.app.db
          .select({ details: auditLog.details })
          .from(auditLog)
          .where(
            and(
              eq(auditLog.action, 'auth.sign_in_refused'),
              eq(auditLog.companyId, member.companyId),
              eq(auditLog.targetId, member.userId),
            ),
          )
          .orderBy(auditLog.id)
      ).map(({ details }) => [details.motivo, details.address]);

    /** A SAML request of the partner, waiting at the portal: its continuation id. */
    async function samlRequest() {
      const { query } = redirectQuery(samlApp);
      const started = await api.app.inject({ method: 'GET', url: `/saml/idp/sso?${query}` });
      return continuationOf(started, api.app.config.portalUrl);
    }

    /** The AuthnContextClassRef of the assertion the one-time page posts. */
    async function assertionClass(redirectTo: string): Promise<string | undefined> {
      const page = await api.app.inject({ method: 'GET', url: redirectTo.slice(api.issuer.length) });
      assert.equal(page.statusCode, 200, page.body);
      const xml = Buffer.from(postedForm(page.body).samlResponse, 'base64').toString('utf8');
      return /<saml:AuthnContextClassRef>([^<]*)</.exec(xml)?.[1];
    }

    /** A device asks for a code, as openid-client does; answers its device and user codes. */
    async function deviceAsks(forwardedFor?: string) {
      const started = await fetch(`${api.issuer}/oidc/device/auth`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
        },
        body: new URLSearchParams({ client_id: deviceClient.clientId, scope: 'openid email offline_access' }),
      });
      assert.equal(started.status, 200);
      return (await started.json()) as { device_code: string; user_code: string };
    }

    const token = (body: Record<string, string>, forwardedFor?: string) =>
      fetch(`${api.issuer}/oidc/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
        },
        body: new URLSearchParams({ client_id: deviceClient.clientId, ...body }),
      });
    const userinfo = (accessToken: string) =>
      fetch(`${api.issuer}/oidc/me`, { headers: { authorization: `Bearer ${accessToken}` } });

    /** A device signed in: approved by `person` from inside, its first tokens fetched. */
    async function signedInDevice(person: { token: string }) {
      const asked = await deviceAsks();
      const allowed = await answerDevice(
        api.app,
        'confirmar',
        { codigo: asked.user_code, permitir: true },
        person.token,
      );
      assert.equal(allowed.statusCode, 200, allowed.body);
      const issued = await token({ grant_type: deviceGrant, device_code: asked.device_code });
      assert.equal(issued.status, 200);
      return (await issued.json()) as { access_token: string; refresh_token: string; id_token: string };
    }

    /** An authorization request of the web app, with a fresh state and PKCE (`extra` adds or overrides parameters). */
    const authorizationUrl = async (config: oidc.Configuration, extra: Record<string, string> = {}) =>
      oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirect,
        scope: 'openid email',
        state: oidc.randomState(),
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
        ...extra,
      });

    const refresh = (refreshToken: string, forwardedFor?: string) =>
      token({ grant_type: 'refresh_token', refresh_token: refreshToken }, forwardedFor);

    before(async () => {
      // The API behind a proxy on loopback: an x-forwarded-for it sends is the client's address.
      api = await startOidcApi(backend, {
        trustProxy: ['127.0.0.0/8'],
        redirectAllowList: ['https://historiador.example.com'],
        authRateLimitPerMinute: 100_000,
        loginRateLimitPerMinute: 100_000,
      });
      admin = await login(api.app);
      samlApp = await partner('historiador-puerta');
      const registered = await call('POST', '/admin/aplicaciones-saml', admin, {
        nombre: 'Historiador',
        metadata: samlApp.metadata,
      });
      assert.equal(registered.statusCode, 201, registered.body);
      webClient = await registerClient(api.app, {
        nombre: 'Historiador web',
        redirectUris: [redirect],
        scopes: ['openid', 'email', 'offline_access'],
      });
      deviceClient = await registerClient(api.app, {
        nombre: 'Panel de planta',
        publico: true,
        dispositivos: true,
        primeraParte: true,
        scopes: ['openid', 'email', 'offline_access'],
      });
    });
    after(() => api?.close());

    it('SAML: from another address the continuation is 403 RED_NO_PERMITIDA and nothing is issued; inside it goes on', async () => {
      const member = await companyAndMember();
      const solicitud = await samlRequest();

      const seen = await call('GET', `/saml/idp/solicitudes/${solicitud}`, member.token, undefined, outside);
      assert.equal(seen.statusCode, 403, seen.body);
      assert.equal(code(seen), 'RED_NO_PERMITIDA');
      for (const body of [{ permitir: true }, {}]) {
        const refused = await call('POST', `/saml/idp/solicitudes/${solicitud}/continuar`, member.token, body, outside);
        assert.equal(refused.statusCode, 403, refused.body);
        assert.equal(code(refused), 'RED_NO_PERMITIDA');
        assert.match(refused.json<{ message: string }>().message, /solo permite iniciar sesión desde sus redes/);
      }
      // Nothing was answered, made or remembered: the request still waits, no response, no consent.
      const [waiting] = await api.app.db.select().from(samlRequests).where(eq(samlRequests.id, solicitud));
      assert.equal(waiting?.answeredAt, null);
      assert.equal(waiting?.response, null);
      assert.equal(waiting?.deliveryHash, null);
      const consents = await api.app.db.select().from(samlConsents).where(eq(samlConsents.userId, member.userId));
      assert.equal(consents.length, 0);
      // Each refusal is on record in the company's log, the answer's too (its transaction took nothing back).
      assert.deepEqual(await refusalsOf(member), [
        ['red', outside],
        ['red', outside],
        ['red', outside],
      ]);

      const allowed = await call('POST', `/saml/idp/solicitudes/${solicitud}/continuar`, member.token, {
        permitir: true,
      });
      assert.equal(allowed.statusCode, 200, allowed.body);
      assert.equal(
        await assertionClass(allowed.json<{ redirectTo: string }>().redirectTo),
        'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport',
      );
    });

    it('SAML: a method the company stopped allowing is refused at the door (403 METODO_NO_PERMITIDO)', async () => {
      const member = await companyAndMember({ redesPermitidas: [] });
      // The rule written behind the API's back, so the password session is still open: the door itself refuses.
      await api.app.db.execute(sql`update companies set allowed_methods = '{empresa}' where id = ${member.companyId}`);
      const refused = await call('POST', `/saml/idp/solicitudes/${await samlRequest()}/continuar`, member.token, {
        permitir: true,
      });
      assert.equal(refused.statusCode, 403, refused.body);
      assert.equal(code(refused), 'METODO_NO_PERMITIDO');
      assert.deepEqual(await refusalsOf(member), [['metodo', inside]]);
    });

    it("every door reads 'empresa' as the company's own provider: another company's is refused, its own passes", async () => {
      const member = await companyAndMember({ redesPermitidas: [] });
      const elsewhere = await insertCompany(api.app, `Otra planta ${backend}`);
      // The member's session as a sign-in through a company's provider would have written it.
      const signedInThrough = (companyId: number) =>
        api.app.db.execute(
          sql`update sessions set method = 'empresa', sso_company_id = ${companyId} where user_id = ${member.userId}`,
        );
      await api.app.db.execute(sql`update companies set allowed_methods = '{empresa}' where id = ${member.companyId}`);
      const config = await openidClient(api.issuer, webClient);
      const oidcDoor = async () => {
        const browser = new TestBrowser(api.issuer);
        browser.portalToken = member.token;
        return browser.signInTo((await authorizationUrl(config)).href, { allow: true });
      };
      const doors = async () => {
        const asked = await deviceAsks();
        return [
          await call('POST', `/saml/idp/solicitudes/${await samlRequest()}/continuar`, member.token, {
            permitir: true,
          }),
          await answerDevice(api.app, 'consultar', { codigo: asked.user_code }, member.token),
          await call('POST', '/auth/partner-token', member.token, { redirect_url: partnerTarget }),
        ];
      };

      await signedInThrough(elsewhere);
      for (const refused of await doors()) {
        assert.equal(refused.statusCode, 403, refused.body);
        assert.equal(code(refused), 'METODO_NO_PERMITIDO');
      }
      assert.match(await oidcDoor(), /#403:.*METODO_NO_PERMITIDO/);

      await signedInThrough(member.companyId);
      for (const passed of await doors()) assert.equal(passed.statusCode, 200, passed.body);
      assert.ok((await oidcDoor()).startsWith(redirect));
    });

    it('SAML: the assertion names how the person signed in', async () => {
      const cases: [Json, string][] = [
        [
          { method: 'contrasena', second_factor: false },
          'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport',
        ],
        [{ method: 'contrasena', second_factor: true }, 'https://refeds.org/profile/mfa'],
        [{ method: 'llave', second_factor: false }, 'https://refeds.org/profile/mfa'],
        [{ method: 'google', second_factor: false }, 'https://refeds.org/profile/sfa'],
        [{ method: 'empresa', second_factor: false }, 'https://refeds.org/profile/sfa'],
        [{ method: 'empresa', second_factor: true }, 'https://refeds.org/profile/mfa'],
      ];
      for (const [how, expected] of cases) {
        people += 1;
        const email = `clase${people}@portal.test`;
        await createUser(api.app, { email, password, status: 'active' });
        const signedIn = await login(api.app, email, password);
        await api.app.db.execute(
          sql`update sessions set method = ${how.method}, second_factor = ${how.second_factor} where user_id = (select id from users where email = ${email})`,
        );
        const allowed = await call('POST', `/saml/idp/solicitudes/${await samlRequest()}/continuar`, signedIn, {
          permitir: true,
        });
        assert.equal(allowed.statusCode, 200, allowed.body);
        assert.equal(
          await assertionClass(allowed.json<{ redirectTo: string }>().redirectTo),
          expected,
          JSON.stringify(how),
        );
      }
    });

    it('partner token: the fourth door refuses as the others do, for networks, methods and session limits', async () => {
      const member = await companyAndMember({ redesPermitidas: ['127.0.0.1/32'], sesionMaximaHoras: 8 });
      const mint = (from = inside) =>
        call('POST', '/auth/partner-token', member.token, { redirect_url: partnerTarget }, from);
      /** The SAML and device doors' answers for the same session, from the same address. */
      const doors = async (from = inside) => {
        const asked = await deviceAsks();
        return [
          await call('POST', `/saml/idp/solicitudes/${await samlRequest()}/continuar`, member.token, {}, from),
          await answerDevice(api.app, 'consultar', { codigo: asked.user_code }, member.token, from),
        ];
      };
      const answersAsTheDoors = async (from: string, status: number, errorCode: string) => {
        const minted = await mint(from);
        assert.equal(minted.statusCode, status, minted.body);
        assert.equal(code(minted), errorCode);
        assert.equal(minted.json<Json>().access_token, undefined, 'no token for the partner app');
        for (const door of await doors(from)) assert.deepEqual(minted.json(), door.json());
      };
      assert.equal((await mint()).statusCode, 200, 'inside the network the partner app gets its token');

      // The attacker: the member's own session, from an address outside the company's networks.
      await answersAsTheDoors(outside, 403, 'RED_NO_PERMITIDA');
      // A method the company stopped allowing (written behind the API's back: the session is still open).
      await api.app.db.execute(sql`update companies set allowed_methods = '{empresa}' where id = ${member.companyId}`);
      await answersAsTheDoors(inside, 403, 'METODO_NO_PERMITIDO');
      await api.app.db.execute(
        sql`update companies set allowed_methods = '{contrasena,empresa}' where id = ${member.companyId}`,
      );
      // Past the company's longest session.
      await api.app.db.execute(
        sql`update sessions set created_at = now() - interval '9 hours' where user_id = ${member.userId}`,
      );
      await answersAsTheDoors(inside, 401, 'UNAUTHENTICATED');
    });

    it('OpenID Connect: from another address the interaction is refused, no code; and no silent sign-in from there', async () => {
      const member = await companyAndMember();
      const config = await openidClient(api.issuer, webClient);
      const state = oidc.randomState();
      const verifier = oidc.randomPKCECodeVerifier();
      const authorization = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirect,
        scope: 'openid email',
        state,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = member.token;
      browser.forwardedFor = outside;
      const landed = await browser.signInTo(authorization.href, { allow: true });
      assert.match(landed, /\/autorizar\?interaccion=.*#403:/, landed);
      assert.match(landed, /RED_NO_PERMITIDA/);
      const uid = new URL(landed).searchParams.get('interaccion') ?? '';
      const details = await browser.portalCall(`/oidc/interaccion/${uid}/detalles`);
      assert.equal(details.status, 403);
      assert.equal(((await details.json()) as Json).code, 'RED_NO_PERMITIDA');
      const codes = await api.app.db.select().from(oidcPayloads).where(eq(oidcPayloads.kind, 'AuthorizationCode'));
      assert.equal(codes.filter((row) => row.accountId === String(member.userId)).length, 0, 'no code was made');

      // The same browser inside: the app gets its code.
      browser.forwardedFor = undefined;
      const inside = await browser.signInTo(authorization.href, { allow: true });
      assert.ok(inside.startsWith(redirect), inside);
      const tokens = await oidc.authorizationCodeGrant(config, new URL(inside), {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      assert.deepEqual(tokens.claims()?.amr, ['pwd']);
      assert.equal(tokens.claims()?.acr, 'urn:portal:acr:1');

      // Its provider session is live now; from outside, the app's next sign-in still stops at the portal's door.
      browser.forwardedFor = outside;
      const { url } = await browser.navigate((await authorizationUrl(config)).href);
      assert.ok(url.includes('/autorizar?interaccion='), url);
      const silent = await authorizationUrl(config, { state: 'silencioso', prompt: 'none' });
      const quiet = await browser.navigate(silent.href);
      assert.ok(quiet.url.startsWith(redirect), quiet.url);
      assert.equal(new URL(quiet.url).searchParams.get('error'), 'login_required');
      assert.equal(new URL(quiet.url).searchParams.get('code'), null);
    });

    it('device: an approval from another address, or of a device outside the network, is 403 and the device gets nothing', async () => {
      const member = await companyAndMember();
      const asked = await deviceAsks();
      for (const path of ['consultar', 'confirmar'] as const) {
        const refused = await answerDevice(
          api.app,
          path,
          path === 'consultar' ? { codigo: asked.user_code } : { codigo: asked.user_code, permitir: true },
          member.token,
          outside,
        );
        assert.equal(refused.statusCode, 403, refused.body);
        assert.equal(code(refused), 'RED_NO_PERMITIDA');
      }
      const pending = await token({ grant_type: deviceGrant, device_code: asked.device_code });
      assert.equal(((await pending.json()) as Json).error, 'authorization_pending');

      // A device that asked from outside the network is refused even when a person inside approves it.
      const far = await deviceAsks(outside);
      const refused = await answerDevice(api.app, 'confirmar', { codigo: far.user_code, permitir: true }, member.token);
      assert.equal(refused.statusCode, 403, refused.body);
      assert.equal(code(refused), 'RED_NO_PERMITIDA');
      assert.match(refused.json<{ message: string }>().message, /203\.0\.113\.9/);

      // The first code, approved from inside, still signs the device in.
      const allowed = await answerDevice(
        api.app,
        'confirmar',
        { codigo: asked.user_code, permitir: true },
        member.token,
      );
      assert.equal(allowed.statusCode, 200, allowed.body);
    });

    it("device: its ID token says how the approving session signed in, and it is a session in the person's list", async () => {
      const member = await companyAndMember();
      const tokens = await signedInDevice(member);
      const claims = claimsOf(tokens.id_token);
      assert.deepEqual(claims.amr, ['pwd']);
      assert.equal(claims.acr, 'urn:portal:acr:1');
      const refreshed = await refresh(tokens.refresh_token);
      assert.equal(refreshed.status, 200);
      const again = (await refreshed.json()) as { id_token: string };
      assert.deepEqual(claimsOf(again.id_token).amr, ['pwd']);

      const list = await call('GET', '/auth/sessions', member.token);
      const device = list.json<{ app: string | null; address: string; label: string }[]>().find((s) => s.app !== null);
      assert.equal(device?.app, 'Panel de planta');
      // Named by its app alone: this device's user agent names no system.
      assert.equal(device?.label, 'Panel de planta');
      assert.equal(device?.address, inside);
    });

    it('device: a stricter rule ends its session, and its refresh token and access token with it', async () => {
      const member = await companyAndMember({ redesPermitidas: [] });
      const tokens = await signedInDevice(member);
      assert.equal((await userinfo(tokens.access_token)).status, 200);
      const stricter = await call('PATCH', `/empresas/${member.companyId}/ajustes`, admin, {
        metodosPermitidos: ['empresa'],
      });
      assert.equal(stricter.statusCode, 200, stricter.body);
      assert.equal((await call('GET', '/auth/user', member.token)).statusCode, 401);
      const refused = await refresh(tokens.refresh_token);
      assert.equal(refused.status, 400);
      assert.equal(((await refused.json()) as Json).error, 'invalid_grant');
      assert.equal((await userinfo(tokens.access_token)).status, 401);
      const open = await api.app.db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, member.userId), isNull(sessions.endedAt)));
      assert.equal(open.length, 0, 'no session of the person is left open');
    });

    it('device: a refresh from outside the networks is refused as a session breaking the rules is, and its session ends', async () => {
      const member = await companyAndMember();
      const first = await signedInDevice(member);
      const deviceSession = await api.app.db
        .select({ id: oidcDeviceGrants.portalSessionId })
        .from(oidcDeviceGrants)
        .where(eq(oidcDeviceGrants.userId, member.userId));
      const id = deviceSession[0]?.id ?? '';
      // Inside the network it refreshes, as before.
      const near = await refresh(first.refresh_token);
      assert.equal(near.status, 200);
      const { refresh_token: next, access_token: access } = (await near.json()) as Record<string, string>;

      // The device left: its address as the trusted proxy saw it is outside (the entry it wrote itself is not read).
      const away = await refresh(next ?? '', `${inside}, ${outside}`);
      assert.equal(away.status, 400);
      const refused = (await away.json()) as Json;
      assert.equal(refused.error, 'invalid_grant');
      const [row] = await api.app.db.select().from(sessions).where(eq(sessions.id, id));
      assert.ok(row?.endedAt, 'the device session ended');
      assert.equal(row?.address, outside, 'it ended where it was refused');
      assert.equal((await userinfo(access ?? '')).status, 401);

      // The same refusal a session that broke a rule gets: a device whose person's company changed its methods.
      const other = await companyAndMember({ redesPermitidas: [] });
      const tokens = await signedInDevice(other);
      await call('PATCH', `/empresas/${other.companyId}/ajustes`, admin, { metodosPermitidos: ['empresa'] });
      const stricter = await refresh(tokens.refresh_token);
      assert.equal(stricter.status, 400);
      assert.deepEqual(refused, await stricter.json());
      // And back inside, the ended session's token is gone for good: the device asks a new code.
      assert.equal(((await (await refresh(next ?? '')).json()) as Json).error, 'invalid_grant');
    });

    it('device: the longest session counts from the approval, inactivity from the last use', async () => {
      const member = await companyAndMember({ redesPermitidas: [], sesionMaximaHoras: 8, inactividadMinutos: 30 });
      const first = await signedInDevice(member);
      const deviceSession = async () => {
        const [row] = await api.app.db
          .select({ id: oidcDeviceGrants.portalSessionId })
          .from(oidcDeviceGrants)
          .where(eq(oidcDeviceGrants.userId, member.userId))
          .orderBy(sql`${oidcDeviceGrants.createdAt} desc`)
          .limit(1);
        assert.ok(row);
        return row.id;
      };
      // Used 20 minutes ago: within the limit; the refresh is its last use now.
      const id = await deviceSession();
      await api.app.db.execute(sql`update sessions set last_seen_at = now() - interval '20 minutes' where id = ${id}`);
      const refreshed = await refresh(first.refresh_token);
      assert.equal(refreshed.status, 200);
      const [seen] = await api.app.db.select().from(sessions).where(eq(sessions.id, id));
      assert.ok(seen && Date.now() - seen.lastSeenAt.getTime() < 60_000, 'the refresh is its last use');
      // Unused 31 minutes: refused, and its session ended.
      await api.app.db.execute(sql`update sessions set last_seen_at = now() - interval '31 minutes' where id = ${id}`);
      const idle = await refresh(((await refreshed.json()) as { refresh_token: string }).refresh_token);
      assert.equal(((await idle.json()) as Json).error, 'invalid_grant');
      const [ended] = await api.app.db.select().from(sessions).where(eq(sessions.id, id));
      assert.ok(ended?.endedAt, 'the idle device session ended');

      // Approved 9 hours ago, used a minute ago: past the longest session.
      const second = await signedInDevice(member);
      const old = await deviceSession();
      await api.app.db.execute(
        sql`update sessions set created_at = now() - interval '9 hours', last_seen_at = now() - interval '1 minute' where id = ${old}`,
      );
      const tooOld = await refresh(second.refresh_token);
      assert.equal(((await tooOld.json()) as Json).error, 'invalid_grant');
    });

    it('device: closing its session in the list, a password change or suspension ends it', async () => {
      const member = await companyAndMember({ redesPermitidas: [] });
      const closed = await signedInDevice(member);
      const listed = (await call('GET', '/auth/sessions', member.token)).json<{ id: string; app: string | null }[]>();
      const device = listed.find((session) => session.app !== null);
      assert.ok(device);
      assert.equal((await call('DELETE', `/auth/sessions/${device.id}`, member.token)).statusCode, 204);
      assert.equal(((await (await refresh(closed.refresh_token)).json()) as Json).error, 'invalid_grant');

      const changed = await signedInDevice(member);
      const update = await call('POST', '/auth/update-password', member.token, {
        currentPassword: password,
        newPassword: 'otra-clave-de-la-persona-2',
      });
      assert.equal(update.statusCode, 200, update.body);
      assert.equal(((await (await refresh(changed.refresh_token)).json()) as Json).error, 'invalid_grant');
      const open = await api.app.db
        .select({ id: sessions.id })
        .from(sessions)
        .innerJoin(oidcDeviceGrants, eq(oidcDeviceGrants.portalSessionId, sessions.id))
        .where(and(eq(sessions.userId, member.userId), isNull(sessions.endedAt)));
      assert.equal(open.length, 0, 'the device sessions are ended, not left open');
    });

    it('joining a company that allows only its own sign-in ends the password session that breaks it', async () => {
      // By invitation, accepted with the password session itself.
      const companyId = await insertCompany(api.app, `Solo empresa ${backend}`);
      const owner = await insertMember(api.app, companyId, `duena-solo-empresa-${backend}@planta.test`, 'propietario');
      await api.app.db.execute(sql`update companies set allowed_methods = '{empresa}' where id = ${companyId}`);
      people += 1;
      const email = `invitada${people}@planta.test`;
      await createUser(api.app, { email, password, status: 'active' });
      const session = await login(api.app, email, password);
      const invited = await call('POST', `/empresas/${companyId}/invitaciones`, await owner.token(), {
        email,
        rol: 'miembro',
      });
      assert.equal(invited.statusCode, 201, invited.body);
      const accepted = await call('POST', '/empresas/invitaciones/aceptar', session, {
        idInvitacion: invited.json<{ id: number }>().id,
      });
      assert.equal(accepted.statusCode, 200, accepted.body);
      assert.equal((await call('GET', '/auth/user', session)).statusCode, 401);
      const again = await call('POST', '/auth/login', undefined, { email, password });
      assert.equal(again.statusCode, 403, again.body);
      assert.equal(code(again), 'METODO_NO_PERMITIDO');

      // By the operator's hand (the way a domain join, the directory and an approval write it too).
      people += 1;
      const other = `anadida${people}@planta.test`;
      const userId = await createUser(api.app, { email: other, password, status: 'active' });
      const otherSession = await login(api.app, other, password);
      await api.app.db.execute(
        sql`insert into company_members (company_id, user_id, role, status) values (${companyId}, ${userId}, 'miembro', 'pending_approval')`,
      );
      assert.equal(
        (await call('GET', '/auth/user', otherSession)).statusCode,
        200,
        'waiting for approval binds nothing',
      );
      await api.app.db.execute(
        sql`update company_members set status = 'active' where company_id = ${companyId} and user_id = ${userId}`,
      );
      assert.equal((await call('GET', '/auth/user', otherSession)).statusCode, 401);
    });
  });
});
