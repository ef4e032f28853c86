// The portal as a SAML identity provider, what an administrator and a partner's IT see: the published metadata
// (GET /saml/idp/metadata), and the SAML apps registered from their service provider metadata under
// /admin/aplicaciones-saml (addresses, keys and NameID format read from the metadata only; refusals in Spanish; the
// audit log; nobody but a platform administrator).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import * as samlify from 'samlify';
import { auditLog } from '../src/db/schema.js';
import { readSpMetadata } from '../src/domain/identity-provider/saml/metadata.js';
import { certificateBody } from '../src/domain/tokens/saml-key.js';
import {
  adminEmail,
  adminPassword,
  buildTestApp,
  createUser,
  forEachBackend,
  login,
  type TestApp,
} from './helpers/app.js';
import { spanishErrorProblem } from './helpers/hostile.js';
import { type Partner, partner } from './helpers/saml-partner.js';

interface SamlAppAnswer {
  idAplicacion: number;
  id: number;
  nombre: string;
  entityId: string;
  appId: number | null;
  urlsAcs: string[];
  urlCierreSesion: string | null;
  urlCierreSesionNavegador: string | null;
  formatoNameId: 'persistent' | 'emailAddress';
  cierresPendientes: number;
  ultimoErrorCierre: string | null;
  creadaEn: string;
  actualizadaEn: string;
}

