// A company's own sign-in against a real OpenID Connect provider (oidc-provider, like Entra ID):
// the account decision, the link that needs both sides, every refusal, and each attack written as a test (the
// attacker makes plain HTTP calls; the victim's browser is an OAuthBrowser with its cookies).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { and, count, eq, sql } from 'drizzle-orm';
import {
  apps,
  auditLog,
  companyIdentities,
  companyIdentityProviders,
  companyLinkReturns,
  companyMembers,
  companyScimUsers,
  companySeats,
  pendingRegistrations,
  sessions,
  signInReturns,
  users,
} from '../src/db/schema.js';
import { addMember } from '../src/domain/companies/members.js';
import { authenticationOf } from '../src/domain/identity-provider/authentication-methods.js';
import { post, registration } from './helpers/accounts.js';
import { buildTestApp, createUser, forEachBackend, login, sessionToken, type TestApp } from './helpers/app.js';
import { insertCompany, insertLicence, insertMember } from './helpers/company-fixtures.js';
import { companySignIn, type Hop, OAuthBrowser } from './helpers/company-sso.js';
import { startIdentityProvider, type IdentityProvider, type TestAccount } from './helpers/identity-provider.js';
import { collectingLogs, textsOf } from './helpers/logs.js';

const apiUrl = 'http://api.portal.test';
const portalUrl = 'http://portal.test';
const partner = 'https://socio.example.com/entrada';
const domainA = 'minera-andina.cl';
const domainB = 'textiles-sur.com';
const secretA = 'secreto-de-minera-andina-que-nadie-debe-leer';
const secretB = 'secreto-de-textiles-sur-que-nadie-debe-leer';
const LINK_INVALID =
  'El enlace con el acceso de tu empresa ha caducado o no es válido. Vuelve a pulsar «Continuar con el acceso de tu empresa».';

