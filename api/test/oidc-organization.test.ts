// The scope `organization` and the `plan` claim from the one plan rule, seen by a partner app through the real
// provider flow with openid-client as the relying party: the companies and roles in the ID token and userinfo, the
// plan of a seat, and the next refresh after the seat is taken back carrying the person's own plan.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { companies, companyLicences, companyMembers, companySeats, plans, userPlans, users } from '../src/db/schema.js';
import { adminEmail, adminPassword, createUser, forEachBackend, login } from './helpers/app.js';
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
const appId = 1;

forEachBackend((backend) => {
  describe('scope organization and the plan of a seat', () => {
    let api: OidcTestApi;
    let client: { clientId: string; clientSecret?: string };
    let person: { id: number; email: string; password: string };
    let company: { id: number; name: string };
    let other: { id: number; name: string };

    /** openid-client configured for the partner app. */
    const relyingParty = () => openidClient(api.issuer, client);

    /** Signs the person in to the partner app with `scope`: the token endpoint's answer. */
    async function signIn(config: oidc.Configuration, scope: string) {
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = await login(api.app, person.email, person.password);
      return codeFlow(config, browser, redirect, scope);
    }

    before(async () => {
      api = await startOidcApi(backend);
      client = await registerClient(api.app, {
        nombre: 'Control Max 360 (Minera)',
        redirectUris: [redirect],
        primeraParte: true,
        appId,
        scopes: ['openid', 'profile', 'email', 'plan', 'organization', 'offline_access'],
      });
      person = { id: 0, email: 'jefa@minera.test', password: 'clave-de-la-jefa-1' };
      person.id = await createUser(api.app, { email: person.email, password: person.password, status: 'active' });
      await api.app.db.update(users).set({ name: 'Rosa', lastName: 'Quispe' }).where(eq(users.id, person.id));
      const free = await api.app.db
        .select({ appId: plans.appId, planId: plans.id })
        .from(plans)
        .where(sql`lower(${plans.nombre}) = 'free'`);
      await api.app.db.insert(userPlans).values(free.map((plan) => ({ userId: person.id, ...plan })));
      const [pro] = await api.app.db
        .select({ id: plans.id })
        .from(plans)
        .where(and(eq(plans.appId, appId), eq(plans.nombre, 'PRO')));
      assert.ok(pro);
      const [made, second] = await api.app.db
        .insert(companies)
        .values([{ name: 'Minera Andina S.A.' }, { name: 'Transportes del Sur' }])
        .returning({ id: companies.id, name: companies.name });
      assert.ok(made && second);
      company = made;
      other = second;
      await api.app.db.insert(companyMembers).values([
        { companyId: company.id, userId: person.id, role: 'administrador' },
        { companyId: other.id, userId: person.id, role: 'miembro' },
      ]);
      await api.app.db.insert(companyLicences).values({
        companyId: company.id,
        appId,
        planId: pro.id,
        seats: 3,
        expiresAt: new Date(Date.now() + 365 * 24 * 60 * 60 * 1000),
      });
      await api.app.db.insert(companySeats).values({ companyId: company.id, userId: person.id, appId });
    });
    after(() => api.close());

    it('the organization claim names each company with its id and the role, in the ID token and userinfo', async () => {
      const config = await relyingParty();
      const tokens = await signIn(config, 'openid organization plan');
      const expected = {
        'Minera Andina S.A.': { id: String(company.id), roles: ['administrador'] },
        'Transportes del Sur': { id: String(other.id), roles: ['miembro'] },
      };
      const idToken = tokens.claims();
      assert.ok(idToken);
      assert.deepEqual(idToken.organization, expected);
      const info = await oidc.fetchUserInfo(config, tokens.access_token, await publicIdOf(api.app, person.id));
      assert.deepEqual(info.organization, expected);
      assert.equal(info.email, undefined, 'email was not asked for');
    });

    it('without the scope there is no organization claim', async () => {
      const config = await relyingParty();
      const tokens = await signIn(config, 'openid plan');
      assert.equal(tokens.claims()?.organization, undefined);
      const info = await oidc.fetchUserInfo(config, tokens.access_token, await publicIdOf(api.app, person.id));
      assert.equal(info.organization, undefined);
    });

    it('the plan claim names the seat; the refresh after the seat is taken back carries the own plan', async () => {
      const config = await relyingParty();
      const tokens = await signIn(config, 'openid plan organization offline_access');
      const seatPlan = tokens.claims()?.plan as { id: number; fechaVencimiento: string } | undefined;
      assert.ok(seatPlan);
      assert.deepEqual(seatPlan, {
        id: seatPlan.id,
        nombre: 'PRO',
        fechaVencimiento: seatPlan.fechaVencimiento,
        origen: 'empresa',
        empresa: { id: company.id, nombre: 'Minera Andina S.A.' },
      });
      assert.ok(tokens.refresh_token);
      // Userinfo answered once (and kept), so the refresh below must not reuse what was kept.
      assert.equal(
        (
          (await oidc.fetchUserInfo(config, tokens.access_token, await publicIdOf(api.app, person.id))).plan as {
            origen: string;
          }
        ).origen,
        'empresa',
      );

      await api.app.db
        .delete(companySeats)
        .where(and(eq(companySeats.companyId, company.id), eq(companySeats.userId, person.id)));
      await api.app.sessionState.sync();

      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token);
      const plan = refreshed.claims()?.plan as { nombre: string; origen: string; empresa: unknown };
      assert.equal(plan.nombre, 'free');
      assert.equal(plan.origen, 'propio');
      assert.equal(plan.empresa, null);
      const info = await oidc.fetchUserInfo(config, refreshed.access_token, await publicIdOf(api.app, person.id));
      assert.equal((info.plan as { origen: string }).origen, 'propio');

      // Leaving the company takes it out of the claim at the next refresh too.
      await api.app.db
        .delete(companyMembers)
        .where(and(eq(companyMembers.companyId, other.id), eq(companyMembers.userId, person.id)));
      await api.app.sessionState.sync();
      assert.ok(refreshed.refresh_token);
      const again = await oidc.refreshTokenGrant(config, refreshed.refresh_token);
      assert.deepEqual(again.claims()?.organization, {
        'Minera Andina S.A.': { id: String(company.id), roles: ['administrador'] },
      });
    });

    it('an administrator registers a client with the scope organization', async () => {
      const admin = await login(api.app, adminEmail, adminPassword);
      const created = await api.app.inject({
        method: 'POST',
        url: '/admin/clientes-oidc',
        headers: { authorization: `Bearer ${admin}` },
        payload: {
          nombre: 'Transportes (panel)',
          redirectUris: ['https://transportes.example.com/callback'],
          scopes: ['openid', 'organization'],
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const { clientId } = created.json<{ clientId: string }>();
      const read = await api.app.inject({
        method: 'GET',
        url: `/admin/clientes-oidc/${clientId}`,
        headers: { authorization: `Bearer ${admin}` },
      });
      assert.deepEqual(read.json<{ scopes: string[] }>().scopes, ['openid', 'organization']);
    });

    it('the consent screen and /perfil describe the scope in Spanish', async () => {
      const { scopeDescriptions } = await import('../src/domain/identity-provider/scopes.js');
      assert.equal(scopeDescriptions.organization, 'Ver las empresas a las que perteneces y tu rol en cada una');
    });
  });
});
