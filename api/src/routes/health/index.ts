import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type HttpError, serviceUnavailable } from '../../lib/errors.js';
import { ErrorRef } from '../../schemas/common.js';
import { healthChecks, healthDeadlineMs, runChecks } from './checks.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const deadline = Math.min(healthDeadlineMs, app.config.requestTimeoutMs);
  const checks = healthChecks(app);
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

  /**
   * `{ status: 'ok', database: 'ok', … }`: a field per check. A reported check (Redis) that is down makes it
   * `status: 'degraded'`, `redis: 'down'`, still 200 (checks.ts).
   */
  const allOk = Type.Object(
    {
      status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
      ...Object.fromEntries(
        checks.map((check) => [
          check.name,
          check.required ? Type.Literal('ok') : Type.Union([Type.Literal('ok'), Type.Literal('down')]),
        ]),
      ),
    },
    { additionalProperties: false },
  );
  const refuse = (reply: FastifyReply, { statusCode, message, code }: HttpError) =>
    reply.code(statusCode).send({ statusCode, message, code });
  const answer = async (request: FastifyRequest, reply: FastifyReply) => {
    const outcome = await runChecks(checks, request, deadline);
    return outcome.refused ? refuse(reply, outcome.refused) : outcome.body;
  };

  app.get(
    '/health',
    {
      schema: {
        summary:
          'Estado del servicio y de su base de datos: responde y puede escribir (para monitoreo; los balanceadores usan /health/ready)',
        tags: ['sistema'],
        response: { 200: allOk, 503: ErrorRef },
      },
    },
    answer,
  );
  // Readiness, for balancers: 503 from the moment the instance starts leaving (SIGTERM), while it still serves what
  // it gets (plugins/app/drain.ts), and while a check fails (its database does not answer, or cannot write).
  app.get(
    '/health/ready',
    {
      schema: {
        summary:
          'La instancia acepta trabajo: 503 mientras se retira (SIGTERM), sin base de datos o si esta no puede escribir (para balanceadores)',
        tags: ['sistema'],
        response: { 200: allOk, 503: ErrorRef },
      },
    },
    async (request, reply) => {
      if (app.drain.state !== 'serving') return refuse(reply, serviceUnavailable());
      return answer(request, reply);
    },
  );
};

export default routes;
