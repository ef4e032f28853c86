import { startFakeApi } from '../../testing/fake-api';
import { ApiError, errorMessage, onUnauthorized, request, resetApiClient, withFieldLabels } from '../client';
import { FALLBACK } from '../../messages/es';
import { hardNavigate } from '../../navigation/leave';

jest.mock('../../navigation/leave', () => ({
  ...jest.requireActual('../../navigation/leave'),
  hardNavigate: jest.fn(),
}));

type FakeApi = Awaited<ReturnType<typeof startFakeApi>>;
let api: FakeApi;

async function useApi(routes: Parameters<typeof startFakeApi>[0]) {
  api = await startFakeApi(routes);
  window.__PORTAL_CONFIG__ = { apiBaseUrl: `${api.url}/` };
  resetApiClient();
}

beforeEach(() => {
  localStorage.clear();
  jest.mocked(hardNavigate).mockClear();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  await api?.close();
  jest.restoreAllMocks();
});

it('sends JSON to the configured API with the stored token as a bearer header', async () => {
  await useApi({ 'POST /auth/update-user': { status: 200, body: { user: { id: 7 } } } });
  localStorage.setItem('token', 'stored-token');
  const answer = await request('post', 'auth/update-user', { json: { idUsuario: 7, name: 'Ana' }, fallback: 'x' });
  expect(answer).toEqual({ user: { id: 7 } });
  const [sent] = api.requests;
  expect(sent?.headers.authorization).toBe('Bearer stored-token');
  expect(sent?.headers['content-type']).toMatch(/application\/json/);
  expect(JSON.parse(sent?.body ?? '')).toEqual({ idUsuario: 7, name: 'Ana' });
});

it('sends no Authorization header without a stored token, and drops empty query values', async () => {
  await useApi({ 'GET /apps/listar': { status: 200, body: { data: [] } } });
  await request('get', 'apps/listar', {
    searchParams: { page: 1, limit: 100, email: '', status: undefined },
    fallback: 'x',
  });
  expect(api.requests[0]?.headers.authorization).toBeUndefined();
  expect(api.requests[0]?.path).toBe('/apps/listar?page=1&limit=100');
});

it('answers undefined for 204 No Content', async () => {
  await useApi({ 'POST /auth/logout': { status: 204 } });
  await expect(request('post', 'auth/logout', { fallback: 'x' })).resolves.toBeUndefined();
});

