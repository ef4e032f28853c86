// Partner events on PostgreSQL (BENCH_DATABASE_URL names a server: a database of its own is created there and dropped;
// without it, the bench says so and exits 0): what the triggers add to the change that raises an event, and how fast
// deliveries reach a fast local receiver.
//   1. Two changes of a person's name on 8 connections: the product's own (`updateProfile`, the profile edit's
//      transaction: the row locked, updated and returned) and a bare one-statement UPDATE, the harshest measure. Each
//      is measured in rounds of three states, side by side so the machine's drift falls on all three alike: the event
//      trigger disabled, enabled with no active subscription (it looks and writes nothing), and with an active one
//      (each change writes its event in its transaction). The median of the rounds, per second, and its ratio to the
//      first state.
//   2. The fan-out and the sender (the real worker, signing every message) to a local receiver answering 204 at once:
//      deliveries per second to one subscription (strictly in order) and to four.
//   3. The profile change as a person makes it: POST /auth/update-user on the whole API (a server process of its own on
//      this database, whose worker delivers the events meanwhile), 16 people signed in, one request in flight each;
//      the same three states in rounds.
// node --import tsx bench/partner-events.bench.ts   (BENCH_SECONDS per measure, 3 by default; BENCH_ROUNDS, 5)
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { sql } from 'drizzle-orm';
import { migrate } from '../src/db/migrate.js';
import { connectedApps, oidcClients, partnerSubscriptions, users } from '../src/db/schema.js';
import { seed } from '../src/db/seed.js';
import { hashPassword } from '../src/domain/accounts/passwords.js';
import { updateProfile } from '../src/domain/accounts/profile.js';
import { startBenchServer } from './spawn-server.js';
import { createPartnerEventsWorker } from '../src/domain/partner-events/worker.js';
import { seal, sealingKey } from '../src/lib/sealed.js';
import { generateKeyPairSync } from 'node:crypto';
import { benchDatabase, seededDatabaseUrl } from './seeded.js';

const seconds = Number(process.env.BENCH_SECONDS || 3);
const rounds = Number(process.env.BENCH_ROUNDS || 5);
const baseUrl = seededDatabaseUrl('partner-events.bench.ts');
if (!baseUrl) process.exit(0);
const { database, url: databaseUrl, drop } = await benchDatabase(baseUrl, 'portal_bench_eventos');
const { db } = database;
const connections = 8;
const people = 400;

