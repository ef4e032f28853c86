// The one plan rule (domain/apps-and-plans/effective-plans.ts): per app, the better of the person's own plan and a
// seat that counts, what GET /auth/user and /plan-usuario show of it, and the session memory that keeps it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  apps,
  companies,
  companyLicences,
  companyMembers,
  companySeats,
  plans,
  totpFactors,
  userPlans,
  users,
  type User,
} from '../src/db/schema.js';
import { entitlements } from '../src/domain/apps-and-plans/effective-plans.js';
import { manualClock } from './helpers/accounts.js';
import {
  backends,
  buildTestApp,
  buildTestAppPair,
  createUser,
  forEachBackend,
  sessionToken,
  type TestApp,
  type TestAppPair,
} from './helpers/app.js';
import { answeredFromMemory, watchMemory } from './helpers/session-memory.js';

const day = 24 * 60 * 60 * 1000;
const appId = 1;
const partnerOrigin = 'https://controlmax.example.com';

interface Person {
  id: number;
  token: string;
}

interface ViewEntry {
  id: number;
  plan: { nombre: string; descripcion: string };
  app: { id: number; nombre: string };
  fechaVencimiento: string | null;
  origen: 'propio' | 'empresa';
  empresa: { id: number; nombre: string } | null;
}

interface View {
  planesUsuarios: ViewEntry[];
  empresas: { id: number; nombre: string; rol: string; estado: string; segundoFactorPendiente?: true }[];
}

async function userRow(app: FastifyInstance, id: number): Promise<User> {
  const [row] = await app.db.select().from(users).where(eq(users.id, id));
  assert.ok(row);
  return row;
}

async function planId(app: FastifyInstance, inApp: number, nombre: string): Promise<number> {
  const [row] = await app.db
    .select({ id: plans.id })
    .from(plans)
    .where(and(eq(plans.appId, inApp), sql`lower(${plans.nombre}) = lower(${nombre})`));
  assert.ok(row, `plan ${nombre} of app ${inApp}`);
  return row.id;
}

let serial = 0;

/** An active person with the free plan of every app (as activation gives), and a portal session. */
async function newPerson(app: FastifyInstance): Promise<Person> {
  serial += 1;
  const id = await createUser(app, {
    email: `persona${serial}-${Date.now()}@planes.test`,
    password: 'clave-de-prueba-1',
    status: 'active',
  });
  const free = await app.db
    .select({ appId: plans.appId, planId: plans.id })
    .from(plans)
    .where(sql`lower(${plans.nombre}) = 'free'`);
  await app.db.insert(userPlans).values(free.map((plan) => ({ userId: id, ...plan })));
  return { id, token: await sessionToken(app, await userRow(app, id)) };
}

async function setOwnPlan(app: FastifyInstance, userId: number, plan: number, expiry: Date | null) {
  await app.db
    .update(userPlans)
    .set({ planId: plan, fechaVencimiento: expiry })
    .where(and(eq(userPlans.userId, userId), eq(userPlans.appId, appId)));
}

/** A company with a licence of `plan` in app 1, and `userId` an active member holding one of its seats. */
async function seatFor(
  app: FastifyInstance,
  userId: number,
  plan: number,
  options: {
    expires?: Date;
    requireSecondFactor?: boolean;
    memberStatus?: 'active' | 'pending_approval';
    role?: 'propietario' | 'administrador' | 'miembro';
  } = {},
) {
  serial += 1;
  const [company] = await app.db
    .insert(companies)
    .values({ name: `Minera ${serial} S.A.`, requireSecondFactor: options.requireSecondFactor ?? false })
    .returning();
  assert.ok(company);
  await app.db.insert(companyMembers).values({
    companyId: company.id,
    userId,
    role: options.role ?? 'miembro',
    status: options.memberStatus ?? 'active',
  });
  await app.db.insert(companyLicences).values({
    companyId: company.id,
    appId,
    planId: plan,
    seats: 5,
    expiresAt: options.expires ?? new Date(Date.now() + 365 * day),
  });
  await app.db.insert(companySeats).values({ companyId: company.id, userId, appId });
  return company;
}

