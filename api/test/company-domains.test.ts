// A company's email domains: claimed, proved by a DNS TXT record or a platform administrator's confirmation, refused
// when free-mail, public or another company's; and the people who verify an address at a proved domain joining it.
import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  auditLog,
  companies,
  companyDomains,
  companyInvitations,
  companyMembers,
  type DomainJoinMode,
  users,
} from '../src/db/schema.js';
import { type DomainLookup, DomainLookupUnavailable, dnsLookup } from '../src/domain/companies/domain-lookup.js';
import { freeMailAdditions, freeMailDomains, packagedFreeMailDomains } from '../src/domain/companies/free-mail.js';
import { addMember } from '../src/domain/companies/members.js';
import { capturingTransport, codeIn, mailsTo, post, registration } from './helpers/accounts.js';
import { buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';

type DomainAnswer = {
  dominio: string;
  verificado: boolean;
  verificadoPor: 'dns' | 'admin' | null;
  verificadoEn: string | null;
  registroTxt: { nombre: string; valor: string };
};

/** The DNS as the tests publish it: TXT records by name, or down. */
function testDns(): DomainLookup & { records: Map<string, string[]>; down: boolean; asked: string[] } {
  const dns = {
    records: new Map<string, string[]>(),
    down: false,
    asked: [] as string[],
    async txt(name: string) {
      dns.asked.push(name);
      if (dns.down) throw new DomainLookupUnavailable('ETIMEOUT');
      return dns.records.get(name) ?? [];
    },
  };
  return dns;
}

describe('free-mail domains', () => {
  it('adds to the maintained package only what it lacks: one it lists now is removed from the additions', () => {
    const packaged = new Set(packagedFreeMailDomains);
    assert.deepEqual(
      freeMailAdditions.filter((domain) => packaged.has(domain)),
      [],
    );
    for (const domain of freeMailAdditions) assert.ok(freeMailDomains.has(domain), domain);
  });
});

forEachBackend((backend) => {
  describe(`company email domains (${backend})`, () => {
    let test: TestApp;
    let app: FastifyInstance;
    let admin: string;
    let counter = 0;
    const dns = testDns();
    const transport = capturingTransport();

    const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
      app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

    async function company(domainJoin: DomainJoinMode = 'automatic', status: 'active' | 'suspended' = 'active') {
      const [row] = await app.db
        .insert(companies)
        .values({ name: `Empresa de dominios ${++counter}`, domainJoin, status })
        .returning({ id: companies.id });
      assert.ok(row);
      return row.id;
    }

    /** An active account, member of the company with the role, signed in. */
    async function manager(companyId: number, role: 'propietario' | 'administrador' | 'miembro' = 'administrador') {
      const email = `gestor${++counter}@gestores.test`;
      const id = await createUser(app, { email, password: 'clave-de-prueba-1', status: 'active' });
      await addMember(app.db, companyId, id, role);
      return login(app, email, 'clave-de-prueba-1');
    }

    const claim = (companyId: number, dominio: string, token = admin) =>
      call('POST', `/empresas/${companyId}/dominios`, token, { dominio });
    const verify = (companyId: number, dominio: string, token = admin) =>
      call('POST', `/empresas/${companyId}/dominios/${encodeURIComponent(dominio)}/verificar`, token);
    const confirm = (companyId: number, dominio: string, token = admin) =>
      call('POST', `/empresas/${companyId}/dominios/${encodeURIComponent(dominio)}/confirmar`, token);
    const domainRows = (companyId: number) =>
      app.db.select().from(companyDomains).where(eq(companyDomains.companyId, companyId));

    /** Claims the domain and publishes its record, then proves it by DNS. */
    async function proved(companyId: number, dominio: string): Promise<DomainAnswer> {
      const claimed = await claim(companyId, dominio);
      assert.equal(claimed.statusCode, 201, claimed.body);
      const { registroTxt } = claimed.json<DomainAnswer>();
      dns.records.set(registroTxt.nombre, [registroTxt.valor]);
      const verified = await verify(companyId, dominio);
      assert.equal(verified.statusCode, 200, verified.body);
      return verified.json<DomainAnswer>();
    }

    /** Registers `email` through the screens' calls and verifies the emailed code: the account becomes active. */
    async function registerAndVerify(email: string): Promise<number> {
      const registered = await post(app, '/auth/register', registration(email));
      assert.equal(registered.statusCode, 201, registered.body);
      const code = codeIn((await mailsTo(app, transport, email)).at(-1));
      const verified = await post(app, '/auth/verify-registration', {
        email,
        code,
        registrationId: registered.json().registrationId,
      });
      assert.equal(verified.statusCode, 200, verified.body);
      return verified.json<{ user: { id: number } }>().user.id;
    }

    const membership = async (companyId: number, userId: number) =>
      (
        await app.db
          .select()
          .from(companyMembers)
          .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)))
      )[0];

    before(async () => {
      test = await buildTestApp(
        backend,
        { authRateLimitPerMinute: 1000 },
        { mailTransport: transport, domainLookup: dns },
      );
      app = test.app;
      admin = await login(app);
    });
    after(() => test.close());

    it('refuses free-mail domains, public suffixes, addresses and names that are not a registrable domain', async () => {
      const companyId = await company();
      for (const dominio of [
        'gmail.com',
        'outlook.com',
        'hotmail.com',
        'yahoo.com',
        'GMAIL.com.',
        'fastmail.com',
        'tutanota.com',
        'tuta.io',
        'duck.com',
        'com',
        'co.uk',
        'cl',
        'github.io',
      ]) {
        const response = await claim(companyId, dominio);
        assert.equal(response.statusCode, 400, `${dominio}: ${response.body}`);
        assert.equal(response.json().code, 'DOMINIO_PUBLICO', dominio);
        assert.match(response.json().message, /dominio de correo gratuito o público/);
      }
      for (const dominio of [
        '127.0.0.1',
        '[::1]',
        'localhost',
        'intranet.local',
        'minera.invalid',
        'correo.minera-andina.cl',
        'mi_empresa.cl',
        '-minera.cl',
        'minera..cl',
        'ana@minera.cl',
        'https://minera.cl',
        ' ',
      ]) {
        const response = await claim(companyId, dominio);
        assert.equal(response.statusCode, 400, `${dominio}: ${response.body}`);
        assert.equal(response.json().code, 'DOMINIO_INVALIDO', dominio);
        assert.equal(
          response.json().message,
          'El dominio no es válido: escribe solo el dominio de los emails de la empresa, como empresa.cl',
        );
      }
      assert.deepEqual(await domainRows(companyId), []);
    });

    it("refuses a provider's parent domain shared by its tenants, and a tenant's name under it", async () => {
      const companyId = await company();
      for (const dominio of [
        'onmicrosoft.com',
        'OnMicrosoft.com.',
        'contoso.onmicrosoft.com',
        'contoso.mail.onmicrosoft.com',
        'sharepoint.com',
        'b2clogin.com',
        'windows.net',
        'amazonaws.com',
        'googleusercontent.com',
      ]) {
        const response = await claim(companyId, dominio);
        assert.equal(response.statusCode, 400, `${dominio}: ${response.body}`);
        assert.equal(response.json().code, 'DOMINIO_PUBLICO', dominio);
        assert.match(response.json().message, /dominio de correo gratuito o público/);
      }
      assert.deepEqual(await domainRows(companyId), []);
    });

    it('claims a domain lower-case, without the final dot, an IDN in ASCII, with the TXT record to publish; audited', async () => {
      const companyId = await company();
      const owner = await manager(companyId, 'propietario');
      const response = await claim(companyId, '  Minera-Norte.CL. ', owner);
      assert.equal(response.statusCode, 201, response.body);
      const body = response.json<DomainAnswer>();
      assert.equal(body.dominio, 'minera-norte.cl');
      assert.equal(body.verificado, false);
      assert.equal(body.verificadoPor, null);
      assert.equal(body.registroTxt.nombre, '_portal-verificacion.minera-norte.cl');
      assert.match(body.registroTxt.valor, /^portal-verificacion=[A-Za-z0-9_-]{32}$/);

      // Claiming it again answers the same record: the one the company may already have published.
      const again = await claim(companyId, 'minera-norte.cl', owner);
      assert.equal(again.statusCode, 201);
      assert.deepEqual(again.json(), body);

      const idn = await claim(companyId, 'Ñandú.cl', owner);
      assert.equal(idn.statusCode, 201, idn.body);
      assert.equal(idn.json<DomainAnswer>().dominio, 'xn--and-6ma2c.cl');

      const list = await call('GET', `/empresas/${companyId}/dominios`, owner);
      assert.equal(list.statusCode, 200);
      assert.deepEqual(
        list.json<DomainAnswer[]>().map((domain) => domain.dominio),
        ['minera-norte.cl', 'xn--and-6ma2c.cl'],
      );
      const entries = await app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'company.domain_add'), eq(auditLog.companyId, companyId)));
      assert.equal(entries.length, 2);
      assert.deepEqual(entries[0]?.details, { domain: 'minera-norte.cl' });
    });

    it('proves a domain by its TXT record; a wrong token is a 409 naming the record looked for', async () => {
      const companyId = await company();
      const token = await manager(companyId);
      const claimed = (await claim(companyId, 'cobre-sur.cl', token)).json<DomainAnswer>();
      const name = '_portal-verificacion.cobre-sur.cl';

      dns.records.set(name, ['v=spf1 -all', 'portal-verificacion=otro-token']);
      const wrong = await verify(companyId, 'cobre-sur.cl', token);
      assert.equal(wrong.statusCode, 409, wrong.body);
      assert.equal(wrong.json().code, 'REGISTRO_TXT_NO_ENCONTRADO');
      assert.ok(wrong.json().message.includes(name), wrong.body);
      assert.ok(wrong.json().message.includes(claimed.registroTxt.valor), wrong.body);
      assert.equal((await domainRows(companyId))[0]?.verifiedAt, null);
      assert.equal(dns.asked.at(-1), name);

      dns.records.set(name, ['v=spf1 -all', ` ${claimed.registroTxt.valor} `]);
      const right = await verify(companyId, 'cobre-sur.cl', token);
      assert.equal(right.statusCode, 200, right.body);
      const body = right.json<DomainAnswer>();
      assert.equal(body.verificado, true);
      assert.equal(body.verificadoPor, 'dns');
      assert.ok(body.verificadoEn);
      const [entry] = await app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'company.domain_verify'), eq(auditLog.companyId, companyId)));
      assert.deepEqual(entry?.details, { domain: 'cobre-sur.cl', by: 'dns' });
      assert.equal(entry?.actorId !== null, true);

      // Proved once: asking again changes nothing and asks no DNS.
      const asked = dns.asked.length;
      dns.records.delete(name);
      const again = await verify(companyId, 'cobre-sur.cl', token);
      assert.equal(again.statusCode, 200);
      assert.equal(again.json<DomainAnswer>().verificadoEn, body.verificadoEn);
      assert.equal(dns.asked.length, asked);

      for (const dominio of ['no-reclamado.cl', 'cobre sur.cl', 'a..cl']) {
        const unknown = await verify(companyId, dominio, token);
        assert.equal(unknown.statusCode, 404, `${JSON.stringify(dominio)}: ${unknown.body}`);
        assert.equal(unknown.json().code, 'DOMINIO_NO_ENCONTRADO');
      }
      // A control character never reaches the database: the schema's validation refuses it.
      const nul = await verify(companyId, 'cobre\u0000sur.cl', token);
      assert.equal(nul.statusCode, 400, nul.body);
    });

    it('answers a Spanish 503 when the DNS does not answer, and changes nothing', async () => {
      const companyId = await company();
      const claimed = (await claim(companyId, 'dns-caido.cl')).json<DomainAnswer>();
      dns.records.set(claimed.registroTxt.nombre, [claimed.registroTxt.valor]);
      dns.down = true;
      try {
        const response = await verify(companyId, 'dns-caido.cl');
        assert.equal(response.statusCode, 503, response.body);
        assert.deepEqual(response.json(), {
          statusCode: 503,
          message: 'No pudimos consultar el DNS del dominio; inténtalo de nuevo en unos minutos',
          code: 'DNS_NO_DISPONIBLE',
        });
      } finally {
        dns.down = false;
      }
      const [row] = await domainRows(companyId);
      assert.equal(row?.verifiedAt, null);
      const entries = await app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'company.domain_verify'), eq(auditLog.companyId, companyId)));
      assert.equal(entries.length, 0);
    });

    it("a platform administrator confirms a domain without the record; a company's administrator may not", async () => {
      const companyId = await company();
      const owner = await manager(companyId, 'propietario');
      assert.equal((await claim(companyId, 'sin-dns.cl', owner)).statusCode, 201);
      const refused = await confirm(companyId, 'sin-dns.cl', owner);
      assert.equal(refused.statusCode, 403, refused.body);
      assert.equal((await domainRows(companyId))[0]?.verifiedAt, null);

      const confirmed = await confirm(companyId, 'sin-dns.cl');
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      assert.equal(confirmed.json<DomainAnswer>().verificadoPor, 'admin');
      const [entry] = await app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'company.domain_verify'), eq(auditLog.companyId, companyId)));
      assert.equal(entry?.actorEmail, 'admin@portal.test');
      assert.deepEqual(entry?.details, { domain: 'sin-dns.cl', by: 'admin' });
    });

    it('refuses a domain another company proved; of two companies proving one domain at once, exactly one keeps it', async () => {
      const first = await company();
      await proved(first, 'hierro-norte.cl');
      const second = await company();
      const taken = await claim(second, 'hierro-norte.cl');
      assert.equal(taken.statusCode, 409, taken.body);
      assert.equal(taken.json().code, 'DOMINIO_DE_OTRA_EMPRESA');
      assert.deepEqual(await domainRows(second), []);

      // Both claim before either proves; both publish their record; both verify at once.
      const a = await company();
      const b = await company();
      const claims = [
        (await claim(a, 'zinc-andino.cl')).json<DomainAnswer>(),
        (await claim(b, 'zinc-andino.cl')).json<DomainAnswer>(),
      ];
      dns.records.set(
        '_portal-verificacion.zinc-andino.cl',
        claims.map((claimed) => claimed.registroTxt.valor),
      );
      const answers = await Promise.all([verify(a, 'zinc-andino.cl'), verify(b, 'zinc-andino.cl')]);
      assert.deepEqual(
        answers.map((answer) => answer.statusCode).sort(),
        [200, 409],
        answers.map((r) => r.body).join(),
      );
      const loser = answers.find((answer) => answer.statusCode === 409);
      assert.equal(loser?.json().code, 'DOMINIO_DE_OTRA_EMPRESA');
      const provedRows = await app.db.select().from(companyDomains).where(eq(companyDomains.domain, 'zinc-andino.cl'));
      assert.equal(provedRows.filter((row) => row.verifiedAt !== null).length, 1);
      // Nor may a platform administrator confirm it for the other.
      const loserId = answers[0]?.statusCode === 409 ? a : b;
      assert.equal((await confirm(loserId, 'zinc-andino.cl')).statusCode, 409);
    });

    it("lets only the company's owners and administrators in, and none of another company", async () => {
      const companyId = await company();
      const other = await company();
      const member = await manager(companyId, 'miembro');
      const otherAdmin = await manager(other, 'administrador');
      for (const token of [member, otherAdmin]) {
        assert.equal((await claim(companyId, 'ajeno.cl', token)).statusCode, 403);
        assert.equal((await call('GET', `/empresas/${companyId}/dominios`, token)).statusCode, 403);
        assert.equal((await verify(companyId, 'ajeno.cl', token)).statusCode, 403);
        assert.equal((await call('DELETE', `/empresas/${companyId}/dominios/ajeno.cl`, token)).statusCode, 403);
      }
      assert.deepEqual(await domainRows(companyId), []);
    });

    it('removes a domain (204, audited); who joined by it stays a member', async () => {
      const companyId = await company('automatic');
      await proved(companyId, 'plata-alta.cl');
      const userId = await registerAndVerify('luis@plata-alta.cl');
      assert.equal((await membership(companyId, userId))?.status, 'active');
      const removed = await call('DELETE', `/empresas/${companyId}/dominios/plata-alta.cl`, admin);
      assert.equal(removed.statusCode, 204, removed.body);
      assert.deepEqual(await domainRows(companyId), []);
      assert.equal((await membership(companyId, userId))?.status, 'active');
      const [entry] = await app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'company.domain_remove'), eq(auditLog.companyId, companyId)));
      assert.deepEqual(entry?.details, { domain: 'plata-alta.cl', proved: true });
      assert.equal((await call('DELETE', `/empresas/${companyId}/dominios/plata-alta.cl`, admin)).statusCode, 404);
    });

    describe('joining by email domain', () => {
      it('a person registering and verifying ana@minera-andina.cl joins as an active member (automatic); audited', async () => {
        const companyId = await company('automatic');
        await proved(companyId, 'minera-andina.cl');
        const userId = await registerAndVerify('ana@minera-andina.cl');
        const member = await membership(companyId, userId);
        assert.equal(member?.role, 'miembro');
        assert.equal(member?.status, 'active');
        const [entry] = await app.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'company.member_add'), eq(auditLog.companyId, companyId)));
        assert.equal(entry?.actorEmail, 'sistema');
        assert.equal(entry?.actorId, null);
        assert.deepEqual(entry?.details, {
          userId,
          email: 'ana@minera-andina.cl',
          role: 'miembro',
          status: 'active',
          via: 'domain',
          domain: 'minera-andina.cl',
        });
      });

      it("an address written with its domain's final dot is kept without it and joins by its domain", async () => {
        const companyId = await company('automatic');
        await proved(companyId, 'minera-punto.cl');
        const registered = await post(app, '/auth/register', registration('Ana@Minera-Punto.CL.'));
        assert.equal(registered.statusCode, 201, registered.body);
        const code = codeIn((await mailsTo(app, transport, 'ana@minera-punto.cl')).at(-1));
        const verified = await post(app, '/auth/verify-registration', {
          email: 'ana@minera-punto.cl.',
          code,
          registrationId: registered.json().registrationId,
        });
        assert.equal(verified.statusCode, 200, verified.body);
        const userId = verified.json<{ user: { id: number; email: string } }>().user.id;
        assert.equal(verified.json<{ user: { email: string } }>().user.email, 'ana@minera-punto.cl');
        assert.equal((await membership(companyId, userId))?.status, 'active');
      });

      it("waits for a company administrator's approval when the company chose it", async () => {
        const companyId = await company('approval');
        await proved(companyId, 'minera-esperando.cl');
        const userId = await registerAndVerify('ana@minera-esperando.cl');
        const member = await membership(companyId, userId);
        assert.equal(member?.role, 'miembro');
        assert.equal(member?.status, 'pending_approval');
      });

      it('an administrator verifying the account joins it too (every way an account becomes active)', async () => {
        const companyId = await company('automatic');
        await confirm(companyId, (await claim(companyId, 'verificado-admin.cl')).json<DomainAnswer>().dominio);
        const userId = await createUser(app, {
          email: 'eva@verificado-admin.cl',
          password: 'clave-de-prueba-1',
          status: 'pending_verification',
        });
        const response = await call('POST', '/user/verify-emails', admin, { userIds: [userId] });
        assert.equal(response.statusCode, 200, response.body);
        assert.equal((await membership(companyId, userId))?.status, 'active');
      });

      it("an address at an unproved domain, or at a suspended company's, joins nobody", async () => {
        const claimedOnly = await company('automatic');
        assert.equal((await claim(claimedOnly, 'solo-reclamado.cl')).statusCode, 201);
        const suspended = await company('automatic');
        await proved(suspended, 'suspendida.cl');
        await app.db.update(companies).set({ status: 'suspended' }).where(eq(companies.id, suspended));

        for (const email of ['ana@solo-reclamado.cl', 'ana@suspendida.cl', 'ana@correo.suspendida.cl']) {
          const userId = await registerAndVerify(email);
          const memberships = await app.db.select().from(companyMembers).where(eq(companyMembers.userId, userId));
          assert.deepEqual(memberships, [], email);
        }
      });

      it('a pending invitation of that company decides instead of the domain', async () => {
        const companyId = await company('automatic');
        await proved(companyId, 'invitados.cl');
        await app.db.insert(companyInvitations).values({
          companyId,
          email: 'jefa@invitados.cl',
          role: 'administrador',
          codeHash: 'hmac',
          expiresAt: new Date(Date.now() + 7 * 86_400_000),
        });
        const userId = await registerAndVerify('jefa@invitados.cl');
        assert.equal(await membership(companyId, userId), undefined);
        const [user] = await app.db.select().from(users).where(eq(users.id, userId));
        assert.equal(user?.status, 'active');
      });
    });
  });
});

