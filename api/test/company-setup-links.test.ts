// A company's setup link for its IT: only an owner makes one (1 to 72 hours), its owners list and revoke it; the
// link opens the company's domain, sign-in and directory steps without an account, only for that company, only
// until it expires, is revoked or its owner stops being one; every change through it is in the company's audit log
// with the link and the address; and each address may try it only so often.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { auditLog, companies, companyDomains, companyMembers, companySetupLinks, sessions } from '../src/db/schema.js';
import type { DomainLookup } from '../src/domain/companies/domain-lookup.js';
import { addMember } from '../src/domain/companies/members.js';
import { buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';

type Created = { id: number; url: string; venceEn: string };
type Listed = { id: number; creado: string; creadoPor: string | null; venceEn: string; estado: string };

forEachBackend((backend) => {
  describe(`company setup links (${backend})`, () => {
    let test: TestApp;
    let app: FastifyInstance;
    let admin: string;
    let counter = 0;
    const records = new Map<string, string[]>();
    const dns: DomainLookup = { txt: async (name: string) => records.get(name) ?? [] };

    const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
      app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

    async function company() {
      const [row] = await app.db
        .insert(companies)
        .values({ name: `Minera del Enlace ${++counter}` })
        .returning({ id: companies.id });
      assert.ok(row);
      return row.id;
    }

    /** An active account with the role in the company, signed in: its token, id and email. */
    async function person(companyId: number, role: 'propietario' | 'administrador' | 'miembro') {
      const email = `persona${++counter}@enlaces.test`;
      const id = await createUser(app, { email, password: 'clave-de-prueba-1', status: 'active' });
      await addMember(app.db, companyId, id, role);
      return { token: await login(app, email, 'clave-de-prueba-1'), id, email };
    }

    const create = (companyId: number, token: string, payload: object = {}) =>
      call('POST', `/empresas/${companyId}/enlaces-configuracion`, token, payload);
    const secretOf = (url: string) => url.split('#')[1] ?? '';

    /** A company, its owner and a link the owner made: the link's secret as the page reads it from the URL. */
    async function linked() {
      const companyId = await company();
      const owner = await person(companyId, 'propietario');
      const made = await create(companyId, owner.token);
      assert.equal(made.statusCode, 201, made.body);
      const link = made.json<Created>();
      return { companyId, owner, link, secret: secretOf(link.url) };
    }

    const page = (secret: string) => call('GET', '/configuracion-empresa', secret);

    before(async () => {
      test = await buildTestApp(backend, { authRateLimitPerMinute: 1000 }, { domainLookup: dns });
      app = test.app;
      admin = await login(app);
    });
    after(() => test.close());

    it('lets only an owner create a link, for 24 hours unless told, its URL the portal page with the secret after #', async () => {
      const companyId = await company();
      const owner = await person(companyId, 'propietario');
      const before = Date.now();
      const made = await create(companyId, owner.token);
      assert.equal(made.statusCode, 201, made.body);
      const link = made.json<Created>();
      assert.match(
        link.url,
        new RegExp(`^${app.config.portalUrl.replace(/\/+$/, '')}/configurar-empresa#cfg_[A-Za-z0-9_-]{43}$`),
      );
      const hours = (Date.parse(link.venceEn) - before) / 3_600_000;
      assert.ok(hours > 23.9 && hours < 24.1, `${hours} hours`);
      const stored = await app.db.select().from(companySetupLinks).where(eq(companySetupLinks.id, link.id));
      assert.equal(stored[0]?.secretHash.length, 64);
      assert.ok(!JSON.stringify(stored).includes(secretOf(link.url)), 'the secret itself is not stored');

      for (const role of ['administrador', 'miembro'] as const) {
        const refused = await create(companyId, (await person(companyId, role)).token);
        assert.equal(refused.statusCode, 403, `${role}: ${refused.body}`);
        assert.match(refused.json<{ message: string }>().message, /propietario/);
      }
      const platform = await create(companyId, admin);
      assert.equal(platform.statusCode, 403, platform.body);
      const otherOwner = await person(await company(), 'propietario');
      assert.equal((await create(companyId, otherOwner.token)).statusCode, 403);
      assert.equal(
        (await app.inject({ method: 'POST', url: `/empresas/${companyId}/enlaces-configuracion` })).statusCode,
        401,
      );
      const rows = await app.db.select().from(companySetupLinks).where(eq(companySetupLinks.companyId, companyId));
      assert.equal(rows.length, 1, 'no refused call made a link');
    });

    it('takes 1 to 72 whole hours and refuses anything else with a Spanish 400', async () => {
      const companyId = await company();
      const owner = await person(companyId, 'propietario');
      for (const horas of [1, 72]) {
        const made = await create(companyId, owner.token, { horas });
        assert.equal(made.statusCode, 201, made.body);
        const hours = (Date.parse(made.json<Created>().venceEn) - Date.now()) / 3_600_000;
        assert.ok(Math.abs(hours - horas) < 0.1, `${horas}: ${hours}`);
      }
      for (const horas of [0, 73, 1.5, -1, '24', null]) {
        const refused = await create(companyId, owner.token, { horas });
        assert.equal(refused.statusCode, 400, `${horas}: ${refused.body}`);
      }
      assert.equal((await create(companyId, owner.token, { horas: 2, otra: 1 })).statusCode, 400);
      const rows = await app.db.select().from(companySetupLinks).where(eq(companySetupLinks.companyId, companyId));
      assert.equal(rows.length, 2);
    });

    it('lists the links without their secret, and revokes one at once: the page then says so and who to ask', async () => {
      const { companyId, owner, link, secret } = await linked();
      assert.equal((await page(secret)).statusCode, 200);
      const listed = await call('GET', `/empresas/${companyId}/enlaces-configuracion`, owner.token);
      assert.equal(listed.statusCode, 200, listed.body);
      assert.ok(!listed.body.includes(secret) && !listed.body.includes('cfg_'), 'no secret in the list');
      assert.deepEqual(
        listed.json<{ data: Listed[] }>().data.map(({ id, estado, creadoPor }) => ({ id, estado, creadoPor })),
        [{ id: link.id, estado: 'activo', creadoPor: owner.email }],
      );
      const member = await person(companyId, 'miembro');
      assert.equal((await call('GET', `/empresas/${companyId}/enlaces-configuracion`, member.token)).statusCode, 403);
      assert.equal(
        (await call('DELETE', `/empresas/${companyId}/enlaces-configuracion/${link.id}`, member.token)).statusCode,
        403,
      );
      const other = await linked();
      assert.equal(
        (await call('DELETE', `/empresas/${other.companyId}/enlaces-configuracion/${link.id}`, other.owner.token))
          .statusCode,
        404,
        "another company's owner cannot reach this link",
      );
      assert.equal((await page(secret)).statusCode, 200, 'still open after refused revocations');

      const revoked = await call('DELETE', `/empresas/${companyId}/enlaces-configuracion/${link.id}`, owner.token);
      assert.equal(revoked.statusCode, 204, revoked.body);
      const closed = await page(secret);
      assert.equal(closed.statusCode, 410, closed.body);
      const answer = closed.json<{ code: string; message: string }>();
      assert.equal(answer.code, 'ENLACE_REVOCADO');
      assert.ok(answer.message.includes(owner.email), answer.message);
      assert.equal(
        (await call('POST', '/configuracion-empresa/scim/tokens', secret)).statusCode,
        410,
        'a revoked link opens nothing',
      );
      const again = await call('DELETE', `/empresas/${companyId}/enlaces-configuracion/${link.id}`, owner.token);
      assert.equal(again.statusCode, 204);
      const states = await call('GET', `/empresas/${companyId}/enlaces-configuracion`, owner.token);
      assert.equal(states.json<{ data: Listed[] }>().data[0]?.estado, 'revocado');
      const audit = await app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.companyId, companyId), eq(auditLog.action, 'company.setup_link_revoke')));
      assert.equal(audit.length, 1);
      assert.equal(audit[0]?.details.enlaceId, link.id);
    });

    it('refuses an expired link (410 ENLACE_VENCIDO, naming the owner) and an unknown or malformed one (401)', async () => {
      const { companyId, owner, secret } = await linked();
      await app.db
        .update(companySetupLinks)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(companySetupLinks.companyId, companyId));
      const expired = await page(secret);
      assert.equal(expired.statusCode, 410, expired.body);
      assert.equal(expired.json<{ code: string }>().code, 'ENLACE_VENCIDO');
      assert.match(expired.json<{ message: string }>().message, /venció/);
      assert.ok(expired.body.includes(owner.email));
      const listed = await call('GET', `/empresas/${companyId}/enlaces-configuracion`, owner.token);
      assert.equal(listed.json<{ data: Listed[] }>().data[0]?.estado, 'vencido');

      const unknown = `cfg_${'A'.repeat(43)}`;
      for (const token of [unknown, `${secret.slice(0, -1)}x`, 'cfg_corto', owner.token]) {
        const refused = await page(token);
        assert.equal(refused.statusCode, 401, refused.body);
        assert.equal(refused.json<{ code: string }>().code, 'ENLACE_NO_VALIDO');
        assert.ok(!refused.body.includes(owner.email), 'an unknown link learns nothing of any company');
      }
      assert.equal((await app.inject({ method: 'GET', url: '/configuracion-empresa' })).statusCode, 401);
    });

    it("lets no cache keep the page's answers: live, revoked, expired or unknown, each is no-store", async () => {
      const live = await linked();
      const revoked = await linked();
      assert.equal(
        (
          await call(
            'DELETE',
            `/empresas/${revoked.companyId}/enlaces-configuracion/${revoked.link.id}`,
            revoked.owner.token,
          )
        ).statusCode,
        204,
      );
      const expired = await linked();
      await app.db
        .update(companySetupLinks)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(companySetupLinks.companyId, expired.companyId));
      const answers = {
        live: await page(live.secret),
        revoked: await page(revoked.secret),
        expired: await page(expired.secret),
        unknown: await page(`cfg_${'B'.repeat(43)}`),
        'the owner listing links': await call(
          'GET',
          `/empresas/${live.companyId}/enlaces-configuracion`,
          live.owner.token,
        ),
      };
      assert.deepEqual(Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, answer.statusCode])), {
        live: 200,
        revoked: 410,
        expired: 410,
        unknown: 401,
        'the owner listing links': 200,
      });
      for (const [name, answer] of Object.entries(answers))
        assert.equal(answer.headers['cache-control'], 'no-store', name);
    });

    it('stops at once when the owner who made it is no longer an owner, and says who is', async () => {
      const { companyId, owner, secret } = await linked();
      const second = await person(companyId, 'propietario');
      await app.db
        .update(companyMembers)
        .set({ role: 'administrador' })
        .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, owner.id)));
      const demoted = await page(secret);
      assert.equal(demoted.statusCode, 410, demoted.body);
      assert.equal(demoted.json<{ code: string }>().code, 'ENLACE_REVOCADO');
      assert.ok(demoted.body.includes(second.email), demoted.body);
      await app.db
        .update(companyMembers)
        .set({ role: 'propietario' })
        .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, owner.id)));
      assert.equal((await page(secret)).statusCode, 200, 'the owner again: the link serves again until it expires');
      await app.db
        .delete(companyMembers)
        .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, owner.id)));
      assert.equal((await page(secret)).statusCode, 410, 'the owner left the company');
      const listed = await call('GET', `/empresas/${companyId}/enlaces-configuracion`, second.token);
      assert.equal(listed.json<{ data: Listed[] }>().data[0]?.estado, 'revocado');
    });

    it('opens its company only: the name, the three steps, and changes made there, each in its audit log with the link and address', async () => {
      const { companyId, owner, link, secret } = await linked();
      const other = await linked();
      const opened = await page(secret);
      assert.equal(opened.statusCode, 200, opened.body);
      const body = opened.json<{
        empresa: { id: number; nombre: string };
        enlace: { id: number; venceEn: string };
        dominios: unknown[];
        inicioDeSesion: { direcciones: { redirectUri: string }; proveedor: unknown };
        directorio: { urlBase: string };
      }>();
      assert.equal(body.empresa.id, companyId);
      assert.match(body.empresa.nombre, /^Minera del Enlace/);
      assert.deepEqual(body.enlace, { id: link.id, venceEn: link.venceEn });
      assert.deepEqual(body.dominios, []);
      assert.match(body.inicioDeSesion.direcciones.redirectUri, /\/auth\/empresa\/callback$/);
      assert.equal(body.inicioDeSesion.proveedor, null);
      assert.match(body.directorio.urlBase, /\/scim\/v2$/);

      const claimed = await call('POST', '/configuracion-empresa/dominios', secret, { dominio: 'minera-enlace.cl' });
      assert.equal(claimed.statusCode, 201, claimed.body);
      const { registroTxt } = claimed.json<{ registroTxt: { nombre: string; valor: string } }>();
      const missing = await call('POST', '/configuracion-empresa/dominios/minera-enlace.cl/verificar', secret);
      assert.equal(missing.statusCode, 409, missing.body);
      records.set(registroTxt.nombre, [registroTxt.valor]);
      const proved = await call('POST', '/configuracion-empresa/dominios/minera-enlace.cl/verificar', secret);
      assert.equal(proved.statusCode, 200, proved.body);
      assert.equal(proved.json<{ verificado: boolean }>().verificado, true);
      const domains = await app.db.select().from(companyDomains).where(eq(companyDomains.domain, 'minera-enlace.cl'));
      assert.deepEqual(
        domains.map((row) => row.companyId),
        [companyId],
        'the domain is the link’s company’s, no other',
      );
      const otherClaim = await call('POST', '/configuracion-empresa/dominios/minera-enlace.cl/verificar', other.secret);
      assert.equal(otherClaim.statusCode, 404, "another company's link cannot prove this company's domain");

      const token = await call('POST', '/configuracion-empresa/scim/tokens', secret);
      assert.equal(token.statusCode, 201, token.body);
      const scim = token.json<{ token: string; urlBase: string }>();
      const users = await app.inject({
        method: 'GET',
        url: '/scim/v2/Users',
        headers: { authorization: `Bearer ${scim.token}` },
      });
      assert.equal(users.statusCode, 200, 'the token opens the directory of the link’s company');

      // The owner reads each change once, made by the link (its id and the address it came from), from the link.
      const log = await call('GET', `/empresas/${companyId}/auditoria?limit=50`, owner.token);
      assert.equal(log.statusCode, 200, log.body);
      const entries = log
        .json<{ data: { action: string; actorEmail: string; origen: string; details: Record<string, unknown> }[] }>()
        .data.filter((entry) => entry.action !== 'company.setup_link_create')
        .reverse();
      assert.deepEqual(
        entries.map((entry) => [
          entry.action,
          entry.actorEmail,
          entry.origen,
          entry.details.enlaceId,
          entry.details.direccion,
        ]),
        ['company.domain_add', 'company.domain_verify', 'company.scim_token_create'].map((action) => [
          action,
          `enlace de configuración n.º ${link.id}`,
          'enlace',
          link.id,
          '127.0.0.1',
        ]),
      );
      const otherUses = await app.db.select().from(auditLog).where(eq(auditLog.companyId, other.companyId));
      assert.deepEqual(
        otherUses.map((row) => row.action),
        ['company.setup_link_create'],
        "nothing done through this link is on the other company's record",
      );
    });

    it("saves the company's provider through the link only as its owner could: proved domains, read metadata", async () => {
      const { companyId, secret } = await linked();
      const unproved = await call('PUT', '/configuracion-empresa/proveedor', secret, {
        issuer: 'https://login.minera-sin-probar.cl',
        clientId: 'portal',
        clientSecret: 'secreto-de-prueba',
        dominios: ['minera-sin-probar.cl'],
        permitirContrasena: true,
      });
      assert.equal(unproved.statusCode, 409, unproved.body);
      assert.equal(unproved.json<{ code: string }>().code, 'DOMINIO_NO_VERIFICADO');
      const badMetadata = await call('PUT', '/configuracion-empresa/proveedor', secret, {
        tipo: 'saml',
        metadata: '<no-es-saml/>',
        dominios: ['minera-sin-probar.cl'],
        permitirContrasena: true,
      });
      assert.equal(badMetadata.statusCode, 400, badMetadata.body);
      const opened = await page(secret);
      assert.equal(opened.json<{ inicioDeSesion: { proveedor: unknown } }>().inicioDeSesion.proveedor, null);
      const uses = await app.db
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(and(eq(auditLog.companyId, companyId), sql`${auditLog.details}->>'fuente' = 'enlace'`));
      assert.deepEqual(uses, [], 'nothing refused is on record as done');
    });

    it('creates no session and no account', async () => {
      const { secret } = await linked();
      const countSessions = async () => (await app.db.select({ id: sessions.id }).from(sessions)).length;
      const before = await countSessions();
      const opened = await page(secret);
      assert.equal(opened.statusCode, 200);
      assert.equal(opened.headers['set-cookie'], undefined);
      assert.equal(await countSessions(), before);
    });
  });

  describe(`company setup links: attempts per address (${backend})`, () => {
    let test: TestApp;

    before(async () => {
      test = await buildTestApp(backend, { authRateLimitPerMinute: 3 });
    });
    after(() => test.close());

    it('answers a Spanish 429 once an address tried too often, before looking the secret up', async () => {
      const guess = { authorization: `Bearer cfg_${'B'.repeat(43)}` };
      const answers = [];
      for (let attempt = 0; attempt < 4; attempt++) {
        answers.push(await test.app.inject({ method: 'GET', url: '/configuracion-empresa', headers: guess }));
      }
      assert.deepEqual(
        answers.map((answer) => answer.statusCode),
        [401, 401, 401, 429],
      );
      const limited = answers[3]?.json<{ code: string; message: string }>();
      assert.equal(limited?.code, 'RATE_LIMITED');
      assert.match(limited?.message ?? '', /Demasiadas solicitudes/);
    });
  });
});
