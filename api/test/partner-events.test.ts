// Events for partner apps, end to end on the real app: the subscription routes, each event type produced by the real
// route that changes it (or the operator's statement where no route exists), delivered to a receiver PROCESS that
// verifies every signature with the Standard Webhooks package; retries on the schedule (the app's clock moved, not
// the schedule), a hanging receiver, Retry-After, a 410, the last try, secret rotation, and order per subscription.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { addMember } from '../src/domain/companies/members.js';
import { validEndpoint } from '../src/domain/partner-events/subscriptions.js';
import { announceExpiries } from '../src/domain/partner-events/expiry.js';
import { partnerEventMessages } from '../src/domain/partner-events/messages.js';
import {
  auditLog,
  companySeats,
  partnerDeliveries,
  partnerEvents,
  partnerEventTypes,
  partnerSubscriptions,
  userPlans,
  users,
} from '../src/db/schema.js';
import { manualClock } from './helpers/accounts.js';
import pg from 'pg';
import { fanOutBatch, fanOutLockKey } from '../src/domain/partner-events/fan-out.js';
import {
  adminEmail,
  adminPassword,
  createUser,
  type Backend,
  databaseUrl,
  forEachBackend,
  login,
  schemaOfApp,
} from './helpers/app.js';
import { insertCompany, insertLicence, planOf } from './helpers/company-fixtures.js';
import { nativeApp, type OidcTestApi, publicIdOf, registerClient, startOidcApi, TestBrowser } from './helpers/oidc.js';
import { waitFor } from './helpers/processes.js';
import { type Receiver, type Seen, seqOf, startReceiver } from './helpers/webhook-receiver.js';

const password = 'clave-de-persona-1';
const allEvents = [...partnerEventTypes];

