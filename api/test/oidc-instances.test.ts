// Two API instances on one database share the OpenID Connect provider's state: a code issued by one is redeemed at
// the other, a refresh token rotated at one is refused at the other, a refresh's company-rules check kept in one's
// memory follows a change made anywhere, and a logout made at one reaches each app once, whichever instance's delivery
// loop sends it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { adminEmail, adminPassword, forEachBackend, login } from './helpers/app.js';
import { insertCompany, insertMember } from './helpers/company-fixtures.js';
import { type TwoInstances, twoInstances } from './helpers/instances.js';
import {
  claimsOf,
  type LogoutReceiver,
  registerClient,
  serverApp,
  startLogoutReceiver,
  TestBrowser,
} from './helpers/oidc.js';
import { sleep } from './helpers/processes.js';

const redirect = 'https://control.example.com/auth/callback';

forEachBackend((backend) => {
  describe('OpenID Connect provider on two instances', () => {
    let pair: TwoInstances;
    let issuer: string;
    let urlOfB: string;
    let receiver: LogoutReceiver;
    let client: { clientId: string; clientSecret?: string };

    before(async () => {
      pair = await twoInstances(backend);
      ({ issuer, urlOfB } = pair);
      receiver = await startLogoutReceiver();
      client = await registerClient(pair.a, {
        nombre: 'Control Max 360',
        redirectUris: [redirect],
        backchannelLogoutUri: receiver.url,
        primeraParte: true,
        scopes: ['openid', 'offline_access'],
      });
    });
    after(async () => {
      await pair.close();
      await receiver.close();
    });

    const tokenAt = (base: string, body: Record<string, string>) =>
      fetch(`${base}/oidc/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(body),
      });

    it('a code issued by one instance is redeemed at the other; a refresh rotated at one is refused at the other', async () => {
      const browser = new TestBrowser(issuer);
      browser.portalToken = await login(pair.a, adminEmail, adminPassword);
      const app = await serverApp(issuer, client.clientId, client.clientSecret ?? '', redirect);
      const landed = await browser.signInTo(
        await app.authorizationUrl(['openid', 'offline_access'], { prompt: 'consent' }),
      );
      const code = new URL(landed).searchParams.get('code') ?? '';
      const redeemed = await tokenAt(urlOfB, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirect,
        code_verifier: app.codeVerifier,
      });
      assert.equal(redeemed.status, 200, 'the code issued through A is good at B');
      const tokens = (await redeemed.json()) as { refresh_token: string };
      assert.ok(tokens.refresh_token);

      const rotated = await tokenAt(urlOfB, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      assert.equal(rotated.status, 200);
      const again = await tokenAt(issuer, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      assert.equal(again.status, 400, 'the rotated token, shown at A, is refused');
      const { refresh_token: newest } = (await rotated.json()) as { refresh_token: string };
      const family = await tokenAt(urlOfB, { grant_type: 'refresh_token', refresh_token: newest });
      assert.equal(family.status, 400, 'and its whole family is revoked for B too');
    });

    it("an access token kept in one instance's memory is refused there once another instance revoked it", async () => {
      const browser = new TestBrowser(issuer);
      browser.portalToken = await login(pair.a, adminEmail, adminPassword);
      const app = await serverApp(issuer, client.clientId, client.clientSecret ?? '', redirect);
      const bound = await app.exchange(await browser.signInTo(await app.authorizationUrl(['openid'])));
      // With offline_access the token outlives the provider session: B answers its userinfo itself, from memory.
      const offline = await app.exchange(
        await browser.signInTo(await app.authorizationUrl(['openid', 'offline_access'], { prompt: 'consent' })),
      );
      const userinfoAtB = (accessToken: string) =>
        fetch(`${urlOfB}/oidc/me`, { headers: { authorization: `Bearer ${accessToken}` } });
      for (const tokens of [bound, offline]) {
        assert.equal((await userinfoAtB(tokens.accessToken)).status, 200);
        assert.equal((await userinfoAtB(tokens.accessToken)).status, 200, "now answered from B's memory");
      }
      const loggedOut = await fetch(`${issuer}/auth/logout`, {
        method: 'POST',
        headers: { authorization: `Bearer ${browser.portalToken}` },
      });
      assert.equal(loggedOut.status, 204);
      // Once B has applied what was committed before (its channel's own barrier), the tokens are refused there.
      await pair.b.sessionState.sync();
      for (const tokens of [bound, offline]) assert.equal((await userinfoAtB(tokens.accessToken)).status, 401);
    });

    it("a refresh meets the company rules from each instance's memory, and a change to the rules, a membership or the session, straight in the database or through the API, reaches the next refresh at either instance", async () => {
      const admin = await login(pair.a, adminEmail, adminPassword);
      let people = 0;
      /** A member of a company of its own with `rules` (its columns), signed in to the app with offline_access. */
      const member = async (rules: SQL | undefined) => {
        people += 1;
        const companyId = await insertCompany(pair.a, `Planta ${people} ${backend}`);
        if (rules) await pair.a.db.execute(sql`update companies set ${rules} where id = ${companyId}`);
        const person = await insertMember(pair.a, companyId, `operaria${people}-${backend}@planta.test`, 'miembro');
        const browser = new TestBrowser(issuer);
        browser.portalToken = await person.token();
        const app = await serverApp(issuer, client.clientId, client.clientSecret ?? '', redirect);
        const landed = await browser.signInTo(
          await app.authorizationUrl(['openid', 'offline_access'], { prompt: 'consent' }),
        );
        let current = (await app.exchange(landed)).refreshToken ?? '';
        /** A refresh at `base`: its status and error, and whether the instance's memory answered its check. */
        const refreshAt = async (instance: FastifyInstance, base: string) => {
          const { hits } = instance.identityProvider.refreshes.stats;
          const answer = await tokenAt(base, { grant_type: 'refresh_token', refresh_token: current });
          const body = (await answer.json()) as { refresh_token?: string; error?: string };
          if (body.refresh_token) current = body.refresh_token;
          const fromMemory = instance.identityProvider.refreshes.stats.hits > hits;
          return { status: answer.status, error: body.error, fromMemory };
        };
        return { ...person, companyId, refreshAt };
      };
      type Member = Awaited<ReturnType<typeof member>>;
      const update = (statement: SQL) => pair.a.db.execute(statement);
      // What the company has before the sign-in, and the change made after the check is kept in memory.
      const changes: [string, SQL | undefined, (person: Member) => Promise<unknown>][] = [
        [
          'its networks, in the database',
          undefined,
          (person) =>
            update(sql`update companies set allowed_networks = '{10.0.0.0/8}' where id = ${person.companyId}`),
        ],
        [
          'its methods, through the API',
          undefined,
          async (person) => {
            const changed = await fetch(`${issuer}/empresas/${person.companyId}/ajustes`, {
              method: 'PATCH',
              headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
              body: JSON.stringify({ metodosPermitidos: ['empresa'] }),
            });
            assert.equal(changed.status, 200, await changed.text());
          },
        ],
        [
          'its longest session of 8 hours, the session started 9 hours ago in the database',
          sql`session_max_hours = 8`,
          (person) =>
            update(sql`update sessions set created_at = now() - interval '9 hours' where user_id = ${person.id}`),
        ],
        [
          'its inactivity of 30 minutes, the session last used 31 minutes ago in the database',
          sql`idle_minutes = 30`,
          (person) =>
            update(sql`update sessions set last_seen_at = now() - interval '31 minutes' where user_id = ${person.id}`),
        ],
        [
          'a membership of a company that allows passkeys only, in the database',
          undefined,
          async (person) => {
            const stricter = await insertCompany(pair.a, `Estricta ${person.id} ${backend}`);
            await update(sql`update companies set allowed_methods = '{llave}' where id = ${stricter}`);
            await update(
              sql`insert into company_members (company_id, user_id, role) values (${stricter}, ${person.id}, 'miembro')`,
            );
          },
        ],
      ];
      for (const [name, instance, base] of [
        ['A', pair.a, issuer],
        ['B', pair.b, urlOfB],
      ] as const) {
        for (const [what, rules, change] of changes) {
          const person = await member(rules);
          const first = await person.refreshAt(instance, base);
          assert.equal(first.status, 200, `${what} at ${name}`);
          assert.equal(first.fromMemory, false, 'the first refresh reads the database');
          const second = await person.refreshAt(instance, base);
          assert.equal(second.status, 200);
          assert.equal(second.fromMemory, true, `${name} answered the second refresh from memory`);
          await change(person);
          // Once both have applied what was committed before (each channel's own barrier).
          await Promise.all([pair.a.sessionState.sync(), pair.b.sessionState.sync()]);
          const refused = await person.refreshAt(instance, base);
          assert.deepEqual([refused.status, refused.error], [400, 'invalid_grant'], `${what}, seen at ${name}`);
        }
      }
    });

    it('a logout made at one instance reaches the app once, though both instances deliver', async () => {
      const browser = new TestBrowser(issuer);
      browser.portalToken = await login(pair.b, adminEmail, adminPassword);
      const app = await serverApp(issuer, client.clientId, client.clientSecret ?? '', redirect);
      const tokens = await app.exchange(await browser.signInTo(await app.authorizationUrl(['openid'])));
      const sid = claimsOf(tokens.idToken ?? '').sid;
      const loggedOut = await fetch(`${urlOfB}/auth/logout`, {
        method: 'POST',
        headers: { authorization: `Bearer ${browser.portalToken}` },
      });
      assert.equal(loggedOut.status, 204);
      const deliverers: FastifyInstance[] = [pair.a, pair.b];
      await Promise.all(deliverers.map((instance) => instance.identityProvider.logouts.deliverDue()));
      await sleep(500);
      await Promise.all(deliverers.map((instance) => instance.identityProvider.logouts.deliverDue()));
      const forThisSession = receiver.tokens.filter((jwt) => claimsOf(jwt).sid === sid);
      assert.equal(forThisSession.length, 1, `${forThisSession.length} logout tokens for one session`);
    });
  });
});
