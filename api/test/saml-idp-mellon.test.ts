// The portal as the SAML identity provider of a real partner app: Apache with mod_auth_mellon (Debian's packages),
// its service provider made by mellon_create_metadata and trusting the portal's published metadata. A person who opens
// the protected page arrives there with `email`, `nombre` and `plan`; signing out of the portal ends the app's session
// by a SOAP LogoutRequest mellon takes at its /logout; an Apache whose app is not registered gets the portal's Spanish
// page and nothing else.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { adminEmail, adminPassword, buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';
import { insertCompany, insertMember, planOf } from './helpers/company-fixtures.js';
import { freePort, waitFor } from './helpers/processes.js';
import { postedForm } from './helpers/saml-partner.js';
import { userPlans } from '../src/db/schema.js';

const modules = '/usr/lib/apache2/modules';

/** Apache with mod_auth_mellon protecting `/`, its files in `dir`; the page answers the person's attributes. */
async function startMellon(dir: string, idpMetadata: string) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/mellon`;
  execFileSync('/usr/sbin/mellon_create_metadata', [`${base}/metadata`, base], { cwd: dir, stdio: 'ignore' });
  const stem = join(dir, `http_127.0.0.1_${port}_mellon_metadata`);
  writeFileSync(join(dir, 'idp.xml'), idpMetadata);
  writeFileSync(join(dir, 'index.html'), 'hola');
  writeFileSync(
    join(dir, 'httpd.conf'),
    [
      `ServerRoot "${dir}"`,
      `Listen 127.0.0.1:${port}`,
      `PidFile ${dir}/httpd.pid`,
      `ErrorLog ${dir}/error.log`,
      'LogLevel warn',
      ...['mpm_event', 'authn_core', 'authz_core', 'authz_user', 'headers', 'auth_mellon'].map(
        (name) => `LoadModule ${name}_module ${modules}/mod_${name}.so`,
      ),
      'ServerName 127.0.0.1',
      `DocumentRoot ${dir}`,
      `MellonLockFile ${dir}/mellon.lock`,
      '<Location />',
      '  AuthType Mellon',
      '  MellonEnable auth',
      '  Require valid-user',
      '  MellonEndpointPath /mellon',
      `  MellonSPPrivateKeyFile ${stem}.key`,
      `  MellonSPCertFile ${stem}.cert`,
      `  MellonSPMetadataFile ${stem}.xml`,
      `  MellonIdPMetadataFile ${dir}/idp.xml`,
      '  MellonSecureCookie Off',
      '  Header set X-Email "%{MELLON_email}e"',
      '  Header set X-Nombre "%{MELLON_nombre}e"',
      '  Header set X-Plan "%{MELLON_plan}e"',
      '</Location>',
      '',
    ].join('\n'),
  );
  const server = spawn('/usr/sbin/apache2', ['-f', join(dir, 'httpd.conf'), '-DFOREGROUND'], { stdio: 'ignore' });
  await waitFor(
    'Apache with mod_auth_mellon',
    async () => (await fetch(`http://127.0.0.1:${port}/mellon/metadata`)).ok,
  );
  return {
    origin: `http://127.0.0.1:${port}`,
    /** mellon_create_metadata's own metadata, and with the SOAP logout mellon takes at /logout named in it. */
    metadata: readFileSync(`${stem}.xml`, 'utf8'),
    async stop() {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    },
  };
}

