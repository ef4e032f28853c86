// The issue's test: a directory deprovisions a person on one API instance while they are signed in to the portal on
// the other and to a partner app through the portal's OpenID Connect provider. Their portal session is refused on both
// instances before either's memory could have let it go by itself (helpers/session-memory.ts), the app receives a
// signed back-channel logout token within 5 seconds (stretched by the machine's measured slowness,
// helpers/slowness.ts), and its refresh token is dead.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachBackend, login } from './helpers/app.js';
import { insertMember, memberPassword } from './helpers/company-fixtures.js';
import { type TwoInstances, twoInstances } from './helpers/instances.js';
import {
  claimsOf,
  verifiedLogoutClaims,
  type LogoutReceiver,
  publicIdOf,
  registerClient,
  serverApp,
  startLogoutReceiver,
  TestBrowser,
} from './helpers/oidc.js';
import { waitFor } from './helpers/processes.js';
import { scimCompany } from './helpers/scim-fixtures.js';
import { watchMemory } from './helpers/session-memory.js';
import { scaled } from './helpers/slowness.js';

const redirect = 'https://control.example.com/auth/callback';

forEachBackend((backend) => {
  describe('SCIM deprovisioning across two instances', () => {
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

    it('"active": "False" on instance 2 ends the portal session on both and logs the partner app out within 5 s', async () => {
      const admin = await login(pair.a);
      const acme = await scimCompany(pair.a, admin, 'Minera Dos Instancias S.A.', 'minera-dos-instancias.cl');
      const person = await insertMember(pair.a, acme.companyId, 'ana.rojas@minera-dos-instancias.cl', 'miembro');
      const memories = [watchMemory(pair.a, person.id), watchMemory(pair.b, person.id)];

      // Signed in to the portal on instance 1, and to the partner app through the portal's provider.
      const browser = new TestBrowser(issuer);
      browser.portalToken = await login(pair.a, person.email, memberPassword);
      const rp = await serverApp(issuer, client.clientId, client.clientSecret ?? '', redirect);
      const tokens = await rp.exchange(
        await browser.signInTo(await rp.authorizationUrl(['openid', 'offline_access'], { prompt: 'consent' })),
      );
      const sid = claimsOf(tokens.idToken ?? '').sid;
      assert.ok(sid, 'the app has a provider session');
      assert.ok(tokens.refreshToken, 'and a refresh token');
      const currentUser = (base: string) =>
        fetch(`${base}/auth/user`, { headers: { authorization: `Bearer ${browser.portalToken}` } });
      assert.equal((await currentUser(issuer)).status, 200);
      assert.equal((await currentUser(urlOfB)).status, 200);

      // The directory, on instance 2: finds the person (adopting the member) and deactivates them as Entra ID does.
      const directory = (method: string, path: string, body?: unknown) =>
        fetch(`${urlOfB}/scim/v2${path}`, {
          method,
          headers: {
            authorization: `Bearer ${acme.token}`,
            ...(body ? { 'content-type': 'application/scim+json' } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
      const found = await directory('GET', `/Users?filter=${encodeURIComponent(`userName eq "${person.email}"`)}`);
      const { Resources } = (await found.json()) as { Resources: { id: string }[] };
      const id = Resources[0]?.id;
      assert.ok(id);
      const withinMs = scaled(5_000);
      const started = Date.now();
      const patched = await directory('PATCH', `/Users/${id}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
      });
      assert.equal(patched.status, 200, await patched.clone().text());
      assert.equal(((await patched.json()) as { active: boolean }).active, false);

      for (const [index, base] of [issuer, urlOfB].entries())
        await memories[index]!.seen('the portal session refused', async () => (await currentUser(base)).status === 401);
      const logoutToken = await waitFor(
        'the back-channel logout token of the app',
        () => receiver.tokens.find((jwt) => claimsOf(jwt).sid === sid),
        Math.max(1, withinMs - (Date.now() - started)),
        50,
      );
      const elapsed = Date.now() - started;
      assert.ok(elapsed < withinMs, `took ${elapsed} ms (${withinMs} ms allowed on this machine now)`);

      const claims = await verifiedLogoutClaims(logoutToken, issuer);
      assert.equal(claims.iss, issuer);
      assert.equal(claims.aud, client.clientId);
      assert.equal(claims.sub, await publicIdOf(pair.a, person.id));
      assert.equal(claims.sid, sid);
      assert.deepEqual(claims.events, { 'http://schemas.openid.net/event/backchannel-logout': {} });
      await assert.rejects(rp.client.refreshToken(tokens), /invalid_grant|grant/i, 'the refresh token is refused');
    });
  });
});
