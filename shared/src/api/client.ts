import ky, { HTTPError, type KyInstance, type Options } from 'ky';
import { getRuntimeConfig } from '../config/runtime-config';
import { FALLBACK } from '../messages/es';
import { hardNavigate } from '../navigation/hard-navigate';
import { readToken, removeToken } from '../session/token-storage';

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
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** What to tell the person about a failed call: the API's Spanish message, else the caller's fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}

type UnauthorizedHandler = () => void;
const unauthorizedHandlers = new Set<UnauthorizedHandler>();

/** Called after a 401 on an authenticated call, once the token is removed (the session store listens). */
export function onUnauthorized(handler: UnauthorizedHandler): () => void {
  unauthorizedHandlers.add(handler);
  return () => unauthorizedHandlers.delete(handler);
}


let client: KyInstance | undefined;

function api(): KyInstance {
  client ??= ky.create({
    prefixUrl: getRuntimeConfig().apiBaseUrl,
    timeout: REQUEST_TIMEOUT_MS,
    retry: 0,
    hooks: {
      beforeRequest: [
        (request) => {
          const token = readToken();
          if (token) request.headers.set('Authorization', `Bearer ${token}`);
        },
      ],
      afterResponse: [
        (request, _options, response) => {
          // An anonymous call's 401 (a wrong password) is an answer to show, not an expired session.
          if (response.status === 401 && request.headers.has('Authorization')) {
            removeToken();
            unauthorizedHandlers.forEach((handler) => handler());
            hardNavigate('/login');
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
}

async function toApiError(error: unknown, fallback: string): Promise<ApiError> {
  if (error instanceof HTTPError) {
    let body: ErrorBody | undefined;
    try {
      body = (await error.response.json()) as ErrorBody;
    } catch {
      body = undefined;
    }
    console.error('Error del servidor', error.response.status, body);
    const message = typeof body?.message === 'string' && body.message.trim() ? body.message : fallback;
    const code = typeof body?.code === 'string' ? body.code : undefined;
    const registrationId = typeof body?.registrationId === 'string' ? body.registrationId : undefined;
    return new ApiError(message, error.response.status, code, registrationId);
  }
  console.error(error);
  // fetch rejects with a TypeError when the server cannot be reached; ky with a TimeoutError after 10 s. Compared by
  // name because the error may come from another realm (a frame, a test environment).
  const name = (error as Error | undefined)?.name;
  return new ApiError(name === 'TypeError' || name === 'TimeoutError' ? FALLBACK.network : fallback);
}

export interface RequestOptions {
  json?: unknown;
  searchParams?: Record<string, string | number | undefined>;
  /** The Spanish message shown when the server gives none. */
  fallback: string;
}

/** Sends one call to the API; resolves to the JSON body (undefined for 204), rejects with an ApiError. */
export async function request<T>(method: 'get' | 'post' | 'put' | 'delete', path: string, options: RequestOptions): Promise<T> {
  const kyOptions: Options = { method };
  if (options.json !== undefined) kyOptions.json = options.json;
  if (options.searchParams) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(options.searchParams)) {
      if (value !== undefined && value !== '') params.set(key, String(value));
    }
    kyOptions.searchParams = params;
  }
  try {
    const response = await api()(path, kyOptions);
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  } catch (error) {
    throw await toApiError(error, options.fallback);
  }
}
