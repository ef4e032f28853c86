// SAML single logout by the person's browser (HTTP-Redirect binding), for the apps that publish no SOAP logout (as
// mod_auth_mellon's own generated metadata): the portal's sign-out answers the address of a chain, which sends the
// browser to each app with a LogoutRequest signed by the key of the portal's metadata; the app's LogoutResponse comes
// back to /saml/idp/slo and is taken only when it answers the open logout of that chain, signed by that app. Forged,
// unsigned, replayed or crossed answers change nothing; the chain only ever goes to registered addresses or /login;
// what no browser completes is shown to the administrator as failed.
import assert from 'node:assert/strict';
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import * as samlify from 'samlify';
import { expireBrowserLogouts, maxChainApps } from '../src/domain/identity-provider/saml/front-logout.js';
import { fillRedirectLogoutAddresses } from '../src/domain/identity-provider/saml/apps.js';
import { auditLog, samlApps, samlLogoutDeliveries, users } from '../src/db/schema.js';
import { adminEmail, adminPassword, buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';
import { insertCompany, insertMember } from './helpers/company-fixtures.js';
import {
  continuationOf,
  logoutResponseQuery,
  type Partner,
  partner,
  portalAsPartnerSees,
  postedForm,
  redirectQuery,
} from './helpers/saml-partner.js';

const rsaSha256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

/** A browser's cookies for the API: the chain's cookie, set at its first hop. */
interface Browser {
  cookie?: string;
}

interface SentRequest {
  browser: Browser;
  /** The address the browser was sent to, without the query. */
  address: string;
  id: string;
  relayState: string;
  nameId: string;
  sessionIndex: string;
  destination: string;
}

forEachBackend((backend) => {
  describe('SAML single logout by the browser (HTTP-Redirect)', () => {
    let test: TestApp;
    let admin: string;
    let idp: samlify.IdentityProviderInstance;
    let calidad: Partner;
    let turnos: Partner;
    let historian: Partner;
    const ids = new Map<Partner, number>();
    let counter = 0;

    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    async function register(app: Partner, nombre: string) {
      const created = await test.app.inject({
        method: 'POST',
        url: '/admin/aplicaciones-saml',
        headers: bearer(admin),
        payload: { nombre, metadata: app.metadata },
      });
      assert.equal(created.statusCode, 201, created.body);
      ids.set(app, created.json<{ id: number }>().id);
    }

    before(async () => {
      test = await buildTestApp(backend, { authRateLimitPerMinute: 10_000 });
      admin = await login(test.app, adminEmail, adminPassword);
      calidad = await partner('calidad', { redirectSloOnly: true });
      turnos = await partner('turnos', { redirectSloOnly: true, keyIndex: 1 });
      historian = await partner('historiador-soap', { keyIndex: 2 });
      await register(calidad, 'Calidad');
      await register(turnos, 'Turnos');
      await register(historian, 'Historiador');
      idp = await portalAsPartnerSees(test.app);
    });
    after(async () => {
      await test.close();
    });

    const api = (url: string) => url.slice(test.app.config.apiPublicUrl.length);

    /** A person of a new company, signed in to the portal. */
    async function person() {
      counter += 1;
      const company = await insertCompany(test.app, `Empresa ${counter}`);
      const member = await insertMember(test.app, company, `persona${counter}@navegador.test`, 'miembro');
      return { ...member, sessionToken: await member.token() };
    }

    /** Signs in to `app` with `token`, answering the consent. */
    async function signIn(app: Partner, token: string) {
      const solicitud = continuationOf(
        await test.app.inject({ method: 'GET', url: `/saml/idp/sso?${redirectQuery(app).query}` }),
        test.app.config.portalUrl,
      );
      const answered = await test.app.inject({
        method: 'POST',
        url: `/saml/idp/solicitudes/${solicitud}/continuar`,
        headers: bearer(token),
        payload: { permitir: true },
      });
      const page = await test.app.inject({
        method: 'GET',
        url: api(answered.json<{ redirectTo: string }>().redirectTo),
      });
      const parsed = await app.sp.parseLoginResponse(idp, 'post', {
        body: { SAMLResponse: postedForm(page.body).samlResponse },
      });
      const extract = parsed.extract as { nameID: string; sessionIndex: { sessionIndex: string } };
      return { nameId: extract.nameID, sessionIndex: extract.sessionIndex.sessionIndex };
    }

    /** The portal's sign-out: the chain's address when apps take their logout through the browser. */
    async function signOut(token: string): Promise<string | null> {
      const response = await test.app.inject({ method: 'POST', url: '/auth/logout', headers: bearer(token) });
      if (response.statusCode === 204) return null;
      assert.equal(response.statusCode, 200, response.body);
      return response.json<{ siguiente: string }>().siguiente;
    }

    /** Follows a hop of the chain: where the browser is sent (303). */
    async function follow(url: string, browser: Browser = {}): Promise<string> {
      const response = await test.app.inject({
        method: 'GET',
        url: url.startsWith('/') ? url : api(url),
        headers: browser.cookie ? { cookie: browser.cookie } : {},
      });
      assert.equal(response.statusCode, 303, response.body);
      const set = /portal_saml_cierre=[^;]*/.exec(String(response.headers['set-cookie'] ?? ''))?.[0];
      if (set) browser.cookie = set;
      return String(response.headers.location);
    }

    /** The LogoutRequest the browser carries, its Redirect signature checked with the portal's published key. */
    function readSent(location: string, browser: Browser = {}): SentRequest {
      const at = location.indexOf('?');
      const query = location.slice(at + 1);
      const raw = new Map(query.split('&').map((pair) => pair.split('=') as [string, string]));
      assert.equal(decodeURIComponent(raw.get('SigAlg') ?? ''), rsaSha256);
      const signed = `SAMLRequest=${raw.get('SAMLRequest')}&RelayState=${raw.get('RelayState')}&SigAlg=${raw.get('SigAlg')}`;
      const key = createPublicKey(test.app.samlIdp.key.certificatePem);
      assert.ok(
        verify(
          'sha256',
          Buffer.from(signed),
          key,
          Buffer.from(decodeURIComponent(raw.get('Signature') ?? ''), 'base64'),
        ),
        'signed by the key of the published metadata',
      );
      const xml = inflateRawSync(Buffer.from(decodeURIComponent(raw.get('SAMLRequest') ?? ''), 'base64')).toString();
      const extracted = samlify.Extractor.extract(xml, [
        ...samlify.Extractor.logoutRequestFields,
        { key: 'request', localPath: ['LogoutRequest'], attributes: ['ID', 'Destination'] },
      ]) as unknown as {
        nameID: string;
        issuer: string;
        sessionIndex: string;
        request: { id: string; destination: string };
      };
      assert.equal(extracted.issuer, `${test.app.config.apiPublicUrl}/saml/idp/metadata`);
      return {
        browser,
        address: location.slice(0, at),
        id: extracted.request.id,
        relayState: decodeURIComponent(raw.get('RelayState') ?? ''),
        nameId: extracted.nameID,
        sessionIndex: extracted.sessionIndex,
        destination: extracted.request.destination,
      };
    }

    /** The app's signed answer, back at the portal's SLO endpoint. */
    const answer = (app: Partner, sent: SentRequest, extra: Partial<Parameters<typeof logoutResponseQuery>[1]> = {}) =>
      test.app.inject({
        method: 'GET',
        headers: sent.browser.cookie ? { cookie: sent.browser.cookie } : {},
        url: `/saml/idp/slo?${logoutResponseQuery(app, {
          inResponseTo: sent.id,
          relayState: sent.relayState,
          destination: `${test.app.config.apiPublicUrl}/saml/idp/slo`,
          signWith: app.privateKeyPem,
          ...extra,
        })}`,
      });

    const appView = async (app: Partner) =>
      (
        await test.app.inject({
          method: 'GET',
          url: `/admin/aplicaciones-saml/${ids.get(app)}`,
          headers: bearer(admin),
        })
      ).json<{
        cierresPendientes: number;
        ultimoErrorCierre: string | null;
        urlCierreSesionNavegador: string | null;
      }>();

    const deliveriesOf = async (app: Partner) =>
      test.app.db
        .select()
        .from(samlLogoutDeliveries)
        .where(eq(samlLogoutDeliveries.samlAppId, ids.get(app) as number));

    const login_ = () => `${test.app.config.portalUrl}/login`;

    /** A person signed in to `apps`, signed out: the chain's first hop. */
    async function chainOf(...apps: Partner[]) {
      const someone = await person();
      const sessions = [];
      for (const app of apps) sessions.push(await signIn(app, someone.sessionToken));
      const chain = await signOut(someone.sessionToken);
      assert.ok(chain, 'the sign-out answers a chain');
      return { someone, sessions, chain, browser: {} as Browser };
    }

    it("keeps the app's Redirect logout address and shows it to the administrator", async () => {
      assert.equal((await appView(calidad)).urlCierreSesionNavegador, 'https://calidad.example.com/mellon/logout');
    });

    it('reads the Redirect logout address of an app registered before the portal kept it, from its metadata', async () => {
      await test.app.db
        .update(samlApps)
        .set({ sloRedirectUrl: null })
        .where(eq(samlApps.id, ids.get(turnos) as number));
      assert.equal((await appView(turnos)).urlCierreSesionNavegador, null);
      assert.equal(await fillRedirectLogoutAddresses(test.app.db), 1);
      assert.equal((await appView(turnos)).urlCierreSesionNavegador, 'https://turnos.example.com/mellon/logout');
      assert.equal(await fillRedirectLogoutAddresses(test.app.db), 0, 'once');
    });

    it('takes the browser to each app with a signed LogoutRequest, takes their signed answers, then to /login', async () => {
      const { sessions, chain, browser } = await chainOf(calidad, turnos, historian);
      assert.ok(chain.startsWith(`${test.app.config.apiPublicUrl}/saml/idp/cierre?cadena=`), chain);

      const first = readSent(await follow(chain, browser), browser);
      assert.equal(first.address, 'https://calidad.example.com/mellon/logout');
      assert.equal(first.destination, first.address);
      assert.equal(first.nameId, sessions[0]?.nameId);
      assert.equal(first.sessionIndex, sessions[0]?.sessionIndex);
      const secret = new URL(chain).searchParams.get('cadena') ?? '';
      assert.notEqual(first.relayState, secret, "the app gets a RelayState of its own, never the chain's secret");
      assert.match(String(browser.cookie), /^portal_saml_cierre=/, 'the first hop binds the chain to this browser');
      const back = await answer(calidad, first);
      assert.equal(back.statusCode, 303, back.body);
      const hop = `${test.app.config.apiPublicUrl}/saml/idp/cierre`;
      assert.equal(back.headers.location, hop, 'back to the chain, from the server, with no secret in the address');

      const second = readSent(await follow(String(back.headers.location), browser), browser);
      assert.equal(second.address, 'https://turnos.example.com/mellon/logout');
      assert.notEqual(second.relayState, first.relayState, 'each app its own RelayState');
      assert.equal(second.sessionIndex, sessions[1]?.sessionIndex);
      const back2 = await answer(turnos, second);
      assert.equal(await follow(String(back2.headers.location), browser), login_(), 'the SOAP app is not in the chain');

      for (const app of [calidad, turnos]) {
        const view = await appView(app);
        assert.equal(view.cierresPendientes, 0);
        assert.equal(view.ultimoErrorCierre, null);
      }
      const soap = (await deliveriesOf(historian)).at(-1);
      assert.equal(soap?.binding, 'soap', 'an app with a SOAP logout keeps the back channel');
      const audited = await test.app.db
        .select({ details: auditLog.details })
        .from(auditLog)
        .where(eq(auditLog.action, 'saml.logout'));
      assert.ok(audited.some((row) => row.details.canal === 'navegador' && row.details.resultado === 'entregado'));
    });

    it('a sign-out with only SOAP apps (or none) answers 204 as before', async () => {
      const someone = await person();
      await signIn(historian, someone.sessionToken);
      assert.equal(await signOut(someone.sessionToken), null);
    });

    it('refuses an unsigned LogoutResponse, and one signed by another key, in Spanish, changing nothing', async () => {
      const { chain, browser } = await chainOf(calidad);
      const sent = readSent(await follow(chain, browser), browser);
      for (const forged of [
        await answer(calidad, sent, { signWith: undefined }),
        await answer(calidad, sent, { signWith: turnos.privateKeyPem }),
        await answer(calidad, sent, { issuer: turnos.entityId, signWith: turnos.privateKeyPem }),
      ]) {
        assert.equal(forged.statusCode, 400);
        assert.match(forged.headers['content-type'] as string, /^text\/html/);
        assert.match(forged.body, /no corresponde a ningún cierre de sesión en curso o su firma no es válida/);
        assert.match(forged.body, /Continuar cerrando sesión/);
      }
      const [delivery] = (await deliveriesOf(calidad)).filter((row) => row.requestId === sent.id);
      assert.equal(delivery?.deliveredAt, null);
      assert.equal(delivery?.failedAt, null);
      // The real answer still goes through.
      assert.equal((await answer(calidad, sent)).statusCode, 303);
    });

    it('refuses a replayed LogoutResponse', async () => {
      const { chain, browser } = await chainOf(calidad);
      const sent = readSent(await follow(chain, browser), browser);
      const query = logoutResponseQuery(calidad, {
        inResponseTo: sent.id,
        relayState: sent.relayState,
        signWith: calidad.privateKeyPem,
      });
      const headers = { cookie: String(browser.cookie) };
      assert.equal((await test.app.inject({ method: 'GET', url: `/saml/idp/slo?${query}`, headers })).statusCode, 303);
      const again = await test.app.inject({ method: 'GET', url: `/saml/idp/slo?${query}`, headers });
      assert.equal(again.statusCode, 400);
      assert.match(again.body, /No se cambió nada/);
    });

    it("refuses an answer to another chain's logout, and an answer carrying another chain's RelayState", async () => {
      const one = await chainOf(calidad);
      const two = await chainOf(calidad);
      const sentOne = readSent(await follow(one.chain, one.browser), one.browser);
      const sentTwo = readSent(await follow(two.chain, two.browser), two.browser);
      // InResponseTo of the other chain's delivery, under this chain's RelayState (signed by the app itself).
      const crossed = await answer(calidad, { ...sentOne, id: sentTwo.id });
      assert.equal(crossed.statusCode, 400);
      // This chain's InResponseTo under the other chain's RelayState.
      const relayed = await answer(calidad, { ...sentOne, relayState: sentTwo.relayState });
      assert.equal(relayed.statusCode, 400);
      const open = (await deliveriesOf(calidad)).filter((row) =>
        [sentOne.id, sentTwo.id].includes(String(row.requestId)),
      );
      assert.equal(open.length, 2);
      assert.ok(
        open.every((row) => row.deliveredAt === null && row.failedAt === null),
        'nothing marked',
      );
    });

    it('never sends the browser anywhere a request names: unknown chains and RelayStates go to /login or nowhere', async () => {
      for (const cadena of ['https://malo.example.com', '//malo.example.com', 'a'.repeat(43), '']) {
        assert.equal(await follow(`/saml/idp/cierre?cadena=${encodeURIComponent(cadena)}`), login_());
      }
      assert.equal(await follow('/saml/idp/cierre'), login_());
      const { chain, browser } = await chainOf(calidad);
      const sent = readSent(await follow(chain, browser), browser);
      const evil = await answer(calidad, { ...sent, relayState: 'https://malo.example.com/robar' });
      assert.equal(evil.statusCode, 400);
      assert.doesNotMatch(evil.body, /malo\.example\.com/);
      assert.match(
        evil.body,
        new RegExp(`href="${test.app.config.apiPublicUrl}/saml/idp/cierre"`),
        "the browser's own chain",
      );
      // An app's own logout (a LogoutRequest) still goes to the portal's /logout, whatever RelayState it carries.
      const own = await test.app.inject({
        method: 'GET',
        url: '/saml/idp/slo?SAMLRequest=abc&RelayState=https%3A%2F%2Fmalo.example.com',
      });
      assert.equal(own.headers.location, `${test.app.config.portalUrl}/logout`);
    });

    it('an app that answers with an error status is shown failed and the chain goes on', async () => {
      const { chain, browser } = await chainOf(calidad, turnos);
      const sent = readSent(await follow(chain, browser), browser);
      const back = await answer(calidad, sent, { status: 'urn:oasis:names:tc:SAML:2.0:status:Responder' });
      assert.equal(back.statusCode, 303);
      const next = readSent(await follow(String(back.headers.location), browser), browser);
      assert.equal(next.address, 'https://turnos.example.com/mellon/logout');
      assert.match(String((await appView(calidad)).ultimoErrorCierre), /estado Responder/);
      await answer(turnos, next);
    });

    it('an app that does not send the browser back is given up when the browser comes back to the chain', async () => {
      const { chain, browser } = await chainOf(calidad, turnos);
      readSent(await follow(chain, browser), browser);
      // The person returns to the chain (Back, or the link) without the app's answer.
      const next = readSent(await follow(chain, browser), browser);
      assert.equal(next.address, 'https://turnos.example.com/mellon/logout');
      assert.match(String((await appView(calidad)).ultimoErrorCierre), /no devolvió el navegador/);
      await answer(turnos, next);
    });

    it(`takes at most ${maxChainApps} apps through one sign-out; the others are shown failed`, async () => {
      const many: Partner[] = [];
      for (let index = 0; index <= maxChainApps; index += 1) {
        const app = await partner(`muchas${index}`, { redirectSloOnly: true, keyIndex: index });
        await register(app, `Muchas ${index}`);
        many.push(app);
      }
      const { chain, browser } = await chainOf(...many);
      let location = await follow(chain, browser);
      let hops = 0;
      while (location !== login_()) {
        const sent = readSent(location, browser);
        const app = many.find((one) => sent.address === `https://${new URL(one.entityId).host}/mellon/logout`);
        assert.ok(app, sent.address);
        location = await follow(String((await answer(app, sent)).headers.location), browser);
        hops += 1;
      }
      assert.equal(hops, maxChainApps);
      // The one left out is whichever the sign-out queued last (the database's order, not the sign-ins').
      const views = await Promise.all(many.map(appView));
      const leftOut = views.filter((view) => view.ultimoErrorCierre !== null);
      assert.equal(leftOut.length, 1);
      assert.match(String(leftOut[0]?.ultimoErrorCierre), new RegExp(`${maxChainApps} aplicaciones como máximo`));
    });

    it('a session ended with no browser (a suspension) shows the logout pending, then failed, without pretending', async () => {
      const someone = await person();
      await signIn(turnos, someone.sessionToken);
      const before = (await appView(turnos)).cierresPendientes;
      await test.app.db.update(users).set({ status: 'suspended' }).where(eq(users.id, someone.id));
      assert.equal((await appView(turnos)).cierresPendientes, before + 1);
      await expireBrowserLogouts(test.app.db, new Date(Date.now() + 2 * 60_000));
      const view = await appView(turnos);
      assert.equal(view.cierresPendientes, 0);
      assert.match(String(view.ultimoErrorCierre), /sin un navegador/);
      const [row] = (await deliveriesOf(turnos)).filter((one) => one.userId === someone.id);
      assert.equal(row?.deliveredAt, null);
      assert.notEqual(row?.failedAt, null);
    });

    it('withdrawing the consent in Mi perfil records the logout a Redirect-only app cannot get from there, then shows it failed', async () => {
      const someone = await person();
      await signIn(calidad, someone.sessionToken);
      const revoked = await test.app.inject({
        method: 'DELETE',
        url: `/auth/aplicaciones/saml-${ids.get(calidad)}`,
        headers: bearer(someone.sessionToken),
      });
      assert.equal(revoked.statusCode, 204, revoked.body);
      const [row] = (await deliveriesOf(calidad)).filter((one) => one.userId === someone.id);
      assert.equal(row?.binding, 'redirect');
      await expireBrowserLogouts(test.app.db, new Date(Date.now() + 2 * 60_000));
      const [failed] = (await deliveriesOf(calidad)).filter((one) => one.userId === someone.id);
      assert.match(String(failed?.lastError), /sin un navegador/);
      assert.notEqual(failed?.failedAt, null);
    });

    it('a chain the browser abandons is shown failed once it expires', async () => {
      const { chain, browser } = await chainOf(calidad);
      readSent(await follow(chain, browser), browser);
      await expireBrowserLogouts(test.app.db, new Date(Date.now() + 6 * 60_000));
      assert.match(String((await appView(calidad)).ultimoErrorCierre), /no devolvió el navegador|no completó/);
      assert.equal(await follow(chain, browser), login_());
    });

    it("an app holding its RelayState, or the chain's first address, reads no other app's logout and answers none", async () => {
      const { chain, browser } = await chainOf(calidad, turnos);
      const sent = readSent(await follow(chain, browser), browser);
      // Calidad, without the person's browser: its RelayState as a chain, and the first address replayed.
      for (const cadena of [sent.relayState, new URL(chain).searchParams.get('cadena') ?? '']) {
        assert.equal(await follow(`/saml/idp/cierre?cadena=${encodeURIComponent(cadena)}`), login_());
      }
      assert.equal(await follow('/saml/idp/cierre'), login_());
      const [turnosRow] = (await deliveriesOf(turnos)).filter((row) => row.chainHash !== null).slice(-1);
      assert.equal(turnosRow?.sentAt, null, "turnos' LogoutRequest was never handed out");
      // Its own answer from outside the browser changes nothing.
      const elsewhere = await answer(calidad, { ...sent, browser: {} });
      assert.equal(elsewhere.statusCode, 400);
      // In the browser, an answer under a RelayState that is not the one calidad was given changes nothing either.
      const crossed = await answer(calidad, { ...sent, relayState: randomBytes(32).toString('base64url') });
      assert.equal(crossed.statusCode, 400);
      const [calidadRow] = (await deliveriesOf(calidad)).filter((row) => row.requestId === sent.id);
      assert.equal(calidadRow?.deliveredAt, null);
      assert.equal(calidadRow?.failedAt, null);
      // The person's browser goes on.
      const back = await answer(calidad, sent);
      assert.equal(back.statusCode, 303);
      const next = readSent(await follow(String(back.headers.location), browser), browser);
      assert.equal(next.address, 'https://turnos.example.com/mellon/logout');
      assert.equal((await answer(turnos, next)).statusCode, 303);
    });
  });
});
