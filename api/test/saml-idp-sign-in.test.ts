// A partner app's SAML sign-in through the portal, end to end, with samlify's ServiceProvider as the partner: the
// AuthnRequest (Redirect as mod_auth_mellon sends it, signed or not, or POST), the portal's continuation with the
// person's session and consent, the one-time page that posts the answer, and the answer as the partner reads it
// (signed by the key in the portal's metadata, for its audience, ACS and request, NameID opaque per app or the email
// when asked, the attributes email, nombre, apellido, plan, empresas and roles). And what is refused with the API's Spanish
// page and nothing sent: an unknown app, an ACS not in its metadata, a bad or missing signature, a malformed or
// oversized request; and a continuation used twice or expired. The allowed apps are listed in the profile, where one
// is taken back.
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import * as samlify from 'samlify';
import { samlRequests, userPlans, users } from '../src/db/schema.js';
import { adminEmail, adminPassword, buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';
import { insertCompany, insertMember, planOf } from './helpers/company-fixtures.js';
import {
  authnRequestXml,
  continuationOf,
  type Partner,
  partner,
  portalAsPartnerSees,
  postedForm,
  redirectQuery,
  type RequestOptions,
} from './helpers/saml-partner.js';

interface Arrival {
  form: ReturnType<typeof postedForm>;
  xml: string;
  nameId: string;
  attributes: Record<string, string | string[]>;
  /** The assertion whose signature verified, read alone. */
  verified: Record<string, unknown>;
}

forEachBackend((backend) => {
  describe('a partner app signs a person in with SAML through the portal', () => {
    let test: TestApp;
    let admin: string;
    let historian: Partner;
    let maintenance: Partner;
    let mailOnly: Partner;
    let idp: samlify.IdentityProviderInstance;
    let person: { id: number; email: string; token: () => Promise<string> };
    let personToken: string;
    let other: { id: number; email: string; token: () => Promise<string> };

    const api = () => test.app.config.apiPublicUrl;
    const portal = () => test.app.config.portalUrl;
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    const sso = (query: string) => test.app.inject({ method: 'GET', url: `/saml/idp/sso?${query}` });
    const start = async (app: Partner, options: RequestOptions = {}) => {
      // The historian signs its requests, as mod_auth_mellon does with a key of its own.
      const signWith = app === historian ? historian.privateKeyPem : undefined;
      const { id, query } = redirectQuery(app, { signWith, ...options });
      return { requestId: id, solicitud: continuationOf(await sso(query), portal()) };
    };
    const cont = (solicitud: string, token: string, permitir = true) =>
      test.app.inject({
        method: 'POST',
        url: `/saml/idp/solicitudes/${solicitud}/continuar`,
        headers: bearer(token),
        payload: permitir ? { permitir: true } : {},
      });
    const deliver = (redirectTo: string) => {
      assert.ok(redirectTo.startsWith(`${api()}/saml/idp/enviar?secreto=`), redirectTo);
      return test.app.inject({ method: 'GET', url: redirectTo.slice(api().length) });
    };

    /** The partner reads what the page posts: samlify checks the signature against the portal's metadata. */
    async function arrive(app: Partner, page: LightMyRequestResponse): Promise<Arrival> {
      assert.equal(page.statusCode, 200, page.body);
      const form = postedForm(page.body);
      const xml = Buffer.from(form.samlResponse, 'base64').toString('utf8');
      const parsed = await app.sp.parseLoginResponse(idp, 'post', { body: { SAMLResponse: form.samlResponse } });
      const [good, assertion] = samlify.SamlLib.verifySignature(xml, { metadata: idp.entityMeta });
      assert.ok(good && assertion, 'the assertion verifies against the published certificate');
      const verified = samlify.Extractor.extract(assertion, [
        { key: 'audience', localPath: ['Assertion', 'Conditions', 'AudienceRestriction', 'Audience'], attributes: [] },
        {
          key: 'confirmation',
          localPath: ['Assertion', 'Subject', 'SubjectConfirmation', 'SubjectConfirmationData'],
          attributes: ['Recipient', 'InResponseTo', 'NotOnOrAfter'],
        },
        { key: 'issuer', localPath: ['Assertion', 'Issuer'], attributes: [] },
        { key: 'nameID', localPath: ['Assertion', 'Subject', 'NameID'], attributes: [] },
        // One attribute asked: the extractor answers its value alone.
        { key: 'format', localPath: ['Assertion', 'Subject', 'NameID'], attributes: ['Format'] },
        { key: 'session', localPath: ['Assertion', 'AuthnStatement'], attributes: ['SessionIndex'] },
      ]) as Record<string, unknown>;
      const extract = parsed.extract as { nameID: string; attributes?: Record<string, string | string[]> };
      return { form, xml, nameId: extract.nameID, attributes: extract.attributes ?? {}, verified };
    }

    /** The whole way: request, continuation with the session (allowing), page, arrival. */
    async function signIn(app: Partner, token: string, options: RequestOptions = {}) {
      const { requestId, solicitud } = await start(app, options);
      const answered = await cont(solicitud, token);
      assert.equal(answered.statusCode, 200, answered.body);
      const page = await deliver(answered.json<{ redirectTo: string }>().redirectTo);
      return { requestId, solicitud, page, ...(await arrive(app, page)) };
    }

    const register = async (app: Partner, nombre: string, appId?: number) => {
      const created = await test.app.inject({
        method: 'POST',
        url: '/admin/aplicaciones-saml',
        headers: bearer(admin),
        payload: { nombre, metadata: app.metadata, ...(appId ? { appId } : {}) },
      });
      assert.equal(created.statusCode, 201, created.body);
    };

    /** A refusal: the API's Spanish page, 400, nothing kept, no form to any app. */
    async function refused(response: LightMyRequestResponse, text: RegExp) {
      assert.equal(response.statusCode, 400, response.body);
      assert.match(String(response.headers['content-type']), /^text\/html/);
      assert.match(response.body, /<html lang="es">/);
      assert.match(response.body, text);
      assert.doesNotMatch(response.body, /<form/);
      assert.doesNotMatch(response.body, /SAMLResponse/);
    }

    before(async () => {
      // Many sign-ins from one address in a minute; the per-address limit has its own tests (saml-limits).
      test = await buildTestApp(backend, { authRateLimitPerMinute: 10_000 });
      admin = await login(test.app, adminEmail, adminPassword);
      [historian, maintenance, mailOnly] = await Promise.all([
        partner('historiador', { signs: true }),
        partner('mantenimiento', { keyIndex: 1 }),
        partner('correo', { emailOnly: true, keyIndex: 2 }),
      ]);
      await register(historian, 'Historiador de planta', 1);
      await register(maintenance, 'Mantenimiento');
      await register(mailOnly, 'Solo correo', 1);
      idp = await portalAsPartnerSees(test.app);
      const company = await insertCompany(test.app, 'Minera Andina');
      const second = await insertCompany(test.app, 'Energía & Sol <Norte>');
      person = await insertMember(test.app, company, 'ana@minera.test', 'miembro');
      await test.app.db.execute(
        sql`insert into company_members (company_id, user_id, role) values (${second}, ${person.id}, 'miembro')`,
      );
      await test.app.db.update(users).set({ name: 'Ana', lastName: 'Quispe' }).where(eq(users.id, person.id));
      await test.app.db
        .insert(userPlans)
        .values({ userId: person.id, appId: 1, planId: await planOf(test.app, 1, 'PRO') })
        .onConflictDoUpdate({
          target: [userPlans.userId, userPlans.appId],
          set: { planId: await planOf(test.app, 1, 'PRO') },
        });
      personToken = await person.token();
      other = await insertMember(test.app, company, 'beto@minera.test', 'miembro');
    });
    after(() => test.close());

    it('asks for consent once, then the partner receives a signed answer it verifies, with the attributes', async () => {
      const { requestId, solicitud } = await start(historian, {
        relayState: 'https://historiador.example.com/tablero?x=1&y=2',
      });
      const details = await test.app.inject({
        method: 'GET',
        url: `/saml/idp/solicitudes/${solicitud}`,
        headers: bearer(personToken),
      });
      assert.equal(details.statusCode, 200, details.body);
      const view = details.json<{
        cliente: { nombre: string; primeraParte: boolean };
        consentimiento: boolean;
        permisos: { scope: string }[];
      }>();
      assert.equal(view.cliente.nombre, 'Historiador de planta');
      assert.equal(view.cliente.primeraParte, false);
      assert.equal(view.consentimiento, true);
      assert.deepEqual(
        view.permisos.map((permiso) => permiso.scope),
        ['openid', 'profile', 'email', 'plan', 'organization'],
      );

      const withoutConsent = await cont(solicitud, personToken, false);
      assert.equal(withoutConsent.statusCode, 409);
      assert.equal(withoutConsent.json<{ code: string }>().code, 'CONSENT_REQUIRED');

      const answered = await cont(solicitud, personToken);
      assert.equal(answered.statusCode, 200, answered.body);
      const page = await deliver(answered.json<{ redirectTo: string }>().redirectTo);
      const csp = String(page.headers['content-security-policy']);
      const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
      assert.ok(nonce, csp);
      assert.match(page.body, new RegExp(`<script nonce="${nonce.replace(/[+/=]/g, '\\$&')}">`));
      assert.match(csp, /form-action https:\/\/historiador\.example\.com[;]/);
      assert.match(page.body, /<noscript>[\s\S]*Continuar/);
      const arrival = await arrive(historian, page);

      assert.equal(arrival.form.action, historian.acs[0]);
      assert.equal(arrival.form.relayState, 'https://historiador.example.com/tablero?x=1&y=2');
      assert.equal((arrival.xml.match(/<ds:Signature[\s>]/g) ?? []).length, 2, 'the assertion and the response signed');
      assert.match(arrival.xml, /SignatureMethod Algorithm="http:\/\/www\.w3\.org\/2001\/04\/xmldsig-more#rsa-sha256"/);
      assert.equal(arrival.verified.issuer, `${api()}/saml/idp/metadata`);
      assert.equal(arrival.verified.audience, historian.entityId);
      const confirmation = arrival.verified.confirmation as {
        recipient: string;
        inResponseTo: string;
        notOnOrAfter: string;
      };
      assert.equal(confirmation.recipient, historian.acs[0]);
      assert.equal(confirmation.inResponseTo, requestId);
      const lifetime = Date.parse(confirmation.notOnOrAfter) - Date.now();
      assert.ok(lifetime > 0 && lifetime <= 5 * 60_000, `valid at most 5 minutes (${lifetime} ms)`);
      assert.match(
        arrival.xml,
        new RegExp(`<samlp:Response [^>]*Destination="${historian.acs[0]}"[^>]*InResponseTo="${requestId}"`),
      );
      assert.ok(typeof arrival.verified.session === 'string' && arrival.verified.session.length > 0, 'a SessionIndex');

      assert.equal(arrival.verified.format, 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent');
      assert.ok(
        !arrival.nameId.includes('@') && !/^\d+$/.test(arrival.nameId),
        'opaque, not the email nor the account id',
      );
      assert.equal(arrival.attributes.email, 'ana@minera.test');
      assert.equal(arrival.attributes.nombre, 'Ana');
      assert.equal(arrival.attributes.apellido, 'Quispe');
      assert.equal(arrival.attributes.plan, 'PRO');
      assert.deepEqual([...(arrival.attributes.empresas as string[])].sort(), [
        'Energía & Sol <Norte>',
        'Minera Andina',
      ]);

      // Remembered: the next sign-in asks nothing and goes on without `permitir`.
      const { solicitud: again } = await start(historian);
      const second = await test.app.inject({
        method: 'GET',
        url: `/saml/idp/solicitudes/${again}`,
        headers: bearer(personToken),
      });
      assert.equal(second.json<{ consentimiento: boolean }>().consentimiento, false);
      const quiet = await cont(again, personToken, false);
      assert.equal(quiet.statusCode, 200, quiet.body);
      const next = await arrive(historian, await deliver(quiet.json<{ redirectTo: string }>().redirectTo));
      assert.equal(next.nameId, arrival.nameId, 'the same NameID for the same app');
    });

    it('gives each app its own NameID, the email only to an app that asks for it, and no plan to an app with none', async () => {
      const atHistorian = await signIn(historian, personToken);
      const atMaintenance = await signIn(maintenance, personToken);
      assert.notEqual(atMaintenance.nameId, atHistorian.nameId, 'two apps cannot join their people');
      assert.equal(atMaintenance.attributes.plan, undefined, 'an app tied to no catalogue app gets no plan');
      assert.equal(atMaintenance.attributes.empresas, undefined);
      assert.equal(atMaintenance.attributes.email, 'ana@minera.test');
      const atMail = await signIn(mailOnly, personToken);
      assert.equal(atMail.nameId, 'ana@minera.test');
      assert.equal(atMail.verified.format, 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress');
    });

    it("sends the person's roles in the app, one AttributeValue per key, read at each assertion", async () => {
      for (const clave of ['supervisor', 'operador']) {
        const made = await test.app.inject({
          method: 'POST',
          url: '/admin/apps/1/roles',
          headers: bearer(admin),
          payload: { clave, nombre: clave },
        });
        assert.equal(made.statusCode, 201, made.body);
      }
      const give = async (roles: string[]) => {
        const given = await test.app.inject({
          method: 'PUT',
          url: `/admin/users/${person.id}/roles-app/1`,
          headers: bearer(admin),
          payload: { roles },
        });
        assert.equal(given.statusCode, 200, given.body);
      };
      const rolesIn = (xml: string) =>
        [
          ...(/<saml:Attribute Name="roles"[^>]*>(.*?)<\/saml:Attribute>/.exec(xml)?.[1] ?? '').matchAll(
            /<saml:AttributeValue[^>]*>([^<]*)<\/saml:AttributeValue>/g,
          ),
        ].map((match) => match[1]);
      await give(['supervisor']);
      const one = await signIn(historian, personToken);
      assert.equal(one.attributes.roles, 'supervisor');
      assert.deepEqual(rolesIn(one.xml), ['supervisor']);
      await give(['supervisor', 'operador']);
      const two = await signIn(historian, personToken);
      assert.deepEqual(rolesIn(two.xml), ['operador', 'supervisor']);
      // An app tied to no catalogue app has no roles to tell.
      const atMaintenance = await signIn(maintenance, personToken);
      assert.equal(atMaintenance.attributes.roles, undefined);
      // Taken away: the next assertion no longer says it.
      await give([]);
      const none = await signIn(historian, personToken);
      assert.deepEqual(rolesIn(none.xml), []);
      assert.equal(none.attributes.roles, undefined);
    });

    it('never sends an expired plan', async () => {
      await test.app.db
        .update(userPlans)
        .set({ fechaVencimiento: new Date(Date.now() - 86_400_000) })
        .where(and(eq(userPlans.userId, person.id), eq(userPlans.appId, 1)));
      try {
        const arrival = await signIn(historian, personToken);
        assert.notEqual(arrival.attributes.plan, 'PRO');
        assert.doesNotMatch(arrival.xml, />PRO</);
      } finally {
        await test.app.db
          .update(userPlans)
          .set({ fechaVencimiento: null })
          .where(and(eq(userPlans.userId, person.id), eq(userPlans.appId, 1)));
      }
    });

    it('answers at the ACS the request names only when the metadata has it', async () => {
      const second = await signIn(historian, personToken, { acs: historian.acs[1] });
      assert.equal(second.form.action, historian.acs[1]);
      assert.equal((second.verified.confirmation as { recipient: string }).recipient, historian.acs[1]);
      const before = await test.app.db.select().from(samlRequests);
      const { query } = redirectQuery(historian, {
        acs: 'https://atacante.example.net/acs',
        signWith: historian.privateKeyPem,
      });
      await refused(await sso(query), /La dirección a la que la aplicación pidió volver no está registrada/);
      assert.equal((await test.app.db.select().from(samlRequests)).length, before.length, 'nothing kept');
    });

    it('refuses an unknown app, a missing or bad signature, and malformed or oversized requests, sending nothing', async () => {
      const stranger = await partner('desconocida', { keyIndex: 1 });
      await refused(await sso(redirectQuery(stranger).query), /La aplicación que te envió aquí no está registrada/);
      // The historian signs its requests: unsigned, or signed with another key, is refused.
      await refused(await sso(redirectQuery(historian).query), /firma/);
      await refused(await sso(redirectQuery(historian, { signWith: maintenance.privateKeyPem }).query), /firma/);
      // A good signature over a changed RelayState no longer verifies.
      const signed = redirectQuery(historian, { signWith: historian.privateKeyPem, relayState: 'a' }).query;
      await refused(await sso(signed.replace('RelayState=a', 'RelayState=b')), /firma/);
      // A signature on a request from an app that does not sign is checked all the same.
      await refused(await sso(redirectQuery(maintenance, { signWith: historian.privateKeyPem }).query), /firma/);
      await refused(await sso('SAMLRequest=esto-no-es-saml'), /no es válida/);
      await refused(await sso(''), /no es válida/);
      const huge = `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_x">${' '.repeat(200_000)}</samlp:AuthnRequest>`;
      await refused(
        await sso(`SAMLRequest=${encodeURIComponent(deflateRawSync(huge).toString('base64'))}`),
        /no es válida/,
      );
      const doctype = `<!DOCTYPE x [<!ENTITY e "x">]>${authnRequestXml(maintenance).xml}`;
      await refused(
        await sso(`SAMLRequest=${encodeURIComponent(deflateRawSync(doctype).toString('base64'))}`),
        /no es válida/,
      );
      await refused(
        await sso(redirectQuery(maintenance, { destination: 'https://otro-idp.example.com/sso' }).query),
        /no es válida/,
      );
    });

    it('takes the POST binding too', async () => {
      const { id, xml } = authnRequestXml(maintenance);
      const response = await test.app.inject({
        method: 'POST',
        url: '/saml/idp/sso',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ SAMLRequest: Buffer.from(xml).toString('base64'), RelayState: 'r' }).toString(),
      });
      const solicitud = continuationOf(response, portal());
      const answered = await cont(solicitud, personToken);
      const arrival = await arrive(maintenance, await deliver(answered.json<{ redirectTo: string }>().redirectTo));
      assert.equal((arrival.verified.confirmation as { inResponseTo: string }).inResponseTo, id);
      assert.equal(arrival.form.relayState, 'r');
      const unsigned = authnRequestXml(historian).xml;
      await refused(
        await test.app.inject({
          method: 'POST',
          url: '/saml/idp/sso',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ SAMLRequest: Buffer.from(unsigned).toString('base64') }).toString(),
        }),
        /firma/,
      );
    });

    it('uses a continuation once, within ten minutes, and its page once', async () => {
      const { solicitud } = await start(maintenance);
      const answered = await cont(solicitud, personToken);
      assert.equal(answered.statusCode, 200);
      const again = await cont(solicitud, personToken);
      assert.equal(again.statusCode, 404);
      assert.match(again.json<{ message: string }>().message, /expiró o ya se usó/);
      const redirectTo = answered.json<{ redirectTo: string }>().redirectTo;
      assert.equal((await deliver(redirectTo)).statusCode, 200);
      await refused(await deliver(redirectTo), /ya se usó o expiró/);

      const { solicitud: late } = await start(maintenance);
      await test.app.db
        .update(samlRequests)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(samlRequests.id, late));
      assert.equal((await cont(late, personToken)).statusCode, 404);
      assert.equal(
        (await test.app.inject({ method: 'GET', url: `/saml/idp/solicitudes/${late}`, headers: bearer(personToken) }))
          .statusCode,
        404,
      );
      const anonymous = await test.app.inject({
        method: 'POST',
        url: `/saml/idp/solicitudes/${late}/continuar`,
        payload: {},
      });
      assert.equal(anonymous.statusCode, 401);
    });

    it('answers for whoever is signed in when they continue, once: another person never gets the first one in', async () => {
      const { solicitud } = await start(maintenance);
      const otherToken = await other.token();
      const byOther = await cont(solicitud, otherToken);
      assert.equal(byOther.statusCode, 200);
      const arrival = await arrive(maintenance, await deliver(byOther.json<{ redirectTo: string }>().redirectTo));
      assert.equal(arrival.attributes.email, 'beto@minera.test', 'the answer names the person who continued');
      assert.equal((await cont(solicitud, personToken)).statusCode, 404, 'and the request is gone for anyone else');
    });

    it('tells the app RequestDenied when the person refuses', async () => {
      const { requestId, solicitud } = await start(maintenance);
      const refusedAnswer = await test.app.inject({
        method: 'POST',
        url: `/saml/idp/solicitudes/${solicitud}/cancelar`,
        headers: bearer(personToken),
      });
      assert.equal(refusedAnswer.statusCode, 200, refusedAnswer.body);
      const page = await deliver(refusedAnswer.json<{ redirectTo: string }>().redirectTo);
      const form = postedForm(page.body);
      assert.equal(form.action, maintenance.acs[0]);
      const xml = Buffer.from(form.samlResponse, 'base64').toString('utf8');
      assert.match(xml, /StatusCode Value="urn:oasis:names:tc:SAML:2\.0:status:RequestDenied"/);
      assert.match(xml, new RegExp(`InResponseTo="${requestId}"`));
      assert.doesNotMatch(xml, /Assertion/);
      const [good] = samlify.SamlLib.verifySignature(xml, { metadata: idp.entityMeta });
      assert.ok(good, 'signed');
      await assert.rejects(
        maintenance.sp.parseLoginResponse(idp, 'post', { body: { SAMLResponse: form.samlResponse } }),
      );
    });

    it('lists the allowed SAML apps in the profile, where taking one back makes it ask again', async () => {
      await signIn(maintenance, personToken);
      const listed = await test.app.inject({ method: 'GET', url: '/auth/aplicaciones', headers: bearer(personToken) });
      assert.equal(listed.statusCode, 200, listed.body);
      const apps = listed.json<{ data: { clientId: string; nombre: string; permisos: { scope: string }[] }[] }>().data;
      const entry = apps.find((app) => app.nombre === 'Mantenimiento');
      assert.ok(entry && /^saml-\d+$/.test(entry.clientId), JSON.stringify(apps));
      assert.deepEqual(
        entry.permisos.map((permiso) => permiso.scope),
        ['openid', 'profile', 'email', 'organization'],
      );
      const revoked = await test.app.inject({
        method: 'DELETE',
        url: `/auth/aplicaciones/${entry.clientId}`,
        headers: bearer(personToken),
      });
      assert.equal(revoked.statusCode, 204, revoked.body);
      const again = await test.app.inject({
        method: 'DELETE',
        url: `/auth/aplicaciones/${entry.clientId}`,
        headers: bearer(personToken),
      });
      assert.equal(again.statusCode, 404);
      const { solicitud } = await start(maintenance);
      const details = await test.app.inject({
        method: 'GET',
        url: `/saml/idp/solicitudes/${solicitud}`,
        headers: bearer(personToken),
      });
      assert.equal(details.json<{ consentimiento: boolean }>().consentimiento, true, 'asks again');
      assert.equal((await cont(solicitud, personToken, false)).statusCode, 409);
    });

    it('works with a request samlify itself makes', async () => {
      const made = maintenance.sp.createLoginRequest(idp, 'redirect') as { context: string };
      const query = made.context.slice(made.context.indexOf('?') + 1);
      const solicitud = continuationOf(await sso(query), portal());
      const answered = await cont(solicitud, personToken);
      const arrival = await arrive(maintenance, await deliver(answered.json<{ redirectTo: string }>().redirectTo));
      assert.equal(arrival.attributes.email, 'ana@minera.test');
    });
  });
});