forEachBackend((backend) => {
  describe('the portal as a SAML identity provider: metadata and registered apps', () => {
    let test: TestApp;
    let admin: string;
    let historian: Partner;
    let mailOnly: Partner;

    const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token = admin) =>
      test.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

    before(async () => {
      test = await buildTestApp(backend);
      admin = await login(test.app, adminEmail, adminPassword);
      historian = await partner('historiador', { signs: true });
      mailOnly = await partner('mantenimiento', { emailOnly: true, slo: false, keyIndex: 1 });
    });
    after(() => test.close());

    it('publishes its metadata: entityID, the two sign-in bindings, logout, NameID formats and its signing certificate', async () => {
      const response = await test.app.inject({ method: 'GET', url: '/saml/idp/metadata' });
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /^application\/samlmetadata\+xml/);
      const api = test.app.config.apiPublicUrl;
      const idp = samlify.IdentityProvider({ metadata: response.body });
      assert.equal(idp.entityMeta.getEntityID(), `${api}/saml/idp/metadata`);
      assert.equal(idp.entityMeta.isWantAuthnRequestsSigned(), false);
      assert.deepEqual(idp.entityMeta.getSingleSignOnService(samlify.Constants.namespace.binding.redirect), {
        [samlify.Constants.namespace.binding.redirect]: `${api}/saml/idp/sso`,
        [samlify.Constants.namespace.binding.post]: `${api}/saml/idp/sso`,
      });
      assert.match(response.body, new RegExp(`SingleLogoutService [^>]*Location="${api}/saml/idp/slo"`));
      assert.match(response.body, /nameid-format:persistent/);
      assert.match(response.body, /nameid-format:emailAddress/);
      assert.equal(
        idp.entityMeta.getX509Certificate('signing'),
        certificateBody(test.app.samlIdp.key.certificatePem),
        'the certificate of the key that signs',
      );
    });

    it('registers an app from its metadata: entityID, POST ACS, SOAP logout and NameID format come from there', async () => {
      const created = await call('POST', '/admin/aplicaciones-saml', {
        nombre: '  Historiador de planta  ',
        metadata: historian.metadata,
        appId: 1,
      });
      assert.equal(created.statusCode, 201, created.body);
      const { id, entityId } = created.json<{ id: number; entityId: string }>();
      assert.equal(entityId, historian.entityId);

      const read = await call('GET', `/admin/aplicaciones-saml/${id}`);
      assert.equal(read.statusCode, 200);
      const app = read.json<SamlAppAnswer>();
      assert.deepEqual(
        { ...app, creadaEn: undefined, actualizadaEn: undefined },
        {
          id,
          idAplicacion: app.idAplicacion,
          nombre: 'Historiador de planta',
          entityId: historian.entityId,
          appId: 1,
          primeraParte: false,
          urlsAcs: historian.acs,
          urlCierreSesion: 'https://historiador.example.com/mellon/logout',
          urlCierreSesionNavegador: 'https://historiador.example.com/mellon/logout',
          formatoNameId: 'persistent',
          cierresPendientes: 0,
          ultimoErrorCierre: null,
          creadaEn: undefined,
          actualizadaEn: undefined,
        },
      );
      const listed = await call('GET', '/admin/aplicaciones-saml');
      assert.equal(listed.statusCode, 200);
      assert.ok(listed.json<{ data: SamlAppAnswer[] }>().data.some((item) => item.id === id));

      // Edited with the metadata of an app that wants email NameIDs and publishes no logout.
      const edited = await call('PUT', `/admin/aplicaciones-saml/${id}`, {
        nombre: 'Mantenimiento',
        metadata: mailOnly.metadata,
      });
      assert.equal(edited.statusCode, 200, edited.body);
      const after = edited.json<SamlAppAnswer>();
      assert.equal(after.entityId, mailOnly.entityId);
      assert.equal(after.formatoNameId, 'emailAddress');
      assert.equal(after.urlCierreSesion, null);
      assert.equal(after.urlCierreSesionNavegador, null);
      assert.equal(after.appId, null);

      const deleted = await call('DELETE', `/admin/aplicaciones-saml/${id}`);
      assert.equal(deleted.statusCode, 204);
      assert.equal((await call('GET', `/admin/aplicaciones-saml/${id}`)).statusCode, 404);
      assert.equal((await call('DELETE', `/admin/aplicaciones-saml/${id}`)).statusCode, 404);

      const actions = await test.app.db
        .select({ action: auditLog.action, actor: auditLog.actorEmail, details: auditLog.details })
        .from(auditLog)
        .where(eq(auditLog.targetType, 'saml_app'));
      assert.deepEqual(
        actions.map((entry) => [entry.action, entry.actor]),
        [
          ['saml_app.create', adminEmail],
          ['saml_app.update', adminEmail],
          ['saml_app.delete', adminEmail],
        ],
      );
      const audit = await call('GET', '/admin/auditoria?targetType=saml_app');
      assert.equal(audit.statusCode, 200, audit.body);
    });

    it('a change without metadata keeps the stored one (the panel never reads it back); a new app needs it', async () => {
      const created = await call('POST', '/admin/aplicaciones-saml', {
        nombre: 'Sin cambios',
        metadata: mailOnly.metadata,
      });
      assert.equal(created.statusCode, 201, created.body);
      const { id } = created.json<{ id: number }>();
      const renamed = await call('PUT', `/admin/aplicaciones-saml/${id}`, { nombre: 'Renombrada', appId: 1 });
      assert.equal(renamed.statusCode, 200, renamed.body);
      const after = renamed.json<SamlAppAnswer>();
      assert.deepEqual(
        [after.nombre, after.appId, after.entityId, after.formatoNameId],
        ['Renombrada', 1, mailOnly.entityId, 'emailAddress'],
      );
      const missing = await call('POST', '/admin/aplicaciones-saml', { nombre: 'Sin metadatos' });
      assert.equal(missing.statusCode, 400);
      assert.match(missing.json<{ message: string }>().message, /metadata/);
      assert.equal((await call('DELETE', `/admin/aplicaciones-saml/${id}`)).statusCode, 204);
    });

    it('refuses an entityID already registered, with a Spanish 409', async () => {
      const first = await call('POST', '/admin/aplicaciones-saml', { nombre: 'Uno', metadata: historian.metadata });
      assert.equal(first.statusCode, 201, first.body);
      const second = await call('POST', '/admin/aplicaciones-saml', { nombre: 'Dos', metadata: historian.metadata });
      assert.equal(second.statusCode, 409);
      assert.equal(spanishErrorProblem(second), undefined);
      assert.match(second.json<{ message: string }>().message, /Ya hay una aplicación SAML registrada con el entityID/);
      const other = await call('POST', '/admin/aplicaciones-saml', { nombre: 'Otra', metadata: mailOnly.metadata });
      assert.equal(other.statusCode, 201);
      const moved = await call('PUT', `/admin/aplicaciones-saml/${other.json<{ id: number }>().id}`, {
        nombre: 'Otra',
        metadata: historian.metadata,
      });
      assert.equal(moved.statusCode, 409);
    });

    it('refuses metadata it cannot use, an unknown catalogue app and a blank name, in Spanish', async () => {
      const idpMetadata = (await test.app.inject({ method: 'GET', url: '/saml/idp/metadata' })).body;
      const cases: [string, object, RegExp][] = [
        ['not XML', { nombre: 'X', metadata: 'hola' }, /no son un documento XML legible/],
        [
          'a document type (entities)',
          { nombre: 'X', metadata: `<!DOCTYPE x [<!ENTITY a "b">]>${historian.metadata}` },
          /tipo de documento/,
        ],
        ["an identity provider's metadata", { nombre: 'X', metadata: idpMetadata }, /no tienen un SPSSODescriptor/],
        [
          'no HTTP-POST ACS',
          { nombre: 'X', metadata: historian.metadata.replaceAll('bindings:HTTP-POST', 'bindings:HTTP-Artifact') },
          /HTTP-POST/,
        ],
        [
          'an unknown app',
          { nombre: 'X', metadata: mailOnly.metadata.replaceAll('mantenimiento', 'otra'), appId: 999 },
          /No existe la app 999/,
        ],
        ['a blank name', { nombre: '   ', metadata: mailOnly.metadata.replaceAll('mantenimiento', 'otra') }, /nombre/],
      ];
      for (const [what, body, message] of cases) {
        const response = await call('POST', '/admin/aplicaciones-saml', body);
        assert.equal(response.statusCode, 400, `${what}: ${response.body}`);
        assert.equal(spanishErrorProblem(response), undefined, what);
        assert.match(response.json<{ message: string }>().message, message, what);
      }
    });

    it('takes addresses over plain http only on this machine or from a portal itself served over http', async () => {
      const plain = historian.metadata.replaceAll('https://historiador', 'http://historiador');
      // This portal is a trial on http://localhost: its partners may be on http too.
      assert.deepEqual(readSpMetadata(plain, true).acsUrls, [
        'http://historiador.example.com/mellon/postResponse',
        'http://historiador.example.com/mellon/postResponse2',
      ]);
      // Served over https, it refuses them, but not a developer's app on this machine.
      assert.throws(() => readSpMetadata(plain, false), /no es https/);
      const local = historian.metadata.replaceAll('https://historiador.example.com', 'http://127.0.0.1:8080');
      assert.equal(readSpMetadata(local, false).acsUrls[0], 'http://127.0.0.1:8080/mellon/postResponse');
    });

    it('lets nobody but a platform administrator in', async () => {
      await createUser(test.app, { email: 'persona@saml.test', password: 'clave-persona-1', status: 'active' });
      const person = await login(test.app, 'persona@saml.test', 'clave-persona-1');
      for (const [method, url] of [
        ['GET', '/admin/aplicaciones-saml'],
        ['POST', '/admin/aplicaciones-saml'],
        ['GET', '/admin/aplicaciones-saml/1'],
        ['PUT', '/admin/aplicaciones-saml/1'],
        ['DELETE', '/admin/aplicaciones-saml/1'],
      ] as const) {
        const payload =
          method === 'POST' || method === 'PUT' ? { nombre: 'X', metadata: mailOnly.metadata } : undefined;
        const response = await call(method, url, payload, person);
        assert.equal(response.statusCode, 403, `${method} ${url}`);
        const anonymous = await test.app.inject({ method, url, ...(payload ? { payload } : {}) });
        assert.equal(anonymous.statusCode, 401, `${method} ${url} without a session`);
      }
    });
  });
});