try {
  await migrate(database);
  const password = 'clave-del-benchmark';
  await seed(db, { adminEmail: 'bench@portal.local', adminPassword: password });
  const ids = (
    await db
      .insert(users)
      .values(Array.from({ length: people }, (_none, n) => ({ email: `p${n}@bench.local`, status: 'active' as const })))
      .returning({ id: users.id })
  ).map((row) => row.id);
  const [app] = await db
    .insert(connectedApps)
    .values({ protocol: 'oidc', name: 'Bench', firstParty: true })
    .returning({ id: connectedApps.id });
  await db.insert(oidcClients).values({
    clientId: 'bench-app',
    connectedAppId: app!.id,
    redirectUris: ['https://bench.local/cb'],
    scopes: ['openid', 'profile'],
  });
  await db.execute(sql`INSERT INTO oidc_client_people (client_id, user_id) SELECT 'bench-app', id FROM users`);

  // Every change writes a name never written before, so each one is a change the trigger sees.
  let serial = 0;
  type Change = (id: number, n: number) => Promise<unknown>;
  const changeOf: Record<'product' | 'bare', Change> = {
    product: (id, n) =>
      db.transaction((tx) => updateProfile(tx, { user: { id } } as never, id, { name: `Nombre ${n}` })),
    bare: (id, n) =>
      db
        .update(users)
        .set({ name: `Nombre ${n}` })
        .where(sql`${users.id} = ${id}`),
  };
  /** One change on `connections` connections for the benchmark's duration: per second. */
  async function changes(change: Change): Promise<number> {
    const end = Date.now() + seconds * 1000;
    let done = 0;
    await Promise.all(
      Array.from({ length: connections }, async (_none, lane) => {
        let n = 0;
        while (Date.now() < end) {
          await change(ids[(lane * 50 + n++) % ids.length] as number, serial++);
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
      connectedAppId: app!.id,
      url,
      eventos: ['usuario.actualizado'],
      secretSealed: seal(key, `partner-subscription:${id}`, `whsec_${Buffer.alloc(32, 7).toString('base64')}`),
    });
  };

  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/eventos`;
  await subscribe(receiverUrl);

  const states = ['sin disparador', 'disparador sin suscripción', 'evento escrito (suscripción activa)'] as const;
  const enter = async (state: (typeof states)[number]) => {
    const trigger = state === 'sin disparador' ? 'DISABLE' : 'ENABLE';
    await db.execute(sql.raw(`ALTER TABLE users ${trigger} TRIGGER users_partner_events`));
    const status = state === 'disparador sin suscripción' ? 'desactivada' : 'activa';
    await db.execute(sql`UPDATE partner_subscriptions SET status = ${status}`);
  };
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const measured: { change: string; state: string; rate: number; ratio: number }[] = [];
  /** `rate()` in rounds of the three states: each state's median, and its ratio to the first. */
  async function inRounds(label: string, rate: () => Promise<number>) {
    await enter('sin disparador');
    await rate(); // warm-up
    const rates = states.map(() => [] as number[]);
    for (let round = 0; round < rounds; round++) {
      for (const [index, state] of states.entries()) {
        await enter(state);
        rates[index]?.push(await rate());
      }
    }
    const base = median(rates[0] ?? []);
    for (const [index, state] of states.entries()) {
      const value = median(rates[index] ?? []);
      measured.push({ change: label, state, rate: value, ratio: value / base });
    }
  }
  await inRounds('Cambio de perfil del producto (updateProfile)', () => changes(changeOf.product));
  await inRounds('UPDATE de una fila, sin más', () => changes(changeOf.bare));

  await enter('evento escrito (suscripción activa)');
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

  // The same change through the whole API, as a person makes it.
  const signedIn = ids.slice(0, 16);
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(password) })
    .where(sql`${users.id} IN ${signedIn}`);
  // The bench's own subscriptions go (their secrets are sealed under its key); the server's comes through its admin
  // API, so the server's worker fans out and delivers its events to the receiver while the changes are measured.
  await db.delete(partnerSubscriptions);
  const server = await startBenchServer({
    BENCH_DATABASE_URL: databaseUrl,
    ADMIN_EMAIL: 'bench@portal.local',
    ADMIN_PASSWORD: password,
    ADMIN_SECOND_FACTOR: 'optional',
  });
  try {
    const signIn = async (email: string) => {
      const response = await fetch(`${server.api}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      const body = (await response.json()) as { access_token: string };
      if (response.status !== 200) throw new Error(`login ${email}: ${response.status} ${JSON.stringify(body)}`);
      return body.access_token;
    };
    const subscription = await fetch(`${server.api}/admin/clientes-oidc/bench-app/suscripciones`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await signIn('bench@portal.local')}` },
      body: JSON.stringify({ url: receiverUrl, eventos: ['usuario.actualizado'] }),
    });
    if (subscription.status !== 201)
      throw new Error(`suscripción: ${subscription.status} ${await subscription.text()}`);
    const tokens = await Promise.all(signedIn.map(async (id, n) => ({ id, token: await signIn(`p${n}@bench.local`) })));
    await inRounds('POST /auth/update-user (la API entera)', async () => {
      const end = Date.now() + seconds * 1000;
      let done = 0;
      await Promise.all(
        tokens.map(async ({ id, token }) => {
          while (Date.now() < end) {
            const response = await fetch(`${server.api}/auth/update-user`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
              body: JSON.stringify({ idUsuario: id, name: `Nombre ${serial++}` }),
            });
            await response.arrayBuffer();
            if (response.status !== 200) throw new Error(`update-user: ${response.status}`);
            done++;
          }
        }),
      );
      return done / seconds;
    });
  } finally {
    await server.stop();
  }
  receiver.close();

  console.log(
    `${connections} conexiones, ${rounds} rondas de ${seconds} s por estado (mediana); ${events} eventos escritos con sus cambios`,
  );
  for (const { change, state, rate, ratio } of measured)
    console.log(`${`${change}, ${state}`.padEnd(92)} ${rate.toFixed(0).padStart(7)}/s  ×${ratio.toFixed(2)}`);
  console.log(`Entregas a 1 suscripción (en orden, firmadas): ${oneSubscription} a ${oneRate.toFixed(0)}/s`);
  console.log(`Entregas a 4 suscripciones: ${fourSubscriptions} a ${fourRate.toFixed(0)}/s`);
} finally {
  await drop();
}
