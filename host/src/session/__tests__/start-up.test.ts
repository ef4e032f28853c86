import { PENDING_REDIRECT_KEY, replaceWith, useSession } from '@portal/shared';
import { fakeToken, useFakeApi, type FakeApi } from '@portal/shared/testing/fake-api';
import { user } from '@portal/shared/testing/fixtures';
import { startUp } from '../start-up';

jest.mock('@portal/shared', () => ({ ...jest.requireActual('@portal/shared'), replaceWith: jest.fn() }));

const PARTNER = 'https://socio.example.com/entrada';
const PARTNER_TOKEN = 'token-para-el-socio';
const token = fakeToken({ sub: 7, exp: Math.floor(Date.now() / 1000) + 3600 });
let api: FakeApi;
let userReply: { status: number; body?: unknown };

/** The address the page opens with (jsdom keeps one document: the history entry is replaced). */
const openAt = (address: string) => window.history.replaceState(null, '', address);
const address = () => `${window.location.pathname}${window.location.search}`;
const calls = () => api.requests.map((r) => `${r.method} ${r.path}`);

beforeEach(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  userReply = { status: 200, body: user({ name: 'Olga' }) };
  api = await useFakeApi(
    {
      'GET /auth/user': () => userReply,
      'POST /auth/partner-token': {
        status: 200,
        body: { access_token: PARTNER_TOKEN, expires_in: 3600, audience: 'x' },
      },
    },
    { allowList: ['https://socio.example.com', 'betopro://auth/success'] },
  );
});

afterEach(async () => {
  await api.close();
  jest.restoreAllMocks();
  (replaceWith as jest.Mock).mockReset();
  openAt('/');
});

describe('a token in the address is never a session (login CSRF: docs/decisions/0001)', () => {
  const other = fakeToken({ sub: 99, exp: Math.floor(Date.now() / 1000) + 3600 });

  it('a signed-in person keeps their own session and page; the token leaves the address at once, unstored', async () => {
    localStorage.setItem('token', token);
    openAt(`/perfil?token=${other}&tab=seguridad`);
    const done = startUp();
    expect(address()).toBe('/perfil?tab=seguridad'); // before any request: the token is never left in the bar
    await done;
    expect(localStorage.getItem('token')).toBe(token);
    expect(useSession.getState()).toMatchObject({ isAuthenticated: true, isInitialized: true, user: { name: 'Olga' } });
    expect(api.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${token}`]);
    expect(replaceWith).not.toHaveBeenCalled();
  });

  it('a signed-in person keeps the redirect_url beside it: the partner gets a token minted for their own session', async () => {
    localStorage.setItem('token', token);
    openAt(`/apps?token=${other}&redirect_url=${encodeURIComponent(PARTNER)}`);
    await startUp();
    expect(replaceWith).toHaveBeenCalledWith(`${PARTNER}?token=${PARTNER_TOKEN}`);
    expect(api.requests.find((r) => r.path === '/auth/partner-token')?.headers.authorization).toBe(`Bearer ${token}`);
    expect(localStorage.getItem('token')).toBe(token);
  });

  it.each([
    ['a valid-looking session token', token],
    ['not a token', 'no-es-un-token'],
    ['a partner-scoped token', fakeToken({ sub: 7, exp: 9999999999, aud: PARTNER })],
  ])('signed out, %s: /login?error=token_invalid, nothing stored, no call', async (_, carried) => {
    openAt(`/apps?token=${carried}`);
    await startUp();
    expect(replaceWith).toHaveBeenCalledWith('/login?error=token_invalid');
    expect(localStorage.getItem('token')).toBeNull();
    expect(calls()).toEqual([]);
    expect(address()).toBe('/apps');
    expect(useSession.getState().isAuthenticated).toBe(false);
  });
});

describe('a kept session at start-up', () => {
  beforeEach(() => localStorage.setItem('token', token));

  it('on a user page with an allowed redirect_url goes to the partner', async () => {
    openAt(`/planes?redirect_url=${encodeURIComponent(PARTNER)}`);
    await startUp();
    expect(replaceWith).toHaveBeenCalledWith(`${PARTNER}?token=${PARTNER_TOKEN}`);
  });

  it('with a hostile redirect_url stays, on /apps with a clean address, and mints nothing', async () => {
    openAt(`/perfil?redirect_url=${encodeURIComponent('https://evil.example.com')}`);
    await startUp();
    expect(replaceWith).not.toHaveBeenCalled();
    expect(address()).toBe('/apps');
    expect(calls()).toEqual(['GET /auth/user']);
    expect(useSession.getState().isInitialized).toBe(true);
  });

  it('follows a pending redirect that is still allowed, once; one no longer allowed is dropped', async () => {
    localStorage.setItem(PENDING_REDIRECT_KEY, PARTNER);
    openAt('/apps');
    await startUp();
    expect(replaceWith).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(PENDING_REDIRECT_KEY)).toBeNull();

    localStorage.setItem(PENDING_REDIRECT_KEY, 'https://ya-no-permitido.example.com');
    (replaceWith as jest.Mock).mockReset();
    await api.close();
    api = await useFakeApi({ 'GET /auth/user': () => userReply }, { allowList: ['https://socio.example.com'] });
    localStorage.setItem('token', token);
    localStorage.setItem(PENDING_REDIRECT_KEY, 'https://ya-no-permitido.example.com');
    await startUp();
    expect(replaceWith).not.toHaveBeenCalled();
    expect(localStorage.getItem(PENDING_REDIRECT_KEY)).toBeNull();
  });

  it('on a sign-in page does not forward (the guest guard does, spec §2)', async () => {
    openAt(`/login?redirect_url=${encodeURIComponent(PARTNER)}`);
    await startUp();
    expect(replaceWith).not.toHaveBeenCalled();
    expect(address()).toBe(`/login?redirect_url=${encodeURIComponent(PARTNER)}`);
  });
});

it('a signed-out start-up keeps the pending redirect for the sign-in to come', async () => {
  localStorage.setItem(PENDING_REDIRECT_KEY, PARTNER);
  openAt('/login');
  await startUp();
  expect(localStorage.getItem(PENDING_REDIRECT_KEY)).toBe(PARTNER);
  expect(useSession.getState()).toMatchObject({ isAuthenticated: false, isInitialized: true });
});
