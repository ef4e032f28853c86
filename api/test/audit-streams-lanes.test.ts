// Each SIEM destination is its own lane: thirteen companies stream to HTTPS NDJSON collectors, one of them to a
// collector that answers only after 8 s, with three destinations; every other company's rules change reaches its own
// collector within seconds all the same, each entry once and in order. More destinations than one claim's places are
// all served: none waits behind the others.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, forEachBackend, type TestApp } from './helpers/app.js';
import { call, insertCompany, insertMember } from './helpers/company-fixtures.js';
import { waitFor } from './helpers/processes.js';
import { testCertificates } from './helpers/rsyslog.js';
import { scaled } from './helpers/slowness.js';

interface Doc {
  event: { id: string; action: string };
  organization: { id: string };
  portal: { detalles: Record<string, unknown> };
}

/** An HTTPS collector of NDJSON on loopback that answers each POST after `delayMs`: the documents it took, in order. */
async function collector(certs: ReturnType<typeof testCertificates>, delayMs = 0) {
  const docs: Doc[] = [];
  const server: Server = createServer(
    { cert: readFileSync(certs.certFile), key: readFileSync(certs.keyFile) },
    (request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const answer = () => {
          if (response.destroyed) return;
          for (const line of body.trim().split('\n')) docs.push(JSON.parse(line) as Doc);
          response.writeHead(200).end();
        };
        if (delayMs > 0) setTimeout(answer, delayMs).unref();
        else answer();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    docs,
    url: (path: string) => `https://127.0.0.1:${(server.address() as { port: number }).port}${path}`,
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    },
  };
}

forEachBackend((backend) => {
  describe('SIEM destinations, each in its own lane', () => {
    let test: TestApp;
    let dir: string;
    let certs: ReturnType<typeof testCertificates>;
    const collectors: Awaited<ReturnType<typeof collector>>[] = [];

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'portal-siem-lanes-'));
      certs = testCertificates(dir);
      // A send waits up to 10 s: the slow collector's 8 s answer is a success, only late.
      test = await buildTestApp(backend, { partnerEventsTimeoutMs: 10_000 });
    });
    after(async () => {
      await test.close();
      for (const one of collectors) await one.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('a collector answering in 8 s holds only its own company: the twelve others get each change within seconds', async () => {
      const companies: { id: number; owner: string; at: Awaited<ReturnType<typeof collector>> }[] = [];
      const slow = await collector(certs, 8_000);
      collectors.push(slow);
      for (let i = 0; i < 13; i++) {
        const id = await insertCompany(test.app, `Planta ${i + 1} S.A.`);
        const owner = await (await insertMember(test.app, id, `duena${i}@planta.test`, 'propietario')).token();
        const at = i === 0 ? slow : await collector(certs);
        if (i > 0) collectors.push(at);
        companies.push({ id, owner, at });
      }
      const stream = async (company: (typeof companies)[number], path: string) => {
        const created = await call(test.app, 'POST', `/empresas/${company.id}/flujos-auditoria`, company.owner, {
          tipo: 'https',
          url: company.at.url(path),
          formato: 'ndjson',
          ca: certs.ca,
        });
        assert.equal(created.statusCode, 201, created.body);
      };
      const [slowCompany, ...others] = companies;
      assert.ok(slowCompany);
      // The slow company's three destinations first: they are in their lanes, waiting for their 8 s answers.
      for (const path of ['/a', '/b', '/c']) await stream(slowCompany, path);
      for (const company of others) await stream(company, '/ingesta');

      for (const [index, company] of others.entries()) {
        const changed = await call(test.app, 'PATCH', `/empresas/${company.id}/ajustes`, company.owner, {
          sesionMaximaHoras: index + 1,
        });
        assert.equal(changed.statusCode, 200, changed.body);
      }
      const changeAt = (company: (typeof companies)[number]) =>
        company.at.docs.find((doc) => doc.event.action === 'company.settings_change');
      await waitFor(
        "every company's change at its collector",
        () => others.every((company) => changeAt(company)),
        scaled(20_000),
        20,
      );
      for (const [index, company] of others.entries()) {
        const doc = changeAt(company);
        assert.equal(doc?.organization.id, String(company.id), 'its own company only');
        assert.deepEqual(doc?.portal.detalles.sesionMaximaHoras, { de: null, a: index + 1 });
        // Each entry once, in the order of the company's log.
        const ids = company.at.docs.map((one) => Number(one.event.id));
        assert.deepEqual(
          ids,
          [...new Set(ids)].sort((a, b) => a - b),
        );
        assert.ok(company.at.docs.every((one) => one.organization.id === String(company.id)));
      }
    });
  });
});
