// When the API's answers leave: every request gets one within REQUEST_TIMEOUT_MS, and the answers made in one turn of
// the event loop are written together at its end (docs/decisions/0023-request-deadline-and-shutdown.md and
// docs/decisions/0064-answers-leave-at-the-end-of-the-turn.md).
import { errorCodes, type FastifyReply } from 'fastify';
import type { Socket } from 'node:net';
import fp from 'fastify-plugin';

/**
 * Registered before every other plugin that adds hooks: its `onRequest` starts the deadline as the request arrives,
 * and its `onSend` is the first, so the answer a handler decided is never replaced by the deadline's 503 while a later
 * hook (the session state's barrier, itself bounded) holds it.
 */
export default fp(
  async (app) => {
    const timeoutMs = app.config.requestTimeoutMs;
    // Every request has the same deadline, so the order of arrival is the order of the deadlines: one timer, armed for
    // the oldest request still waiting for its answer, instead of a timer and an AbortController per request.
    const waiting = new Map<FastifyReply, number>();
    /** The requests whose answer is on its way, held here or by a later hook. */
    const answered = new WeakSet<FastifyReply>();
    let timer: NodeJS.Timeout | undefined;

    const arm = () => {
      const oldest = waiting.values().next();
      timer = oldest.done ? undefined : setTimeout(expire, Math.max(0, oldest.value + timeoutMs - performance.now()));
      timer?.unref();
    };
    const expire = () => {
      const now = performance.now();
      for (const [reply, arrived] of waiting) {
        if (arrived + timeoutMs > now) break;
        waiting.delete(reply);
        // Hijacked (the identity provider's endpoints answer by themselves), or the client is gone.
        if (reply.sent || reply.raw.destroyed) continue;
        const late = new errorCodes.FST_ERR_HANDLER_TIMEOUT(timeoutMs, reply.request.routeOptions.url ?? '');
        // A handler that had started writing by itself cannot be answered anew.
        if (reply.raw.headersSent) {
          reply.raw.destroy(late);
          continue;
        }
        // A body still on its way would hold the connection until its client finished it (a slow client never
        // does): Node closes the connection once this answer is flushed. A whole request's connection stays open.
        if (!reply.request.raw.complete) reply.header('connection', 'close');
        reply.send(late);
      }
      arm();
    };

    const handOn = (reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
      // Unless another answer went out meanwhile.
      if (!reply.raw.headersSent) done(null, payload);
    };

    // With one connection open, nothing can be read in the same turn as its request: its answer goes at once.
    let connections = 0;
    app.server.on('connection', (socket: Socket) => {
      connections += 1;
      socket.once('close', () => {
        connections -= 1;
      });
    });

    app.addHook('onRequest', (_request, reply, done) => {
      waiting.set(reply, performance.now());
      if (timer === undefined) arm();
      done();
    });
    // A callback hook: the answer is handed on in the loop's check phase, once every request read in the same poll
    // has been handled, so the reader of these answers (a balancer, a client with many connections) is woken once for
    // the lot instead of once per answer; an answer alone waits for nothing, its turn ends with it. The deadline's own
    // 503 goes at once: nothing is batched with it, and the handler may still answer late in the same turn.
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (!answered.has(reply)) answered.add(reply);
      // Fastify sends nothing again after a handler that called `reply.send` and returned nothing, as it cannot see the
      // first answer written yet: the first stands. A second answer with a body is the error handler's, after a later
      // hook failed the first: it goes.
      else if (payload === undefined) return;
      if (waiting.delete(reply) && connections > 1) setImmediate(handOn, reply, payload, done);
      else done(null, payload);
    });
    app.addHook('onClose', (_app, done) => {
      clearTimeout(timer);
      waiting.clear();
      done();
    });
  },
  { name: 'answers' },
);
