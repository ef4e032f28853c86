// The scope `roles` seen by a partner app through the real provider flow, openid-client as the relying party: a
// company's supervisor and operator each read their own key in the ID token, userinfo and introspection; a client of
// another app reads `[]`; a role taken away is gone from the very next userinfo, introspection and refresh.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as oidc from 'openid-client';
import { login } from './helpers/app.js';
import { forEachBackend } from './helpers/app.js';
import { call, insertCompany, insertLicence, insertMember, memberPassword } from './helpers/company-fixtures.js';
import {
  codeFlow,
  type OidcTestApi,
  openidClient,
  publicIdOf,
  registerClient,
  startOidcApi,
  TestBrowser,
} from './helpers/oidc.js';

const redirect = 'https://minera.example.com/auth/callback';
const paidApp = 1;
const otherApp = 2;

forEachBackend((backend) => {
  describe('scope roles', () => {
    let api: OidcTestApi;
    let admin: string;
    let client: { clientId: string; clientSecret?: string };
    let otherClient: { clientId: string; clientSecret?: string };
    let companyId: number;
    let manager: string;
    let supervisor: Awaited<ReturnType<typeof insertMember>>;
    let operator: Awaited<ReturnType<typeof insertMember>>;

    const relyingParty = (which = client) =>
      openidClient(api.issuer, which, oidc.ClientSecretBasic(which.clientSecret ?? ''));
    async function signIn(config: oidc.Configuration, person: { email: string }, scope: string) {
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = await login(api.app, person.email, memberPassword);
      return codeFlow(config, browser, redirect, scope);
    }
    const give = (userId: number, roles: string[]) =>
      call(api.app, 'PUT', `/empresas/${companyId}/miembros/${userId}/roles-app/${paidApp}`, manager, { roles });

    before(async () => {
      api = await startOidcApi(backend);
      admin = await login(api.app);
      for (const clave of ['supervisor', 'operador']) {
        const made = await call(api.app, 'POST', `/admin/apps/${paidApp}/roles`, admin, { clave, nombre: clave });
        assert.equal(made.statusCode, 201, made.body);
      }
      const scopes = ['openid', 'profile', 'plan', 'roles', 'offline_access'];
      client = await registerClient(api.app, {
        nombre: 'Control Max 360 (Minera)',
        redirectUris: [redirect],
        primeraParte: true,
        appId: paidApp,
        scopes,
      });
      otherClient = await registerClient(api.app, {
        nombre: 'BetoPro',
        redirectUris: [redirect],
        primeraParte: true,
        appId: otherApp,
        scopes,
      });
      companyId = await insertCompany(api.app, 'Minera Andina S.A.');
      await insertLicence(api.app, companyId, paidApp, 5);
      const boss = await insertMember(api.app, companyId, `jefa-${backend}@minera.test`, 'administrador');
      manager = await boss.token();
      supervisor = await insertMember(api.app, companyId, `supervisora-${backend}@minera.test`, 'miembro');
      operator = await insertMember(api.app, companyId, `operador-${backend}@minera.test`, 'miembro');
      for (const person of [supervisor, operator]) {
        const seat = await call(api.app, 'POST', `/empresas/${companyId}/puestos`, manager, {
          idUsuario: person.id,
          idApp: paidApp,
        });
        assert.equal(seat.statusCode, 201, seat.body);
      }
      assert.equal((await give(supervisor.id, ['supervisor'])).statusCode, 200);
      assert.equal((await give(operator.id, ['operador'])).statusCode, 200);
    });
    after(() => api.close());

    it('discovery offers the scope and the claim', async () => {
      const config = await relyingParty();
      const metadata = config.serverMetadata();
      assert.ok(metadata.scopes_supported?.includes('roles'));
      assert.ok(metadata.claims_supported?.includes('roles'));
    });

    it("each person reads their own key in the ID token, userinfo and introspection; another app's client reads []", async () => {
      const config = await relyingParty();
      for (const [person, key] of [
        [supervisor, 'supervisor'],
        [operator, 'operador'],
      ] as const) {
        const tokens = await signIn(config, person, 'openid roles');
        assert.deepEqual(tokens.claims()?.roles, [key]);
        const info = await oidc.fetchUserInfo(config, tokens.access_token, await publicIdOf(api.app, person.id));
        assert.deepEqual(info.roles, [key]);
        const introspection = await oidc.tokenIntrospection(config, tokens.access_token);
        assert.equal(introspection.active, true);
        assert.deepEqual(introspection.roles, [key]);
      }
      const other = await relyingParty(otherClient);
      const tokens = await signIn(other, supervisor, 'openid roles');
      assert.deepEqual(tokens.claims()?.roles, []);
      const info = await oidc.fetchUserInfo(other, tokens.access_token, await publicIdOf(api.app, supervisor.id));
      assert.deepEqual(info.roles, []);
    });

    it('without the scope there is no roles claim', async () => {
      const config = await relyingParty();
      const tokens = await signIn(config, supervisor, 'openid plan');
      assert.equal(tokens.claims()?.roles, undefined);
      const info = await oidc.fetchUserInfo(config, tokens.access_token, await publicIdOf(api.app, supervisor.id));
      assert.equal(info.roles, undefined);
    });

    it('a role taken away is gone from the next userinfo, introspection and refresh; the default role then applies', async () => {
      const config = await relyingParty();
      const tokens = await signIn(config, operator, 'openid roles offline_access');
      assert.deepEqual(tokens.claims()?.roles, ['operador']);
      const sub = await publicIdOf(api.app, operator.id);
      // Asked twice, so anything kept from the first answer would be reused by the second.
      assert.deepEqual((await oidc.fetchUserInfo(config, tokens.access_token, sub)).roles, ['operador']);
      assert.deepEqual((await oidc.fetchUserInfo(config, tokens.access_token, sub)).roles, ['operador']);
      assert.deepEqual((await oidc.tokenIntrospection(config, tokens.access_token)).roles, ['operador']);

      assert.deepEqual((await give(operator.id, [])).json().roles, []);
      assert.deepEqual((await oidc.fetchUserInfo(config, tokens.access_token, sub)).roles, []);
      assert.deepEqual((await oidc.tokenIntrospection(config, tokens.access_token)).roles, []);
      assert.ok(tokens.refresh_token);
      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token);
      assert.deepEqual(refreshed.claims()?.roles, []);

      // Whoever holds the app and no other role of it has the default one.
      const byDefault = await call(api.app, 'PATCH', `/admin/apps/${paidApp}/roles/operador`, admin, {
        porDefecto: true,
      });
      assert.equal(byDefault.statusCode, 200);
      assert.deepEqual((await oidc.fetchUserInfo(config, tokens.access_token, sub)).roles, ['operador']);
      // The supervisor keeps only the role given.
      const theirs = await signIn(config, supervisor, 'openid roles');
      assert.deepEqual(theirs.claims()?.roles, ['supervisor']);
      // Without a seat the person no longer holds the app: no default role.
      const removed = await call(
        api.app,
        'DELETE',
        `/empresas/${companyId}/puestos/${operator.id}/${paidApp}`,
        manager,
      );
      assert.equal(removed.statusCode, 204);
      await api.app.sessionState.sync();
      const again = await oidc.refreshTokenGrant(config, refreshed.refresh_token ?? tokens.refresh_token);
      assert.deepEqual(again.claims()?.roles, []);
    });
  });
});
