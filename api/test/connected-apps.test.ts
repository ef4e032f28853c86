// The registry of partner apps: one list whatever the protocol, each protocol's own paths still answering, and the
// event subscriptions that belong to the app, so a SAML app receives the events of the people it signed in under the
// NameID it was sent, as an OpenID Connect client does under its `sub`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import type * as samlify from 'samlify';
import { auditLog, partnerSubscriptions } from '../src/db/schema.js';
import { adminEmail, adminPassword, createUser, forEachBackend, login } from './helpers/app.js';
import { planOf } from './helpers/company-fixtures.js';
import { type OidcTestApi, registerClient, startOidcApi } from './helpers/oidc.js';
import {
  continuationOf,
  type Partner,
  partner,
  portalAsPartnerSees,
  postedForm,
  redirectQuery,
} from './helpers/saml-partner.js';
import { type Receiver, type Seen, startReceiver } from './helpers/webhook-receiver.js';

const password = 'clave-de-la-planta';

interface Listed {
  id: number;
  protocolo: 'oidc' | 'saml';
  nombre: string;
  appId: number | null;
  primeraParte: boolean;
  clientId: string | null;
  samlAppId: number | null;
  entityId: string | null;
  dispositivos: boolean;
  creadaEn: string;
}

forEachBackend((backend) => {
  describe('connected apps: one registry, subscriptions that belong to the app', () => {
    let api: OidcTestApi;
    let admin: string;
    let historian: Partner;
    let idp: samlify.IdentityProviderInstance;
    const receivers: Receiver[] = [];

    const call = (method: string, url: string, token: string | undefined, payload?: unknown) =>
      api.app.inject({
        method: method as 'GET',
        url,
        ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
        ...(payload !== undefined ? { payload: payload as object } : {}),
      });
    const listed = async () => {
      const answer = await call('GET', '/admin/aplicaciones-conectadas', admin);
      assert.equal(answer.statusCode, 200, answer.body);
      return answer.json<{ data: Listed[] }>().data;
    };
    const types = (seen: Seen[]) => seen.map((one) => one.body.type);

    /** The whole SAML way for a person: request, continuation allowing, the page; answers the NameID the app read. */
    async function samlSignIn(token: string): Promise<string> {
      const { query } = redirectQuery(historian, { signWith: historian.privateKeyPem });
      const solicitud = continuationOf(
        await api.app.inject({ method: 'GET', url: `/saml/idp/sso?${query}` }),
        api.app.config.portalUrl,
      );
      const answered = await call('POST', `/saml/idp/solicitudes/${solicitud}/continuar`, token, { permitir: true });
      assert.equal(answered.statusCode, 200, answered.body);
      const redirectTo = answered.json<{ redirectTo: string }>().redirectTo;
      const page = await api.app.inject({ method: 'GET', url: redirectTo.slice(api.issuer.length) });
      assert.equal(page.statusCode, 200, page.body);
      const form = postedForm(page.body);
      const parsed = await historian.sp.parseLoginResponse(idp, 'post', { body: { SAMLResponse: form.samlResponse } });
      return (parsed.extract as { nameID: string }).nameID;
    }

    before(async () => {
      api = await startOidcApi(backend, { oidcBackchannelPrivateNetwork: true, partnerEventsTimeoutMs: 1_000 });
      admin = await login(api.app, adminEmail, adminPassword);
      historian = await partner('historiador', { signs: true });
      idp = await portalAsPartnerSees(api.app);
    });
    after(async () => {
      for (const one of receivers) one.stop();
      await api.close();
    });

    it('lists every connected app with its protocol in one list; each protocol keeps its own paths', async () => {
      const client = await registerClient(api.app, {
        nombre: 'Control Max',
        redirectUris: ['https://control.example.com/cb'],
        primeraParte: true,
        appId: 2,
        dispositivos: true,
      });
      const created = await call('POST', '/admin/aplicaciones-saml', admin, {
        nombre: 'Historiador de planta',
        metadata: historian.metadata,
        appId: 1,
      });
      assert.equal(created.statusCode, 201, created.body);
      const samlAppId = created.json<{ id: number }>().id;

      const apps = await listed();
      const oidc = apps.find((one) => one.clientId === client.clientId);
      const saml = apps.find((one) => one.samlAppId === samlAppId);
      assert.deepEqual(
        { ...oidc, id: undefined },
        {
          id: undefined,
          protocolo: 'oidc',
          nombre: 'Control Max',
          appId: 2,
          primeraParte: true,
          clientId: client.clientId,
          samlAppId: null,
          entityId: null,
          dispositivos: true,
          creadaEn: oidc?.creadaEn,
        },
      );
      assert.equal(saml?.protocolo, 'saml');
      assert.equal(saml?.nombre, 'Historiador de planta');
      assert.equal(saml?.entityId, historian.entityId);
      assert.equal(saml?.primeraParte, false);
      assert.deepEqual(
        apps.map((one) => one.nombre),
        [...apps.map((one) => one.nombre)].sort((a, b) => a.localeCompare(b, 'es')),
        'by name',
      );
      // The older paths answer as before, from the same registry: a rename under one shows in the list.
      const renamed = await call('PUT', `/admin/aplicaciones-saml/${samlAppId}`, admin, {
        nombre: 'Historiador',
        appId: 1,
      });
      assert.equal(renamed.statusCode, 200, renamed.body);
      assert.equal((await listed()).find((one) => one.samlAppId === samlAppId)?.nombre, 'Historiador');
      const oidcRead = await call('GET', `/admin/clientes-oidc/${client.clientId}`, admin);
      assert.equal(oidcRead.json<{ nombre: string; primeraParte: boolean }>().nombre, 'Control Max');
      // Only administrators.
      const person = await createUser(api.app, { email: 'curiosa@portal.test', password, status: 'active' });
      assert.ok(person);
      const token = await login(api.app, 'curiosa@portal.test', password);
      assert.equal((await call('GET', '/admin/aplicaciones-conectadas', token)).statusCode, 403);
      assert.equal((await call('GET', '/admin/aplicaciones-conectadas', undefined)).statusCode, 401);
    });

    it("a SAML app receives the events of the people it signed in, under the NameID it sent; nobody else's", async () => {
      const saml = (await listed()).find((one) => one.entityId === historian.entityId) as Listed;
      const r = await startReceiver();
      receivers.push(r);
      const subscribed = await call('POST', `/admin/aplicaciones-conectadas/${saml.id}/suscripciones`, admin, {
        url: r.url,
        eventos: ['usuario.actualizado', 'usuario.suspendido', 'plan.asignado'],
      });
      assert.equal(subscribed.statusCode, 201, subscribed.body);
      const { id: subscriptionId, secreto } = subscribed.json<{ id: string; secreto: string }>();
      await r.control({ secrets: [secreto] });
      const [audited] = await api.app.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'saml_app.subscription_create'));
      assert.equal(audited?.targetType, 'saml_app');
      assert.equal(audited?.targetId, saml.samlAppId);
      const listedSubscriptions = await call('GET', `/admin/aplicaciones-conectadas/${saml.id}/suscripciones`, admin);
      assert.deepEqual(
        listedSubscriptions.json<{ data: { id: string }[] }>().data.map((one) => one.id),
        [subscriptionId],
      );

      const personId = await createUser(api.app, { email: 'operaria@portal.test', password, status: 'active' });
      const stranger = await createUser(api.app, { email: 'ajena@portal.test', password, status: 'active' });
      const token = await login(api.app, 'operaria@portal.test', password);
      const nameId = await samlSignIn(token);
      assert.match(nameId, /^[A-Za-z0-9_-]{20,}$/, 'the persistent, per-app NameID');

      let answer = await call('PUT', `/auth/editar/${personId}`, token, { name: 'Nueva', phone: '+34 600 111 222' });
      assert.equal(answer.statusCode, 200, answer.body);
      answer = await call('PUT', `/auth/editar/${personId}`, token, { phone: '+34 600 333 444' });
      assert.equal(answer.statusCode, 200, answer.body);
      for (const id of [stranger, personId]) {
        answer = await call('PUT', `/auth/editar/${id}`, admin, { status: 'suspended' });
        assert.equal(answer.statusCode, 200, answer.body);
      }
      answer = await call('PUT', `/auth/editar/${personId}`, admin, { status: 'active' });
      assert.equal(answer.statusCode, 200, answer.body);
      answer = await call('POST', '/plan-usuario/cambiar-plan-app', admin, {
        idUsuario: personId,
        idApp: 1,
        idPlan: await planOf(api.app, 1),
        fechaVencimiento: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      });
      assert.equal(answer.statusCode, 200, answer.body);
      await api.app.partnerEvents.worker.deliverDue();

      const got = await r.accepted();
      // The phone alone is no attribute the app is given: not told. The reactivation: not subscribed.
      assert.deepEqual(types(got), ['usuario.actualizado', 'usuario.suspendido', 'plan.asignado']);
      for (const one of got) assert.equal(one.body.data.sub, nameId);
      assert.deepEqual(got[0]?.body.data, { sub: nameId, cambios: ['nombre'], nombre: 'Nueva' });
      assert.equal((got[2]?.body.data.plan as { nombre?: string } | undefined)?.nombre, 'PRO');
      for (const one of await r.seen()) assert.equal(one.verified, true);

      // The deliveries are read and sent again under the app's registry id, as a client's under its client_id.
      const deliveries = await call(
        'GET',
        `/admin/aplicaciones-conectadas/${saml.id}/suscripciones/${subscriptionId}/entregas`,
        admin,
      );
      assert.equal(deliveries.statusCode, 200, deliveries.body);
      const [newest] = deliveries.json<{ data: { id: number; evento: string; estado: string }[] }>().data;
      assert.deepEqual([newest?.evento, newest?.estado], ['plan.asignado', 'entregada']);
      const resent = await call(
        'POST',
        `/admin/aplicaciones-conectadas/${saml.id}/suscripciones/${subscriptionId}/entregas/${newest?.id}/reenviar`,
        admin,
      );
      assert.equal(resent.statusCode, 200, resent.body);
      const [resendAudit] = await api.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'saml_app.delivery_resend'), eq(auditLog.targetId, saml.samlAppId as number)));
      assert.ok(resendAudit, 'the resend is audited on the SAML app');

      // The person (signed in again: the suspension ended their sessions) takes back the app's access in /perfil: it
      // hears nothing more of them.
      const again = await login(api.app, 'operaria@portal.test', password);
      const revoked = await call('DELETE', `/auth/aplicaciones/saml-${saml.samlAppId}`, again);
      assert.equal(revoked.statusCode, 204, revoked.body);
      const before = (await r.accepted()).length;
      answer = await call('PUT', `/auth/editar/${personId}`, admin, { status: 'suspended' });
      assert.equal(answer.statusCode, 200, answer.body);
      await api.app.partnerEvents.worker.deliverDue();
      assert.equal((await r.accepted()).length, before);
    });

    it('a SAML app of the suite itself (primeraParte) asks no consent, as a first-party OpenID Connect client', async () => {
      const saml = (await listed()).find((one) => one.entityId === historian.entityId) as Listed;
      await createUser(api.app, { email: 'sin-consentir@portal.test', password, status: 'active' });
      const token = await login(api.app, 'sin-consentir@portal.test', password);
      const ask = async () => {
        const { query } = redirectQuery(historian, { signWith: historian.privateKeyPem });
        const solicitud = continuationOf(
          await api.app.inject({ method: 'GET', url: `/saml/idp/sso?${query}` }),
          api.app.config.portalUrl,
        );
        return call('POST', `/saml/idp/solicitudes/${solicitud}/continuar`, token, {});
      };
      assert.equal((await ask()).statusCode, 409, 'a third-party app: the consent screen first');
      const changed = await call('PUT', `/admin/aplicaciones-saml/${saml.samlAppId}`, admin, {
        nombre: saml.nombre,
        appId: saml.appId,
        primeraParte: true,
      });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal(changed.json<{ primeraParte: boolean }>().primeraParte, true);
      assert.equal((await listed()).find((one) => one.id === saml.id)?.primeraParte, true);
      const answered = await ask();
      assert.equal(answered.statusCode, 200, answered.body);
      // A change that does not name it keeps it.
      await call('PUT', `/admin/aplicaciones-saml/${saml.samlAppId}`, admin, {
        nombre: saml.nombre,
        appId: saml.appId,
      });
      assert.equal((await listed()).find((one) => one.id === saml.id)?.primeraParte, true);
    });

    it("a registry id that names no app is a Spanish 404; one that is no number a 400; the app's deletion takes its subscriptions", async () => {
      const missing = await call('GET', '/admin/aplicaciones-conectadas/999999/suscripciones', admin);
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), {
        statusCode: 404,
        message: 'Aplicación conectada no encontrada',
        code: 'CONNECTED_APP_NOT_FOUND',
      });
      assert.equal((await call('GET', '/admin/aplicaciones-conectadas/abc/suscripciones', admin)).statusCode, 400);

      const saml = (await listed()).find((one) => one.entityId === historian.entityId) as Listed;
      const deleted = await call('DELETE', `/admin/aplicaciones-saml/${saml.samlAppId}`, admin);
      assert.equal(deleted.statusCode, 204, deleted.body);
      assert.equal(
        (await listed()).some((one) => one.id === saml.id),
        false,
      );
      assert.deepEqual(
        await api.app.db.select().from(partnerSubscriptions).where(eq(partnerSubscriptions.connectedAppId, saml.id)),
        [],
      );
    });
  });
});
