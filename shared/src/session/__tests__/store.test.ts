import { fakeToken, startFakeApi } from '../../testing/fake-api';
import { resetApiClient } from '../../api/client';
import { resetSessionForTests, useSession } from '../store';
import { isTokenValid, SESSION_HINT_COOKIE, syncSessionHint } from '../token-storage';
import type { User } from '../../types/entities';

jest.mock('../../navigation/leave', () => ({
  ...jest.requireActual('../../navigation/leave'),
  hardNavigate: jest.fn(),
}));

const USER: User = {
  id: 7,
  email: 'ana@example.com',
  name: 'Ana',
  lastName: 'Pérez',
  phone: '+51987654321',
  picture: null,
  role: 2,
  presentacion: true,
  planesUsuarios: [],
  empresas: [],
  status: 'active',
  createdAt: '2026-01-01T00:00:00.000Z',
};

const inOneHour = () => Math.floor(Date.now() / 1000) + 3600;

type FakeApi = Awaited<ReturnType<typeof startFakeApi>>;
let api: FakeApi;

async function useApi(routes: Parameters<typeof startFakeApi>[0]) {
  api = await startFakeApi(routes);
  window.__PORTAL_CONFIG__ = { apiBaseUrl: api.url };
  resetApiClient();
}

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  await api?.close();
  jest.restoreAllMocks();
});

describe('isTokenValid', () => {
  it('needs a token that decodes and whose exp (seconds) is in the future', () => {
    const now = Date.UTC(2026, 10, 21);
    expect(isTokenValid(fakeToken({ exp: now / 1000 + 60 }), now)).toBe(true);
    expect(isTokenValid(fakeToken({ exp: now / 1000 - 1 }), now)).toBe(false);
    expect(isTokenValid(fakeToken({ sub: '1' }), now)).toBe(false);
    expect(isTokenValid('not-a-jwt', now)).toBe(false);
    expect(isTokenValid(null, now)).toBe(false);
  });

  it('never takes a partner-scoped token for a portal session', () => {
    const now = Date.UTC(2026, 10, 21);
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const partner = `${part({ alg: 'ES256', typ: 'partner+jwt' })}.${part({ sub: '7', exp: now / 1000 + 60, aud: 'https://socio.example.com' })}.c2ln`;
    expect(isTokenValid(partner, now)).toBe(false);
    expect(isTokenValid(fakeToken({ exp: now / 1000 + 60, aud: 'https://socio.example.com' }), now)).toBe(false);
  });
});

