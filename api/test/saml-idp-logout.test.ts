// SAML single logout to partner apps: when a person signs out of the portal, each SAML app they signed into in that
// session that publishes a SOAP SingleLogoutService receives a LogoutRequest signed by the key of the portal's
// metadata, naming them as the app knows them (NameID) and the session it was given (SessionIndex). An app that does
// not answer is retried, and the administrator sees the logouts it still owes and why the last one failed. Only a
// LogoutResponse to that request, from that app, with status Success and the app's signature counts; each app is
// sent to at its own pace (a hung app holds only its own logouts) and shutting down never waits for an app.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import * as samlify from 'samlify';
import { auditLog, samlLogoutDeliveries, users } from '../src/db/schema.js';
import { adminEmail, adminPassword, buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';
import { insertCompany, insertMember } from './helpers/company-fixtures.js';
import {
  continuationOf,
  type Partner,
  partner,
  portalAsPartnerSees,
  postedForm,
  redirectQuery,
  soapLogoutResponse,
} from './helpers/saml-partner.js';
import { waitFor } from './helpers/processes.js';

interface Received {
  contentType: string | undefined;
  body: string;
}

forEachBackend((backend) => {
  describe('SAML single logout when a person signs out of the portal', () => {
    let test: TestApp;
    let admin: string;
    let server: Server;
    let received: Received[] = [];
    /** How the historian's SOAP endpoint answers. */
    let answer: 'success' | 'unavailable' | 'partial' | 'unsigned' | 'other-request' | 'bare' = 'success';
    let historian: Partner;
    let quiet: Partner;
    let historianId: number;
    let idp: samlify.IdentityProviderInstance;

    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    before(async () => {
      server = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk) => {
          body += chunk;
        });
        request.on('end', () => {
          received.push({ contentType: request.headers['content-type'], body });
          if (answer === 'unavailable') {
            response.writeHead(503).end('no disponible');
            return;
          }
          const inResponseTo = /<samlp:LogoutRequest[^>]*\sID="([^"]+)"/.exec(body)?.[1] ?? '';
          response.writeHead(200, { 'content-type': 'text/xml' });
          response.end(
            answer === 'bare'
              ? '<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Body>' +
                  '<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_r" Version="2.0">' +
                  '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>' +
                  '</samlp:LogoutResponse></soap-env:Body></soap-env:Envelope>'
              : soapLogoutResponse(historian, {
                  inResponseTo: answer === 'other-request' ? '_otra' : inResponseTo,
                  signed: answer !== 'unsigned',
                  ...(answer === 'partial' && { status: 'urn:oasis:names:tc:SAML:2.0:status:Responder' }),
                }),
          );
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;
      // Many sign-ins from one address in a minute; the per-address limit has its own tests (saml-limits).
      test = await buildTestApp(backend, { authRateLimitPerMinute: 10_000 });
      admin = await login(test.app, adminEmail, adminPassword);
      historian = await partner('historiador', { sloUrl: `http://127.0.0.1:${port}/mellon/logout` });
      quiet = await partner('sin-cierre', { slo: false, keyIndex: 1 });
      for (const [app, nombre] of [
        [historian, 'Historiador'],
        [quiet, 'Sin cierre'],
      ] as const) {
        const created = await test.app.inject({
          method: 'POST',
          url: '/admin/aplicaciones-saml',
          headers: bearer(admin),
          payload: { nombre, metadata: app.metadata },
        });
        assert.equal(created.statusCode, 201, created.body);
        if (app === historian) historianId = created.json<{ id: number }>().id;
      }
      idp = await portalAsPartnerSees(test.app);
    });
    after(async () => {
      await test.close();
      await new Promise((resolve) => server.close(resolve));
    });

    /** Signs in to `app` with `token`, answering the consent; the NameID and SessionIndex the app received. */
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
      const redirectTo = answered.json<{ redirectTo: string }>().redirectTo;
      const page = await test.app.inject({ method: 'GET', url: redirectTo.slice(test.app.config.apiPublicUrl.length) });
      const { samlResponse } = postedForm(page.body);
      const parsed = await app.sp.parseLoginResponse(idp, 'post', { body: { SAMLResponse: samlResponse } });
      const extract = parsed.extract as { nameID: string; sessionIndex: { sessionIndex: string } };
      return { nameId: extract.nameID, sessionIndex: extract.sessionIndex.sessionIndex };
    }

    const signOut = async (token: string) => {
      const response = await test.app.inject({ method: 'POST', url: '/auth/logout', headers: bearer(token) });
      assert.equal(response.statusCode, 204);
    };

    const view = async () =>
      (
        await test.app.inject({ method: 'GET', url: `/admin/aplicaciones-saml/${historianId}`, headers: bearer(admin) })
      ).json<{ cierresPendientes: number; ultimoErrorCierre: string | null }>();

    it('sends the app a signed LogoutRequest by SOAP with the NameID and SessionIndex it was given', async () => {
      const company = await insertCompany(test.app, 'Minera');
      const ana = await insertMember(test.app, company, 'ana@cierre.test', 'miembro');
      const token = await ana.token();
      const atHistorian = await signIn(historian, token);
      await signIn(quiet, token);
      received = [];
      await signOut(token);
      // The loop, woken by the sign-out, may have sent it already: either way it is sent once.
      await test.app.samlIdp.logouts.deliverDue();
      assert.equal(received.length, 1, 'one app publishes a SOAP logout');
      const [request] = received;
      assert.match(String(request?.contentType), /^text\/xml/);
      const logout = /<samlp:LogoutRequest[\s\S]*<\/samlp:LogoutRequest>/.exec(request?.body ?? '')?.[0] ?? '';
      assert.ok(logout, request?.body);
      const [good] = samlify.SamlLib.verifySignature(logout, { metadata: idp.entityMeta });
      assert.ok(good, 'signed by the key of the published metadata');
      const extracted = samlify.Extractor.extract(logout, samlify.Extractor.logoutRequestFields) as unknown as {
        nameID: string;
        issuer: string;
        sessionIndex: string;
      };
      assert.equal(extracted.nameID, atHistorian.nameId);
      assert.equal(extracted.sessionIndex, atHistorian.sessionIndex);
      assert.equal(extracted.issuer, `${test.app.config.apiPublicUrl}/saml/idp/metadata`);
      assert.equal((await view()).cierresPendientes, 0);
      const [entry] = await test.app.db
        .select({ details: auditLog.details })
        .from(auditLog)
        .where(eq(auditLog.action, 'saml.logout'));
      assert.equal(entry?.details.resultado, 'entregado');
    });

    it('retries an app that does not answer, showing the pending logout and its error until it gets through', async () => {
      const company = await insertCompany(test.app, 'Energía');
      const beto = await insertMember(test.app, company, 'beto@cierre.test', 'miembro');
      const token = await beto.token();
      await signIn(historian, token);
      answer = 'unavailable';
      received = [];
      await signOut(token);
      await test.app.samlIdp.logouts.deliverDue();
      assert.equal(received.length, 1, 'tried');
      const pending = await view();
      assert.equal(pending.cierresPendientes, 1);
      assert.match(String(pending.ultimoErrorCierre), /503/);

      answer = 'success';
      await test.app.db.update(samlLogoutDeliveries).set({ nextAttemptAt: new Date() });
      await test.app.samlIdp.logouts.deliverDue();
      assert.equal(received.length, 2, 'tried again');
      const delivered = await view();
      assert.equal(delivered.cierresPendientes, 0);
      assert.equal(delivered.ultimoErrorCierre, null);
    });

    it('tells the apps too when the account is suspended, without any sign-out', async () => {
      const company = await insertCompany(test.app, 'Cementera');
      const ivan = await insertMember(test.app, company, 'ivan@cierre.test', 'miembro');
      const atHistorian = await signIn(historian, await ivan.token());
      received = [];
      await test.app.db.update(users).set({ status: 'suspended' }).where(eq(users.id, ivan.id));
      await test.app.samlIdp.logouts.deliverDue();
      assert.equal(received.length, 1);
      assert.match(received[0]?.body ?? '', new RegExp(`>${atHistorian.sessionIndex}</samlp:SessionIndex>`));
    });

    it('tells the administrator in Spanish that an app could not be reached', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const gone = await partner('apagada', { sloUrl: `http://127.0.0.1:${port}/mellon/logout`, keyIndex: 2 });
      const created = await test.app.inject({
        method: 'POST',
        url: '/admin/aplicaciones-saml',
        headers: bearer(admin),
        payload: { nombre: 'Apagada', metadata: gone.metadata },
      });
      const id = created.json<{ id: number }>().id;
      const company = await insertCompany(test.app, 'Fundición');
      const eva = await insertMember(test.app, company, 'eva@cierre.test', 'miembro');
      const token = await eva.token();
      await signIn(gone, token);
      await signOut(token);
      await test.app.samlIdp.logouts.deliverDue();
      const answer = (
        await test.app.inject({ method: 'GET', url: `/admin/aplicaciones-saml/${id}`, headers: bearer(admin) })
      ).json<{ cierresPendientes: number; ultimoErrorCierre: string | null }>();
      assert.equal(answer.cierresPendientes, 1);
      assert.match(String(answer.ultimoErrorCierre), /^no se pudo conectar con la aplicación/);
    });

    it('counts only a signed Success that answers its own request: any other answer stays pending with its reason', async () => {
      const company = await insertCompany(test.app, 'Vidriera');
      const cases = [
        ['bare', /^la respuesta de la aplicación no corresponde a la solicitud enviada$/],
        ['other-request', /^la respuesta de la aplicación no corresponde a la solicitud enviada$/],
        ['unsigned', /^la respuesta no lleva una firma válida de la aplicación$/],
        ['partial', /^la aplicación no cerró la sesión \(estado Responder\)$/],
      ] as const;
      for (const [index, [mode, why]] of cases.entries()) {
        const person = await insertMember(test.app, company, `p${index}@vidriera.test`, 'miembro');
        const token = await person.token();
        await signIn(historian, token);
        answer = mode;
        received = [];
        await signOut(token);
        await test.app.samlIdp.logouts.deliverDue();
        assert.equal(received.length, 1, mode);
        const [row] = await test.app.db
          .select()
          .from(samlLogoutDeliveries)
          .where(eq(samlLogoutDeliveries.userId, person.id));
        assert.equal(row?.deliveredAt, null, mode);
        assert.match(String(row?.lastError), why, mode);
        assert.equal((await view()).cierresPendientes, index + 1, mode);
        // Its retry waits until the end of the test: the next case's answer is not this row's.
        await test.app.db
          .update(samlLogoutDeliveries)
          .set({ nextAttemptAt: new Date(Date.now() + 60 * 60_000) })
          .where(eq(samlLogoutDeliveries.userId, person.id));
      }
      answer = 'success';
      await test.app.db.update(samlLogoutDeliveries).set({ nextAttemptAt: new Date() });
      await test.app.samlIdp.logouts.deliverDue();
      assert.equal((await view()).cierresPendientes, 0);
    });

    it('a hung app holds only its own logouts, and shutting down gives them back at once, due for another instance', async () => {
      const hung = createServer(() => {});
      const hungRequests: string[] = [];
      hung.on('request', (request) => hungRequests.push(String(request.url)));
      await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
      try {
        const port = (hung.address() as AddressInfo).port;
        const stuck = await partner('colgada', { sloUrl: `http://127.0.0.1:${port}/mellon/logout`, keyIndex: 2 });
        const created = await test.app.inject({
          method: 'POST',
          url: '/admin/aplicaciones-saml',
          headers: bearer(admin),
          payload: { nombre: 'Colgada', metadata: stuck.metadata },
        });
        const stuckId = created.json<{ id: number }>().id;
        const company = await insertCompany(test.app, 'Papelera');
        const rosa = await insertMember(test.app, company, 'rosa@papelera.test', 'miembro');
        const luis = await insertMember(test.app, company, 'luis@papelera.test', 'miembro');
        const rowOf = async (appId: number, userId: number) =>
          (await test.app.db.select().from(samlLogoutDeliveries).where(eq(samlLogoutDeliveries.samlAppId, appId))).find(
            (row) => row.userId === userId,
          );
        const rosaToken = await rosa.token();
        await signIn(stuck, rosaToken);
        await signOut(rosaToken);
        test.app.samlIdp.logouts.wake();
        await waitFor('the hung app to be sent its logout', () => hungRequests.length === 1);

        // Queued while the hung app holds its try (10 s before it times out): the healthy app does not wait for it.
        const luisToken = await luis.token();
        await signIn(historian, luisToken);
        answer = 'success';
        received = [];
        await signOut(luisToken);
        const delivered = await waitFor(
          "the healthy app's logout, while the hung one is still in flight",
          async () => (await rowOf(historianId, luis.id))?.deliveredAt,
          5_000,
        );
        assert.ok(delivered);
        const inFlight = await rowOf(stuckId, rosa.id);
        assert.equal(inFlight?.deliveredAt, null, 'the hung app has not answered');
        assert.ok(inFlight?.lockedUntil, 'its logout is claimed while it is sent');

        await test.app.samlIdp.logouts.close();
        const givenBack = await rowOf(stuckId, rosa.id);
        assert.equal(givenBack?.lockedUntil, null, 'the claim is given back');
        assert.equal(givenBack?.attempts, 0, 'a try cut short by the shutdown is no try');
        assert.equal(givenBack?.deliveredAt, null);
        assert.equal(givenBack?.failedAt, null);
      } finally {
        hung.closeAllConnections();
        await new Promise((resolve) => hung.close(resolve));
      }
    });
  });
});
