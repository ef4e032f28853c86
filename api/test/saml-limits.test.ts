// Per-address limits on the SAML calls anyone can repeat: the identity provider's sign-in endpoint (both bindings),
// the continuation calls, the one-time posting page and the logout endpoint, and the company SAML ACS. Over the
// limit the browser's pages answer a Spanish 429 page (the company ACS a redirect to /login with a Spanish
// notice), the JSON calls the API's Spanish 429, nothing changes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { samlRequests } from '../src/db/schema.js';
import { adminEmail, adminPassword, buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';
import { continuationOf, type Partner, partner, redirectQuery } from './helpers/saml-partner.js';

const limit = 3;

forEachBackend((backend) => {
  describe('per-address limits on the SAML endpoints', () => {
    let test: TestApp;
    let admin: string;
    let historian: Partner;

    before(async () => {
      test = await buildTestApp(backend, { authRateLimitPerMinute: limit, loginRateLimitPerMinute: 10_000 });
      admin = await login(test.app, adminEmail, adminPassword);
      historian = await partner('historiador');
      const created = await test.app.inject({
        method: 'POST',
        url: '/admin/aplicaciones-saml',
        headers: { authorization: `Bearer ${admin}` },
        payload: { nombre: 'Historiador', metadata: historian.metadata },
      });
      assert.equal(created.statusCode, 201, created.body);
    });

    after(async () => {
      await test?.close();
    });

    const countRequests = async () => (await test.app.db.select().from(samlRequests)).length;

    /** The browser's page over the limit: 429, HTML, Spanish, Retry-After, nothing sent to any app. */
    function tooManyPage(response: LightMyRequestResponse) {
      assert.equal(response.statusCode, 429, response.body);
      assert.match(String(response.headers['content-type']), /^text\/html/);
      assert.match(response.body, /Demasiadas solicitudes\. Inténtalo de nuevo en \d+ segundos\./);
      assert.match(response.body, /<html lang="es">/);
      assert.doesNotMatch(response.body, /SAMLResponse|<form/);
      assert.ok(Number(response.headers['retry-after']) >= 1);
      assert.equal(response.headers.location, undefined);
    }

    /** The JSON calls over the limit: the API's Spanish 429. */
    function tooManyJson(response: LightMyRequestResponse) {
      assert.equal(response.statusCode, 429, response.body);
      const body = response.json<{ code: string; message: string; retryAfter: number }>();
      assert.equal(body.code, 'RATE_LIMITED');
      assert.match(body.message, /^Demasiadas solicitudes\. Inténtalo de nuevo en \d+ segundos\.$/);
      assert.ok(body.retryAfter >= 1);
    }

    it('answers the sign-in endpoint with a Spanish 429 page past the limit, keeping no request', async () => {
      const sso = () => test.app.inject({ method: 'GET', url: `/saml/idp/sso?${redirectQuery(historian).query}` });
      for (let i = 0; i < limit; i++) continuationOf(await sso(), test.app.config.portalUrl);
      const before = await countRequests();
      tooManyPage(await sso());
      assert.equal(await countRequests(), before, 'no AuthnRequest kept past the limit');
      const posted = await test.app.inject({
        method: 'POST',
        url: '/saml/idp/sso',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'SAMLRequest=x',
      });
      assert.equal(posted.statusCode, 400, 'the POST binding counts on its own');
    });

    it('limits the POST binding, the posting page and the logout endpoint per address', async () => {
      const post = () =>
        test.app.inject({
          method: 'POST',
          url: '/saml/idp/sso',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'SAMLRequest=x',
          remoteAddress: '198.51.100.7',
        });
      const deliver = () =>
        test.app.inject({ method: 'GET', url: '/saml/idp/enviar?secreto=nada', remoteAddress: '198.51.100.7' });
      const slo = () => test.app.inject({ method: 'GET', url: '/saml/idp/slo', remoteAddress: '198.51.100.7' });
      for (let i = 0; i < limit; i++) {
        assert.equal((await post()).statusCode, 400);
        assert.equal((await deliver()).statusCode, 400);
        assert.equal((await slo()).statusCode, 303);
      }
      tooManyPage(await post());
      tooManyPage(await deliver());
      tooManyPage(await slo());
      // Another address is not held back by this one.
      const other = await test.app.inject({ method: 'GET', url: '/saml/idp/slo', remoteAddress: '198.51.100.8' });
      assert.equal(other.statusCode, 303);
    });

    it('limits the continuation calls with the Spanish JSON 429, even with a session', async () => {
      const token = await login(test.app, adminEmail, adminPassword);
      const headers = { authorization: `Bearer ${token}` };
      const remoteAddress = '203.0.113.5';
      for (const [method, suffix] of [
        ['GET', ''],
        ['POST', '/continuar'],
        ['POST', '/cancelar'],
      ] as const) {
        const call = () =>
          test.app.inject({
            method,
            url: `/saml/idp/solicitudes/${'x'.repeat(32)}${suffix}`,
            headers,
            remoteAddress,
            ...(method === 'POST' ? { payload: {} } : {}),
          });
        for (let i = 0; i < limit; i++) assert.equal((await call()).statusCode, 404, `${method} ${suffix}`);
        tooManyJson(await call());
      }
    });

    it("sends a browser over the company ACS's limit back to /login with a Spanish notice, not JSON", async () => {
      const acs = () =>
        test.app.inject({
          method: 'POST',
          url: '/auth/empresa/saml/999999/acs',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'SAMLResponse=x',
          remoteAddress: '203.0.113.9',
        });
      for (let i = 0; i < limit; i++) {
        const answer = await acs();
        assert.equal(answer.statusCode, 302, answer.body);
        assert.doesNotMatch(String(answer.headers.location), /company_rate_limited/);
      }
      const over = await acs();
      assert.equal(over.statusCode, 302, over.body);
      assert.equal(
        over.headers.location,
        `${test.app.config.portalUrl}/login?error=company_rate_limited&provider=empresa`,
      );
      assert.ok(Number(over.headers['retry-after']) >= 1);
      // The company's other calls keep the JSON 429.
      const metadata = () =>
        test.app.inject({ method: 'GET', url: '/auth/empresa/saml/999999/metadata', remoteAddress: '203.0.113.9' });
      for (let i = 0; i < limit; i++) assert.equal((await metadata()).statusCode, 404);
      const json = await metadata();
      assert.equal(json.statusCode, 429);
      assert.equal(json.json<{ code: string }>().code, 'RATE_LIMITED');
    });
  });
});
