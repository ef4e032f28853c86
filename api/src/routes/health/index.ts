import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { serviceUnavailable } from '../../lib/errors.js';
import { ErrorRef } from '../../schemas/common.js';

/** A balancer must hear "unavailable" in time to act on it, sooner than any other request's deadline. */
export const healthDeadlineMs = 2_000;

class HealthTimeout extends Error {
  constructor() {
    super(`the database did not answer within ${healthDeadlineMs} ms`);
    this.name = 'HealthTimeout';
  }
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const deadline = Math.min(healthDeadlineMs, app.config.requestTimeoutMs);
  // Liveness, apart from readiness: an orchestrator restarts a process that does not answer this, whereas a database
  // outage (503 from /health) needs no restart, the instance serves again by itself. It also measures the API's own
  // per-request cost, every hook included, with no database in it (auth.bench.ts).
  app.get(
    '/health/live',
    {
      schema: {
        summary: 'El proceso responde (sin consultar la base de datos: para reinicios automáticos)',
        tags: ['sistema'],
        response: { 200: Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
  /** Whether the database answers `select 1` within the deadline (a failure is counted with the outage, once). */
  async function databaseAnswers(request: FastifyRequest): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new HealthTimeout()), deadline);
    });
    // The query goes on after the deadline (its own timeouts end it); its late failure is not reported twice.
    const query = app.db.execute(sql`select 1`);
    query.catch(() => {});
    try {
      await Promise.race([query, late]);
      return true;
    } catch (error) {
      // Counted with the outage (logged once), not as a failed request of its own.
      app.databaseOutage.refused(error, request.log);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
  const unavailable = (reply: FastifyReply) => {
    const { message, code } = serviceUnavailable();
    return reply.code(503).send({ statusCode: 503, message, code });
  };
  const databaseOk = Type.Object(
    { status: Type.Literal('ok'), database: Type.Literal('ok') },
    { additionalProperties: false },
  );

  app.get(
    '/health',
    {
      schema: {
        summary: 'Estado del servicio y de su base de datos (para monitoreo; los balanceadores usan /health/ready)',
        tags: ['sistema'],
        response: { 200: databaseOk, 503: ErrorRef },
      },
    },
    async (request, reply) => {
      if (!(await databaseAnswers(request))) return unavailable(reply);
      return { status: 'ok' as const, database: 'ok' as const };
    },
  );
  // Readiness, for balancers: 503 from the moment the instance starts leaving (SIGTERM), while it still serves what
  // it gets (plugins/app/drain.ts), and while its database does not answer.
  app.get(
    '/health/ready',
    {
      schema: {
        summary:
          'La instancia acepta trabajo: 503 mientras se retira (SIGTERM) o sin base de datos (para balanceadores)',
        tags: ['sistema'],
        response: { 200: databaseOk, 503: ErrorRef },
      },
    },
    async (request, reply) => {
      if (app.drain.state !== 'serving' || !(await databaseAnswers(request))) return unavailable(reply);
      return { status: 'ok' as const, database: 'ok' as const };
    },
  );
};

export default routes;
