// The proof that a company's calls stay within the company: every route under /empresas/:id/... and /admin/empresas...
// read from the app itself (so a route added later is covered, and one without a guard fails here) refuses an
// administrator of company B acting on company A, a member of A, a person in no company, a partner token and an
// anonymous caller, and nothing changes. Only the person's own invitation routes (/empresas/invitaciones/...) are left
// out: they act on the caller, never on a company named in the URL.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import {
  auditLog,
  auditStreams,
  companies,
  companyDomains,
  companyIdentityProviders,
  companyInvitations,
  companyLicences,
  companyMembers,
  companyScimTokens,
  companySeats,
} from '../src/db/schema.js';
import { buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';
import { call, insertCompany, insertLicence, insertMember } from './helpers/company-fixtures.js';
import { listRoutes, type RouteKey } from './helpers/hostile.js';

const partnerOrigin = 'https://socio.example.com';

/** Every company route the app answers, but the person's own invitation routes. */
function companyRoutes(app: FastifyInstance): RouteKey[] {
  return listRoutes(app).filter(
    ({ method, url }) =>
      method !== 'HEAD' &&
      method !== 'OPTIONS' &&
      (url.startsWith('/empresas/') || url === '/admin/empresas' || url.startsWith('/admin/empresas/')) &&
      !url.startsWith('/empresas/invitaciones/'),
  );
}

/** Everything a company is made of, and the audit log: what no refused call may change. */
async function snapshot(app: FastifyInstance) {
  const db = app.db;
  return {
    companies: await db.select().from(companies).orderBy(companies.id),
    members: await db.select().from(companyMembers).orderBy(companyMembers.companyId, companyMembers.userId),
    domains: await db.select().from(companyDomains).orderBy(companyDomains.companyId, companyDomains.domain),
    licences: await db.select().from(companyLicences).orderBy(companyLicences.id),
    seats: await db
      .select()
      .from(companySeats)
      .orderBy(companySeats.companyId, companySeats.appId, companySeats.userId),
    invitations: await db.select().from(companyInvitations).orderBy(companyInvitations.id),
    providers: await db.select().from(companyIdentityProviders).orderBy(companyIdentityProviders.companyId),
    scimTokens: await db.select().from(companyScimTokens).orderBy(companyScimTokens.id),
    // What a person changes of a destination (the worker's own columns aside: it may try meanwhile).
    streams: await db
      .select({
        id: auditStreams.id,
        status: auditStreams.status,
        settings: auditStreams.settings,
        secret: auditStreams.secretSealed,
      })
      .from(auditStreams)
      .orderBy(auditStreams.id),
    audit: (await db.select({ id: auditLog.id }).from(auditLog)).length,
  };
}

forEachBackend((backend) => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(backend, { redirectAllowList: [partnerOrigin] });
  });
  after(() => t.close());

  it('every company route refuses whoever is not of the company (or a platform administrator), and changes nothing', async () => {
    const a = await insertCompany(t.app, `Minera A ${backend}`);
    const b = await insertCompany(t.app, `Minera B ${backend}`);
    const ownerA = await insertMember(t.app, a, `duena-a-${backend}@minera.test`, 'propietario');
    const managerA = await insertMember(t.app, a, `jefe-a-${backend}@minera.test`, 'administrador');
    const memberA = await insertMember(t.app, a, `miembro-a-${backend}@minera.test`, 'miembro');
    const ownerB = await insertMember(t.app, b, `duena-b-${backend}@minera.test`, 'propietario');
    const managerB = await insertMember(t.app, b, `jefe-b-${backend}@minera.test`, 'administrador');
    await insertLicence(t.app, a, 1, 5);
    await t.app.db.insert(companySeats).values({ companyId: a, appId: 1, userId: memberA.id });
    const loner = `sin-empresa-${backend}@portal.test`;
    await createUser(t.app, { email: loner, password: 'clave-sin-empresa', status: 'active' });
    const plain = await login(t.app, loner, 'clave-sin-empresa');
    const managerOfA = await managerA.token();
    const minted = await call(t.app, 'POST', '/auth/partner-token', managerOfA, { redirect_url: partnerOrigin });
    assert.equal(minted.statusCode, 200, minted.body);
    const partner = minted.json<{ access_token: string }>().access_token;
    const platform = await login(t.app);

    const callers = {
      'an owner of company B': { token: await ownerB.token(), refused: [403] },
      'an administrator of company B': { token: await managerB.token(), refused: [403] },
      'a member of company A': { token: await memberA.token(), refused: [403] },
      'a person in no company': { token: plain, refused: [403] },
      "a partner token of A's administrator": { token: partner, refused: [401, 403] },
      'no token': { token: undefined, refused: [401] },
    };
    // Company A's own owner and administrator manage A, but no platform-level resource.
    const platformOnly = { "A's owner": await ownerA.token(), "A's administrator": managerOfA };

    // A destination of A's log, for the routes of one (a host the outbound guard lets through, never reached here).
    const stream = await call(t.app, 'POST', `/empresas/${a}/flujos-auditoria`, managerOfA, {
      tipo: 'https',
      url: 'https://siem.minera-a.example/ingesta',
      cabecera: 'Authorization',
      secreto: 'secreto-del-siem',
      formato: 'ndjson',
    });
    assert.equal(stream.statusCode, 201, stream.body);
    const streamId = stream.json<{ id: string }>().id;

    const fill = (url: string) =>
      url
        .replace(':idUsuario', String(memberA.id))
        .replace(':idFlujo', streamId)
        .replace(':idApp', '1')
        .replace(':idInvitacion', '1')
        .replace(':tokenId', '1')
        .replace(':dominio', 'minera-a.test')
        .replace(':id', String(a));
    const routes = companyRoutes(t.app);
    const names = routes.map(({ method, url }) => `${method} ${url}`);
    for (const expected of [
      'GET /empresas/:id/miembros',
      'PATCH /empresas/:id/miembros/:idUsuario',
      'DELETE /empresas/:id/miembros/:idUsuario',
      'POST /empresas/:id/miembros/:idUsuario/aprobar',
      'POST /empresas/:id/puestos',
      'GET /empresas/:id/puestos',
      'DELETE /empresas/:id/puestos/:idUsuario/:idApp',
      'GET /empresas/:id/informe-puestos',
      'GET /empresas/:id/informe-puestos.csv',
      'GET /empresas/:id/auditoria',
    ]) {
      assert.ok(names.includes(expected), `${expected} is among the routes checked`);
    }

    const before = await snapshot(t.app);
    const failures: string[] = [];
    for (const route of routes) {
      const url = fill(route.url);
      // A body that would pass the schema where it can: the refusal must come from who calls, not from what is sent.
      const payload = ['POST', 'PUT', 'PATCH'].includes(route.method)
        ? { rol: 'miembro', idUsuario: memberA.id, idApp: 1, email: 'x@minera-a.test', nombre: 'Otra', puestos: 1 }
        : undefined;
      const platformRoute = route.url.startsWith('/admin/');
      const checks: Array<[string, string | undefined, number[]]> = Object.entries(callers).map(
        ([who, { token, refused }]) => [who, token, refused],
      );
      if (platformRoute) for (const [who, token] of Object.entries(platformOnly)) checks.push([who, token, [403]]);
      for (const [who, token, refused] of checks) {
        const response = await call(t.app, route.method, url, token, payload);
        if (!refused.includes(response.statusCode)) {
          failures.push(
            `${route.method} ${route.url} for ${who}: ${response.statusCode} ${response.body.slice(0, 120)}`,
          );
        } else if (response.statusCode === 403) {
          assert.equal(typeof response.json().message, 'string');
          assert.ok(!/company B|Minera A/.test(response.body), 'a refusal names no company');
        }
      }
    }
    assert.deepEqual(failures, [], `routes that let the wrong caller through:\n${failures.join('\n')}`);
    assert.deepEqual(await snapshot(t.app), before, 'nothing changed');

    // The same reads by A's administrator and by a platform administrator are answered: the URLs were right (A has a
    // connection to its provider, which GET …/proveedor reads).
    await t.app.db.insert(companyIdentityProviders).values({
      companyId: a,
      issuer: 'https://login.minera-a.example',
      clientId: 'portal',
      clientSecretSealed: 'v1.sellado',
    });
    for (const route of routes.filter((r) => r.method === 'GET')) {
      const url = fill(route.url);
      const platformAnswer = await call(t.app, 'GET', url, platform);
      assert.equal(platformAnswer.statusCode, 200, `${route.url} for a platform administrator: ${platformAnswer.body}`);
      if (!route.url.startsWith('/admin/')) {
        // The setup links are the owners' (decision 0105): A's owner reads them, A's administrator is refused.
        const ownersOnly = route.url.startsWith('/empresas/:id/enlaces-configuracion');
        const own = await call(t.app, 'GET', url, ownersOnly ? await ownerA.token() : managerOfA);
        assert.equal(
          own.statusCode,
          200,
          `${route.url} for A's ${ownersOnly ? 'owner' : 'administrator'}: ${own.body}`,
        );
        if (ownersOnly) assert.equal((await call(t.app, 'GET', url, managerOfA)).statusCode, 403);
      }
    }
  });
});
