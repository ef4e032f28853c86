import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { databaseCannotWrite, type HttpError, serviceUnavailable } from '../../lib/errors.js';

/** A balancer must hear "unavailable" in time to act on it, sooner than any other request's deadline. */
export const healthDeadlineMs = 2_000;

class HealthTimeout extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms`);
    this.name = 'HealthTimeout';
  }
}

/**
 * One thing an instance needs in order to take work. Its name is the field of the 200 answer (`database: 'ok'`); a
 * failure is the 503 it answers. The first failing check in the list gives the answer.
 */
export interface HealthCheck {
  readonly name: string;
  /** Undefined when fine, else the answer; within `deadlineMs` whatever happens (not answering in time is a failure). */
  run(request: FastifyRequest, deadlineMs: number): Promise<HttpError | undefined>;
}

/** Rejects with a HealthTimeout once `ms` have passed; the work goes on after it (its own timeouts end it). */
async function within<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new HealthTimeout(what, ms)), ms);
  });
  // Its late failure is not reported twice.
  work.catch(() => {});
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The database answers `select 1`, and it can write (a full disk leaves reads working: `app.databaseWrites`). A
 * failure to answer is counted with the outage (logged once), not as a failed request of its own.
 */
export function databaseCheck(app: FastifyInstance): HealthCheck {
  return {
    name: 'database',
    async run(request, deadlineMs) {
      const answers = async () => {
        await app.db.execute(sql`select 1`);
        return app.databaseWrites.check();
      };
      try {
        return (await within('the database', deadlineMs, answers())) ? undefined : databaseCannotWrite();
      } catch (error) {
        app.databaseOutage.refused(error, request.log);
        return serviceUnavailable();
      }
    },
  };
}

/** What readiness and /health check, in the order their failures are told. */
export const healthChecks = (app: FastifyInstance): HealthCheck[] => [databaseCheck(app)];

/** Runs every check side by side: the first failure in list order, or undefined when all are fine. */
export async function firstFailure(
  checks: HealthCheck[],
  request: FastifyRequest,
  deadlineMs: number,
): Promise<HttpError | undefined> {
  const failures = await Promise.all(checks.map((check) => check.run(request, deadlineMs)));
  return failures.find((failure) => failure !== undefined);
}
