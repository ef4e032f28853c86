import ky, { HTTPError, type KyInstance, type Options } from 'ky';
import { getRuntimeConfig } from '../config/runtime-config';
import { FALLBACK } from '../messages/es';
import { hardNavigate } from '../navigation/leave';
import { readToken, removeToken } from '../session/token-storage';
import type { SecondFactorMethod } from '../types/entities';

const SECOND_FACTOR_METHODS: readonly unknown[] = ['totp', 'recovery', 'passkey'] satisfies SecondFactorMethod[];

/** Spec §7 and §9: every call times out after 10000 ms. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** An API failure with the message to show: the server's own, else the caller's Spanish fallback. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
    /** A pending account's sign-in: the registration whose password was typed (EMAIL_NOT_VERIFIED). */
    readonly registrationId?: string,
    /** Seconds the server asks to wait before trying again (`retryAfter` of a 429, or of a locked sign-in's 401). */
    readonly retryAfter?: number,
    /** A right password of an account with a second factor (SECOND_FACTOR_REQUIRED): the second step's ticket. */
    readonly secondStep?: SecondStep,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** What the second step of a sign-in needs: its single-use ticket and the factors the account can prove. */
export interface SecondStep {
  ticket: string;
  methods: SecondFactorMethod[];
  /** 'No volver a pedir en este dispositivo durante 30 días' is offered (no company of the person forbids it). */
  trustDevice: boolean;
  /** This browser was a trusted device of the account that no longer counts: why, in a sentence (decision 0151). */
  untrustedBecause?: string;
}

/** The API's refusal of an admin call from a session without the second factor an administrator needs. */
export type SecondFactorGateCode = 'SECOND_FACTOR_SETUP_REQUIRED' | 'SECOND_FACTOR_SESSION_REQUIRED';
const SECOND_FACTOR_GATE_CODES: readonly string[] = ['SECOND_FACTOR_SETUP_REQUIRED', 'SECOND_FACTOR_SESSION_REQUIRED'];

/** The Spanish labels a form shows for the API's field names ({ webUrl: 'URL web' }). */
export type FieldLabels = Readonly<Record<string, string>>;

/** The API names a field in quotes ("'webUrl' no es válido"): the form's label goes in its place. */
export function withFieldLabels(message: string, labels: FieldLabels): string {
  return message.replace(/'([A-Za-z_][\w.]*)'/g, (quoted, field: string) =>
    labels[field] ? `'${labels[field]}'` : quoted,
  );
}

/**
 * What to tell the person about a failed call: the API's Spanish message (with the form's labels for the fields it
 * names, when given), else the caller's fallback.
 */
export function errorMessage(error: unknown, fallback: string, labels?: FieldLabels): string {
  if (!(error instanceof ApiError)) return fallback;
  return labels ? withFieldLabels(error.message, labels) : error.message;
}

type UnauthorizedHandler = () => void;
const unauthorizedHandlers = new Set<UnauthorizedHandler>();

/** Called after a 401 on an authenticated call, once the token is removed (the session store listens). */
export function onUnauthorized(handler: UnauthorizedHandler): () => void {
  unauthorizedHandlers.add(handler);
  return () => unauthorizedHandlers.delete(handler);
}

type SecondFactorGateHandler = (code: SecondFactorGateCode) => void;
const secondFactorGateHandlers = new Set<SecondFactorGateHandler>();

/** Called when an authenticated call is refused for want of a second factor (the admin panel shows its gate). */
export function onSecondFactorGate(handler: SecondFactorGateHandler): () => void {
  secondFactorGateHandlers.add(handler);
  return () => secondFactorGateHandlers.delete(handler);
}

/** The API's code for a suspended account (its sign-in, and any call of a session open when it was suspended). */
export const SUSPENDED_CODE = 'USER_SUSPENDED';
/** The `error` /login receives when a session ended because its account was suspended. */
export const SUSPENDED_LOGIN_ERROR = 'account_suspended';

/**
 * The API's 401 for an OpenID Connect interaction whose app asked for a fresh sign-in (prompt=login, max_age): the
 * session itself is valid, so it is not ended like on any other 401.
 */
export const SIGN_IN_AGAIN_CODE = 'SIGN_IN_AGAIN';

function endSession(path: string): void {
  removeToken();
  for (const handler of unauthorizedHandlers) handler();
  hardNavigate(path);
}

async function errorCode(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return typeof body.code === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  }
}

let client: KyInstance | undefined;

