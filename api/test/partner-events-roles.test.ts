// `roles.cambiados`, end to end on the real app: a company's changes to a person's roles in an app and the seat taken
// back each reach the app's subscription once, signed, with the keys the person holds then; the app of another
// catalogue app is not told.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminEmail, adminPassword, type Backend, forEachBackend, login } from './helpers/app.js';
import { call, insertCompany, insertLicence, insertMember, memberPassword } from './helpers/company-fixtures.js';
import { nativeApp, type OidcTestApi, publicIdOf, registerClient, startOidcApi, TestBrowser } from './helpers/oidc.js';
import { type Receiver, startReceiver } from './helpers/webhook-receiver.js';

const paidApp = 1;

forEachBackend((backend: Backend) => {
  describe('roles.cambiados', () => {
    let api: OidcTestApi;
    let admin: string;
    const receivers: Receiver[] = [];

    before(async () => {
      api = await startOidcApi(backend, { oidcBackchannelPrivateNetwork: true, partnerEventsTimeoutMs: 1_000 });
      admin = await login(api.app, adminEmail, adminPassword);
    });
    after(async () => {
      for (const one of receivers) one.stop();
      await api.close();
    });

    const client = (nombre: string, appId: number, scopes: string[]) =>
      registerClient(api.app, {
        nombre,
        redirectUris: ['http://127.0.0.1/callback'],
        publico: true,
        primeraParte: true,
        appId,
        scopes,
      });
    /** A receiver subscribed to `roles.cambiados` of the client. */
    const subscribed = async (clientId: string) => {
      const r = await startReceiver();
      receivers.push(r);
      const answer = await call(api.app, 'POST', `/admin/clientes-oidc/${clientId}/suscripciones`, admin, {
        url: r.url,
        eventos: ['roles.cambiados'],
      });
      assert.equal(answer.statusCode, 201, answer.body);
      await r.control({ secrets: [answer.json().secreto] });
      return r;
    };
    const signInto = async (email: string, clientId: string, scope: string) => {
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = await login(api.app, email, memberPassword);
      const app = await nativeApp(api.issuer, clientId, 'http://127.0.0.1/callback', scope);
      assert.match(await browser.signInTo(app.authorizationUrl, { allow: true }), /code=/);
    };

    it("each change reaches the app once with the person's keys then; other apps are not told", async () => {
      for (const clave of ['supervisor', 'operador']) {
        const made = await call(api.app, 'POST', `/admin/apps/${paidApp}/roles`, admin, { clave, nombre: clave });
        assert.equal(made.statusCode, 201, made.body);
      }
      const withRoles = await client('Control Max (roles)', paidApp, ['openid', 'roles']);
      const otherApp = await client('BetoPro (roles)', 2, ['openid', 'roles']);
      const told = await subscribed(withRoles.clientId);
      const notTheApp = await subscribed(otherApp.clientId);

      const company = await insertCompany(api.app, 'Eventos de roles SA');
      await insertLicence(api.app, company, paidApp, 3);
      const boss = await insertMember(api.app, company, `jefa-roles-${backend}@portal.test`, 'administrador');
      const manager = await boss.token();
      const member = await insertMember(api.app, company, `operadora-${backend}@portal.test`, 'miembro');
      const { email, id: person } = member;
      const seat = await call(api.app, 'POST', `/empresas/${company}/puestos`, manager, {
        idUsuario: person,
        idApp: paidApp,
      });
      assert.equal(seat.statusCode, 201, seat.body);
      await signInto(email, otherApp.clientId, 'openid roles');
      await signInto(email, withRoles.clientId, 'openid roles');

      const give = (roles: string[]) =>
        call(api.app, 'PUT', `/empresas/${company}/miembros/${person}/roles-app/${paidApp}`, manager, { roles });
      // Two roles given in one change: one event.
      assert.equal((await give(['operador', 'supervisor'])).statusCode, 200);
      await api.app.partnerEvents.worker.deliverDue();
      // Sending the same roles again changes nothing: no event.
      assert.equal((await give(['operador', 'supervisor'])).statusCode, 200);
      assert.equal((await give(['operador'])).statusCode, 200);
      await api.app.partnerEvents.worker.deliverDue();
      // The seat taken back takes the roles with it.
      const removed = await call(api.app, 'DELETE', `/empresas/${company}/puestos/${person}/${paidApp}`, manager);
      assert.equal(removed.statusCode, 204);
      await api.app.partnerEvents.worker.deliverDue();

      const sub = await publicIdOf(api.app, person);
      const got = await told.accepted();
      assert.deepEqual(
        got.map((one) => [one.body.type, one.body.data]),
        [
          ['roles.cambiados', { sub, roles: ['operador', 'supervisor'] }],
          ['roles.cambiados', { sub, roles: ['operador'] }],
          ['roles.cambiados', { sub, roles: [] }],
        ],
      );
      for (const one of await told.seen()) assert.equal(one.verified, true);
      assert.deepEqual(await notTheApp.seen(), []);
    });
  });
});