let idpA: IdentityProvider;
let idpB: IdentityProvider;
describe('company-sso.test.ts', () => {
  before(async () => {
    const redirectUris = [`${apiUrl}/auth/empresa/callback`];
    idpA = await startIdentityProvider({
      kind: 'company',
      clientId: 'portal-minera',
      clientSecret: secretA,
      redirectUris,
    });
    idpB = await startIdentityProvider({
      kind: 'company',
      clientId: 'portal-textil',
      clientSecret: secretB,
      redirectUris,
    });
  });
  after(async () => {
    await idpA.close();
    await idpB.close();
  });

  /** A person at company A's provider, with an email at its domain nobody else in the suite uses. */
  function person(overrides: Partial<TestAccount> = {}, idp = idpA, domain = domainA): TestAccount {
    const id = randomUUID().slice(0, 8);
    const account = {
      sub: `empleado-${id}`,
      email: `persona-${id}@${domain}`,
      givenName: 'Rosa',
      familyName: 'Huamán',
      ...overrides,
    };
    idp.setAccount(account);
    return account;
  }

  forEachBackend((backend) => {
    let t: TestApp;
    let admin: string;
    let companyA: number;
    let companyB: number;
    const logs = collectingLogs();

    before(async () => {
      t = await buildTestApp(
        backend,
        {
          apiPublicUrl: apiUrl,
          portalUrl,
          redirectAllowList: ['https://socio.example.com'],
          logLevel: 'info',
          authRateLimitPerMinute: 10_000,
          loginRateLimitPerMinute: 10_000,
        },
        { logStream: logs },
      );
      admin = await login(t.app);
      companyA = await insertCompany(t.app, 'Minera Andina');
      companyB = await insertCompany(t.app, 'Textiles Sur');
      for (const [id, idp, clientId, clientSecret, domain] of [
        [companyA, idpA, 'portal-minera', secretA, domainA],
        [companyB, idpB, 'portal-textil', secretB, domainB],
      ] as const) {
        const saved = await t.app.inject({
          method: 'PUT',
          url: `/admin/empresas/${id}/proveedor`,
          headers: { authorization: `Bearer ${admin}` },
          payload: { issuer: idp.issuer, clientId, clientSecret, dominios: [domain], permitirContrasena: true },
        });
        assert.equal(saved.statusCode, 200, saved.body);
      }
    });
    after(() => t.close());

    const browser = () => new OAuthBrowser({ app: t.app, apiUrl, portalUrl });
    const signIn = (who: OAuthBrowser, account: TestAccount, options: Parameters<typeof companySignIn>[4] = {}) =>
      companySignIn(who, apiUrl, account.email, account.sub, options);
    const currentUser = async (token: string) => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/auth/user',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    };
    /** The portal page redeeming a return's code with the tab's secret: the session token. */
    const tokenIn = async (url: URL, who: OAuthBrowser) => {
      assert.equal(url.pathname, '/auth/google/callback', url.href);
      assert.equal(url.searchParams.get('provider'), 'empresa');
      const code = url.searchParams.get('code');
      assert.ok(code, url.href);
      const response = await t.app.inject({
        method: 'POST',
        url: '/auth/social/canjear',
        payload: { code, secret: who.secret },
      });
      assert.equal(response.statusCode, 200, response.body);
      return response.json().access_token as string;
    };
    const signedIn = async (account: TestAccount) => {
      const who = browser();
      return tokenIn(await signIn(who, account), who);
    };
    const refusedWith = (url: URL, error: string) => {
      assert.equal(url.pathname, '/login', url.href);
      assert.equal(url.searchParams.get('error'), error, url.href);
      assert.equal(url.searchParams.get('provider'), 'empresa');
      assert.equal(url.searchParams.get('code'), null);
    };
    const usersWithEmail = async (email: string) => t.app.db.select().from(users).where(eq(users.email, email));
    const auditCount = async () => (await t.app.db.select({ n: count() }).from(auditLog))[0]?.n ?? 0;
    const written = async () => ({
      audit: await auditCount(),
      returns: (await t.app.db.select({ n: count() }).from(signInReturns))[0]?.n,
      links: (await t.app.db.select({ n: count() }).from(companyLinkReturns))[0]?.n,
      identities: (await t.app.db.select({ n: count() }).from(companyIdentities))[0]?.n,
      users: (await t.app.db.select({ n: count() }).from(users))[0]?.n,
    });
    const membership = async (companyId: number, userId: number) =>
      (
        await t.app.db
          .select()
          .from(companyMembers)
          .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)))
      )[0];
    const link = (token: string | undefined, codigo: string, secreto: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/empresa/vincular',
        headers: token ? { authorization: `Bearer ${token}` } : {},
        payload: { codigo, secreto },
      });
    const setAllowPassword = async (companyId: number, allow: boolean) =>
      t.app.db
        .update(companyIdentityProviders)
        .set({ allowPassword: allow })
        .where(eq(companyIdentityProviders.companyId, companyId));

    /**
     * The database statements `work` sends through the app's connection (drizzle's client). The suite's wait for the
     * channel before each request (helpers/app.ts) is the test's, not the route's: it is left out.
     */
    const queriesOf = async (work: () => Promise<void>) => {
      await t.app.sessionState.sync();
      const client = (t.app.db as unknown as { session: { client: { query: (...args: unknown[]) => unknown } } })
        .session.client;
      const original = client.query;
      const state = t.app.sessionState as { sync: () => Promise<void> };
      const sync = state.sync;
      let queries = 0;
      // The instance's background work (the outbox, the logouts' and the partner events' rounds) shares the pool:
      // its statements are not the request's.
      const background = /mail_outbox|oidc_logout_deliveries|partner_(events|subscriptions|deliveries)|pg_try_advisory/;
      client.query = function counted(this: unknown, ...args: unknown[]) {
        const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: unknown } | null)?.text ?? '');
        if (!background.test(text)) queries += 1;
        return original.apply(this, args);
      };
      state.sync = async () => {};
      try {
        await work();
      } finally {
        client.query = original;
        state.sync = sync;
      }
      return queries;
    };

    describe('the account decision', () => {
      it('a new person (no email_verified claim, as Entra ID) gets a new active account, joins as miembro and is audited', async () => {
        const someone = person();
        const who = browser();
        const end = await signIn(who, someone, { redirectUrl: partner });
        assert.equal(end.searchParams.get('redirect_url'), partner);
        const user = await currentUser(await tokenIn(end, who));
        assert.equal(user.email, someone.email);
        assert.equal(user.status, 'active');
        assert.equal(user.name, 'Rosa');
        assert.equal(user.lastName, 'Huamán');
        assert.ok(user.planesUsuarios.length > 0, 'the free plans');
        assert.deepEqual(
          user.empresas.map((c: { id: number; rol: string }) => [c.id, c.rol]),
          [[companyA, 'miembro']],
        );
        assert.equal((await membership(companyA, user.id))?.status, 'active');
        const entries = await t.app.db.select().from(auditLog).where(eq(auditLog.companyId, companyA));
        const mine = entries.filter((entry) => (entry.details as { userId?: number }).userId === user.id);
        assert.deepEqual(mine.map((entry) => entry.action).sort(), [
          'company.identity_link',
          'company.member_add',
          'company.sign_in',
        ]);
        for (const entry of mine) assert.equal((entry.details as { fuente?: string }).fuente, 'proveedor');
        const [row] = await t.app.db
          .select({ lastSignInAt: companyIdentityProviders.lastSignInAt })
          .from(companyIdentityProviders)
          .where(eq(companyIdentityProviders.companyId, companyA));
        assert.ok(row?.lastSignInAt, 'last_sign_in_at set');
      });

      it('the start goes to the provider with PKCE S256, state, nonce, the scope, login_hint and a sealed cookie', async () => {
        const someone = person();
        const who = browser();
        const response = await t.app.inject({
          method: 'GET',
          url: `/auth/empresa?email=${encodeURIComponent(someone.email)}&binding=${who.binding}`,
        });
        assert.equal(response.statusCode, 302);
        const location = new URL(response.headers.location as string);
        assert.equal(location.origin, idpA.issuer);
        for (const name of ['state', 'nonce', 'code_challenge']) assert.ok(location.searchParams.get(name), name);
        assert.equal(location.searchParams.get('code_challenge_method'), 'S256');
        assert.equal(location.searchParams.get('scope'), 'openid email profile');
        assert.equal(location.searchParams.get('login_hint'), someone.email);
        assert.equal(location.searchParams.get('redirect_uri'), `${apiUrl}/auth/empresa/callback`);
        const cookie = String(response.headers['set-cookie']);
        assert.match(cookie, /^portal_oauth_empresa=/);
        for (const attribute of ['HttpOnly', 'Path=/auth', 'Max-Age=600', 'SameSite=Lax'])
          assert.ok(cookie.includes(attribute), `${attribute} in ${cookie}`);
      });

      it('the same person again gets the same account, also after their email changed at the provider', async () => {
        const someone = person();
        const first = await currentUser(await signedIn(someone));
        const renamed = { ...someone, email: `renombrada-${someone.email}` };
        idpA.setAccount(renamed);
        const again = await currentUser(await signedIn(renamed));
        assert.equal(again.id, first.id);
        assert.equal((await usersWithEmail(renamed.email)).length, 0);
      });

      it("an address with its domain's final dot is the same account: the link step for one with a password", async () => {
        const someone = person();
        await createUser(t.app, { email: someone.email, password: 'clave-propia-1', status: 'active' });
        const dotted = { ...someone, email: `${someone.email}.` };
        idpA.setAccount(dotted);
        const end = await signIn(browser(), dotted);
        assert.equal(end.pathname, '/login', end.href);
        assert.ok(end.searchParams.get('vincular'), end.href);
        assert.equal((await usersWithEmail(dotted.email)).length, 0);
        // Without a password of its own, the account is linked and signed in.
        const linked = person();
        const id = (await currentUser(await signedIn(linked))).id;
        const again = { ...linked, sub: `${linked.sub}-otro`, email: `${linked.email.toUpperCase()}.` };
        idpA.setAccount(again);
        assert.equal((await currentUser(await signedIn(again))).id, id);
      });

      it('email_verified explicitly false → company_email_unverified, nothing created', async () => {
        const someone = person({ emailVerified: false });
        const before = await written();
        refusedWith(await signIn(browser(), someone), 'company_email_unverified');
        assert.equal((await usersWithEmail(someone.email)).length, 0);
        assert.deepEqual(await written(), before);
        // email_verified true is accepted too.
        assert.ok(await signedIn(person({ emailVerified: true })));
      });

      it('an email at a domain the connection does not answer for → company_domain_mismatch, no account', async () => {
        const outsider = person({}, idpA, 'otra-empresa.com');
        // The start is by an email of the company's domain; the provider answers for someone else.
        const before = await written();
        const end = await companySignIn(browser(), apiUrl, `alguien@${domainA}`, outsider.sub);
        refusedWith(end, 'company_domain_mismatch');
        assert.equal((await usersWithEmail(outsider.email)).length, 0);
        assert.deepEqual(await written(), before);
        // Another company's domain, the same.
        const neighbour = person({}, idpA, domainB);
        refusedWith(
          await companySignIn(browser(), apiUrl, `alguien@${domainA}`, neighbour.sub),
          'company_domain_mismatch',
        );
        assert.equal((await usersWithEmail(neighbour.email)).length, 0);
      });

      it('an account linked to ANOTHER company, or provisioned by its directory → company_other_account, nothing changed', async () => {
        const someone = person();
        const id = await createUser(t.app, { email: someone.email, password: 'clave-propia-1', status: 'active' });
        await t.app.db
          .insert(companyIdentities)
          .values({ companyId: companyB, subject: 'sujeto-en-b', userId: id, email: someone.email });
        const before = await written();
        refusedWith(await signIn(browser(), someone), 'company_other_account');
        assert.deepEqual(await written(), before);
        assert.equal(await membership(companyA, id), undefined);

        const other = person();
        const otherId = await createUser(t.app, { email: other.email, password: 'clave-propia-1', status: 'active' });
        await t.app.db.insert(companyScimUsers).values({ companyId: companyB, userId: otherId, userName: other.email });
        refusedWith(await signIn(browser(), other), 'company_other_account');
        assert.equal(await membership(companyA, otherId), undefined);
      });

      it("company_access_disabled: this company's directory set the person inactive, or the account is suspended", async () => {
        const someone = person();
        const first = await currentUser(await signedIn(someone));
        await t.app.db
          .insert(companyScimUsers)
          .values({ companyId: companyA, userId: first.id, userName: someone.email, active: false });
        const before = await written();
        refusedWith(await signIn(browser(), someone), 'company_access_disabled');
        assert.deepEqual(await written(), before);

        const suspended = person();
        await createUser(t.app, { email: suspended.email, password: 'clave-propia-1', status: 'suspended' });
        refusedWith(await signIn(browser(), suspended), 'company_access_disabled');
      });

      it('an account waiting for its code is activated and its pending registration dropped', async () => {
        const someone = person();
        const registered = await post(
          t.app,
          '/auth/register',
          registration(someone.email, { password: 'clave-de-otro-1' }),
        );
        assert.equal(registered.statusCode, 201, registered.body);
        const [pending] = await usersWithEmail(someone.email);
        assert.equal(pending?.status, 'pending_verification');
        const user = await currentUser(await signedIn(someone));
        assert.equal(user.id, pending?.id);
        assert.equal(user.status, 'active');
        assert.equal(user.name, 'Rosa', "the provider's name, not the registrant's");
        assert.equal(
          (await t.app.db.select().from(pendingRegistrations).where(eq(pendingRegistrations.userId, user.id))).length,
          0,
        );
        const login = await post(t.app, '/auth/login', { email: someone.email, password: 'clave-de-otro-1' });
        assert.equal(login.statusCode, 401, 'the registrant’s password is gone');
        assert.equal((await membership(companyA, user.id))?.role, 'miembro');
      });

      it('an account with no credential of its own is linked at once; a waiting membership becomes active, a role is kept', async () => {
        const someone = person();
        const [row] = await t.app.db
          .insert(users)
          .values({ email: someone.email, status: 'active', name: 'Sin', lastName: 'Clave' })
          .returning({ id: users.id });
        await t.app.db
          .insert(companyMembers)
          .values({ companyId: companyA, userId: row!.id, role: 'miembro', status: 'pending_approval' });
        const user = await currentUser(await signedIn(someone));
        assert.equal(user.id, row?.id);
        assert.equal((await membership(companyA, user.id))?.status, 'active');

        const owner = await insertMember(
          t.app,
          companyA,
          `dueña-${randomUUID().slice(0, 6)}@${domainA}`,
          'propietario',
        );
        const ownerAccount = person({ email: owner.email });
        // The owner has a password: the link needs both sides, then the role stays.
        const who = browser();
        const end = await signIn(who, ownerAccount);
        const code = end.searchParams.get('vincular');
        assert.ok(code);
        assert.equal((await link(await owner.token(), code, who.secret)).statusCode, 200);
        assert.equal((await membership(companyA, owner.id))?.role, 'propietario');
      });

      it("the company's seat shows in GET /auth/user's plans after a company sign-in", async () => {
        const someone = person();
        const first = await currentUser(await signedIn(someone));
        const [app] = await t.app.db.select({ id: apps.id }).from(apps).orderBy(apps.id).limit(1);
        assert.ok(app);
        await insertLicence(t.app, companyA, app.id, 5).catch(() => {});
        await t.app.db.insert(companySeats).values({ companyId: companyA, userId: first.id, appId: app.id });
        const user = await currentUser(await signedIn(someone));
        const seat = user.planesUsuarios.find((plan: { app: { id: number } }) => plan.app.id === app.id);
        assert.equal(seat?.origen, 'empresa');
        assert.deepEqual(seat?.empresa, { id: companyA, nombre: 'Minera Andina' });
      });

      it("the provider's own second factor (amr mfa, otp, hwk, swk) counts only once the company trusts it", async () => {
        /** How the portal session of a company sign-in counts, as the apps' ID tokens and 'Seguridad' read it. */
        const signedInAs = async (account: TestAccount) => {
          const token = await signedIn(account);
          const verified = await t.app.tokens.verify(token, ['session'], { fresh: true });
          assert.ok(verified);
          const security = await t.app.inject({
            method: 'GET',
            url: '/auth/seguridad',
            headers: { authorization: `Bearer ${token}` },
          });
          return { ...authenticationOf(verified), verified: security.json().sessionVerified };
        };
        const settings = (payload: object) =>
          t.app.inject({
            method: 'PATCH',
            url: `/empresas/${companyA}/ajustes`,
            headers: { authorization: `Bearer ${admin}` },
            payload,
          });
        const one = { amr: ['fed'], acr: 'urn:portal:acr:1', verified: false };
        const two = { amr: ['fed', 'mfa'], acr: 'urn:portal:acr:2', verified: true };
        const withMfa = person({ amr: ['pwd', 'mfa'] });
        // By default the company's word is not taken: one factor, as before.
        assert.deepEqual(await signedInAs(withMfa), one);
        const trusted = await settings({ confiarSegundoFactorDelProveedor: true });
        assert.equal(trusted.statusCode, 200, trusted.body);
        assert.equal(trusted.json().confiarSegundoFactorDelProveedor, true);
        for (const amr of [['pwd', 'mfa'], ['otp'], ['hwk'], ['swk', 'pwd']])
          assert.deepEqual(await signedInAs(person({ amr })), two, amr.join(' '));
        // A provider that says a password only (or nothing) proves no second factor, trusted or not.
        assert.deepEqual(await signedInAs(person({ amr: ['pwd'] })), one);
        assert.deepEqual(await signedInAs(person()), one);
        // Trust withdrawn: the same person is back to one factor.
        assert.equal((await settings({ confiarSegundoFactorDelProveedor: false })).statusCode, 200);
        assert.deepEqual(await signedInAs(withMfa), one);
      });
    });

    describe("'only our own sign-in' (metodosPermitidos ['empresa'])", () => {
      it("means this company's provider: a guest signed in through another company's is refused at its doors, its own people pass", async () => {
        const everyMethod = '{contrasena,google,apple,llave,empresa}';
        const ownOnly = (ids: number[]) =>
          t.app.db.execute(
            sql`update companies set allowed_methods = '{empresa}' where id in (${sql.join(ids, sql`, `)})`,
          );
        const partnerToken = (token: string) =>
          t.app.inject({
            method: 'POST',
            url: '/auth/partner-token',
            headers: { authorization: `Bearer ${token}` },
            payload: { redirect_url: partner },
          });
        const sessionOf = async (token: string) => {
          const verified = await t.app.tokens.verify(token, ['session'], { fresh: true });
          assert.ok(verified);
          const [row] = await t.app.db.select().from(sessions).where(eq(sessions.id, verified.sessionId));
          return row;
        };
        // A person of Textiles Sur, a guest (an administrator) of Minera Andina too; and one of Minera Andina's own.
        const guest = person({}, idpB, domainB);
        const guestToken = await signedIn(guest);
        const guestId = (await usersWithEmail(guest.email))[0]?.id ?? 0;
        await addMember(t.app.db, companyA, guestId, 'administrador');
        const ownToken = await signedIn(person());
        assert.equal((await sessionOf(guestToken))?.ssoCompanyId, companyB, 'the session records whose provider');
        assert.equal((await sessionOf(ownToken))?.ssoCompanyId, companyA);
        // The panel warns this administrator before a methods rule: their sign-in is another company's.
        const read = await t.app.inject({
          method: 'GET',
          url: `/empresas/${companyA}`,
          headers: { authorization: `Bearer ${guestToken}` },
        });
        assert.deepEqual(read.json().tuAcceso, { direccion: '127.0.0.1', metodo: 'empresa', deOtraEmpresa: true });
        try {
          // Minera Andina allows only its own sign-in (written behind the API's back: both sessions are still open).
          await ownOnly([companyA]);
          const refused = await partnerToken(guestToken);
          assert.equal(refused.statusCode, 403, refused.body);
          assert.deepEqual(refused.json(), {
            statusCode: 403,
            code: 'METODO_NO_PERMITIDO',
            message:
              'La empresa «Minera Andina» no permite iniciar sesión con el inicio de sesión de otra empresa: usa el inicio de sesión de la empresa',
          });
          assert.equal((await partnerToken(ownToken)).statusCode, 200, 'its own provider passes');
          // Both companies allowing only their own: the guest meets Minera Andina's rule with neither provider.
          await ownOnly([companyA, companyB]);
          assert.equal((await partnerToken(guestToken)).json().code, 'METODO_NO_PERMITIDO');
          await t.app.db.execute(sql`update companies set allowed_methods = ${everyMethod} where id = ${companyB}`);

          // A new sign-in through Textiles Sur's provider is refused as the session would start.
          const who = browser();
          const url = await signIn(who, guest);
          const redeemed = await t.app.inject({
            method: 'POST',
            url: '/auth/social/canjear',
            payload: { code: url.searchParams.get('code'), secret: who.secret },
          });
          assert.equal(redeemed.statusCode, 403, redeemed.body);
          assert.equal(redeemed.json().code, 'METODO_NO_PERMITIDO');

          // The rule set through the API ends the guest's open session and keeps the company's own.
          await t.app.db.execute(sql`update companies set allowed_methods = ${everyMethod} where id = ${companyA}`);
          const set = await t.app.inject({
            method: 'PATCH',
            url: `/empresas/${companyA}/ajustes`,
            headers: { authorization: `Bearer ${admin}` },
            payload: { metodosPermitidos: ['empresa'] },
          });
          assert.equal(set.statusCode, 200, set.body);
          const userStatus = async (token: string) =>
            (
              await t.app.inject({
                method: 'GET',
                url: '/auth/user',
                headers: { authorization: `Bearer ${token}` },
              })
            ).statusCode;
          assert.equal(await userStatus(ownToken), 200, "its own provider's session stays open");
          assert.equal(await userStatus(guestToken), 401, "the guest's ended");
        } finally {
          await t.app.db.execute(
            sql`update companies set allowed_methods = ${everyMethod} where id in (${companyA}, ${companyB})`,
          );
        }
      });
    });

    describe('an existing account with a password: proof of both sides', () => {
      let victim: { id: number; email: string; token: () => Promise<string> };
      let account: TestAccount;
      beforeEach(async () => {
        const email = `cuenta-${randomUUID().slice(0, 8)}@${domainA}`;
        const id = await createUser(t.app, { email, password: 'clave-propia-1', status: 'active' });
        const token = async () => sessionToken(t.app, (await usersWithEmail(email))[0]!);
        victim = { id, email, token };
        account = person({ email });
      });

      /** A company sign-in that found the account: no session, the link's code and the tab that started. */
      const waitingLink = async () => {
        const who = browser();
        const before = (await t.app.db.select({ n: count() }).from(signInReturns))[0]?.n;
        const end = await signIn(who, account, { redirectUrl: partner });
        assert.equal(end.pathname, '/login');
        assert.equal(end.searchParams.get('empresa'), 'Minera Andina');
        assert.equal(end.searchParams.get('email'), account.email);
        assert.equal(end.searchParams.get('redirect_url'), partner);
        assert.equal(end.searchParams.get('code'), null, 'no session code');
        assert.equal((await t.app.db.select({ n: count() }).from(signInReturns))[0]?.n, before, 'no return issued');
        const code = end.searchParams.get('vincular');
        assert.ok(code && code.length >= 43);
        assert.equal(
          (await t.app.db.select().from(companyIdentities).where(eq(companyIdentities.userId, victim.id))).length,
          0,
          'not linked yet',
        );
        return { code, who };
      };

      it("the attacker's session, a wrong secret, no session, or a second use → 400 VINCULO_INVALIDO; each attempt spends the code", async () => {
        const attacker = await insertMember(
          t.app,
          companyB,
          `atacante-${randomUUID().slice(0, 6)}@${domainB}`,
          'miembro',
        );
        const attackerToken = await attacker.token();
        const victimToken = await victim.token();
        const invalid = (response: { statusCode: number; json(): { code?: string; message?: string } }) => {
          assert.equal(response.statusCode, 400);
          assert.equal(response.json().code, 'VINCULO_INVALIDO');
          assert.equal(response.json().message, LINK_INVALID);
        };

        // The attacker with the right secret (they started the tab) but their own session.
        const first = await waitingLink();
        invalid(await link(attackerToken, first.code, first.who.secret));
        invalid(await link(victimToken, first.code, first.who.secret));

        // The victim's session with another tab's secret.
        const second = await waitingLink();
        invalid(await link(victimToken, second.code, browser().secret));
        invalid(await link(victimToken, second.code, second.who.secret));

        // Without a session at all: 401, and the code stays unspent for its owner.
        const third = await waitingLink();
        assert.equal((await link(undefined, third.code, third.who.secret)).statusCode, 401);

        // The right account with the right tab: linked; a second use of the code is refused.
        const done = await link(victimToken, third.code, third.who.secret);
        assert.equal(done.statusCode, 200, done.body);
        assert.deepEqual(done.json(), { empresa: { id: companyA, nombre: 'Minera Andina' } });
        invalid(await link(victimToken, third.code, third.who.secret));
        assert.equal((await membership(companyA, victim.id))?.status, 'active');
        assert.equal(await membership(companyB, victim.id), undefined);
        const actions = (await t.app.db.select().from(auditLog).where(eq(auditLog.companyId, companyA)))
          .filter((entry) => (entry.details as { userId?: number }).userId === victim.id)
          .map((entry) => entry.action)
          .sort();
        assert.deepEqual(actions, ['company.identity_link', 'company.member_add']);

        // From now on the company sign-in gives a session of that account, which keeps its password.
        const user = await currentUser(await signedIn(account));
        assert.equal(user.id, victim.id);
        assert.equal(
          (await post(t.app, '/auth/login', { email: victim.email, password: 'clave-propia-1' })).statusCode,
          200,
        );
      });

      it('an expired link is refused', async () => {
        const { code, who } = await waitingLink();
        await t.app.db.update(companyLinkReturns).set({ expiresAt: sql`now() - interval '1 second'` });
        const response = await link(await victim.token(), code, who.secret);
        assert.equal(response.statusCode, 400);
        assert.equal(response.json().code, 'VINCULO_INVALIDO');
        assert.equal(await membership(companyA, victim.id), undefined);
      });
    });

    describe('attacks on the answer', () => {
      it('a tampered state is refused and writes nothing', async () => {
        const someone = person();
        const tamper = (hop: Hop): Hop => {
          const url = new URL(hop.url);
          url.searchParams.set('state', `${url.searchParams.get('state')}x`);
          return { ...hop, url };
        };
        const before = await written();
        refusedWith(await signIn(browser(), someone, { intercept: tamper }), 'auth_failed');
        assert.deepEqual(await written(), before);
        assert.equal((await usersWithEmail(someone.email)).length, 0);
      });

      it("a code of the attacker's own sign-in injected in the victim's answer (PKCE and nonce mismatch) is refused", async () => {
        const attacker = person();
        let stolen: URL | undefined;
        const keep = (hop: Hop): Hop => {
          stolen = hop.url;
          // The attacker's browser never delivers it.
          return { ...hop, url: new URL(`${apiUrl}/auth/empresa/callback?error=access_denied`) };
        };
        await signIn(browser(), attacker, { intercept: keep });
        assert.ok(stolen?.searchParams.get('code'));
        const victim = person();
        const inject = (hop: Hop): Hop => {
          const url = new URL(hop.url);
          url.searchParams.set('code', stolen?.searchParams.get('code') as string);
          return { ...hop, url };
        };
        const before = await written();
        refusedWith(await signIn(browser(), victim, { intercept: inject }), 'auth_failed');
        assert.deepEqual(await written(), before);
        assert.equal((await usersWithEmail(attacker.email)).length, 0);
        assert.equal((await usersWithEmail(victim.email)).length, 0);
      });

      it("an answer without the browser's cookie, or with another browser's, is refused", async () => {
        const someone = person();
        const thief = browser();
        const dropCookie = (hop: Hop): Hop => {
          thief.cookies(new URL(apiUrl).host).clear();
          return hop;
        };
        refusedWith(await signIn(thief, someone, { intercept: dropCookie }), 'auth_failed');
        // Another sign-in's sealed cookie (another state, verifier and nonce).
        const other = browser();
        const start = await t.app.inject({
          method: 'GET',
          url: `/auth/empresa?email=${encodeURIComponent(someone.email)}&binding=${other.binding}`,
        });
        const foreign = /^portal_oauth_empresa=([^;]+)/.exec(String(start.headers['set-cookie']))?.[1];
        assert.ok(foreign);
        const swapped = browser();
        const swap = (hop: Hop): Hop => {
          swapped.cookies(new URL(apiUrl).host).set('portal_oauth_empresa', foreign);
          return hop;
        };
        const before = await written();
        refusedWith(await signIn(swapped, someone, { intercept: swap }), 'auth_failed');
        assert.deepEqual(await written(), before);
      });

      it('a replayed callback (same address, same cookie) is refused and writes nothing', async () => {
        const someone = person();
        const who = browser();
        let replay: { url: URL; cookie: string } | undefined;
        const keep = (hop: Hop): Hop => {
          replay = { url: hop.url, cookie: who.cookies(new URL(apiUrl).host).get('portal_oauth_empresa') as string };
          return hop;
        };
        await tokenIn(await signIn(who, someone, { intercept: keep }), who);
        assert.ok(replay?.cookie);
        const before = await written();
        const again = await t.app.inject({
          method: 'GET',
          url: `${replay.url.pathname}${replay.url.search}`,
          headers: { cookie: `portal_oauth_empresa=${replay.cookie}` },
        });
        assert.equal(again.statusCode, 302);
        refusedWith(new URL(again.headers.location as string), 'auth_failed');
        assert.deepEqual(await written(), before);
      });

      it("the provider's error goes to the portal's callback page; a start without binding or connection says so", async () => {
        const someone = person();
        const end = await signIn(browser(), { ...someone, sub: 'cancelar' });
        assert.equal(end.pathname, '/auth/google/callback');
        assert.equal(end.searchParams.get('error'), 'access_denied');
        assert.equal(end.searchParams.get('provider'), 'empresa');
        refusedWith(await signIn(browser(), someone, { bind: false }), 'auth_failed');
        refusedWith(
          await companySignIn(browser(), apiUrl, 'alguien@sin-acceso.com', someone.sub),
          'company_unavailable',
        );
        refusedWith(await companySignIn(browser(), apiUrl, 'no-es-un-email', someone.sub), 'company_unavailable');
      });

      it('a suspended company, or a connection removed meanwhile → company_unavailable', async () => {
        const someone = person();
        const who = browser();
        await t.app.db.execute(sql`update companies set status = 'suspended' where id = ${companyA}`);
        try {
          refusedWith(await signIn(who, someone), 'company_unavailable');
        } finally {
          await t.app.db.execute(sql`update companies set status = 'active' where id = ${companyA}`);
        }
        assert.equal((await usersWithEmail(someone.email)).length, 0);
      });
    });

    describe('password sign-in and the sign-in page', () => {
      it('permitirContrasena false → 403 ACCESO_EMPRESA_OBLIGATORIO, the same for an existing and an unknown account, before the password', async () => {
        const email = `clave-${randomUUID().slice(0, 8)}@${domainA}`;
        await createUser(t.app, { email, password: 'clave-propia-1', status: 'active' });
        assert.equal((await post(t.app, '/auth/login', { email, password: 'clave-propia-1' })).statusCode, 200);
        await setAllowPassword(companyA, false);
        try {
          const answers = await Promise.all([
            post(t.app, '/auth/login', { email, password: 'clave-propia-1' }),
            post(t.app, '/auth/login', { email: ` ${email.toUpperCase()} `, password: 'mala' }),
            post(t.app, '/auth/login', { email: `nadie-${randomUUID().slice(0, 6)}@${domainA}`, password: 'mala' }),
          ]);
          for (const answer of answers) {
            assert.equal(answer.statusCode, 403);
            assert.deepEqual(answer.json(), {
              statusCode: 403,
              code: 'ACCESO_EMPRESA_OBLIGATORIO',
              message:
                'Tu empresa pide iniciar sesión con su propio acceso: pulsa «Continuar con el acceso de Minera Andina».',
            });
          }
          // Another company's people are not concerned.
          const other = `otra-${randomUUID().slice(0, 8)}@${domainB}`;
          await createUser(t.app, { email: other, password: 'clave-propia-1', status: 'active' });
          assert.equal(
            (await post(t.app, '/auth/login', { email: other, password: 'clave-propia-1' })).statusCode,
            200,
          );
          const access = await t.app.inject({
            method: 'GET',
            url: `/auth/empresa/acceso?email=${encodeURIComponent(email)}`,
          });
          assert.deepEqual(access.json(), {
            empresa: { id: companyA, nombre: 'Minera Andina' },
            permitirContrasena: false,
          });
        } finally {
          await setAllowPassword(companyA, true);
        }
      });

      it('GET /auth/empresa/acceso answers the company for a connection domain, null otherwise, 400 for a bad email', async () => {
        const ask = (email: string) =>
          t.app.inject({ method: 'GET', url: `/auth/empresa/acceso?email=${encodeURIComponent(email)}` });
        assert.deepEqual((await ask(`ana@${domainA.toUpperCase()}`)).json(), {
          empresa: { id: companyA, nombre: 'Minera Andina' },
          permitirContrasena: true,
        });
        assert.deepEqual((await ask(`ana@${domainB}`)).json(), {
          empresa: { id: companyB, nombre: 'Textiles Sur' },
          permitirContrasena: true,
        });
        assert.deepEqual((await ask('ana@gmail.com')).json(), { empresa: null, permitirContrasena: true });
        assert.deepEqual((await ask(`ana@sub.${domainA}`)).json(), { empresa: null, permitirContrasena: true });
        // One query on the unique domain index, for a company's domain and for any other alike.
        for (const email of [`ana@${domainA}`, 'ana@gmail.com'])
          assert.equal(
            await queriesOf(async () => {
              await ask(email);
            }),
            1,
          );
        for (const bad of ['no-es-un-email', 'a b@c.d', '']) {
          const response = await ask(bad);
          assert.equal(response.statusCode, 400, bad);
        }
        await t.app.db.execute(sql`update companies set status = 'suspended' where id = ${companyB}`);
        try {
          assert.deepEqual((await ask(`ana@${domainB}`)).json(), { empresa: null, permitirContrasena: true });
        } finally {
          await t.app.db.execute(sql`update companies set status = 'active' where id = ${companyB}`);
        }
      });
    });

    describe('GET /auth/user after a company sign-in', () => {
      it('runs as many database queries as after a password sign-in (none when served from memory)', async () => {
        const someone = person();
        const companyToken = await signedIn(someone);
        const email = `clave-${randomUUID().slice(0, 8)}@${domainA}`;
        await createUser(t.app, { email, password: 'clave-propia-1', status: 'active' });
        const passwordToken = await login(t.app, email, 'clave-propia-1');
        const countedRequests = async (token: string) => {
          await currentUser(token);
          return queriesOf(async () => {
            for (let i = 0; i < 3; i += 1) await currentUser(token);
          });
        };
        const afterPassword = await countedRequests(passwordToken);
        const afterCompany = await countedRequests(companyToken);
        assert.equal(afterCompany, afterPassword);
        if (t.app.sessionState.serving) assert.equal(afterCompany, 0, 'served from memory');
      });
    });

    it('no answer, log line or audit row carries a client secret; the sealed value is not the secret', async () => {
      const rows = await t.app.db.select().from(companyIdentityProviders);
      assert.equal(rows.length, 2);
      for (const row of rows) {
        const sealed = row.clientSecretSealed ?? '';
        for (const secret of [secretA, secretB]) assert.ok(!sealed.includes(secret));
        assert.match(sealed, /^v1\./);
      }
      const audit = JSON.stringify(await t.app.db.select().from(auditLog));
      for (const secret of [secretA, secretB]) {
        assert.ok(!audit.includes(secret), 'audit');
        const where = logs.lines.flatMap((line) => textsOf(line)).find((text) => text.includes(secret));
        assert.equal(where, undefined, 'log line');
      }
      const read = await t.app.inject({
        method: 'GET',
        url: `/empresas/${companyA}/proveedor`,
        headers: { authorization: `Bearer ${admin}` },
      });
      assert.equal(read.statusCode, 200);
      assert.ok(!read.body.includes(secretA));
    });
  });
});