function api(): KyInstance {
  client ??= ky.create({
    prefix: getRuntimeConfig().apiBaseUrl,
    timeout: REQUEST_TIMEOUT_MS,
    retry: 0,
    hooks: {
      beforeRequest: [
        ({ request }) => {
          // A call that brings its own credential (a company's setup link) sends that one, never the session's.
          const token = readToken();
          if (token && !request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${token}`);
        },
      ],
      afterResponse: [
        async ({ request, response }) => {
          // An anonymous call's 401 (a wrong password) is an answer to show, not an expired session.
          if (!request.headers.has('Authorization')) return;
          // Only a refusal of the session's own token ends the session (a setup link's 401 is the link's answer).
          const token = readToken();
          if (!token || request.headers.get('Authorization') !== `Bearer ${token}`) return;
          if (response.status === 401) {
            // An app's demand for a fresh sign-in leaves the session as it is: the page asks for the sign-in itself.
            if ((await errorCode(response)) !== SIGN_IN_AGAIN_CODE) endSession('/login');
          } else if (response.status === 403) {
            const code = await errorCode(response);
            // The account was suspended during the session: it ends as on a 401, and /login says why.
            if (code === SUSPENDED_CODE) endSession(`/login?error=${SUSPENDED_LOGIN_ERROR}`);
            else if (code && SECOND_FACTOR_GATE_CODES.includes(code)) {
              for (const handler of secondFactorGateHandlers) handler(code as SecondFactorGateCode);
            }
          }
        },
      ],
    },
  });
  return client;
}

/** Only for tests: forget the client so that a new runtime config is read. */
export function resetApiClient(): void {
  client = undefined;
}

interface ErrorBody {
  message?: unknown;
  code?: unknown;
  registrationId?: unknown;
  retryAfter?: unknown;
  ticket?: unknown;
  methods?: unknown;
  permiteConfiarDispositivo?: unknown;
  dispositivoNoConfiable?: { mensaje?: unknown };
}

function secondStepOf(body: ErrorBody | undefined): SecondStep | undefined {
  if (typeof body?.ticket !== 'string' || !Array.isArray(body.methods)) return undefined;
  const methods = body.methods.filter((m): m is SecondFactorMethod => SECOND_FACTOR_METHODS.includes(m));
  const because = body.dispositivoNoConfiable?.mensaje;
  return {
    ticket: body.ticket,
    methods,
    trustDevice: body.permiteConfiarDispositivo === true,
    ...(typeof because === 'string' && isOwnMessage(because) ? { untrustedBecause: because } : {}),
  };
}

// Words of a server's or a gateway's own English text ('Internal Server Error', 'Bad Gateway', 'Request timed out')
// that no Spanish message of the API uses.
const FOREIGN_TEXT =
  /<|\b(the|internal|server|gateway|found|timeout|timed|forbidden|unauthorized|bad request|service|unavailable|too many|requests?|failed|invalid|upstream|proxy|error occurred)\b/i;

/**
 * Whether a server text is one of the API's Spanish messages, fit to show; anything else gives way to the fallback.
 * What the API quotes back between single quotes (an address, a field) is the person's, whatever words it holds.
 */
export function isOwnMessage(text: string): boolean {
  return text.trim() !== '' && !FOREIGN_TEXT.test(text.replace(/'[^'\n]*'/g, "''"));
}

async function toApiError(error: unknown, fallback: string): Promise<ApiError> {
  if (error instanceof HTTPError) {
    // ky has read the body already: `data` is the parsed JSON (a string for other content, undefined if none).
    const body = typeof error.data === 'object' && error.data !== null ? (error.data as ErrorBody) : undefined;
    console.error('Error del servidor', error.response.status, body);
    const message = typeof body?.message === 'string' && isOwnMessage(body.message) ? body.message : fallback;
    const code = typeof body?.code === 'string' ? body.code : undefined;
    const registrationId = typeof body?.registrationId === 'string' ? body.registrationId : undefined;
    const retryAfter = typeof body?.retryAfter === 'number' && body.retryAfter > 0 ? body.retryAfter : undefined;
    return new ApiError(message, error.response.status, code, registrationId, retryAfter, secondStepOf(body));
  }
  console.error(error);
  // ky rejects with a NetworkError when the server cannot be reached (fetch's TypeError inside it) and a TimeoutError
  // after 10 s. Compared by name because the error may come from another realm (a frame, a test environment).
  const name = (error as Error | undefined)?.name;
  const unreachable = name === 'NetworkError' || name === 'TypeError' || name === 'TimeoutError';
  return new ApiError(unreachable ? FALLBACK.network : fallback);
}

export interface RequestOptions {
  json?: unknown;
  searchParams?: Record<string, string | number | undefined>;
  /** The Spanish message shown when the server gives none. */
  fallback: string;
  /**
   * 'include' sends the browser's cookies for the API with this call (and keeps those it sets): the OpenID Connect
   * interaction calls, which the API ties to a cookie of the browser that started them, and the sign-in calls that
   * read or set the trusted device's cookie (docs/decisions/0143-trusted-devices.md). Others send none.
   */
  credentials?: 'include';
  /**
   * A credential of its own for this call, sent as `Authorization: Bearer …` instead of the session's: a company's
   * setup link, read from the page's address and kept in memory (docs/decisions/0105-company-setup-link.md).
   */
  bearer?: string;
}

/** Sends one call to the API; resolves to the JSON body (undefined for 204), rejects with an ApiError. */
export async function request<T>(
  method: 'get' | 'post' | 'put' | 'patch' | 'delete',
  path: string,
  options: RequestOptions,
): Promise<T> {
  const kyOptions: Options = { method };
  if (options.json !== undefined) kyOptions.json = options.json;
  if (options.credentials) kyOptions.credentials = options.credentials;
  if (options.bearer) kyOptions.headers = { Authorization: `Bearer ${options.bearer}` };
  if (options.searchParams) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(options.searchParams)) {
      if (value !== undefined && value !== '') params.set(key, String(value));
    }
    kyOptions.searchParams = params;
  }
  inFlight += 1;
  try {
    const response = await api()(path, kyOptions);
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  } catch (error) {
    throw await toApiError(error, options.fallback);
  } finally {
    inFlight -= 1;
    if (inFlight === 0) for (const resolve of idleWaiters.splice(0)) resolve();
  }
}

let inFlight = 0;
const idleWaiters: (() => void)[] = [];

/**
 * Resolves once no call is under way (its answer read, or its failure logged). Tests await it before they close their
 * fake API, so no call of a test ends, and logs, after the test.
 */
export function whenApiIdle(): Promise<void> {
  return inFlight === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve));
}