/** A DNS server on 127.0.0.1 that answers every query with `answer`'s response code and TXT strings, or never. */
async function stubDns(
  answer: { rcode: number; txt?: string[] } | 'silent',
): Promise<{ address: string; socket: Socket }> {
  const socket = createSocket('udp4');
  socket.on('message', (query, peer) => {
    if (answer === 'silent') return;
    // The question ends after its name's zero byte and four bytes of type and class.
    let end = 12;
    while (query[end] !== 0) end += (query[end] ?? 0) + 1;
    end += 5;
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    header.writeUInt16BE(0x8180 | answer.rcode, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answer.txt ? 1 : 0, 6);
    const parts = [header, query.subarray(12, end)];
    if (answer.txt) {
      const rdata = Buffer.concat(
        answer.txt.map((text) => Buffer.concat([Buffer.from([text.length]), Buffer.from(text)])),
      );
      const record = Buffer.alloc(12);
      record.writeUInt16BE(0xc00c, 0);
      record.writeUInt16BE(16, 2);
      record.writeUInt16BE(1, 4);
      record.writeUInt32BE(60, 6);
      record.writeUInt16BE(rdata.length, 10);
      parts.push(record, rdata);
    }
    socket.send(Buffer.concat(parts), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${socket.address().port}`, socket };
}

describe('the default DNS lookup (node:dns)', () => {
  it('answers "no record" for a name that does not exist, without hanging', async () => {
    // Its deadline would have answered "unavailable" instead.
    assert.deepEqual(await dnsLookup().txt('_portal-verificacion.no-existe.invalid'), []);
  });

  it("joins each record's strings, and reads NXDOMAIN as no record", async () => {
    const found = await stubDns({ rcode: 0, txt: ['portal-verificacion=', 'abc123'] });
    const missing = await stubDns({ rcode: 3 });
    try {
      assert.deepEqual(await dnsLookup({ servers: [found.address] }).txt('_portal-verificacion.minera.cl'), [
        'portal-verificacion=abc123',
      ]);
      assert.deepEqual(await dnsLookup({ servers: [missing.address] }).txt('_portal-verificacion.minera.cl'), []);
    } finally {
      found.socket.close();
      missing.socket.close();
    }
  });

  it('reads a server failure or no answer in time as "unavailable", never as no record', async () => {
    const failing = await stubDns({ rcode: 2 });
    const silent = await stubDns('silent');
    try {
      await assert.rejects(
        dnsLookup({ servers: [failing.address] }).txt('_portal-verificacion.minera.cl'),
        DomainLookupUnavailable,
      );
      // Its own deadline ends it, before a timer of the default deadline started first: an order, however late the
      // event loop runs.
      const defaultDeadline = new Promise((resolve) => setTimeout(resolve, 2_000, 'the default deadline'));
      const first = await Promise.race([
        dnsLookup({ servers: [silent.address], timeoutMs: 300 })
          .txt('_portal-verificacion.minera.cl')
          .catch((error: unknown) => error),
        defaultDeadline,
      ]);
      assert.ok(first instanceof DomainLookupUnavailable, String(first));
    } finally {
      failing.socket.close();
      silent.socket.close();
    }
  });
});