async function view(app: FastifyInstance, token: string): Promise<View> {
  const response = await app.inject({
    method: 'GET',
    url: '/auth/user',
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json<View>();
}

const entryOf = (answer: View, inApp = appId) => answer.planesUsuarios.find((entry) => entry.app.id === inApp);

forEachBackend((backend) => {
  describe('one plan rule', () => {
    let test: TestApp;
    let app: FastifyInstance;
    let free: number;
    let pro: number;
    let premium: number;

    before(async () => {
      test = await buildTestApp(backend, { redirectAllowList: [partnerOrigin] });
      app = test.app;
      free = await planId(app, appId, 'free');
      pro = await planId(app, appId, 'PRO');
      // A plan above PRO, so the person's own plan can beat a seat of PRO.
      const [row] = await app.db
        .insert(plans)
        .values({ appId, nombre: 'Premium', descripcion: 'Más que PRO', precioMensual: 40, precioAnual: 400 })
        .returning({ id: plans.id });
      assert.ok(row);
      premium = row.id;
    });
    after(async () => {
      await test.close();
    });

    it('people without a company get the plans as before, with origen propio, empresa null and no empresas', async () => {
      const person = await newPerson(app);
      const expiry = new Date(Date.now() + 30 * day);
      await setOwnPlan(app, person.id, pro, expiry);
      const rows = await app.db
        .select({
          id: userPlans.id,
          fechaVencimiento: userPlans.fechaVencimiento,
          plan: { nombre: plans.nombre, descripcion: plans.descripcion },
          app: { id: apps.id, nombre: apps.nombre },
        })
        .from(userPlans)
        .innerJoin(plans, eq(plans.id, userPlans.planId))
        .innerJoin(apps, eq(apps.id, userPlans.appId))
        .where(eq(userPlans.userId, person.id))
        .orderBy(asc(userPlans.appId));
      const answer = await view(app, person.token);
      assert.deepEqual(
        answer.planesUsuarios,
        rows.map((row) => ({
          ...row,
          fechaVencimiento: row.fechaVencimiento?.toISOString() ?? null,
          origen: 'propio',
          empresa: null,
        })),
      );
      assert.deepEqual(answer.empresas, []);
      assert.equal(entryOf(answer)?.fechaVencimiento, expiry.toISOString());
    });

    it('a seat better than the own plan is named, with its company and the licence expiry', async () => {
      const person = await newPerson(app);
      const expires = new Date(Date.now() + 90 * day);
      const company = await seatFor(app, person.id, pro, { expires, role: 'administrador' });
      const answer = await view(app, person.token);
      const entry = entryOf(answer);
      assert.equal(entry?.plan.nombre, 'PRO');
      assert.equal(entry?.origen, 'empresa');
      assert.deepEqual(entry?.empresa, { id: company.id, nombre: company.name });
      assert.equal(entry?.fechaVencimiento, expires.toISOString());
      // The entry keeps the own plan row's id.
      const [own] = await app.db
        .select({ id: userPlans.id })
        .from(userPlans)
        .where(and(eq(userPlans.userId, person.id), eq(userPlans.appId, appId)));
      assert.equal(entry?.id, own?.id);
      assert.deepEqual(answer.empresas, [
        { id: company.id, nombre: company.name, rol: 'administrador', estado: 'activo' },
      ]);
      // The other apps keep the own plan.
      assert.equal(entryOf(answer, 2)?.origen, 'propio');

      const plansAnswer = await app.inject({
        method: 'POST',
        url: '/plan-usuario/user-app-plans',
        headers: { authorization: `Bearer ${person.token}` },
        payload: { idUsuario: person.id },
      });
      assert.equal(plansAnswer.statusCode, 200, plansAnswer.body);
      const mine = plansAnswer
        .json<{ app: { id: number }; planActual: unknown }[]>()
        .find((row) => row.app.id === appId);
      assert.deepEqual(mine?.planActual, {
        id: pro,
        nombre: 'PRO',
        fechaVencimiento: expires.toISOString(),
        origen: 'empresa',
        empresa: { id: company.id, nombre: company.name },
      });
      // What an administrator edits is the person's own plan (the free one); the seat is beside it, the company's.
      const detail = mine as unknown as { planPropio: { nombre: string; vencido: boolean }; puestos: unknown[] };
      assert.equal(detail.planPropio.nombre.toLowerCase(), 'free');
      assert.equal(detail.planPropio.vencido, false);
      assert.deepEqual(detail.puestos, [
        {
          empresa: { id: company.id, nombre: company.name },
          plan: { id: pro, nombre: 'PRO' },
          fechaVencimiento: expires.toISOString(),
        },
      ]);
    });

    it("a lapsed own PRO is answered as the person's own plan, with its date and lapsed; the plan named is the free one", async () => {
      const person = await newPerson(app);
      const ended = new Date(Date.now() - 3 * day);
      await setOwnPlan(app, person.id, pro, ended);
      const answer = await app.inject({
        method: 'POST',
        url: '/plan-usuario/user-app-plans',
        headers: { authorization: `Bearer ${person.token}` },
        payload: { idUsuario: person.id },
      });
      assert.equal(answer.statusCode, 200, answer.body);
      const mine = answer
        .json<{ app: { id: number }; planActual: { nombre: string }; planPropio: unknown; puestos: unknown[] }[]>()
        .find((row) => row.app.id === appId);
      assert.equal(mine?.planActual.nombre.toLowerCase(), 'free');
      assert.deepEqual(mine?.planPropio, {
        id: pro,
        nombre: 'PRO',
        fechaVencimiento: ended.toISOString(),
        vencido: true,
      });
      assert.deepEqual(mine?.puestos, []);
    });

    it('an own plan better than the seat is named; on a tie the own plan is', async () => {
      const better = await newPerson(app);
      await setOwnPlan(app, better.id, premium, null);
      await seatFor(app, better.id, pro);
      const betterEntry = entryOf(await view(app, better.token));
      assert.equal(betterEntry?.plan.nombre, 'Premium');
      assert.equal(betterEntry?.origen, 'propio');
      assert.equal(betterEntry?.empresa, null);

      const tie = await newPerson(app);
      await setOwnPlan(app, tie.id, pro, new Date(Date.now() + 10 * day));
      await seatFor(app, tie.id, pro);
      assert.equal(entryOf(await view(app, tie.token))?.origen, 'propio');
    });

    it('an own plan past its expiry is named as the free plan', async () => {
      const person = await newPerson(app);
      await setOwnPlan(app, person.id, pro, new Date(Date.now() - day));
      const entry = entryOf(await view(app, person.token));
      assert.equal(entry?.plan.nombre, 'free');
      assert.equal(entry?.fechaVencimiento, null);
      assert.equal(entry?.origen, 'propio');
    });

    it('a seat of an expired licence, a suspended company or a pending member does not count', async () => {
      const expired = await newPerson(app);
      await seatFor(app, expired.id, pro, { expires: new Date(Date.now() - day) });
      assert.equal(entryOf(await view(app, expired.token))?.plan.nombre, 'free');

      const suspended = await newPerson(app);
      const company = await seatFor(app, suspended.id, pro);
      assert.equal(entryOf(await view(app, suspended.token))?.origen, 'empresa');
      await app.db.update(companies).set({ status: 'suspended' }).where(eq(companies.id, company.id));
      const afterSuspension = await view(app, suspended.token);
      assert.equal(entryOf(afterSuspension)?.origen, 'propio');
      // A suspended company is not listed either.
      assert.deepEqual(afterSuspension.empresas, []);

      const pending = await newPerson(app);
      const waiting = await seatFor(app, pending.id, pro, { memberStatus: 'pending_approval' });
      const pendingView = await view(app, pending.token);
      assert.equal(entryOf(pendingView)?.origen, 'propio');
      assert.deepEqual(pendingView.empresas, [
        { id: waiting.id, nombre: waiting.name, rol: 'miembro', estado: 'pendiente' },
      ]);
    });

    it('a company requiring a second factor: its seat counts once the member has set one up', async () => {
      const person = await newPerson(app);
      const company = await seatFor(app, person.id, pro, { requireSecondFactor: true });
      // The person is told why the seat waits (the notice on /apps reads it).
      const asked = (user: Awaited<ReturnType<typeof view>>) =>
        user.empresas.find((empresa) => empresa.id === company.id)?.segundoFactorPendiente ?? false;
      let user = await view(app, person.token);
      assert.equal(entryOf(user)?.origen, 'propio');
      assert.equal(asked(user), true);
      // An authenticator not yet confirmed is no second factor.
      await app.db.insert(totpFactors).values({ userId: person.id, secret: 'secreto-cifrado' });
      user = await view(app, person.token);
      assert.equal(entryOf(user)?.origen, 'propio');
      assert.equal(asked(user), true);
      await app.db.update(totpFactors).set({ confirmedAt: new Date() }).where(eq(totpFactors.userId, person.id));
      user = await view(app, person.token);
      assert.equal(entryOf(user)?.origen, 'empresa');
      assert.equal(asked(user), false);
      assert.equal('segundoFactorPendiente' in (user.empresas[0] ?? {}), false, 'absent, not false, once set up');
      await app.db.delete(totpFactors).where(eq(totpFactors.userId, person.id));
      user = await view(app, person.token);
      assert.equal(entryOf(user)?.origen, 'propio');
      assert.equal(asked(user), true);
    });

    it('a seat taken back is seen at the next request', async () => {
      const person = await newPerson(app);
      const company = await seatFor(app, person.id, pro);
      assert.equal(entryOf(await view(app, person.token))?.origen, 'empresa');
      await app.db
        .delete(companySeats)
        .where(and(eq(companySeats.companyId, company.id), eq(companySeats.userId, person.id)));
      const entry = entryOf(await view(app, person.token));
      assert.equal(entry?.origen, 'propio');
      assert.equal(entry?.plan.nombre, 'free');
    });

    it("a partner app reads the seat's plan with its partner token", async () => {
      const person = await newPerson(app);
      const company = await seatFor(app, person.id, pro);
      const minted = await app.inject({
        method: 'POST',
        url: '/auth/partner-token',
        headers: { authorization: `Bearer ${person.token}` },
        payload: { redirect_url: `${partnerOrigin}/inicio` },
      });
      assert.equal(minted.statusCode, 200, minted.body);
      const partner = minted.json<{ access_token: string }>().access_token;
      const entry = entryOf(await view(app, partner));
      assert.equal(entry?.origen, 'empresa');
      assert.deepEqual(entry?.empresa, { id: company.id, nombre: company.name });
      const plansAnswer = await app.inject({
        method: 'POST',
        url: '/plan-usuario/user-app-plans',
        headers: { authorization: `Bearer ${partner}` },
        payload: { idUsuario: person.id },
      });
      assert.equal(plansAnswer.statusCode, 200, plansAnswer.body);
      const mine = plansAnswer
        .json<{ app: { id: number }; planActual: { origen: string } | null }[]>()
        .find((row) => row.app.id === appId);
      assert.equal(mine?.planActual?.origen, 'empresa');
    });

    it('the rule answers one app alone and judges expiries at the moment given', async () => {
      const person = await newPerson(app);
      const expires = new Date(Date.now() + day);
      await seatFor(app, person.id, pro, { expires });
      const now = await entitlements(app.db, person.id, { appId });
      assert.deepEqual(
        now.plans.map((entry) => [entry.app.id, entry.origen]),
        [[appId, 'empresa']],
      );
      assert.equal(now.validUntil, expires.getTime());
      const later = await entitlements(app.db, person.id, { appId, now: expires.getTime() + 1 });
      assert.equal(later.plans[0]?.plan.id, free);
      assert.equal(later.validUntil, null);
    });
  });

  describe('the kept answer of GET /auth/user and the passing of time', () => {
    let test: TestApp;
    const clock = manualClock(Date.now());

    before(async () => {
      test = await buildTestApp(backend, {}, { clock });
    });
    after(async () => {
      await test.close();
    });

    it('is not used past the earliest expiry it names', async () => {
      const { app } = test;
      const pro = await planId(app, appId, 'PRO');
      const person = await newPerson(app);
      await seatFor(app, person.id, pro, { expires: new Date(clock() + 60 * 60 * 1000) });
      assert.equal(entryOf(await view(app, person.token))?.origen, 'empresa');
      if (backend === 'postgres' || app.sessionState.serving) {
        // Answered from memory while nothing changes and the licence holds.
        await answeredFromMemory(app, async () =>
          assert.equal(entryOf(await view(app, person.token))?.origen, 'empresa'),
        );
      }
      clock.advance(2 * 60 * 60 * 1000);
      const entry = entryOf(await view(app, person.token));
      assert.equal(entry?.origen, 'propio');
      assert.equal(entry?.plan.nombre, 'free');
    });
  });
});

if (backends.includes('postgres'))
  describe('two instances on one PostgreSQL', () => {
    let pair: TestAppPair;

    before(async () => {
      pair = await buildTestAppPair();
    });
    after(async () => {
      await pair.close();
    });

    it("a seat taken back through one instance is seen by the other, which had the answer in memory, before that memory's own expiry", async () => {
      const { a, b } = pair;
      const pro = await planId(a, appId, 'PRO');
      const person = await newPerson(a);
      const company = await seatFor(a, person.id, pro);
      const memory = watchMemory(b, person.id);
      // B answers from its memory once warm.
      await answeredFromMemory(b, async () => assert.equal(entryOf(await view(b, person.token))?.origen, 'empresa'));
      await a.db
        .delete(companySeats)
        .where(and(eq(companySeats.companyId, company.id), eq(companySeats.userId, person.id)));
      await memory.seen(
        'the seat taken back, on B',
        async () => entryOf(await view(b, person.token))?.origen === 'propio',
      );
    });
  });
