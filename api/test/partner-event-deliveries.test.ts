// A subscription's deliveries in the admin panel (/admin/clientes-oidc/:clientId/suscripciones/:id/entregas): newest
// first by cursor, each try's failure as a Spanish sentence, 'Reenviar' under the same webhook-id and sequence number
// with its audit row, and nobody but a platform administrator, nor one client's path reaching another's deliveries.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { auditLog, type PartnerDeliveryStatus, partnerDeliveries, partnerSubscriptions } from '../src/db/schema.js';
import { appOfClient } from '../src/domain/identity-provider/connected-apps.js';
import { adminEmail, buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';
import { spanishErrorProblem } from './helpers/hostile.js';
import { registerClient } from './helpers/oidc.js';

interface Delivery {
  id: number;
  webhookId: string;
  evento: string;
  seq: number;
  estado: string;
  intentos: number;
  proximoIntento: string | null;
  ultimoError: string | null;
  codigoRespuesta: number | null;
}
interface DeliveryPage {
  data: Delivery[];
  siguiente: string | null;
}

forEachBackend((backend) => {
  describe("a subscription's deliveries in the admin panel", () => {
    let t: TestApp;
    let admin: string;
    let clientId: string;
    let otherClientId: string;
    let subscriptionId: string;
    let otherSubscriptionId: string;

    const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string | null = admin) =>
      t.app.inject({ method, url, headers: token ? { authorization: `Bearer ${token}` } : {} });
    const base = (client = clientId, subscription = subscriptionId) =>
      `/admin/clientes-oidc/${client}/suscripciones/${subscription}/entregas`;

    /** A subscription as the core's route stores it (the secret's sealing does not matter to these routes). */
    async function subscription(client: string, status: 'activa' | 'desactivada' = 'activa') {
      const [row] = await t.app.db
        .insert(partnerSubscriptions)
        .values({
          connectedAppId: (await appOfClient(t.app.db, client))!,
          url: `https://${client}.example.com/eventos`,
          eventos: ['usuario.suspendido', 'plan.asignado'],
          secretSealed: 'sellado',
          status,
          ...(status === 'desactivada' ? { disabledReason: 'el receptor respondió 410', disabledAt: new Date() } : {}),
        })
        .returning({ id: partnerSubscriptions.id });
      return row!.id;
    }

    let nextSeq = 1;
    /** A delivery in the state the worker leaves it. */
    async function delivery(
      subscription: string,
      fields: {
        status?: PartnerDeliveryStatus;
        attempts?: number;
        lastError?: string | null;
        lastStatusCode?: number | null;
      } = {},
    ) {
      const seq = nextSeq++;
      const [row] = await t.app.db
        .insert(partnerDeliveries)
        .values({
          subscriptionId: subscription,
          seq,
          eventId: seq,
          messageId: `msg_${randomUUID()}`,
          tipo: 'usuario.suspendido',
          payload: { type: 'usuario.suspendido', data: { sub: '7' } },
          status: fields.status ?? 'entregado',
          attempts: fields.attempts ?? 1,
          lastError: fields.lastError ?? null,
          lastStatusCode: fields.lastStatusCode === undefined ? 200 : fields.lastStatusCode,
          lastAttemptAt: new Date(),
          deliveredAt: (fields.status ?? 'entregado') === 'entregado' ? new Date() : null,
        })
        .returning();
      return row!;
    }

    before(async () => {
      t = await buildTestApp(backend);
      admin = await login(t.app);
      /** A confidential third-party client with the openid scope alone. */
      const client = (nombre: string, redirect: string) =>
        registerClient(t.app, {
          nombre,
          redirectUris: [redirect],
          postLogoutRedirectUris: [],
          backchannelLogoutUri: null,
          initiateLoginUri: null,
          publico: false,
          primeraParte: false,
          appId: null,
          scopes: ['openid'],
        });
      ({ clientId } = await client('Gestor de Planta', 'https://gestor.example.com/cb'));
      ({ clientId: otherClientId } = await client('Informes', 'https://informes.example.com/cb'));
      subscriptionId = await subscription(clientId);
      otherSubscriptionId = await subscription(otherClientId);
    });
    after(() => t.close());

    it('lists the newest first, a page at a time by cursor, until the last page says null', async () => {
      const fresh = await subscription(clientId);
      const written: number[] = [];
      for (let i = 0; i < 23; i++) written.push((await delivery(fresh)).id);
      const seen: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const answer = await call('GET', `${base(clientId, fresh)}?limit=10${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(answer.statusCode, 200, answer.body);
        const page: DeliveryPage = answer.json();
        seen.push(...page.data.map((d) => d.id));
        cursor = page.siguiente;
        pages++;
      } while (cursor);
      assert.equal(pages, 3);
      assert.deepEqual(seen, written.toReversed());

      const empty = await call('GET', base(clientId, await subscription(clientId)));
      assert.deepEqual(empty.json(), { data: [], siguiente: null });
    });

    it("shows each delivery's event, order, state, tries, next try and response code", async () => {
      const fresh = await subscription(clientId);
      const done = await delivery(fresh);
      const retrying = await delivery(fresh, { status: 'pendiente', attempts: 2, lastStatusCode: 503 });
      const waiting = await delivery(fresh, { status: 'pendiente', attempts: 0, lastStatusCode: null });
      const page: DeliveryPage = (await call('GET', base(clientId, fresh))).json();
      const byId = new Map(page.data.map((d) => [d.id, d]));
      assert.deepEqual(
        [done, retrying, waiting].map((row) => {
          const d = byId.get(row.id)!;
          return [d.webhookId === row.messageId, d.evento, d.seq, d.estado, d.intentos, d.codigoRespuesta];
        }),
        [
          [true, 'usuario.suspendido', done.seq, 'entregada', 1, 200],
          [true, 'usuario.suspendido', retrying.seq, 'reintentando', 2, 503],
          [true, 'usuario.suspendido', waiting.seq, 'pendiente', 0, null],
        ],
      );
      assert.equal(byId.get(done.id)!.proximoIntento, null);
      assert.ok(byId.get(retrying.id)!.proximoIntento);
      assert.equal(byId.get(done.id)!.ultimoError, null);
    });

    it('names every kind of failure the worker records in a Spanish sentence, never its raw English', async () => {
      const fresh = await subscription(clientId);
      const cases: [string | null, number | null, RegExp][] = [
        ['timeout', null, /^El receptor no respondió a tiempo$/],
        ['The operation was aborted due to timeout', null, /^El receptor no respondió a tiempo$/],
        ['connect ECONNREFUSED 127.0.0.1:9', null, /^El receptor rechazó la conexión/],
        ['getaddrinfo ENOTFOUND eventos.example.invalid', null, /^No se encontró la dirección del receptor/],
        ['certificate has expired (CERT_HAS_EXPIRED)', null, /^El certificado TLS del receptor no es válido/],
        ['socket hang up', null, /^El receptor cortó la conexión/],
        [null, 500, /^El receptor falló al procesarlo \(respondió 500\)$/],
        ['status 404', 404, /^El receptor no lo aceptó \(respondió 404\)$/],
        [null, 429, /^El receptor pidió esperar \(429\)/],
        ['fetch failed', null, /^El envío falló por un error de red$/],
        // The worker's own sentences: a code inside is put in words, the deadline of a timeout kept.
        ['El envío falló por un error de red (ECONNREFUSED)', null, /^El receptor rechazó la conexión/],
        ['El envío falló por un error de red (UND_ERR_SOCKET)', null, /^El receptor cortó la conexión/],
        [
          'El envío se interrumpió porque el portal se estaba reiniciando; se vuelve a enviar enseguida',
          null,
          /^El envío se interrumpió porque el portal se estaba reiniciando; se vuelve a enviar enseguida$/,
        ],
        [
          'El receptor no respondió a tiempo (plazo de 10 s)',
          null,
          /^El receptor no respondió a tiempo \(plazo de 10 s\)$/,
        ],
        ['El receptor respondió 503', 503, /^El receptor falló al procesarlo \(respondió 503\)$/],
        [
          'El receptor respondió con una redirección (302), que el portal no sigue',
          302,
          /^El receptor respondió con una redirección, que el portal no sigue$/,
        ],
      ];
      const rows: { id: number }[] = [];
      for (const [lastError, lastStatusCode] of cases) {
        rows.push(await delivery(fresh, { status: 'fallido', attempts: 10, lastError, lastStatusCode }));
      }
      const answer = await call('GET', `${base(clientId, fresh)}?limit=50`);
      const byId = new Map(answer.json<DeliveryPage>().data.map((d) => [d.id, d]));
      cases.forEach(([raw, , expected], index) => {
        const shown = byId.get(rows[index]!.id)!;
        assert.equal(shown.estado, 'fallida');
        assert.match(shown.ultimoError ?? '', expected, String(raw));
      });
      for (const english of [
        'ECONNREFUSED',
        'UND_ERR',
        'ENOTFOUND',
        'CERT_HAS_EXPIRED',
        'hang up',
        'fetch failed',
        'aborted',
      ]) {
        assert.ok(!answer.body.includes(english), `${english} reached the panel`);
      }
    });

    it('Reenviar queues a delivered delivery again under the same webhook-id and seq, and audits it', async () => {
      const sent = await delivery(subscriptionId, { lastStatusCode: 204 });
      const answer = await call('POST', `${base()}/${sent.id}/reenviar`);
      assert.equal(answer.statusCode, 200, answer.body);
      const shown = answer.json<Delivery>();
      assert.deepEqual(
        [shown.id, shown.webhookId, shown.seq, shown.estado, shown.intentos, shown.ultimoError],
        [sent.id, sent.messageId, sent.seq, 'pendiente', 0, null],
      );
      const [row] = await t.app.db.select().from(partnerDeliveries).where(eq(partnerDeliveries.id, sent.id));
      assert.equal(row!.status, 'pendiente');
      assert.equal(row!.messageId, sent.messageId, 'the receiver can tell it is the same message');
      assert.ok(row!.nextAttemptAt.getTime() <= Date.now(), 'due at once');
      assert.equal(row!.deliveredAt, null);

      const audit = await t.app.db
        .select({ actor: auditLog.actorEmail, details: auditLog.details })
        .from(auditLog)
        .where(eq(auditLog.action, 'oidc_client.delivery_resend'));
      assert.equal(audit.length, 1);
      assert.equal(audit[0]!.actor, adminEmail);
      assert.deepEqual(
        [audit[0]!.details.webhookId, audit[0]!.details.estadoAnterior, audit[0]!.details.codigo],
        [sent.messageId, 'entregada', 204],
      );
      const log = await call('GET', '/admin/auditoria?action=oidc_client.delivery_resend');
      assert.equal(log.json<{ data: { targetLabel: string }[] }>().data[0]?.targetLabel, 'Gestor de Planta');

      // Now pending: a second 'Reenviar' is refused until the worker is done with it.
      const again = await call('POST', `${base()}/${sent.id}/reenviar`);
      assert.equal(again.statusCode, 409);
      assert.equal(again.json<{ code: string }>().code, 'DELIVERY_PENDING');
      assert.equal(spanishErrorProblem(again), undefined);
    });

    it('Reenviar takes a failed or cancelled delivery back, and refuses one of a disabled subscription', async () => {
      const failed = await delivery(subscriptionId, { status: 'fallido', attempts: 10, lastStatusCode: 500 });
      assert.equal((await call('POST', `${base()}/${failed.id}/reenviar`)).statusCode, 200);
      const cancelled = await delivery(subscriptionId, { status: 'cancelada', attempts: 0, lastStatusCode: null });
      assert.equal((await call('POST', `${base()}/${cancelled.id}/reenviar`)).statusCode, 200);

      const gone = await subscription(clientId, 'desactivada');
      const stuck = await delivery(gone, { status: 'cancelada', attempts: 0, lastStatusCode: null });
      const refused = await call('POST', `${base(clientId, gone)}/${stuck.id}/reenviar`);
      assert.equal(refused.statusCode, 409);
      assert.equal(
        refused.json<{ message: string }>().message,
        'La suscripción está desactivada (el receptor respondió 410): no se le puede reenviar nada',
      );
      const [row] = await t.app.db.select().from(partnerDeliveries).where(eq(partnerDeliveries.id, stuck.id));
      assert.equal(row!.status, 'cancelada', 'nothing changed');
    });

    it("answers a Spanish 404 for an unknown client, subscription or delivery, and for another client's", async () => {
      const mine = await delivery(subscriptionId);
      const theirs = await delivery(otherSubscriptionId);
      const cases: [string, 'GET' | 'POST', string][] = [
        [base('no-existe'), 'GET', 'OIDC_CLIENT_NOT_FOUND'],
        [base(clientId, randomUUID()), 'GET', 'SUBSCRIPTION_NOT_FOUND'],
        // The other client's subscription through this client's path: as if it did not exist.
        [base(clientId, otherSubscriptionId), 'GET', 'SUBSCRIPTION_NOT_FOUND'],
        [`${base(clientId, otherSubscriptionId)}/${theirs.id}/reenviar`, 'POST', 'SUBSCRIPTION_NOT_FOUND'],
        // The other subscription's delivery through this subscription's path.
        [`${base()}/${theirs.id}/reenviar`, 'POST', 'DELIVERY_NOT_FOUND'],
        [`${base()}/2147483647/reenviar`, 'POST', 'DELIVERY_NOT_FOUND'],
        [`${base('no-existe')}/${mine.id}/reenviar`, 'POST', 'OIDC_CLIENT_NOT_FOUND'],
      ];
      for (const [url, method, code] of cases) {
        const answer = await call(method, url);
        assert.equal(answer.statusCode, 404, url);
        assert.equal(answer.json<{ code: string }>().code, code, url);
        assert.equal(spanishErrorProblem(answer), undefined, url);
      }
      const [row] = await t.app.db.select().from(partnerDeliveries).where(eq(partnerDeliveries.id, theirs.id));
      assert.equal(row!.status, 'entregado', "the other client's delivery was not touched");
    });

    it('refuses bad ids and cursors in Spanish (400, never 500)', async () => {
      // A malformed subscription id: the same 400 on every route under a subscription (as the companies' routes
      // answer an id that is not a number), before anything is looked up.
      const malformed = `/admin/clientes-oidc/${clientId}/suscripciones/no-es-un-uuid`;
      for (const [method, url] of [
        ['DELETE', malformed],
        ['POST', `${malformed}/secreto`],
        ['POST', `${malformed}/entregas/1/reenviar`],
      ] as const) {
        const answer = await call(method, url);
        assert.equal(answer.statusCode, 400, `${method} ${url}`);
        assert.equal(spanishErrorProblem(answer), undefined, url);
      }
      const cases = [
        `${malformed}/entregas`,
        `${base()}?cursor=${Buffer.from('[0]').toString('base64url')}`,
        `${base()}?cursor=${Buffer.from('"x"').toString('base64url')}`,
        `${base()}?cursor=%25%25`,
        `${base()}?limit=0`,
        `${base()}?limit=101`,
      ];
      for (const url of cases) {
        const answer = await call('GET', url);
        assert.equal(answer.statusCode, 400, url);
        assert.equal(spanishErrorProblem(answer), undefined, url);
      }
      const badDelivery = await call('POST', `${base()}/0/reenviar`);
      assert.equal(badDelivery.statusCode, 400);
    });

    it('takes delivery ids past int4 (the table counts them in bigint): a cursor beyond them, an unknown one', async () => {
      const beyond = 3_000_000_000;
      const page = await call('GET', `${base()}?cursor=${Buffer.from(`[${beyond}]`).toString('base64url')}`);
      assert.equal(page.statusCode, 200, page.body);
      assert.ok(Array.isArray(page.json().data));
      const unknown = await call('POST', `${base()}/${beyond}/reenviar`);
      assert.equal(unknown.statusCode, 404, unknown.body);
      assert.equal(unknown.json().code, 'DELIVERY_NOT_FOUND');
    });

    it('only platform administrators: 401 without a session, 403 for a person, and nothing is resent', async () => {
      const target = await delivery(subscriptionId);
      await createUser(t.app, { email: 'persona@example.com', password: 'clave-de-persona-1', status: 'active' });
      const person = await login(t.app, 'persona@example.com', 'clave-de-persona-1');
      for (const [token, status] of [
        [null, 401],
        [person, 403],
      ] as const) {
        assert.equal((await call('GET', base(), token)).statusCode, status);
        const resend = await call('POST', `${base()}/${target.id}/reenviar`, token);
        assert.equal(resend.statusCode, status);
        assert.equal(spanishErrorProblem(resend), undefined);
      }
      const [row] = await t.app.db
        .select()
        .from(partnerDeliveries)
        .where(and(eq(partnerDeliveries.id, target.id), eq(partnerDeliveries.status, 'entregado')));
      assert.ok(row, 'still delivered');
    });
  });
});