describe('start-up', () => {
  it('a stored valid token loads the current user and authenticates', async () => {
    await useApi({ 'GET /auth/user': { status: 200, body: USER } });
    const token = fakeToken({ exp: inOneHour() });
    localStorage.setItem('token', token);
    await useSession.getState().initialize();
    const state = useSession.getState();
    expect(state).toMatchObject({ isInitialized: true, isAuthenticated: true, token, user: USER, isLoading: false });
    expect(api.requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
  });

  it('persists exactly token, user, isAuthenticated and pendingVerificationEmail under auth-storage', async () => {
    await useApi({ 'GET /auth/user': { status: 200, body: USER } });
    const token = fakeToken({ exp: inOneHour() });
    localStorage.setItem('token', token);
    useSession.getState().setPendingVerificationEmail('otra@example.com');
    await useSession.getState().initialize();
    const persisted = JSON.parse(localStorage.getItem('auth-storage') ?? '{}') as { state: Record<string, unknown> };
    expect(Object.keys(persisted.state).sort()).toEqual([
      'isAuthenticated',
      'pendingVerificationEmail',
      'token',
      'user',
    ]);
    expect(persisted.state).toMatchObject({
      token,
      isAuthenticated: true,
      pendingVerificationEmail: 'otra@example.com',
    });
  });

  it('an expired token is removed without asking the server', async () => {
    await useApi({ 'GET /auth/user': { status: 200, body: USER } });
    localStorage.setItem('token', fakeToken({ exp: Math.floor(Date.now() / 1000) - 10 }));
    await useSession.getState().initialize();
    expect(localStorage.getItem('token')).toBeNull();
    expect(useSession.getState()).toMatchObject({ isInitialized: true, isAuthenticated: false, user: null });
    expect(api.requests).toHaveLength(0);
  });

  it('a token the server refuses is removed and the session stays anonymous', async () => {
    await useApi({ 'GET /auth/user': { status: 401, body: { statusCode: 401, message: 'No autenticado' } } });
    localStorage.setItem('token', fakeToken({ exp: inOneHour() }));
    await useSession.getState().initialize();
    expect(localStorage.getItem('token')).toBeNull();
    expect(useSession.getState()).toMatchObject({
      isInitialized: true,
      isAuthenticated: false,
      token: null,
      user: null,
    });
  });

  it('runs once however many times it is asked', async () => {
    await useApi({ 'GET /auth/user': { status: 200, body: USER, delay: 20 } });
    localStorage.setItem('token', fakeToken({ exp: inOneHour() }));
    await Promise.all([useSession.getState().initialize(), useSession.getState().initialize()]);
    await useSession.getState().initialize();
    expect(api.requests).toHaveLength(1);
  });
});

describe('transitions', () => {
  it('starting a session stores the token and resets the presentation flag', async () => {
    await useApi({});
    useSession.getState().markPresentationShown();
    await useSession.getState().startSession('tok', USER);
    expect(localStorage.getItem('token')).toBe('tok');
    expect(useSession.getState()).toMatchObject({
      isAuthenticated: true,
      user: USER,
      hasShownPresentationModal: false,
    });
  });

  it('a partner-scoped token signs nobody in: not stored, no call, the session stays empty', async () => {
    await useApi({ 'GET /auth/user': { status: 200, body: USER } });
    const partner = fakeToken({ sub: '7', exp: inOneHour(), aud: 'https://socio.example.com' });
    await expect(useSession.getState().startSession(partner)).rejects.toThrow();
    expect(localStorage.getItem('token')).toBeNull();
    expect(api.requests).toHaveLength(0);
    expect(useSession.getState()).toMatchObject({ isAuthenticated: false, user: null, token: null });
  });

  it('logout calls the API, removes the token and clears user and flags', async () => {
    await useApi({ 'POST /auth/logout': { status: 204 } });
    await useSession.getState().startSession('tok', USER);
    await useSession.getState().logout();
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /auth/logout']);
    expect(localStorage.getItem('token')).toBeNull();
    expect(useSession.getState()).toMatchObject({ isAuthenticated: false, user: null, token: null });
  });

  it('replacing the token (after a password update) keeps the user signed in with the new token', async () => {
    await useSession.getState().startSession('viejo', USER);
    useSession.getState().replaceToken('nuevo');
    expect(localStorage.getItem('token')).toBe('nuevo');
    expect(useSession.getState()).toMatchObject({ token: 'nuevo', isAuthenticated: true, user: USER });
  });

  it('a failing logout is only logged: the session ends anyway', async () => {
    await useApi({ 'POST /auth/logout': { status: 500, body: { message: 'caído' } } });
    await useSession.getState().startSession('tok', USER);
    await useSession.getState().logout();
    expect(console.error).toHaveBeenCalled();
    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('the session hint cookie (the shell frame the static server paints)', () => {
  const hint = () => document.cookie.split('; ').find((pair) => pair.startsWith(`${SESSION_HINT_COOKIE}=`)) ?? null;

  beforeEach(() => {
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom's cookie jar, as the page's code writes it
    document.cookie = `${SESSION_HINT_COOKIE}=; Path=/; Max-Age=0`;
  });

  it('is set with a session and dropped at logout; it holds no part of the token', async () => {
    await useApi({ 'POST /auth/logout': { status: 204 } });
    const token = fakeToken({ sub: '7', exp: inOneHour() });
    await useSession.getState().startSession(token, USER);
    expect(hint()).toBe(`${SESSION_HINT_COOKIE}=1`);
    expect(document.cookie).not.toContain(token.split('.')[1]);
    await useSession.getState().logout();
    expect(hint()).toBeNull();
  });

  it('stays when the token is replaced by a valid one (password change) and goes with an invalid one', async () => {
    await useSession.getState().startSession(fakeToken({ sub: '7', exp: inOneHour() }), USER);
    useSession.getState().replaceToken(fakeToken({ sub: '7', exp: inOneHour() + 60 }));
    expect(hint()).not.toBeNull();
    useSession.getState().replaceToken('no-es-un-jwt');
    expect(hint()).toBeNull();
  });

  it('follows the kept token at start-up: added for one kept before it existed, dropped without one', () => {
    localStorage.setItem('token', fakeToken({ sub: '7', exp: inOneHour() }));
    syncSessionHint();
    expect(hint()).not.toBeNull();
    localStorage.setItem('token', fakeToken({ sub: '7', exp: Math.floor(Date.now() / 1000) - 5 }));
    syncSessionHint();
    expect(hint()).toBeNull();
    // biome-ignore lint/suspicious/noDocumentCookie: a hint left from a session another tab ended
    document.cookie = `${SESSION_HINT_COOKIE}=1; Path=/`;
    localStorage.removeItem('token');
    syncSessionHint();
    expect(hint()).toBeNull();
  });
});
