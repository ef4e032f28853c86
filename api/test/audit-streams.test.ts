// A company streams its activity log to its own SIEM: Debian's rsyslog taking RFC 5425 (syslog over TLS) on loopback,
// and an HTTPS receiver of Splunk HEC's format. Every committed entry arrives, in order, also those made while the
// receiver was down; two API instances send each entry once; the destination's secret is never shown again; only the
// company's managers set destinations.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { rowsOf } from '../src/db/client.js';
import { auditStreams } from '../src/db/schema.js';
import { createAuditStream, testDocument } from '../src/domain/audit-streams/destinations.js';
import { send, syslogFrame } from '../src/domain/audit-streams/transports.js';
import type { OutgoingMail } from '../src/domain/mail/mailer.js';
import { buildTestApp, buildTestAppPair, databaseUrl, forEachBackend, login, type TestApp } from './helpers/app.js';
import { call as callAs, insertCompany, insertMember, memberPassword } from './helpers/company-fixtures.js';
import { freePort, waitFor } from './helpers/processes.js';
import { type Rsyslog, rsyslogIn, testCertificates } from './helpers/rsyslog.js';

interface Doc {
  '@timestamp': string;
  event: { id: string; action: string };
  organization: { id: string; name: string };
  portal: { detalles: Record<string, unknown> };
}
interface Stream {
  id: string;
  tipo: string;
  url?: string;
  estado: string;
  entregadoHasta: string | null;
  retraso: { entradas: number; segundos: number };
  ultimoError: string | null;
}

