// Never more seats in use than bought: 50 assignments of 50 different members to a licence of 10 seats, sent at once,
// give exactly 10 seats. On two API instances sharing one PostgreSQL (each with its own pool: the licence row's lock
// is the only thing they share), and on each backend with one instance.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { companyLicences, companyMembers, companySeats, users } from '../src/db/schema.js';
import { backends, buildTestApp, buildTestAppPair, forEachBackend, sessionToken, type TestApp } from './helpers/app.js';
import { call, insertCompany, insertLicence } from './helpers/company-fixtures.js';

const people = 50;
const seats = 10;

/** A company with an administrator and `people` members, and a licence of `seats` seats of app 1. */
async function setUp(app: FastifyInstance, tag: string) {
  const companyId = await insertCompany(app, `Carrera ${tag} S.A.`);
  const created = await app.db
    .insert(users)
    .values(
      Array.from({ length: people + 1 }, (_, i) => ({
        email: `carrera-${tag}-${i}@carrera.test`,
        name: 'Carrera',
        status: 'active' as const,
      })),
    )
    .returning();
  const [manager, ...members] = created;
  await app.db.insert(companyMembers).values(
    created.map((user, i) => ({
      companyId,
      userId: user.id,
      role: i === 0 ? ('administrador' as const) : ('miembro' as const),
    })),
  );
  await insertLicence(app, companyId, 1, seats);
  return { companyId, members: members.map((user) => user.id), token: await sessionToken(app, manager!) };
}

function defineRace(instances: () => FastifyInstance[], tag: string) {
  it(`${people} assignments at once for ${seats} seats: exactly ${seats} × 201 and ${people - seats} × 409 SIN_PUESTOS`, async () => {
    const [first] = instances();
    const { companyId, members, token } = await setUp(first!, tag);
    const answers = await Promise.all(
      members.map((idUsuario, i) =>
        call(instances()[i % instances().length]!, 'POST', `/empresas/${companyId}/puestos`, token, {
          idUsuario,
          idApp: 1,
        }),
      ),
    );
    const created = answers.filter((answer) => answer.statusCode === 201);
    const refused = answers.filter((answer) => answer.statusCode === 409);
    assert.equal(created.length, seats, answers.map((answer) => answer.statusCode).join(' '));
    assert.equal(refused.length, people - seats);
    for (const answer of refused) {
      assert.equal(answer.json().code, 'SIN_PUESTOS');
      assert.equal(answer.json().message, 'No quedan puestos libres de Control Max 360 en la licencia de la empresa');
    }
    const held = await first!.db.select().from(companySeats).where(eq(companySeats.companyId, companyId));
    assert.equal(held.length, seats, 'seats in the database');
    assert.deepEqual(
      held.map((seat) => seat.userId).sort((a, b) => a - b),
      created.map((answer) => answer.json<{ idUsuario: number }>().idUsuario).sort((a, b) => a - b),
      'the seats are those answered 201',
    );
    const [licence] = await first!.db
      .select()
      .from(companyLicences)
      .where(and(eq(companyLicences.companyId, companyId), eq(companyLicences.appId, 1)));
    assert.equal(licence!.seatsInUse, seats, 'seats_in_use');
    console.log(
      `# ${tag}: ${created.length} × 201, ${refused.length} × 409 SIN_PUESTOS, seats_in_use ${licence!.seatsInUse}`,
    );
  });
}

forEachBackend((backend) => {
  let t: TestApp;
  before(async () => {
    // Fifty requests queue on the company's row: on a machine running other suites beside this one, the last of them
    // waits longer than the product's bounds for one request, which are about answering people, not about this race.
    t = await buildTestApp(backend, { requestTimeoutMs: 30_000 }, { databaseTimeoutMs: 30_000 });
  });
  after(() => t.close());
  describe('one instance', () => defineRace(() => [t.app], `${backend}-uno`));
});

if (backends.includes('postgres')) {
  describe('two API instances sharing PostgreSQL', () => {
    let pair: Awaited<ReturnType<typeof buildTestAppPair>>;
    before(async () => {
      pair = await buildTestAppPair();
    });
    after(() => pair.close());
    defineRace(() => [pair.a, pair.b], 'dos-instancias');
  });
}