forEachBackend((backend) => {
  describe('a partner app behind Apache mod_auth_mellon', () => {
    let test: TestApp;
    let admin: string;
    let dir: string;
    let mellon: Awaited<ReturnType<typeof startMellon>>;

    before(async () => {
      test = await buildTestApp(backend);
      admin = await login(test.app, adminEmail, adminPassword);
      dir = mkdtempSync(join(tmpdir(), 'portal-mellon-'));
      const metadata = await test.app.inject({ method: 'GET', url: '/saml/idp/metadata' });
      mellon = await startMellon(dir, metadata.body);
    });
    after(async () => {
      await mellon?.stop();
      await test?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** A browser: the API answered in process at its public address, Apache over HTTP, with mellon's cookies. */
    function browser() {
      const jar = new Map<string, string>();
      return async (url: string, init: { method?: string; form?: Record<string, string> } = {}) => {
        const api = test.app.config.apiPublicUrl;
        if (url.startsWith(api)) {
          const answer = await test.app.inject({ method: 'GET', url: url.slice(api.length) });
          return {
            status: answer.statusCode,
            location: answer.headers.location as string | undefined,
            body: answer.body,
            headers: {} as Record<string, string | null>,
          };
        }
        const answer = await fetch(url, {
          method: init.method ?? 'GET',
          redirect: 'manual',
          headers: {
            ...(jar.size ? { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') } : {}),
            ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
          ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
        });
        for (const cookie of answer.headers.getSetCookie()) {
          const [pair = ''] = cookie.split(';');
          const at = pair.indexOf('=');
          jar.set(pair.slice(0, at), pair.slice(at + 1));
        }
        return {
          status: answer.status,
          location: answer.headers.get('location') ?? undefined,
          body: await answer.text(),
          headers: {
            email: answer.headers.get('x-email'),
            nombre: answer.headers.get('x-nombre'),
            plan: answer.headers.get('x-plan'),
          },
        };
      };
    }

    /** Opens the app's page signed out of it: mellon's login, then the portal's SSO endpoint. */
    async function toPortal(go: ReturnType<typeof browser>) {
      const page = await go(`${mellon.origin}/index.html`);
      assert.equal(page.status, 303);
      const start = await go(String(page.location));
      assert.equal(start.status, 303);
      assert.ok(String(start.location).startsWith(`${test.app.config.apiPublicUrl}/saml/idp/sso?SAMLRequest=`));
      return go(String(start.location));
    }

    it('gives an unregistered app nothing but the Spanish page', async () => {
      const answer = await toPortal(browser());
      assert.equal(answer.status, 400);
      assert.match(answer.body, /no está registrada en el portal/);
      assert.doesNotMatch(answer.body, /SAMLResponse|<form/);
    });

    it('signs a person in with email, nombre and plan, and out again when they sign out of the portal', async () => {
      const metadata = mellon.metadata.replace(
        '<SingleLogoutService',
        `<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:SOAP" Location="${mellon.origin}/mellon/logout"/><SingleLogoutService`,
      );
      const created = await test.app.inject({
        method: 'POST',
        url: '/admin/aplicaciones-saml',
        headers: { authorization: `Bearer ${admin}` },
        payload: { nombre: 'Historiador', metadata, appId: 1 },
      });
      assert.equal(created.statusCode, 201, created.body);
      const company = await insertCompany(test.app, 'Minera Mellon');
      const ana = await insertMember(test.app, company, 'ana@mellon.test', 'miembro');
      await test.app.db
        .insert(userPlans)
        .values({ userId: ana.id, appId: 1, planId: await planOf(test.app, 1, 'PRO') });
      const token = await ana.token();

      const go = browser();
      const portal = await toPortal(go);
      assert.equal(portal.status, 303, portal.body);
      const solicitud = new URL(String(portal.location)).searchParams.get('solicitud');
      const answered = await test.app.inject({
        method: 'POST',
        url: `/saml/idp/solicitudes/${solicitud}/continuar`,
        headers: { authorization: `Bearer ${token}` },
        payload: { permitir: true },
      });
      assert.equal(answered.statusCode, 200, answered.body);
      const page = await go(answered.json<{ redirectTo: string }>().redirectTo);
      const form = postedForm(page.body);
      assert.equal(form.action, `${mellon.origin}/mellon/postResponse`);
      const acs = await go(form.action, {
        method: 'POST',
        form: { SAMLResponse: form.samlResponse, ...(form.relayState ? { RelayState: form.relayState } : {}) },
      });
      assert.equal(acs.status, 303, `mellon took the response: ${acs.body.slice(0, 300)}`);
      const inside = await go(`${mellon.origin}/index.html`);
      assert.equal(inside.status, 200);
      assert.deepEqual(inside.headers, { email: 'ana@mellon.test', nombre: 'Prueba', plan: 'PRO' });

      const out = await test.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(out.statusCode, 204);
      await test.app.samlIdp.logouts.deliverDue();
      const app = await test.app.inject({
        method: 'GET',
        url: `/admin/aplicaciones-saml/${created.json<{ id: number }>().id}`,
        headers: { authorization: `Bearer ${admin}` },
      });
      assert.equal(app.json<{ cierresPendientes: number }>().cierresPendientes, 0, app.body);
      const after = await go(`${mellon.origin}/index.html`);
      assert.equal(after.status, 303, 'the app asks to sign in again');
    });
  });
});