forEachBackend((backend) => {
  describe("a company's activity log streamed to its SIEM", () => {
    let test: TestApp;
    let dir: string;
    let certs: ReturnType<typeof testCertificates>;
    let rsyslog: Rsyslog;
    let companyId: number;
    let owner: string;
    const mails: OutgoingMail[] = [];
    const call = (method: string, url: string, token: string | undefined, payload?: unknown) =>
      callAs(test.app, method, url, token, payload);
    const base = () => `/empresas/${companyId}/flujos-auditoria`;
    const streamOf = async (id: string) => {
      const answer = await call('GET', `${base()}/${id}`, owner);
      assert.equal(answer.statusCode, 200, answer.body);
      return answer.json<Stream>();
    };
    const rules = async (hours: number) => {
      const changed = await call('PATCH', `/empresas/${companyId}/ajustes`, owner, { sesionMaximaHoras: hours });
      assert.equal(changed.statusCode, 200, changed.body);
    };
    /** The rules changes rsyslog wrote, as ECS documents, in the order it wrote them. */
    const rulesAtRsyslog = () =>
      rsyslog
        .received()
        .filter((line) => line.msgId === 'company.settings_change')
        .map((line) => {
          assert.equal(line.appName, 'portal');
          return JSON.parse(line.msg) as Doc;
        });

    /**
     * An HTTPS collector on loopback that takes every POST (as Splunk HEC answers): each request's Authorization and
     * lines, and the event ids of the NDJSON documents it took, in order.
     */
    const httpsCollector = async () => {
      const requests: { authorization?: string; lines: { time: number; event: Doc }[] }[] = [];
      const ids: string[] = [];
      const server: Server = createServer(
        { cert: readFileSync(certs.certFile), key: readFileSync(certs.keyFile) },
        (request, response) => {
          let body = '';
          request.on('data', (chunk) => {
            body += chunk;
          });
          request.on('end', () => {
            const lines = body
              .trim()
              .split('\n')
              .map((line) => JSON.parse(line));
            requests.push({ authorization: request.headers.authorization, lines });
            // An NDJSON line is a document; a Splunk HEC line wraps one in `event`.
            for (const line of lines as Doc[]) if (typeof line.event.id === 'string') ids.push(line.event.id);
            response.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"Success","code":0}');
          });
        },
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return {
        requests,
        ids,
        url: (path: string) => `https://127.0.0.1:${(server.address() as { port: number }).port}${path}`,
        async close() {
          const closed = new Promise((resolve) => server.close(resolve));
          server.closeAllConnections();
          await closed;
        },
      };
    };

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'portal-siem-'));
      certs = testCertificates(dir);
      rsyslog = rsyslogIn(dir, await freePort(), certs);
      await rsyslog.start();
      test = await buildTestApp(
        backend,
        { partnerEventsTimeoutMs: 3_000 },
        { mailTransport: { send: async (mail) => void mails.push(mail) } },
      );
      companyId = await insertCompany(test.app, 'Minera del Sur S.A.');
      owner = await (await insertMember(test.app, companyId, 'duena@minera.test', 'propietario')).token();
    });
    after(async () => {
      await rsyslog.kill();
      await test.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('streams to rsyslog over TLS in order, and what was made while it was down arrives once it is back', async () => {
      const created = await call('POST', base(), owner, {
        tipo: 'syslog',
        host: '127.0.0.1',
        puerto: rsyslog.port,
        ca: certs.ca,
      });
      assert.equal(created.statusCode, 201, created.body);
      const { id } = created.json<Stream>();
      assert.equal(created.json<Stream>().estado, 'activo');

      await rules(12);
      const [first] = await waitFor(
        'the rules change at rsyslog',
        () => rulesAtRsyslog().length === 1 && rulesAtRsyslog(),
        30_000,
        50,
      );
      assert.equal(first?.event.action, 'company.settings_change');
      assert.deepEqual(first?.organization, { id: String(companyId), name: 'Minera del Sur S.A.' });
      assert.deepEqual(first?.portal.detalles.sesionMaximaHoras, { de: null, a: 12 });
      // The destination's own creation is in the company's log, and so in the SIEM, before the rules change.
      const actions = rsyslog.received().map((line) => line.msgId);
      assert.ok(
        actions.indexOf('company.audit_stream_create') < actions.indexOf('company.settings_change'),
        String(actions),
      );

      const probe = await call('POST', `${base()}/${id}/prueba`, owner);
      assert.equal(probe.statusCode, 200, probe.body);
      assert.deepEqual(probe.json(), {
        entregado: true,
        mensaje: 'El receptor aceptó el evento de prueba (1 mensaje por syslog TLS)',
      });
      await waitFor(
        'the test event',
        () => rsyslog.received().some((line) => line.msgId === 'portal.prueba'),
        10_000,
        50,
      );

      await rsyslog.kill();
      for (const hours of [1, 2, 3]) await rules(hours);
      const down = await waitFor(
        'the failure seen',
        async () => {
          const stream = await streamOf(id);
          return stream.ultimoError && stream.retraso.entradas >= 3 && stream;
        },
        30_000,
        50,
      );
      assert.match(down.ultimoError ?? '', /rechazó la conexión/);
      assert.equal(down.estado, 'activo');

      await rsyslog.start();
      const all = await waitFor(
        'the three changes at rsyslog',
        () => rulesAtRsyslog().length >= 4 && rulesAtRsyslog(),
        30_000,
        50,
      );
      assert.deepEqual(
        all.map((doc) => (doc.portal.detalles.sesionMaximaHoras as { a: number }).a),
        [12, 1, 2, 3],
        'in order, each once',
      );
      const caught = await waitFor(
        'caught up',
        async () => {
          const stream = await streamOf(id);
          return stream.retraso.entradas === 0 && stream.ultimoError === null && stream;
        },
        30_000,
        50,
      );
      assert.equal(caught.entregadoHasta, all.at(-1)?.['@timestamp']);

      // Failing for 24 hours: paused, and the owners are told.
      await rsyslog.kill();
      await test.app.db
        .update(auditStreams)
        .set({ failingSince: new Date(Date.now() - 25 * 3_600_000), nextAttemptAt: new Date() })
        .where(eq(auditStreams.id, id));
      await rules(4);
      const paused = await waitFor('paused', async () => (await streamOf(id)).estado === 'pausado', 30_000, 50);
      assert.ok(paused);
      assert.match((await streamOf(id)).ultimoError ?? '', /^Pausado tras 24 horas/);
      await test.app.mailer.deliverDue();
      const mail = mails.find((one) => one.to === 'duena@minera.test');
      assert.match(mail?.subject ?? '', /Minera del Sur S\.A\. dejó de enviarse a su SIEM/);
      assert.match(mail?.text ?? '', /127\.0\.0\.1/);
      // Resumed once the receiver is back: what it missed arrives.
      await rsyslog.start();
      const resumed = await call('PATCH', `${base()}/${id}`, owner, { estado: 'activo' });
      assert.equal(resumed.statusCode, 200, resumed.body);
      const after4 = await waitFor(
        'the missed change',
        () => rulesAtRsyslog().length >= 5 && rulesAtRsyslog(),
        30_000,
        50,
      );
      assert.deepEqual(
        after4.map((doc) => (doc.portal.detalles.sesionMaximaHoras as { a: number }).a),
        [12, 1, 2, 3, 4],
      );
      assert.equal(new Set(after4.map((doc) => doc.event.id)).size, after4.length, 'no repeat');
    });

    it('sends Splunk HEC events over HTTPS with the secret in its header, which is never shown again', async () => {
      const collector = await httpsCollector();
      const seen = collector.requests;
      try {
        const secret = 'hec-0d2f6b1e-secreto';
        const created = await call('POST', base(), owner, {
          tipo: 'https',
          url: collector.url('/services/collector/event'),
          cabecera: 'Authorization',
          secreto: secret,
          formato: 'splunk-hec',
          ca: certs.ca,
        });
        assert.equal(created.statusCode, 201, created.body);
        assert.ok(!created.body.includes(secret));
        const list = await call('GET', base(), owner);
        assert.equal(list.statusCode, 200);
        assert.ok(!list.body.includes(secret), 'never returned');
        assert.equal(list.json<{ data: unknown[] }>().data.length, 2);

        await rules(9);
        const events = await waitFor(
          'the HEC events',
          () => {
            const all = seen.flatMap((request) => request.lines);
            return all.some((line) => line.event.event.action === 'company.settings_change') && all;
          },
          30_000,
          50,
        );
        assert.ok(seen.every((request) => request.authorization === `Splunk ${secret}`));
        const change = events.find((line) => line.event.event.action === 'company.settings_change');
        assert.equal(change?.event.organization.id, String(companyId));
        assert.equal(change?.time, Date.parse(change?.event['@timestamp'] ?? '') / 1000);
        // Every entry of the company's log, in its order (the first destination's history included).
        const ids = events.map((line) => Number(line.event.event.id));
        assert.deepEqual(
          ids,
          [...ids].sort((a, b) => a - b),
        );
        assert.equal(new Set(ids).size, ids.length);
      } finally {
        await collector.close();
      }
    });

    it('a new address asks for the secret again; a receiver that echoes the secret never has it kept nor shown', async () => {
      const secret = 'eco-7f3a9c41-secreto-del-colector';
      const echo: Server = createServer(
        { cert: readFileSync(certs.certFile), key: readFileSync(certs.keyFile) },
        (request, response) => {
          request.resume();
          request.on('end', () =>
            response.writeHead(403).end(`Token rechazado: «${request.headers['x-api-key']}» no vale aquí`),
          );
        },
      );
      await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
      const port = (echo.address() as { port: number }).port;
      const url = `https://127.0.0.1:${port}/ingesta`;
      try {
        const created = await call('POST', base(), owner, {
          tipo: 'https',
          url,
          formato: 'ndjson',
          cabecera: 'X-Api-Key',
          secreto: secret,
          ca: certs.ca,
        });
        assert.equal(created.statusCode, 201, created.body);
        const { id } = created.json<Stream>();
        const probe = await call('POST', `${base()}/${id}/prueba`, owner);
        assert.equal(probe.json<{ entregado: boolean }>().entregado, false);
        assert.match(probe.json<{ mensaje: string }>().mensaje, /403: Token rechazado/);
        assert.ok(!probe.body.includes('eco-7f3a9c41'), probe.body);
        const failed = await waitFor('the failure kept', async () => (await streamOf(id)).ultimoError, 30_000, 50);
        assert.match(failed, /403: Token rechazado/);
        assert.ok(!failed.includes('eco-7f3a9c41'), failed);

        for (const change of [{ url: `https://127.0.0.1:${port}/otra` }, { url: 'https://otro.minera.test/ingesta' }]) {
          const moved = await call('PATCH', `${base()}/${id}`, owner, change);
          assert.equal(moved.statusCode, 400, moved.body);
          assert.equal(moved.json<{ code: string }>().code, 'SECRETO_REQUERIDO');
          assert.match(moved.json<{ message: string }>().message, /escribe de nuevo «secreto»/);
        }
        assert.equal((await streamOf(id)).url, url, 'nothing changed');
        // The same address, or another field, needs no secret; a new address with the secret typed again moves it.
        assert.equal((await call('PATCH', `${base()}/${id}`, owner, { url, formato: 'splunk-hec' })).statusCode, 200);
        const moved = await call('PATCH', `${base()}/${id}`, owner, { url: `${url}/2`, secreto: secret });
        assert.equal(moved.statusCode, 200, moved.body);
        assert.equal(moved.json<Stream>().url, `${url}/2`);

        // A syslog receiver's client key is asked again the same way when its host or port changes.
        const syslog = await call('POST', base(), owner, {
          tipo: 'syslog',
          host: '127.0.0.1',
          puerto: rsyslog.port,
          ca: certs.ca,
          certificado: readFileSync(certs.certFile, 'utf8'),
          clave: readFileSync(certs.keyFile, 'utf8'),
        });
        assert.equal(syslog.statusCode, 201, syslog.body);
        const syslogId = syslog.json<Stream>().id;
        for (const change of [{ puerto: rsyslog.port + 1 }, { host: 'siem.minera.test' }]) {
          const moved = await call('PATCH', `${base()}/${syslogId}`, owner, change);
          assert.equal(moved.statusCode, 400, moved.body);
          assert.equal(moved.json<{ code: string }>().code, 'SECRETO_REQUERIDO');
          assert.match(moved.json<{ message: string }>().message, /escribe de nuevo «clave»/);
        }
        const withKey = await call('PATCH', `${base()}/${syslogId}`, owner, {
          puerto: rsyslog.port + 1,
          clave: readFileSync(certs.keyFile, 'utf8'),
        });
        assert.equal(withKey.statusCode, 200, withKey.body);
        for (const stream of [id, syslogId])
          assert.equal((await call('DELETE', `${base()}/${stream}`, owner)).statusCode, 204);
      } finally {
        await new Promise((resolve) => echo.close(resolve));
        echo.closeAllConnections();
      }
    });

    it("every failure a sender meets reads in Spanish, never OpenSSL's or Node's words; a hung collector did not answer in time", async () => {
      // A receiver whose certificate another authority signed; one that never answers; one that does not speak TLS.
      const otherDir = mkdtempSync(join(tmpdir(), 'portal-siem-otra-ca-'));
      const other = testCertificates(otherDir);
      const tls = { cert: readFileSync(other.certFile), key: readFileSync(other.keyFile) };
      const stranger: Server = createServer(tls, (request, response) => {
        request.resume();
        response.end();
      });
      const hung: Server = createServer(
        { cert: readFileSync(certs.certFile), key: readFileSync(certs.keyFile) },
        (request) => void request.resume(),
      );
      const plainSockets = new Set<Socket>();
      const plain: NetServer = createNetServer((socket) => {
        plainSockets.add(socket);
        socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      });
      const listening = async (server: Server | NetServer) => {
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        return (server.address() as { port: number }).port;
      };
      const [strangerPort, hungPort, plainPort] = [
        await listening(stranger),
        await listening(hung),
        await listening(plain),
      ];
      const probe = async (body: object) => {
        const created = await call('POST', base(), owner, body);
        assert.equal(created.statusCode, 201, created.body);
        const { id } = created.json<Stream>();
        // Paused at once, so only the test event goes there.
        await call('PATCH', `${base()}/${id}`, owner, { estado: 'pausado' });
        const answer = await call('POST', `${base()}/${id}/prueba`, owner);
        assert.equal((await call('DELETE', `${base()}/${id}`, owner)).statusCode, 204);
        return answer.json<{ entregado: boolean; mensaje: string }>();
      };
      try {
        const https = (port: number, extra: object = {}) => ({
          tipo: 'https',
          url: `https://127.0.0.1:${port}/ingesta`,
          formato: 'ndjson',
          ...extra,
        });
        // Side by side, three at most (a company has five destinations at most, two of them made above).
        const [untrusted, hungAnswer, notTls] = await Promise.all([
          (async () => [await probe(https(strangerPort, { ca: certs.ca })), await probe(https(strangerPort))])(),
          probe(https(hungPort, { ca: certs.ca })),
          probe({ tipo: 'syslog', host: '127.0.0.1', puerto: plainPort, ca: certs.ca }),
        ]);
        const answers = [...untrusted, hungAnswer, notTls];
        assert.deepEqual(
          answers.map((answer) => answer.mensaje),
          [
            'El evento de prueba no se entregó: El certificado del receptor no lo firma la autoridad que diste',
            'El evento de prueba no se entregó: El certificado del receptor no lo firma ninguna autoridad en la que confíe el portal: da la suya en «ca»',
            'El evento de prueba no se entregó: El receptor no respondió a tiempo (plazo de 3 s)',
            'El evento de prueba no se entregó: El receptor no respondió con TLS: ¿es ese su puerto de TLS?',
          ],
        );
        for (const answer of answers) assert.equal(answer.entregado, false);
      } finally {
        for (const server of [stranger, hung]) server.closeAllConnections();
        for (const socket of plainSockets) socket.destroy();
        await Promise.all([stranger, hung, plain].map((server) => new Promise((resolve) => server.close(resolve))));
        rmSync(otherDir, { recursive: true, force: true });
      }
    });

    if (backend === 'postgres')
      it("a write transaction left open elsewhere in the database holds back neither a company's pull nor its destination", async () => {
        const collector = await httpsCollector();
        // Someone else's work on the same database server: a report, a migration, another program's client.
        const stranger = new pg.Client({ connectionString: databaseUrl });
        await stranger.connect();
        try {
          const id = await insertCompany(test.app, 'Transacción Ajena S.A.');
          const token = await (await insertMember(test.app, id, 'duena@ajena.test', 'propietario')).token();
          const created = await call('POST', `/empresas/${id}/flujos-auditoria`, token, {
            tipo: 'https',
            url: collector.url('/ingesta'),
            formato: 'ndjson',
            ca: certs.ca,
          });
          assert.equal(created.statusCode, 201, created.body);
          const stream = created.json<Stream>().id;

          await stranger.query('BEGIN');
          await stranger.query('CREATE TEMP TABLE informe (n integer)');
          await stranger.query('INSERT INTO informe VALUES (1)');
          const changed = await call('PATCH', `/empresas/${id}/ajustes`, token, { sesionMaximaHoras: 7 });
          assert.equal(changed.statusCode, 200, changed.body);

          const pulled = await waitFor(
            'the change in the pull by cursor',
            async () => {
              const page = await call('GET', `/empresas/${id}/auditoria?formato=ecs`, token);
              assert.equal(page.statusCode, 200, page.body);
              return page.json<{ data: Doc[] }>().data.find((doc) => doc.event.action === 'company.settings_change');
            },
            15_000,
            50,
          );
          await waitFor('the change at the collector', () => collector.ids.includes(pulled.event.id), 15_000, 50);
          const caught = await waitFor(
            "the destination's cursor past it",
            async () => {
              const view = (await call('GET', `/empresas/${id}/flujos-auditoria/${stream}`, token)).json<Stream>();
              return view.entregadoHasta === pulled['@timestamp'] && view;
            },
            15_000,
            50,
          );
          assert.deepEqual(caught.retraso, { entradas: 0, segundos: 0 });
          assert.equal(new Set(collector.ids).size, collector.ids.length, 'each once');
          // All of it while the stranger's transaction was still open.
          const [open] = (
            await stranger.query<{ xid: string | null }>('SELECT pg_current_xact_id_if_assigned() AS xid')
          ).rows;
          assert.ok(open?.xid, 'the transaction is still open, with its transaction id');
        } finally {
          await stranger.query('ROLLBACK').catch(() => {});
          await stranger.end();
          await collector.close();
        }
      });

    it('two API instances on one database: one sends to a destination at a time, every entry once and in order', async () => {
      const pair = await buildTestAppPair({ partnerEventsTimeoutMs: 3_000 }, { backend });
      const collector = await httpsCollector();
      try {
        const id = await insertCompany(pair.a, 'Dos Instancias S.A.');
        await insertMember(pair.a, id, 'duena@dos.test', 'propietario');
        const token = await login(pair.a, 'duena@dos.test', memberPassword);
        const created = await callAs(pair.a, 'POST', `/empresas/${id}/flujos-auditoria`, token, {
          tipo: 'https',
          url: collector.url('/ingesta'),
          formato: 'ndjson',
          ca: certs.ca,
        });
        assert.equal(created.statusCode, 201, created.body);
        for (let hours = 1; hours <= 6; hours++) {
          const changed = await callAs(pair.a, 'PATCH', `/empresas/${id}/ajustes`, token, { sesionMaximaHoras: hours });
          assert.equal(changed.statusCode, 200, changed.body);
        }
        const entries = (
          await rowsOf<{ id: string }>(
            pair.a.db,
            sql`SELECT id::text AS id FROM audit_log WHERE company_id = ${id} ORDER BY id`,
          )
        ).map((row) => row.id);
        await waitFor('every entry at the receiver', () => collector.ids.length >= entries.length, 30_000, 50);
        assert.deepEqual(collector.ids, entries, 'each once, in the order they were written (one writer)');
      } finally {
        await collector.close();
        await pair.close();
      }
    });

    it('only the company managers set destinations; bad input is a Spanish 400; the internal network is refused', async () => {
      const other = await insertCompany(test.app, 'Otra S.A.');
      const stranger = await (await insertMember(test.app, other, 'admin@otra.test', 'administrador')).token();
      const member = await (await insertMember(test.app, companyId, 'persona@minera.test', 'miembro')).token();
      const syslog = { tipo: 'syslog', host: 'siem.minera.test', puerto: 6514 };
      for (const token of [stranger, member]) {
        assert.equal((await call('GET', base(), token)).statusCode, 403);
        assert.equal((await call('POST', base(), token, syslog)).statusCode, 403);
      }
      assert.equal((await call('GET', base(), undefined)).statusCode, 401);
      const streams = (await call('GET', base(), owner)).json<{ data: Stream[] }>().data;
      const [first] = streams;
      const hec = streams.find((stream) => stream.tipo === 'https');
      assert.equal((await call('GET', `/empresas/${other}/flujos-auditoria/${first?.id}`, stranger)).statusCode, 404);

      for (const [body, message] of [
        [{ ...syslog, ca: 'no es un PEM' }, /certificado PEM válido/],
        [{ ...syslog, host: 'no valido!' }, /nombre de servidor/],
        [{ ...syslog, puerto: 70_000 }, /puerto/],
        [{ tipo: 'https', url: 'ftp://siem.minera.test/x', formato: 'ndjson' }, /URL|https/],
        [{ tipo: 'https', url: 'https://siem.minera.test/x', formato: 'ndjson', cabecera: 'X-Token' }, /secreto/],
        [{ ...syslog, url: 'https://siem.minera.test' }, /no se usa/],
        [
          {
            ...syslog,
            certificado: readFileSync(certs.certFile, 'utf8'),
            clave: readFileSync(join(dir, 'ca.key'), 'utf8'),
          },
          /no corresponde/,
        ],
      ] as const) {
        const refused = await call('POST', base(), owner, body);
        assert.equal(refused.statusCode, 400, JSON.stringify(body));
        assert.match(refused.json<{ message: string }>().message, message);
      }
      // A header that frames or routes the request, or is the connection's own, cannot carry the secret.
      const https = { tipo: 'https', url: 'https://siem.minera.test/x', formato: 'ndjson', secreto: 's3cr3t' };
      for (const cabecera of [
        'Transfer-Encoding',
        'Content-Length',
        'Host',
        'Connection',
        'keep-alive',
        'TE',
        'Upgrade',
      ])
        for (const [method, url] of [
          ['POST', base()],
          ['PATCH', `${base()}/${hec?.id}`],
        ] as const) {
          const refused = await call(method, url, owner, method === 'POST' ? { ...https, cabecera } : { cabecera });
          assert.equal(refused.statusCode, 400, `${method} ${cabecera}`);
          assert.equal(refused.json<{ code: string }>().code, 'FLUJO_INVALIDO');
          assert.match(refused.json<{ message: string }>().message, new RegExp(`«${cabecera}».*cabecera`));
        }

      // The setting off (the default off loopback): loopback and private addresses refused.
      const guarded = { ...test.app.auditStreams.destinations, privateNetwork: false };
      const actor = { user: { id: null, email: 'prueba' } };
      for (const input of [
        { tipo: 'syslog' as const, host: '127.0.0.1', puerto: 6514 },
        { tipo: 'syslog' as const, host: 'localhost', puerto: 6514 },
        { tipo: 'https' as const, url: 'https://10.1.2.3/siem', formato: 'ndjson' as const },
        { tipo: 'https' as const, url: 'https://localhost./siem', formato: 'ndjson' as const },
        { tipo: 'https' as const, url: 'https://[::ffff:0:7f00:1]/siem', formato: 'ndjson' as const },
        { tipo: 'syslog' as const, host: '2001:0:4136:e378:8000:63bf:3fff:fdd2', puerto: 6514 },
      ])
        await assert.rejects(
          createAuditStream(guarded, actor, companyId, input),
          (error: Error & { statusCode?: number }) => {
            assert.equal(error.statusCode, 400);
            assert.match(error.message, /privada o local/);
            return true;
          },
        );

      // Where a connection would land is refused in as few words as where it is: 'no permitida', never 'privada'.
      for (const settings of [
        { url: 'https://localhost/siem', formato: 'ndjson' as const, cabecera: null, ca: null },
        { host: '10.1.2.3', puerto: 6514, ca: null, certificado: null },
      ])
        assert.deepEqual(
          await send({ settings, secret: null }, [], {
            privateNetwork: false,
            timeoutMs: 3_000,
            signal: new AbortController().signal,
            hostname: 'portal.test',
          }),
          { ok: false, error: 'La dirección del receptor no está permitida' },
        );

      // A syslog message whose document is not plain ASCII: escaped in its JSON, so MSG is ASCII as RFC 5424's MSG-ANY
      // (no BOM for a receiver to keep) and reads back the same.
      const doc = testDocument(
        { id: 1, email: 'ana@minera.test' },
        companyId,
        'Compañía Ñandú — «Sur» 日本',
        new Date(),
      );
      const frame = syslogFrame(doc, 'portal.test');
      assert.ok(
        frame.every((byte) => byte < 0x80),
        frame.toString('latin1'),
      );
      const text = frame.toString('ascii');
      const msg = text.slice(text.indexOf(' - {') + 3);
      assert.equal(Number(text.split(' ')[0]), Buffer.byteLength(text) - text.indexOf(' ') - 1, 'RFC 5425 length');
      assert.deepEqual(JSON.parse(msg), doc);

      const deleted = await call('DELETE', `${base()}/${first?.id}`, owner);
      assert.equal(deleted.statusCode, 204);
      assert.equal((await call('GET', `${base()}/${first?.id}`, owner)).statusCode, 404);
      const loggedActions = await rowsOf<{ action: string }>(
        test.app.db,
        sql`SELECT action FROM audit_log WHERE company_id = ${companyId} AND action LIKE 'company.audit_stream%' ORDER BY id`,
      );
      for (const action of ['create', 'update', 'paused', 'delete'])
        assert.ok(
          loggedActions.some((row) => row.action === `company.audit_stream_${action}`),
          action,
        );
    });
  });
});
