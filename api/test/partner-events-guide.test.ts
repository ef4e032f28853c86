// The guide for the apps' teams on events (docs/eventos-para-apps.md) cannot rot: its code block is the example file
// it names, and that receiver, verifying with the standardwebhooks package, takes a real event signed by the portal,
// refuses a forged one, and by the signed `seq` applies neither a repeat nor an older message the administrator resent
// ('Reenviar') after a newer one.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { type EventoDelPortal, receptorDeEventos } from '../../docs/ejemplos-eventos/receptor.js';
import { oidcClientPeople, oidcClients, partnerDeliveries, partnerEventTypes } from '../src/db/schema.js';
import { subjectForClient } from '../src/domain/partner-events/events.js';
import { buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';
import { publicIdOf, registerClient } from './helpers/oidc.js';
import { waitFor } from './helpers/processes.js';

const docs = fileURLToPath(new URL('../../docs/', import.meta.url));

it('the code block of the guide is the example file it names, character for character', () => {
  const guide = readFileSync(`${docs}eventos-para-apps.md`, 'utf8');
  const blocks = [
    ...guide.matchAll(/Archivo: \[(ejemplos-eventos\/[a-z-]+\.ts)\](?:(?!```)[\s\S])*?\n\n```ts\n([\s\S]*?)```/g),
  ];
  assert.deepEqual(
    blocks.map(([, file]) => file),
    ['ejemplos-eventos/receptor.ts'],
  );
  for (const [, file, code] of blocks) assert.equal(code, readFileSync(`${docs}${file}`, 'utf8'), `${file} drifted`);
  // Every event the portal sends is in the guide's table.
  for (const type of partnerEventTypes) {
    assert.match(guide, new RegExp(`\\| \`${type.replace('.', '\\.')}\` +\\|`), type);
  }
});

forEachBackend((backend) => {
  describe("the guide's receiver against the portal", () => {
    let t: TestApp;
    let admin: string;
    let receiver: Server;
    let url: string;
    /** What the app applied, by webhook-id, the last `seq` applied per person, and what its receiver answered. */
    const applied = new Map<string, EventoDelPortal>();
    const lastSeq = new Map<string, number>();
    const answers: number[] = [];
    let handler: ReturnType<typeof receptorDeEventos> | undefined;

    before(async () => {
      t = await buildTestApp(backend, { oidcBackchannelPrivateNetwork: true });
      admin = await login(t.app);
      receiver = createServer(async (request, response) => {
        response.on('finish', () => answers.push(response.statusCode));
        await handler?.(request, response);
      });
      receiver.listen(0, '127.0.0.1');
      await once(receiver, 'listening');
      url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/eventos-del-portal`;
    });
    after(async () => {
      receiver.close();
      await t.close();
    });

    it('verifies a real event, refuses a forged one, and applies neither a repeat nor an older one resent', async () => {
      const { clientId } = await registerClient(t.app, {
        nombre: 'Planta',
        redirectUris: ['https://planta.example.com/callback'],
        postLogoutRedirectUris: [],
        backchannelLogoutUri: null,
        initiateLoginUri: null,
        publico: false,
        primeraParte: true,
        appId: 1,
        scopes: ['openid', 'profile', 'email', 'plan'],
      });
      const created = await t.app.inject({
        method: 'POST',
        url: `/admin/clientes-oidc/${clientId}/suscripciones`,
        headers: { authorization: `Bearer ${admin}` },
        payload: { url, eventos: ['usuario.suspendido', 'usuario.reactivado'] },
      });
      assert.equal(created.statusCode, 201, created.body);
      const { id, secreto } = created.json<{ id: string; secreto: string }>();
      assert.match(secreto, /^whsec_/);
      handler = receptorDeEventos(
        secreto,
        async (evento, webhookId) => {
          applied.set(webhookId, evento);
          lastSeq.set(evento.data.sub, evento.seq);
        },
        async (sub) => lastSeq.get(sub) ?? null,
      );

      // A person who signed in to the app (the grant's trigger records it), suspended by an administrator.
      const userId = await createUser(t.app, {
        email: 'ana@example.com',
        password: 'clave-de-ana-1',
        status: 'active',
      });
      await t.app.db.insert(oidcClientPeople).values({ clientId, userId });
      const suspended = await t.app.inject({
        method: 'PUT',
        url: `/auth/cambiar-estado/${userId}`,
        headers: { authorization: `Bearer ${admin}` },
      });
      assert.equal(suspended.statusCode, 200, suspended.body);
      // Sent at once (the instance's worker may already be at it: then this round finds nothing to do).
      await t.app.partnerEvents.worker.deliverDue();
      await waitFor('the event at the receiver', () => answers.length > 0);

      const [client] = await t.app.db.select().from(oidcClients).where(eq(oidcClients.clientId, clientId));
      assert.equal(applied.size, 1);
      const [webhookId, evento] = [...applied][0]!;
      assert.equal(evento.type, 'usuario.suspendido');
      assert.deepEqual(evento.data, {
        sub: subjectForClient(client!, { userId, publicId: await publicIdOf(t.app, userId) }),
      });
      assert.deepEqual(answers, [204]);

      // Signed with another secret, or a body other than the one signed: refused, not applied.
      const original = JSON.stringify(evento);
      const forged = JSON.stringify({ ...evento, type: 'usuario.eliminado' });
      const now = new Date();
      const otherSecret = `whsec_${Buffer.from('otro-secreto-de-32-bytes-exactos').toString('base64')}`;
      for (const [secret, signed, sent] of [
        [otherSecret, forged, forged],
        [secreto, original, forged],
      ]) {
        const answer = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'webhook-id': 'msg_falso',
            'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
            'webhook-signature': new Webhook(secret!).sign('msg_falso', now, signed!),
          },
          body: sent,
        });
        assert.equal(answer.status, 401);
      }
      assert.equal(applied.size, 1);

      // 'Reenviar': the same message, its id unchanged, reaches the app again, which does not apply it twice.
      const [delivery] = await t.app.db
        .select()
        .from(partnerDeliveries)
        .where(eq(partnerDeliveries.messageId, webhookId));
      assert.equal(delivery!.status, 'entregado');
      // The order number is in the signed body, and ends the webhook-id.
      assert.equal(evento.seq, delivery!.seq);
      assert.ok(webhookId.endsWith(`_${delivery!.seq}`), webhookId);
      answers.length = 0;
      let resent = await t.app.inject({
        method: 'POST',
        url: `/admin/clientes-oidc/${clientId}/suscripciones/${id}/entregas/${delivery!.id}/reenviar`,
        headers: { authorization: `Bearer ${admin}` },
      });
      assert.equal(resent.statusCode, 200, resent.body);
      await t.app.partnerEvents.worker.deliverDue();
      await waitFor('the repeated message at the receiver', () => answers.length > 0);
      assert.deepEqual(answers, [204], 'delivered again');
      assert.equal(applied.size, 1, 'a repeat is applied once');

      // Reactivated (the next seq, applied), then the suspension resent: older than what the app has, not applied.
      answers.length = 0;
      const reactivated = await t.app.inject({
        method: 'PUT',
        url: `/auth/cambiar-estado/${userId}`,
        headers: { authorization: `Bearer ${admin}` },
      });
      assert.equal(reactivated.statusCode, 200, reactivated.body);
      await t.app.partnerEvents.worker.deliverDue();
      await waitFor('the reactivation at the receiver', () => answers.length > 0);
      assert.deepEqual(
        [...applied.values()].map((one) => [one.type, one.seq]),
        [
          ['usuario.suspendido', delivery!.seq],
          ['usuario.reactivado', delivery!.seq + 1],
        ],
      );
      answers.length = 0;
      resent = await t.app.inject({
        method: 'POST',
        url: `/admin/clientes-oidc/${clientId}/suscripciones/${id}/entregas/${delivery!.id}/reenviar`,
        headers: { authorization: `Bearer ${admin}` },
      });
      assert.equal(resent.statusCode, 200, resent.body);
      await t.app.partnerEvents.worker.deliverDue();
      await waitFor('the resent message at the receiver', () => answers.length > 0);
      assert.deepEqual(answers, [204], 'delivered again');
      assert.equal(applied.size, 2, 'an older message resent is not applied');
      assert.equal(lastSeq.get(evento.data.sub), delivery!.seq + 1);
      const listed = await t.app.inject({
        method: 'GET',
        url: `/admin/clientes-oidc/${clientId}/suscripciones/${id}/entregas`,
        headers: { authorization: `Bearer ${admin}` },
      });
      const shown = listed
        .json<{ data: { webhookId: string; estado: string; codigoRespuesta: number }[] }>()
        .data.find((one) => one.webhookId === webhookId);
      assert.deepEqual([shown!.estado, shown!.codigoRespuesta], ['entregada', 204]);
    });
  });
});
