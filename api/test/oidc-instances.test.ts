// Two API instances on one database share the OpenID Connect provider's state: a code issued by one is redeemed at
// the other, a refresh token rotated at one is refused at the other, and a logout made at one reaches each app once,
// whichever instance's delivery loop sends it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { adminEmail, adminPassword, forEachBackend, login } from './helpers/app.js';
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