it("shows the server's message, with its status and code", async () => {
  await useApi({
    'POST /auth/login': {
      status: 403,
      body: {
        statusCode: 403,
        message: 'Debes verificar tu email antes de iniciar sesión',
        code: 'EMAIL_NOT_VERIFIED',
      },
    },
  });
  const error = await request('post', 'auth/login', { json: {}, fallback: FALLBACK.login }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toMatchObject({
    message: 'Debes verificar tu email antes de iniciar sesión',
    status: 403,
    code: 'EMAIL_NOT_VERIFIED',
  });
});

it("falls back to the caller's Spanish message when the server gives none", async () => {
  await useApi({ 'GET /user/stats': { status: 500, body: { error: 'boom' } } });
  await expect(request('get', 'user/stats', { fallback: FALLBACK.stats })).rejects.toMatchObject({
    message: 'Error al obtener stat cards',
    status: 500,
  });
});

it('a 401 on an authenticated call removes the token, ends the session and goes to /login', async () => {
  await useApi({ 'GET /auth/user': { status: 401, body: { statusCode: 401, message: 'No autenticado' } } });
  localStorage.setItem('token', 'expired');
  const listener = jest.fn();
  const unsubscribe = onUnauthorized(listener);
  await expect(request('get', 'auth/user', { fallback: FALLBACK.currentUser })).rejects.toMatchObject({ status: 401 });
  unsubscribe();
  expect(localStorage.getItem('token')).toBeNull();
  expect(listener).toHaveBeenCalledTimes(1);
  expect(hardNavigate).toHaveBeenCalledWith('/login');
});

it("a 401 SIGN_IN_AGAIN (an app's demand for a fresh sign-in) keeps the session: the page asks for the sign-in", async () => {
  const message = 'La aplicación pide que vuelvas a iniciar sesión.';
  await useApi({
    'POST /oidc/interaccion/abc/continuar': {
      status: 401,
      body: { statusCode: 401, code: 'SIGN_IN_AGAIN', message },
    },
  });
  localStorage.setItem('token', 'live');
  const listener = jest.fn();
  const unsubscribe = onUnauthorized(listener);
  await expect(request('post', 'oidc/interaccion/abc/continuar', { fallback: 'x' })).rejects.toMatchObject({
    status: 401,
    code: 'SIGN_IN_AGAIN',
    message,
  });
  unsubscribe();
  expect(localStorage.getItem('token')).toBe('live');
  expect(listener).not.toHaveBeenCalled();
  expect(hardNavigate).not.toHaveBeenCalled();
});

it("sends the browser's cookies only with the calls that ask for them", async () => {
  await useApi({
    'GET /oidc/interaccion/abc/detalles': { status: 200, body: {} },
    'GET /apps/listar': { status: 200 },
  });
  const sent = jest.spyOn(globalThis, 'fetch');
  resetApiClient();
  await request('get', 'oidc/interaccion/abc/detalles', { fallback: 'x', credentials: 'include' });
  await request('get', 'apps/listar', { fallback: 'x' });
  const credentials = sent.mock.calls.map(([input]) => (input as Request).credentials);
  expect(credentials).toEqual(['include', 'same-origin']);
});

it('a 401 to an anonymous call (a wrong password) is an answer to show, not a session end', async () => {
  await useApi({ 'POST /auth/login': { status: 401, body: { statusCode: 401, message: 'Credenciales inválidas' } } });
  await expect(request('post', 'auth/login', { json: {}, fallback: FALLBACK.login })).rejects.toMatchObject({
    message: 'Credenciales inválidas',
  });
  expect(hardNavigate).not.toHaveBeenCalled();
});

it('an unreachable API gives the Spanish network message', async () => {
  await useApi({});
  await api.close();
  await expect(request('get', 'apps/listar', { fallback: FALLBACK.listApps })).rejects.toMatchObject({
    message: FALLBACK.network,
  });
});

it('a 403 USER_SUSPENDED on an authenticated call ends the session and /login says why', async () => {
  const message = 'Tu cuenta está suspendida. Contacta con soporte.';
  await useApi({ 'GET /apps/listar': { status: 403, body: { statusCode: 403, code: 'USER_SUSPENDED', message } } });
  localStorage.setItem('token', 'was-live');
  const listener = jest.fn();
  const unsubscribe = onUnauthorized(listener);
  await expect(request('get', 'apps/listar', { fallback: 'x' })).rejects.toMatchObject({ status: 403, message });
  unsubscribe();
  expect(localStorage.getItem('token')).toBeNull();
  expect(listener).toHaveBeenCalledTimes(1);
  expect(hardNavigate).toHaveBeenCalledWith('/login?error=account_suspended');
});

it('another 403 (not an administrator) keeps the session', async () => {
  await useApi({
    'GET /user/stats': {
      status: 403,
      body: { statusCode: 403, code: 'FORBIDDEN', message: 'No tienes permisos para realizar esta acción' },
    },
  });
  localStorage.setItem('token', 'live');
  await expect(request('get', 'user/stats', { fallback: 'x' })).rejects.toMatchObject({ status: 403 });
  expect(localStorage.getItem('token')).toBe('live');
  expect(hardNavigate).not.toHaveBeenCalled();
});

it("never shows a gateway's or server's English text: the Spanish fallback instead", async () => {
  await useApi({
    'GET /apps/listar': { status: 502, body: { message: 'Bad Gateway' } },
    'GET /user/stats': {
      status: 500,
      body: { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' },
    },
    'GET /auth/user': { status: 504, body: { message: 'The upstream server timed out' } },
  });
  await expect(request('get', 'apps/listar', { fallback: FALLBACK.listApps })).rejects.toMatchObject({
    message: FALLBACK.listApps,
  });
  await expect(request('get', 'user/stats', { fallback: FALLBACK.stats })).rejects.toMatchObject({
    message: FALLBACK.stats,
  });
  await expect(request('get', 'auth/user', { fallback: FALLBACK.currentUser })).rejects.toMatchObject({
    message: FALLBACK.currentUser,
  });
});

it('shows a Spanish message whose quoted value holds such words, and still not an English text that quotes one', async () => {
  const own = "URIs de redirección: 'https://server.example.com/the/cb' no es válida (ese esquema no está permitido)";
  await useApi({
    'GET /apps/listar': { status: 400, body: { statusCode: 400, message: own } },
    'GET /auth/user': { status: 504, body: { message: "The 'upstream' server timed out" } },
  });
  await expect(request('get', 'apps/listar', { fallback: FALLBACK.listApps })).rejects.toMatchObject({
    message: own,
  });
  await expect(request('get', 'auth/user', { fallback: FALLBACK.currentUser })).rejects.toMatchObject({
    message: FALLBACK.currentUser,
  });
});

it("names a refused field with the form's label", () => {
  const refusal = new ApiError("Datos inválidos: 'webUrl' no es válido", 400, 'VALIDATION_ERROR');
  expect(errorMessage(refusal, 'x', { webUrl: 'URL web' })).toBe("Datos inválidos: 'URL web' no es válido");
  expect(errorMessage(refusal, 'x', { phone: 'Teléfono' })).toBe("Datos inválidos: 'webUrl' no es válido");
  expect(withFieldLabels("Datos inválidos: falta el campo 'phone'", { phone: 'Teléfono' })).toBe(
    "Datos inválidos: falta el campo 'Teléfono'",
  );
  expect(errorMessage(new Error('boom'), 'Error al guardar', { webUrl: 'URL web' })).toBe('Error al guardar');
});
