// Partner events on PostgreSQL (DATABASE_URL, a database of its own is created and dropped): what the triggers add to
// the change that raises an event, and how fast deliveries reach a fast local receiver.
//   1. A profile change (UPDATE of a person's name, 8 connections) with the event trigger disabled, with it enabled
//      but no subscription (the trigger looks and writes nothing), and with a subscription (each change writes its
//      event in its transaction): changes per second and the ratio to the first.
//   2. The fan-out and the sender (the real worker, signing every message) to a local receiver answering 204 at once:
//      deliveries per second to one subscription (strictly in order) and to four.
// node --import tsx bench/partner-events.bench.ts   (BENCH_SECONDS, 5 by default)
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { oidcClients, partnerSubscriptions, users } from '../src/db/schema.js';
import { seed } from '../src/db/seed.js';
import { createPartnerEventsWorker } from '../src/domain/partner-events/worker.js';
import { seal, sealingKey } from '../src/lib/sealed.js';
import { generateKeyPairSync } from 'node:crypto';

const seconds = Number(process.env.BENCH_SECONDS || 5);
const baseUrl = process.env.DATABASE_URL;
if (!baseUrl) throw new Error('DATABASE_URL (PostgreSQL) hace falta para este benchmark');
const name = `portal_bench_eventos_${process.pid}`;
const admin = new pg.Client({ connectionString: baseUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const database = await openDatabase({
  databaseUrl: baseUrl.replace(/\/[^/]*$/, `/${name}`),
  dataDir: '/tmp',
  databaseTimeoutMs: 30_000,
});
const { db } = database;
const connections = 8;
const people = 400;

try {
  await migrate(database);
  await seed(db, { adminEmail: 'bench@portal.local', adminPassword: 'clave-del-benchmark' });
  const ids = (
    await db
      .insert(users)
      .values(Array.from({ length: people }, (_none, n) => ({ email: `p${n}@bench.local`, status: 'active' as const })))
      .returning({ id: users.id })
  ).map((row) => row.id);
  await db.insert(oidcClients).values({
    clientId: 'bench-app',
    name: 'Bench',
    redirectUris: ['https://bench.local/cb'],
    scopes: ['openid', 'profile'],
    firstParty: true,
  });
  await db.execute(sql`INSERT INTO oidc_client_people (client_id, user_id) SELECT 'bench-app', id FROM users`);

  /** Profile changes on `connections` connections for the benchmark's duration: per second. */
  async function changes(): Promise<number> {
    const end = Date.now() + seconds * 1000;
    let done = 0;
    await Promise.all(
      Array.from({ length: connections }, async (_none, lane) => {
        let n = 0;
        while (Date.now() < end) {
          const id = ids[(lane * 50 + n++) % ids.length] as number;
          await db
            .update(users)
            .set({ name: `Nombre ${n}` })
            .where(sql`${users.id} = ${id}`);
          done++;
        }
      }),
    );
    return done / seconds;
  }

  const key = sealingKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, 'bench');
  const subscribe = async (url: string) => {
    const id = randomUUID();
    await db.insert(partnerSubscriptions).values({
      id,
      clientId: 'bench-app',
      url,
      eventos: ['usuario.actualizado'],
      secretSealed: seal(key, `partner-subscription:${id}`, `whsec_${Buffer.alloc(32, 7).toString('base64')}`),
    });
  };

  await db.execute(sql`ALTER TABLE users DISABLE TRIGGER users_partner_events`);
  await changes(); // warm-up
  const withoutTrigger = await changes();
  await db.execute(sql`ALTER TABLE users ENABLE TRIGGER users_partner_events`);
  const noSubscription = await changes();
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/eventos`;
  await subscribe(receiverUrl);
  const withSubscription = await changes();
  const [{ events } = { events: 0 }] = (
    (await db.execute(sql`SELECT count(*)::int AS events FROM partner_events`)) as unknown as {
      rows: { events: number }[];
    }
  ).rows;

  const worker = createPartnerEventsWorker({
    db,
    clock: Date.now,
    sealingKey: key,
    fetch: (url, options) => fetch(url, options),
    timeoutMs: 10_000,
    metrics: { partnerDelivery: () => {} },
    log: { warn: () => {}, error: (details) => console.error(details) },
    databaseLost: (error) => console.error(error),
  });
  let started = performance.now();
  const oneSubscription = await worker.deliverDue();
  const oneRate = oneSubscription / ((performance.now() - started) / 1000);

  for (let n = 0; n < 3; n++) await subscribe(receiverUrl);
  const more = 2_000;
  await db.execute(
    sql`UPDATE users SET name = 'Otro ' || id
        WHERE id IN (SELECT id FROM users WHERE email LIKE '%@bench.local' ORDER BY id LIMIT ${more / 4})`,
  );
  started = performance.now();
  const fourSubscriptions = await worker.deliverDue();
  const fourRate = fourSubscriptions / ((performance.now() - started) / 1000);
  await worker.close();
  receiver.close();

  const rows: [string, string, string][] = [
    ['Cambio de perfil, sin disparador', withoutTrigger.toFixed(0), '1.00'],
    [
      'Cambio de perfil, disparador sin suscripción',
      noSubscription.toFixed(0),
      (noSubscription / withoutTrigger).toFixed(2),
    ],
    [
      'Cambio de perfil + evento escrito (suscripción activa)',
      withSubscription.toFixed(0),
      (withSubscription / withoutTrigger).toFixed(2),
    ],
  ];
  console.log(`${connections} conexiones, ${seconds} s por medida; ${events} eventos escritos con sus cambios`);
  for (const [what, rate, ratio] of rows) console.log(`${what.padEnd(56)} ${rate.padStart(7)}/s  ×${ratio}`);
  console.log(`Entregas a 1 suscripción (en orden, firmadas): ${oneSubscription} a ${oneRate.toFixed(0)}/s`);
  console.log(`Entregas a 4 suscripciones: ${fourSubscriptions} a ${fourRate.toFixed(0)}/s`);
} finally {
  await database.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
