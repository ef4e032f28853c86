import { DrizzleQueryError } from 'drizzle-orm';

/** An answer to the client: `{ statusCode, message, code? }` with a Spanish message. */
export class HttpError extends Error {
  /** Seconds until trying again makes sense: sent as the `Retry-After` header and as `retryAfter` in the body. */
  retryAfter?: number;

  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** A 429 (or a locked sign-in's 401) that tells the client when to try again. */
export function retryLater(statusCode: number, message: string, code: string, retryAfterMs: number): HttpError {
  const error = new HttpError(statusCode, message, code);
  error.retryAfter = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return error;
}

/**
 * What someone sent, as a message shows it: between single quotes, with the characters a screen would not show
 * (controls, bidirectional overrides) written as \u escapes, and cut at 200 characters.
 */
export function quoted(value: string): string {
  const visible = value.replace(
    /[\p{Cc}\p{Cf}]/gu,
    (char) => `\\u${char.codePointAt(0)?.toString(16).padStart(4, '0')}`,
  );
  return `'${visible.length > 200 ? `${visible.slice(0, 200)}…` : visible}'`;
}

export const messages = {
  notFound: 'Recurso no encontrado',
  internal: 'Error interno del servidor',
  unavailable: 'Servicio no disponible temporalmente. Inténtalo de nuevo en unos segundos.',
  databaseCannotWrite:
    'La base de datos no puede guardar datos: su disco está lleno o no admite escritura. Inténtalo de nuevo más tarde.',
  unauthenticated: 'No autenticado',
  forbidden: 'No tienes permisos para realizar esta acción',
  suspended: 'Tu cuenta está suspendida. Contacta con soporte.',
  invalidJson: 'El cuerpo de la petición no es un JSON válido',
  emptyJson: 'El cuerpo de la petición está vacío',
  bodyTooLarge: 'El cuerpo de la petición es demasiado grande (máximo 100 KB)',
  unsupportedMediaType: 'Tipo de contenido no admitido: envía application/json',
  badRequest: 'Solicitud inválida',
  requestTimeout: 'La petición tardó demasiado en llegar. Inténtalo de nuevo.',
  headersTooLarge: 'Las cabeceras de la petición son demasiado grandes (¿demasiadas cookies?)',
  methodNotAllowed: 'Método no permitido',
  badUrl: 'La dirección de la petición no es válida',
  urlTooLong: 'La dirección de la petición es demasiado larga',
  metricsTokenRequired: 'Las métricas piden el token de métricas (Authorization: Bearer …)',
  tooManyRequests: (seconds: number) => `Demasiadas solicitudes. Inténtalo de nuevo en ${seconds} segundos.`,
} as const;

export const unauthenticated = () => new HttpError(401, messages.unauthenticated, 'UNAUTHENTICATED');
export const forbidden = () => new HttpError(403, messages.forbidden, 'FORBIDDEN');
export const accountSuspended = () => new HttpError(403, messages.suspended, 'USER_SUSPENDED');
export const serviceUnavailable = () => new HttpError(503, messages.unavailable, 'SERVICE_UNAVAILABLE');
export const databaseCannotWrite = () => new HttpError(503, messages.databaseCannotWrite, 'DATABASE_CANNOT_WRITE');

const networkErrorCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EPIPE',
]);

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/**
 * Connection exception, insufficient resources, operator intervention (shut down, starting up, crashed, and 57014: a
 * statement cancelled by `statement_timeout`, which is how a server too slow to answer shows).
 */
const unavailableState = /^(08|53|57)/;
/** node-postgres's own errors for a connection that failed or went away: they carry no code. */
const connectionLost = new RegExp(
  '^(Connection terminated|timeout exceeded when trying to connect' +
    '|Client has encountered a connection error|Client was closed|Cannot use a pool after calling end' +
    '|Query read timeout)',
);

/** Emscripten's numbers (PGlite's file system), not Linux's: ENOSPC and EDQUOT. */
const emscriptenNoSpace = new Set([51, 19]);

/**
 * Where a full disk shows in `error` or its causes: 'database' when the database said so (SQLSTATE 53100, and
 * PostgreSQL's FATAL at connection start when it cannot write its relation cache file, which carries only XX000,
 * internal error), 'file' when a file this process writes could not grow (ENOSPC or EDQUOT, PGlite's file system's
 * included: it throws a bare `ErrnoError` with Emscripten's number and no message). Undefined for anything else.
 */
export function diskFull(error: unknown): 'database' | 'file' | undefined {
  let current: unknown = error;
  for (let depth = 0; typeof current === 'object' && current !== null && depth < 5; depth++) {
    const { code, errno, name, message } = current as {
      code?: unknown;
      errno?: unknown;
      name?: unknown;
      message?: unknown;
    };
    if (code === 'ENOSPC' || code === 'EDQUOT') return 'file';
    if (name === 'ErrnoError' && typeof errno === 'number' && emscriptenNoSpace.has(errno)) return 'file';
    if (code === '53100' || (code === 'XX000' && message === 'could not write init file')) return 'database';
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * True when the database could not be reached (as opposed to a query it rejected, which is our bug): a failed query
 * with no SQLSTATE (refused connection, closed pool, timeout), a connection/resources/shutdown SQLSTATE class, a full
 * disk (which can fail a connection's start with no such class), or the same errors unwrapped, as opening a
 * transaction's connection raises them.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (diskFull(error)) return true;
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && networkErrorCodes.has(code)) return true;
    const state = sqlState(current);
    if (state !== undefined) return unavailableState.test(state);
    if (connectionLost.test(current.message)) return true;
    if (current instanceof DrizzleQueryError) {
      const causeState = sqlState(current.cause);
      return causeState === undefined || unavailableState.test(causeState);
    }
    current = current.cause;
  }
  return false;
}

/**
 * The row a write just returned, or the one a query that cannot miss found: an absent one is a broken invariant (a
 * 500 with the generic message), never a silent `undefined` further on.
 */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`${what}: expected a value, found none`);
  return value;
}