forEachBackend((backend: Backend) => {
  let api: OidcTestApi;
  let adminToken: string;
  const clock = manualClock(Date.now());
  const receivers: Receiver[] = [];

  const call = (method: string, url: string, token: string | undefined, payload?: unknown) =>
    api.app.inject({
      method: method as 'GET',
      url,
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const subscribe = async (clientId: string, url: string, eventos: string[] = allEvents) => {
    const answer = await call('POST', `/admin/clientes-oidc/${clientId}/suscripciones`, adminToken, { url, eventos });
    assert.equal(answer.statusCode, 201, answer.body);
    return answer.json() as { id: string; secreto: string };
  };
  const receiver = async (secrets: string[] = []) => {
    const started = await startReceiver(secrets);
    receivers.push(started);
    return started;
  };
  const deliver = () => api.app.partnerEvents.worker.deliverDue();
  /** A person, and a first-party app (catalogue app 1) they signed in to: the app knows them. */
  const personSignedInto = async (email: string, clientId: string, scope = 'openid profile email plan') => {
    const id = await createUser(api.app, { email, password, status: 'active' });
    const browser = new TestBrowser(api.issuer);
    browser.portalToken = await login(api.app, email, password);
    const app = await nativeApp(api.issuer, clientId, 'http://127.0.0.1/callback', scope);
    const landed = await browser.signInTo(app.authorizationUrl, { allow: true });
    assert.match(landed, /code=/, landed);
    return { id, token: browser.portalToken as string };
  };
  const firstPartyClient = (
    nombre: string,
    appId: number | null = 1,
    scopes = ['openid', 'profile', 'email', 'plan'],
  ) =>
    registerClient(api.app, {
      nombre,
      redirectUris: ['http://127.0.0.1/callback'],
      publico: true,
      primeraParte: true,
      appId,
      scopes,
    });
  const types = (seen: Seen[]) => seen.map((one) => one.body.type);

  before(async () => {
    api = await startOidcApi(
      backend,
      { oidcBackchannelPrivateNetwork: true, partnerEventsTimeoutMs: 1_000 },
      { clock },
    );
    adminToken = await login(api.app, adminEmail, adminPassword);
  });
  after(async () => {
    for (const one of receivers) one.stop();
    await api.close();
  });

  if (backend === 'postgres')
    it("fans out while a portal in another schema of the same database holds its own round's lock, not while ours is held", async () => {
      // This instance's own rounds run too (every two seconds): whoever fans the event out, it is fanned out or not.
      const own = schemaOfApp(api);
      const fannedOut = async (id: number) => {
        const [row] = await api.app.db
          .select({ at: partnerEvents.fannedOutAt })
          .from(partnerEvents)
          .where(eq(partnerEvents.id, id));
        return row?.at != null;
      };
      /** Rounds, this test's and the instance's own, until the event is fanned out (10 s at most). */
      const roundsFanOut = async (id: number, what: string) => {
        await waitFor(
          what,
          async () => {
            await fanOutBatch(api.app.db, new Date(clock()));
            return fannedOut(id);
          },
          10_000,
        );
      };
      /** The round's lock of `heldSchema` taken by another connection, then an event written, then `check`. */
      const roundsWhileHeld = async (heldSchema: string, check: (id: number) => Promise<void>) => {
        const other = new pg.Client({ connectionString: databaseUrl });
        await other.connect();
        try {
          await other.query('BEGIN');
          await other.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [fanOutLockKey, heldSchema]);
          const [event] = await api.app.db
            .insert(partnerEvents)
            .values({ userId: 1, tipo: 'usuario.actualizado' })
            .returning({ id: partnerEvents.id });
          const id = event?.id as number;
          await check(id);
          return id;
        } finally {
          await other.query('ROLLBACK');
          await other.end();
        }
      };
      await roundsWhileHeld(`${own}_otro`, (id) => roundsFanOut(id, "another schema's round does not hold ours"));
      const waiting = await roundsWhileHeld(own, async (id) => {
        assert.equal((await fanOutBatch(api.app.db, new Date(clock()))).events, 0, 'a second instance skips the round');
        assert.equal(await fannedOut(id), false, 'no round of this portal fans out while one holds the lock');
      });
      await roundsFanOut(waiting, 'the next round takes it');
    });

  describe('suscripciones', () => {
    it('creates a subscription with a whsec_ secret shown once, lists it without secrets, audits, rotates, deletes', async () => {
      const client = await firstPartyClient('Suscripciones A', null, ['openid', 'profile']);
      const created = await subscribe(client.clientId, 'https://partner.example/eventos', ['usuario.suspendido']);
      assert.match(created.secreto, /^whsec_[A-Za-z0-9+/]{43}=$/);
      const list = await call('GET', `/admin/clientes-oidc/${client.clientId}/suscripciones`, adminToken);
      assert.equal(list.statusCode, 200);
      assert.deepEqual(
        list.json().data.map((one: Record<string, unknown>) => [one.id, one.url, one.eventos, one.estado]),
        [[created.id, 'https://partner.example/eventos', ['usuario.suspendido'], 'activa']],
      );
      assert.doesNotMatch(list.body, /whsec_|sealed|v1\./);
      const [row] = await api.app.db.select().from(partnerSubscriptions).where(eq(partnerSubscriptions.id, created.id));
      assert.ok(row && !row.secretSealed.includes(created.secreto.slice(6, 20)), 'the secret is kept sealed');
      const [audit] = await api.app.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'oidc_client.subscription_create'));
      assert.equal(audit?.details.suscripcion, created.id);

      const rotated = await call(
        'POST',
        `/admin/clientes-oidc/${client.clientId}/suscripciones/${created.id}/secreto`,
        adminToken,
      );
      assert.equal(rotated.statusCode, 200, rotated.body);
      assert.match(rotated.json().secreto, /^whsec_/);
      assert.notEqual(rotated.json().secreto, created.secreto);

      const removed = await call(
        'DELETE',
        `/admin/clientes-oidc/${client.clientId}/suscripciones/${created.id}`,
        adminToken,
      );
      assert.equal(removed.statusCode, 204);
      const again = await call(
        'DELETE',
        `/admin/clientes-oidc/${client.clientId}/suscripciones/${created.id}`,
        adminToken,
      );
      assert.equal(again.statusCode, 404);
      assert.equal(again.json().message, 'Suscripción no encontrada');
    });

    it('refuses in Spanish a bad address, unknown or no events, an unknown client; only administrators', async () => {
      const client = await firstPartyClient('Suscripciones B', null, ['openid']);
      const path = `/admin/clientes-oidc/${client.clientId}/suscripciones`;
      const cases: [unknown, RegExp][] = [
        [{ url: 'no es una url', eventos: ['usuario.suspendido'] }, /no es una URL absoluta válida/],
        [{ url: 'https://ana:clave@partner.example/x', eventos: ['usuario.suspendido'] }, /usuario ni contraseña/],
        [{ url: 'ftp://partner.example/x', eventos: ['usuario.suspendido'] }, /no es una URL absoluta válida/],
        [{ url: 'https://partner.example/x#a', eventos: ['usuario.suspendido'] }, /fragmento/],
        [{ url: 'https://partner.example/x', eventos: [] }, /al menos un evento/],
        [
          { url: 'https://partner.example/x', eventos: ['usuario.borrado', 'plan.asignado'] },
          /desconocidos: usuario\.borrado/,
        ],
      ];
      for (const [payload, message] of cases) {
        const answer = await call('POST', path, adminToken, payload);
        assert.equal(answer.statusCode, 400, answer.body);
        assert.match(answer.json().message, message);
        assert.equal(answer.json().code, 'INVALID_SUBSCRIPTION');
      }
      const unknown = await call('POST', '/admin/clientes-oidc/no-existe/suscripciones', adminToken, {
        url: 'https://partner.example/x',
        eventos: ['usuario.suspendido'],
      });
      assert.equal(unknown.statusCode, 404);
      const person = await createUser(api.app, { email: 'no-admin@portal.test', password, status: 'active' });
      assert.ok(person);
      const notAdmin = await call('POST', path, await login(api.app, 'no-admin@portal.test', password), {
        url: 'https://partner.example/x',
        eventos: ['usuario.suspendido'],
      });
      assert.equal(notAdmin.statusCode, 403);
      const anonymous = await call('GET', path, undefined);
      assert.equal(anonymous.statusCode, 401);
    });

    it('keeps event endpoints off private and loopback addresses unless the back-channel rule allows them', () => {
      for (const url of [
        'http://partner.example/x',
        'https://127.0.0.1/x',
        'https://10.1.2.3/x',
        'https://[::1]/x',
        'https://localhost/x',
        'https://169.254.169.254/latest',
      ]) {
        assert.throws(
          () => validEndpoint(url, false),
          (error: Error & { statusCode?: number }) => {
            assert.equal(error.statusCode, 400);
            assert.match(error.message, /https|privada o local/);
            return true;
          },
          url,
        );
      }
      assert.equal(validEndpoint('https://partner.example/eventos', false), 'https://partner.example/eventos');
      assert.equal(validEndpoint('http://127.0.0.1:9000/eventos', true), 'http://127.0.0.1:9000/eventos');
    });
  });

  describe('cada evento, por la ruta que lo produce, firmado y en orden', () => {
    it('delivers usuario.*, plan.* and consentimiento.revocado to the clients that may learn of them', async () => {
      const partner = await firstPartyClient('Control Max (eventos)');
      const thirdParty = await registerClient(api.app, {
        nombre: 'Terceros (eventos)',
        redirectUris: ['http://127.0.0.1/callback'],
        publico: true,
        primeraParte: false,
        scopes: ['openid', 'email'],
      });
      const r1 = await receiver();
      const r2 = await receiver();
      const s1 = await subscribe(partner.clientId, r1.url);
      const s2 = await subscribe(thirdParty.clientId, r2.url);
      await r1.control({ secrets: [s1.secreto] });
      await r2.control({ secrets: [s2.secreto] });
      const person = await personSignedInto('eventos@portal.test', partner.clientId);
      // The same person allows the third-party app their email.
      const browser = new TestBrowser(api.issuer);
      browser.portalToken = person.token;
      const third = await nativeApp(api.issuer, thirdParty.clientId, 'http://127.0.0.1/callback', 'openid email');
      assert.match(await browser.signInTo(third.authorizationUrl, { allow: true }), /code=/);
      // Someone the partner app never saw: nothing about them reaches it.
      const stranger = await createUser(api.app, { email: 'ajeno@portal.test', password, status: 'active' });

      // The person's own profile change; then only the phone (the partner app has no `phone` scope: not told).
      let answer = await call('PUT', `/auth/editar/${person.id}`, person.token, { name: 'Nueva', lastName: 'Persona' });
      assert.equal(answer.statusCode, 200, answer.body);
      answer = await call('PUT', `/auth/editar/${person.id}`, person.token, { phone: '+34 600 111 222' });
      assert.equal(answer.statusCode, 200, answer.body);
      await call('PUT', `/auth/editar/${stranger}`, adminToken, { name: 'Otro' });
      // An administrator suspends and reactivates.
      for (const status of ['suspended', 'active']) {
        answer = await call('PUT', `/auth/editar/${person.id}`, adminToken, { status });
        assert.equal(answer.statusCode, 200, answer.body);
      }
      // Suspension ended the person's sessions: they sign in again.
      person.token = await login(api.app, 'eventos@portal.test', password);
      // An administrator gives PRO in app 1, then changes its expiry.
      const pro = await planOf(api.app, 1);
      for (const days of [30, 60]) {
        answer = await call('POST', '/plan-usuario/cambiar-plan-app', adminToken, {
          idUsuario: person.id,
          idApp: 1,
          idPlan: pro,
          fechaVencimiento: new Date(Date.now() + days * 86_400_000).toISOString(),
        });
        assert.equal(answer.statusCode, 200, answer.body);
        // A plan event says the plan as it is when the event fans out: out before the next change, as the background
        // round does it on a machine that is not busy.
        await deliver();
      }
      // A company seat of app 1 given and taken back.
      const company = await insertCompany(api.app, 'Eventos SA');
      await insertLicence(api.app, company, 1, 3);
      await addMember(api.app.db, company, person.id, 'miembro', 'active');
      answer = await call('POST', `/empresas/${company}/puestos`, adminToken, { idUsuario: person.id, idApp: 1 });
      assert.equal(answer.statusCode < 300, true, answer.body);
      answer = await call('DELETE', `/empresas/${company}/puestos/${person.id}/1`, adminToken);
      assert.equal(answer.statusCode < 300, true, answer.body);
      // The person takes back the third-party app's access in /perfil.
      answer = await call('DELETE', `/auth/aplicaciones/${thirdParty.clientId}`, person.token);
      assert.equal(answer.statusCode < 300, true, answer.body);
      // The plan's expiry passes: the expiry job announces it once, however often it runs.
      await api.app.db.execute(
        sql`UPDATE user_plans SET fecha_vencimiento = ${new Date(clock() - 60_000)} WHERE user_id = ${person.id}`,
      );
      assert.equal(await announceExpiries(api.app.db, new Date(clock())), 1);
      assert.equal(await announceExpiries(api.app.db, new Date(clock())), 0);
      // Both apps are new clients: they know the person by the account's public id (docs/decisions/0083-subjects.md),
      // named in the account's deletion too.
      const sub = await publicIdOf(api.app, person.id);
      // The operator deletes the account (no route deletes one).
      await api.app.db.delete(users).where(eq(users.id, person.id));
      await deliver();

      const got = await r1.accepted();
      assert.deepEqual(types(got), [
        'usuario.actualizado',
        'usuario.suspendido',
        'usuario.reactivado',
        'plan.asignado',
        'plan.cambiado',
        'plan.asignado',
        'plan.retirado',
        'plan.cambiado',
        'plan.vencido',
        'usuario.eliminado',
      ]);
      assert.deepEqual(
        got.map(seqOf),
        got.map((_one, index) => index + 1),
        'sequence numbers 1, 2, 3… in order',
      );
      for (const one of got) assert.equal(one.body.data.sub, sub);
      const updated = got[0]?.body.data as Record<string, unknown>;
      assert.deepEqual(updated.cambios, ['name', 'given_name', 'family_name']);
      assert.equal(updated.given_name, 'Nueva');
      assert.equal(updated.email, 'eventos@portal.test');
      assert.equal(updated.phone_number, undefined, 'no phone without the phone scope');
      assert.equal((got[3]?.body.data.plan as { nombre?: string } | undefined)?.nombre, 'PRO');
      assert.equal(got[8]?.body.data.vencio !== undefined, true);
      assert.deepEqual(got[9]?.body.data, { sub });
      // The third-party app: its consent taken back (nothing about plans: no app, no `plan` scope).
      const thirdGot = await r2.accepted();
      // It knows the person too: told of the suspension (the subject only), never of their name (no `profile`).
      assert.deepEqual(types(thirdGot), ['usuario.suspendido', 'usuario.reactivado', 'consentimiento.revocado']);
      assert.deepEqual(thirdGot[2]?.body.data, { sub, scopes: ['openid', 'email'] });
      for (const one of [...(await r1.seen()), ...(await r2.seen())]) assert.equal(one.verified, true);
    });
  });

  describe('reintentos', () => {
    let partner: { clientId: string };
    let r: Receiver;
    let subscription: { id: string; secreto: string };
    let person: { id: number; token: string };
    let n = 0;
    const change = async () => {
      n++;
      const answer = await call('PUT', `/auth/editar/${person.id}`, person.token, { name: `Nombre ${n}` });
      assert.equal(answer.statusCode, 200, answer.body);
    };
    const rows = () =>
      api.app.db
        .select()
        .from(partnerDeliveries)
        .where(eq(partnerDeliveries.subscriptionId, subscription.id))
        .orderBy(partnerDeliveries.seq);

    before(async () => {
      partner = await firstPartyClient('Reintentos', 2);
      r = await receiver();
      subscription = await subscribe(partner.clientId, r.url, ['usuario.actualizado']);
      await r.control({ secrets: [subscription.secreto] });
      person = await personSignedInto('reintentos@portal.test', partner.clientId, 'openid profile');
    });

    it('retries a 500 after 5 s and holds later events behind it; then both in order', async () => {
      await r.control({ plan: [500] });
      await change();
      await change();
      await deliver();
      let [first, second] = await rows();
      assert.equal(first?.attempts, 1);
      assert.equal(first?.lastStatusCode, 500);
      assert.equal(first?.lastError, 'El receptor respondió 500');
      assert.equal(first?.nextAttemptAt.getTime(), clock() + 5_000);
      assert.equal(second?.attempts, 0, 'the next one waits behind the retried one');
      clock.advance(4_000);
      await deliver();
      assert.equal((await rows())[0]?.attempts, 1, 'not before its time');
      clock.advance(1_000);
      await deliver();
      [first, second] = await rows();
      assert.equal(first?.status, 'entregado');
      assert.equal(second?.status, 'entregado');
      const accepted = await r.accepted();
      assert.deepEqual(accepted.map(seqOf), [1, 2]);
      assert.equal(accepted[0]?.id, (await r.seen())[0]?.id, 'the same webhook-id on the retry');
    });

    it('gives up on a hanging receiver at the timeout and retries it', async () => {
      await r.control({ plan: ['hang'] });
      await change();
      const started = performance.now();
      await deliver();
      assert.ok(performance.now() - started < 5_000, 'the hang held the sender past its timeout');
      const last = (await rows()).at(-1);
      assert.equal(last?.status, 'pendiente');
      assert.match(last?.lastError ?? '', /no respondió a tiempo/);
      clock.advance(5_000);
      await deliver();
      assert.equal((await rows()).at(-1)?.status, 'entregado');
    });

    it('honours Retry-After, and fails a delivery after its tenth try; the queue moves on', async () => {
      await r.control({ plan: [503], retryAfter: '120' });
      await change();
      await deliver();
      assert.equal((await rows()).at(-1)?.nextAttemptAt.getTime(), clock() + 120_000);
      await r.control({ fallback: 500, retryAfter: undefined });
      await change();
      const waits = [120_000, 5 * 60_000, 30 * 60_000, 2, 5, 10, 14, 20, 24].map((value, index) =>
        index < 3 ? value : value * 3_600_000,
      );
      for (const wait of waits) {
        clock.advance(wait);
        await deliver();
      }
      const [failed, next] = (await rows()).slice(-2);
      assert.equal(failed?.status, 'fallido');
      assert.equal(failed?.attempts, 10);
      assert.equal(next?.status, 'pendiente', 'the next one is tried once the failed one is done');
      assert.ok((next?.attempts ?? 0) >= 1);
      await r.control({ fallback: 200 });
      clock.advance(24 * 3_600_000);
      await deliver();
      assert.equal((await rows()).at(-1)?.status, 'entregado');
      const scrape = await api.app.metrics.scrape();
      assert.match(scrape, /portal_partner_event_deliveries_total\{outcome="fallido"\} 1/);
      assert.match(scrape, /portal_partner_event_deliveries_total\{outcome="reintento"\} \d+/);
      assert.match(scrape, /portal_partner_event_outbox_oldest_age_seconds 0/);
    });

    it('signs with both secrets during a rotation overlap, then with the new one only', async () => {
      const rotated = (
        await call(
          'POST',
          `/admin/clientes-oidc/${partner.clientId}/suscripciones/${subscription.id}/secreto`,
          adminToken,
        )
      ).json() as { secreto: string };
      await r.control({ secrets: [subscription.secreto] });
      await change();
      await deliver();
      await r.control({ secrets: [rotated.secreto] });
      await change();
      await deliver();
      assert.equal((await rows()).filter((row) => row.status === 'pendiente').length, 0);
      clock.advance(24 * 3_600_000 + 1_000);
      await r.control({ secrets: [subscription.secreto] });
      await change();
      await deliver();
      const last = (await r.seen()).at(-1);
      assert.equal(last?.verified, false, 'the old secret no longer signs after the overlap');
      assert.equal(last?.status, 401);
      await r.control({ secrets: [rotated.secreto] });
      clock.advance(5_000);
      await deliver();
      assert.equal((await rows()).at(-1)?.status, 'entregado');
    });

    it('disables the subscription on a 410 and cancels what waits; nothing more is sent', async () => {
      const before = (await rows()).length;
      await r.control({ plan: [410] });
      await change();
      await change();
      await deliver();
      const [row] = await api.app.db
        .select()
        .from(partnerSubscriptions)
        .where(eq(partnerSubscriptions.id, subscription.id));
      assert.equal(row?.status, 'desactivada');
      // Stored as the panel and the resend refusal show it: a Spanish sentence, no HTTP reason phrase.
      assert.equal(row?.disabledReason, 'El receptor respondió 410: ya no acepta eventos');
      // The 410'd delivery and whatever was queued behind it; an event after the 410 is not even queued.
      const after410 = (await rows()).slice(before);
      assert.ok(after410.length >= 1);
      assert.deepEqual(new Set(after410.map((one) => one.status)), new Set(['cancelada']));
      assert.equal(after410[0]?.lastStatusCode, 410);
      const seenBefore = (await r.seen()).length;
      await change();
      clock.advance(60_000);
      await deliver();
      assert.equal((await r.seen()).length, seenBefore);
      const [audit] = await api.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'oidc_client.subscription_disabled')));
      assert.equal(audit?.details.suscripcion, subscription.id);
      assert.equal(audit?.details.motivo, 'El receptor respondió 410: ya no acepta eventos');
      const listed = await call('GET', `/admin/clientes-oidc/${partner.clientId}/suscripciones`, adminToken);
      assert.deepEqual(
        [listed.json().data[0].estado, listed.json().data[0].motivoDesactivacion],
        ['desactivada', 'El receptor respondió 410: ya no acepta eventos'],
      );
    });

    // Two connections at once: PGlite runs one transaction at a time, so the race is PostgreSQL's alone.
    if (backend === 'postgres')
      it('an event fanned out while its subscription is being disabled leaves no delivery waiting for it', async () => {
        const other = await subscribe(partner.clientId, r.url, ['usuario.actualizado']);
        await deliver();
        let release = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        let disabled = () => {};
        const disabling = new Promise<void>((resolve) => {
          disabled = resolve;
        });
        // The 410's disabling (deliveries.ts `disable`), held open while the next event fans out.
        const disable = api.app.db.transaction(async (tx) => {
          await tx
            .update(partnerSubscriptions)
            .set({ status: 'desactivada', disabledReason: 'prueba', disabledAt: new Date(clock()) })
            .where(eq(partnerSubscriptions.id, other.id));
          await tx
            .update(partnerDeliveries)
            .set({ status: 'cancelada', lockedUntil: null })
            .where(and(eq(partnerDeliveries.subscriptionId, other.id), eq(partnerDeliveries.status, 'pendiente')));
          disabled();
          await held;
        });
        await disabling;
        await change();
        const fanningOut = deliver();
        await new Promise((resolve) => setTimeout(resolve, 300));
        release();
        await disable;
        await fanningOut;
        // And any round the change woke in the background.
        await deliver();
        const waiting = await api.app.db
          .select()
          .from(partnerDeliveries)
          .where(and(eq(partnerDeliveries.subscriptionId, other.id), eq(partnerDeliveries.status, 'pendiente')));
        assert.deepEqual(waiting, []);
      });
  });

  describe('plan.vencido', () => {
    it('announces each passed expiry once, of an own plan to its holder and of a licence to each seat, with its data', async () => {
      const partner = await firstPartyClient('Vencimientos', 3);
      const r = await receiver();
      const subscription = await subscribe(partner.clientId, r.url, ['plan.vencido']);
      await r.control({ secrets: [subscription.secreto] });
      const pro = await planOf(api.app, 3);
      const person = (email: string) => createUser(api.app, { email, password, status: 'active' });
      const lapsed = new Date(clock() - 86_400_000);
      // An own plan whose expiry has passed, and one still running.
      const owner = await person('vence-propio@portal.test');
      const running = await person('vigente@portal.test');
      await api.app.db.insert(userPlans).values([
        { userId: owner, appId: 3, planId: pro, fechaVencimiento: lapsed },
        { userId: running, appId: 3, planId: pro, fechaVencimiento: new Date(clock() + 86_400_000) },
      ]);
      // A licence whose expiry has passed: two members hold a seat, a third does not.
      const company = await insertCompany(api.app, 'Vencida SA');
      await insertLicence(api.app, company, 3, 5, lapsed);
      const seated = [await person('puesto-1@portal.test'), await person('puesto-2@portal.test')];
      const seatless = await person('sin-puesto@portal.test');
      for (const id of [...seated, seatless]) await addMember(api.app.db, company, id, 'miembro', 'active');
      await api.app.db.insert(companySeats).values(seated.map((userId) => ({ companyId: company, userId, appId: 3 })));
      const announced = async () =>
        (
          await api.app.db
            .select()
            .from(partnerEvents)
            .where(and(eq(partnerEvents.tipo, 'plan.vencido'), eq(partnerEvents.appId, 3)))
            .orderBy(partnerEvents.userId, partnerEvents.id)
        ).map((row) => ({
          userId: row.userId,
          publicId: row.publicId,
          data: { ...row.data, vence: new Date(row.data.vence as string).getTime() },
        }));
      const event = async (userId: number, data: Record<string, unknown>) => ({
        userId,
        publicId: await publicIdOf(api.app, userId),
        data: { ...data, plan_id: pro, vence: lapsed.getTime() },
      });
      const expected = [
        await event(owner, { origen: 'propio' }),
        ...(await Promise.all(seated.map((id) => event(id, { origen: 'empresa', empresa_id: company })))),
      ];

      // Several instances run the job at once: one plan and one licence marked, each person told once.
      const runs = await Promise.all([1, 2, 3].map(() => announceExpiries(api.app.db, new Date(clock()))));
      assert.equal(
        runs.reduce((sum, n) => sum + n, 0),
        2,
      );
      assert.deepEqual(await announced(), expected);
      // Run again: nothing new.
      assert.equal(await announceExpiries(api.app.db, new Date(clock())), 0);
      assert.deepEqual(await announced(), expected);

      // A later expiry of the same plan, once passed, is announced again.
      const later = new Date(clock() - 60_000);
      await api.app.db.update(userPlans).set({ fechaVencimiento: later }).where(eq(userPlans.userId, owner));
      assert.equal(await announceExpiries(api.app.db, new Date(clock())), 1);
      const owners = (await announced()).filter((row) => row.userId === owner);
      assert.deepEqual(
        owners.map((row) => row.data.vence),
        [lapsed.getTime(), later.getTime()],
      );
    });
  });

  describe('a receiver that hangs (a send timeout of a minute)', () => {
    // An app of its own whose tries wait up to 60 s; the helpers above use `api` and `adminToken`, so they are
    // pointed at it for these tests and back afterwards.
    let main: OidcTestApi;
    let mainToken: string;
    let hanging: Receiver;
    let quick: Receiver;
    let stuck: { id: string; secreto: string };
    let flowing: { id: string; secreto: string };
    let person: { id: number; token: string };
    let n = 0;
    const change = async () => {
      n++;
      const answer = await call('PUT', `/auth/editar/${person.id}`, person.token, { name: `Lento ${n}` });
      assert.equal(answer.statusCode, 200, answer.body);
    };
    const rowsOf = (subscriptionId: string) =>
      api.app.db
        .select()
        .from(partnerDeliveries)
        .where(eq(partnerDeliveries.subscriptionId, subscriptionId))
        .orderBy(partnerDeliveries.seq);

    before(async () => {
      main = api;
      mainToken = adminToken;
      api = await startOidcApi(
        backend,
        { oidcBackchannelPrivateNetwork: true, partnerEventsTimeoutMs: 60_000 },
        { clock },
      );
      adminToken = await login(api.app, adminEmail, adminPassword);
      const partner = await firstPartyClient('Receptor colgado', 2);
      hanging = await receiver();
      quick = await receiver();
      stuck = await subscribe(partner.clientId, hanging.url, ['usuario.actualizado']);
      flowing = await subscribe(partner.clientId, quick.url, ['usuario.actualizado']);
      await hanging.control({ secrets: [stuck.secreto], fallback: 'hang' });
      await quick.control({ secrets: [flowing.secreto] });
      person = await personSignedInto('colgado@portal.test', partner.clientId, 'openid profile');
    });
    after(async () => {
      await api.close();
      api = main;
      adminToken = mainToken;
    });

    it('holds its own subscription only: another gets each new event while it hangs', async () => {
      await change();
      api.app.partnerEvents.worker.wake();
      await waitFor('the quick receiver to get the first event', async () => (await quick.accepted()).length === 1);
      await waitFor('the hanging receiver to be holding it', async () => (await hanging.seen()).length === 1);
      // A second event while the first try to the hanging receiver is still open (it waits up to a minute).
      await change();
      api.app.partnerEvents.worker.wake();
      await waitFor('the quick receiver to get the second event', async () => (await quick.accepted()).length === 2);
      assert.deepEqual((await quick.accepted()).map(seqOf), [1, 2]);
      const [first] = await rowsOf(stuck.id);
      assert.equal(first?.attempts, 0, 'the try to the hanging receiver has not ended');
      assert.equal((await hanging.seen()).length, 1);
    });

    it('shutting down cuts the try short: recorded, due again at once, the subscription released', async () => {
      await api.app.partnerEvents.worker.close();
      const [first, second] = await rowsOf(stuck.id);
      assert.equal(first?.status, 'pendiente');
      assert.equal(first?.attempts, 1);
      assert.equal(first?.lastError, partnerEventMessages.interrupted);
      assert.ok((first?.nextAttemptAt.getTime() ?? Infinity) <= clock(), 'due again at once');
      assert.equal(second?.attempts, 0, 'the next one still waits behind it');
      const [subscription] = await api.app.db
        .select()
        .from(partnerSubscriptions)
        .where(eq(partnerSubscriptions.id, stuck.id));
      assert.equal(subscription?.claimedBy, null);
      assert.equal(subscription?.lockedUntil, null);
      await waitFor('the receiver to see its connection cut', async () => (await hanging.seen())[0]?.status === 'gone');
    });
  });
});
