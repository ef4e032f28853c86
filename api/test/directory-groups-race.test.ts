// A directory group larger than its licence never overbooks it, also when the directory's PATCHes come at once on two
// API instances sharing PostgreSQL (the licence row's lock is the only thing they share): every request answered
// 204, exactly the licence's seats given, the rest waiting; and people taken out at once free seats the waiting take.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { companyLicences, companyScimUsers, companySeats } from '../src/db/schema.js';
import { backends, buildTestApp, buildTestAppPair, forEachBackend, login, type TestApp } from './helpers/app.js';
import { call } from './helpers/company-fixtures.js';
import { entraUser, scim, scimCompany } from './helpers/scim-fixtures.js';

const people = 24;
const seats = 6;
/** Rounds of the deactivation against the group removal: the deadlock they could meet in came in 3 rounds of 10. */
const rounds = 20;

function defineRace(instances: () => FastifyInstance[], tag: string) {
  it(`${people} members added at once to two groups tied to ${seats} seats: all 204, ${seats} seated, the rest wait`, async () => {
    const [first] = instances();
    const admin = await login(first!);
    const acme = await scimCompany(first!, admin, `Carrera Grupos ${tag} S.A.`, `carrera-grupos-${tag}.cl`, seats);
    const manager = await acme.owner.token();
    // Two groups tie to the same app: their PATCHes meet only at the licence's row.
    for (const grupo of ['Operadores Día', 'Operadores Noche']) {
      const rule = await call(first!, 'POST', `/empresas/${acme.companyId}/grupos-directorio`, manager, {
        grupo,
        idApp: 1,
      });
      assert.equal(rule.statusCode, 201, rule.body);
    }
    const ids: string[] = [];
    for (let i = 0; i < people; i++) {
      const created = await scim(first!, acme.token, 'POST', '/Users', entraUser(`p${i}@${acme.domain}`, `p${i}`));
      assert.equal(created.statusCode, 201, created.body);
      ids.push(created.json<{ id: string }>().id);
    }
    const groups: string[] = [];
    for (const displayName of ['Operadores Día', 'Operadores Noche']) {
      const group = await scim(first!, acme.token, 'POST', '/Groups', { displayName, members: [] });
      groups.push(group.json<{ id: string }>().id);
    }
    const on = (i: number) => instances()[i % instances().length]!;
    const groupOf = (id: string) => groups[ids.indexOf(id) % 2]!;

    const added = await Promise.all(
      ids.map((id, i) =>
        scim(on(i), acme.token, 'PATCH', `/Groups/${groupOf(id)}`, {
          Operations: [{ op: 'Add', path: 'members', value: [{ value: id }] }],
        }),
      ),
    );
    assert.deepEqual(
      added.map((answer) => answer.statusCode),
      ids.map(() => 204),
      added.map((answer) => answer.body).join(' '),
    );
    const held = async () =>
      first!.db
        .select({ userId: companySeats.userId })
        .from(companySeats)
        .where(and(eq(companySeats.companyId, acme.companyId), eq(companySeats.appId, 1)));
    const inUse = async () =>
      (
        await first!.db
          .select({ n: companyLicences.seatsInUse })
          .from(companyLicences)
          .where(and(eq(companyLicences.companyId, acme.companyId), eq(companyLicences.appId, 1)))
      )[0]?.n;
    assert.equal((await held()).length, seats);
    assert.equal(await inUse(), seats);
    const waitingNow = async () => {
      const report = await call(first!, 'GET', `/empresas/${acme.companyId}/informe-puestos`, manager);
      return report.json<{ app: { id: number }; esperando: number }[]>().find((row) => row.app.id === 1)?.esperando;
    };
    assert.equal(await waitingNow(), people - seats);

    // Half the seated and some who wait go out at once: the freed seats go to the next in line, never past the licence.
    const seatedScimIds = new Set<string>();
    const seatedUsers = new Set((await held()).map((row) => row.userId));
    const resources = await first!.db
      .select({ id: companyScimUsers.id, userId: companyScimUsers.userId })
      .from(companyScimUsers)
      .where(eq(companyScimUsers.companyId, acme.companyId));
    for (const row of resources) if (seatedUsers.has(row.userId)) seatedScimIds.add(row.id);
    const leaving = [
      ...[...seatedScimIds].slice(0, seats / 2),
      ...ids.filter((id) => !seatedScimIds.has(id)).slice(0, 3),
    ];
    const removed = await Promise.all(
      leaving.map((id, i) =>
        scim(on(i), acme.token, 'PATCH', `/Groups/${groupOf(id)}`, {
          Operations: [{ op: 'Remove', path: `members[value eq "${id}"]` }],
        }),
      ),
    );
    assert.deepEqual(
      removed.map((answer) => answer.statusCode),
      leaving.map(() => 204),
    );
    assert.equal((await held()).length, seats);
    assert.equal(await inUse(), seats);
    assert.equal(await waitingNow(), people - leaving.length - seats);
  });

  it(`one person deactivated while another is taken out of a group of the same company, ${rounds} times at once: never a 500`, async () => {
    const [first] = instances();
    const admin = await login(first!);
    const acme = await scimCompany(first!, admin, `Carrera Bajas ${tag} S.A.`, `carrera-bajas-${tag}.cl`, 2 * rounds);
    const manager = await acme.owner.token();
    const rule = await call(first!, 'POST', `/empresas/${acme.companyId}/grupos-directorio`, manager, {
      grupo: 'Planta',
      idApp: 1,
    });
    assert.equal(rule.statusCode, 201, rule.body);
    const ids: string[] = [];
    for (let i = 0; i < 2 * rounds; i++) {
      const created = await scim(first!, acme.token, 'POST', '/Users', entraUser(`b${i}@${acme.domain}`, `b${i}`));
      assert.equal(created.statusCode, 201, created.body);
      ids.push(created.json<{ id: string }>().id);
    }
    const group = await scim(first!, acme.token, 'POST', '/Groups', {
      displayName: 'Planta',
      members: ids.map((value) => ({ value })),
    });
    assert.equal(group.statusCode, 201, group.body);
    const groupId = group.json<{ id: string }>().id;
    const seated = async () =>
      (
        await first!.db
          .select({ userId: companySeats.userId })
          .from(companySeats)
          .where(and(eq(companySeats.companyId, acme.companyId), eq(companySeats.appId, 1)))
      ).length;
    assert.equal(await seated(), 2 * rounds);

    // Each round: one seated person deactivated (the company, then its licences) while another seated person leaves
    // the group (the licence, then the seat taken back and its audit entry), each on its own instance when two run.
    for (let round = 0; round < rounds; round++) {
      const [deactivated, outOfGroup] = [ids[2 * round]!, ids[2 * round + 1]!];
      const answers = await Promise.all([
        scim(instances()[0]!, acme.token, 'PATCH', `/Users/${deactivated}`, {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [{ op: 'replace', path: 'active', value: false }],
        }),
        scim(instances().at(-1)!, acme.token, 'PATCH', `/Groups/${groupId}`, {
          Operations: [{ op: 'Remove', path: `members[value eq "${outOfGroup}"]` }],
        }),
      ]);
      assert.deepEqual(
        answers.map((answer) => answer.statusCode),
        [200, 204],
        `round ${round + 1}: ${answers.map((answer) => answer.body).join(' ')}`,
      );
    }
    assert.equal(await seated(), 0);
  });
}

forEachBackend((backend) => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(backend, { apiPublicUrl: 'http://localhost:3000' });
  });
  after(() => t.close());
  describe('directory groups, one instance', () => defineRace(() => [t.app], `${backend}-uno`));
});

if (backends.includes('postgres')) {
  describe('directory groups, two API instances sharing PostgreSQL', () => {
    let pair: Awaited<ReturnType<typeof buildTestAppPair>>;
    before(async () => {
      pair = await buildTestAppPair({ apiPublicUrl: 'http://localhost:3000' });
    });
    after(() => pair.close());
    defineRace(() => [pair.a, pair.b], 'dos-instancias');
  });
}
