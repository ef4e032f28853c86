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
 * One thing readiness and /health look at; its name is the field of the answer (`database: 'ok'`). A required check is
 * something an instance needs in order to take work: its failure is the 503 the instance answers (the first failing
 * one in the list). A reported one is told (`redis: 'down'`, `status: 'degraded'`) without refusing: what every
 * instance shares, whose outage no balancer can route around (decision 0065).
 */
export interface HealthCheck {
  readonly name: string;
  readonly required: boolean;
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
    required: true,
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

/**
 * Redis answers its PING (`app.redisLink`, plugins/external/redis.ts): reported, not required. Sign-ins and codes wait
 * for it (answered 503 meanwhile); sessions, pages and the admin panel do not.
 */
export function redisCheck(app: FastifyInstance): HealthCheck {
  return {
    name: 'redis',
    required: false,
    async run() {
      return (await app.redisLink?.ping()) ? undefined : serviceUnavailable();
    },
  };
}

/** What readiness and /health check, in the order their failures are told; Redis only where it is configured. */
export const healthChecks = (app: FastifyInstance): HealthCheck[] => [
  databaseCheck(app),
  ...(app.redisLink ? [redisCheck(app)] : []),
];

/** The answer of readiness and /health: the first required failure, else a field per check and the overall status. */
export type HealthAnswer =
  | { refused: HttpError }
  | { refused?: undefined; body: { status: 'ok' | 'degraded'; [check: string]: 'ok' | 'down' | 'degraded' } };

/** Runs every check side by side, each within `deadlineMs`. */
export async function runChecks(
  checks: HealthCheck[],
  request: FastifyRequest,
  deadlineMs: number,
): Promise<HealthAnswer> {
  const failures = await Promise.all(checks.map((check) => check.run(request, deadlineMs)));
  const refused = failures.find((failure, i) => failure !== undefined && checks[i]?.required);
  if (refused) return { refused };
  const fields = Object.fromEntries(checks.map((check, i) => [check.name, failures[i] ? 'down' : 'ok'] as const));
  return { body: { status: failures.some(Boolean) ? 'degraded' : 'ok', ...fields } };
}
