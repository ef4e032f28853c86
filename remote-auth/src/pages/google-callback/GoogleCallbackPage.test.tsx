import { act, screen, waitFor } from '@testing-library/react';
import { PENDING_REDIRECT_KEY, useSession, leaveTo } from '@portal/shared';
import { fakeToken } from '@portal/shared/testing/fake-api';
import { renderAt, useFakeApi, user, type FakeApi } from '../../testing/render';
import GoogleCallbackPage from './GoogleCallbackPage';

jest.mock('@portal/shared', () => ({ ...jest.requireActual('@portal/shared'), leaveTo: jest.fn() }));

const TOKEN = fakeToken({ sub: 7, exp: Math.floor(Date.now() / 1000) + 3600 });
const PARTNER_TOKEN = 'token-para-el-socio';
let api: FakeApi;
let userReply: { status: number; body?: unknown };

beforeEach(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  userReply = { status: 200, body: user() };
  api = await useFakeApi({
    // Issue 13: the partner receives a token minted for it, never the session token.
    'POST /auth/partner-token': { status: 200, body: { access_token: PARTNER_TOKEN, expires_in: 3600, audience: 'x' } },
    'GET /auth/user': () => userReply,
    'GET /auth/google/callback': { status: 200, body: { access_token: TOKEN } },
  });
});

afterEach(async () => {
  jest.useRealTimers();
  await api.close();
  jest.restoreAllMocks();
  (leaveTo as jest.Mock).mockReset();
});

it('a provider code is exchanged with the API, and a stored partner target gets the token', async () => {
  localStorage.setItem(PENDING_REDIRECT_KEY, 'betopro://auth/success');
  renderAt('/auth/google/callback?code=abc', <GoogleCallbackPage />);
  await waitFor(() => expect(leaveTo).toHaveBeenCalledWith(`betopro://auth/success?token=${PARTNER_TOKEN}`));
  expect(api.requests.map((r) => `${r.method} ${r.path}`)).toContain('GET /auth/google/callback?code=abc');
});

it.each([
  ['auth_failed', 'Error en la autenticación con Google. Por favor, inténtalo de nuevo.'],
  ['access_denied', 'Autenticación cancelada o fallida'],
])('error=%s shows its message, then /login after 3 s keeping redirect_url', (error, message) => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  renderAt(`/google-callback?error=${error}&redirect_url=betopro%3A%2F%2Fauth%2Fsuccess`, <GoogleCallbackPage />);
  expect(screen.getByRole('heading', { name: 'Error de Autenticación' })).toBeInTheDocument();
  expect(screen.getByRole('alert')).toHaveTextContent(message);
  expect(screen.getByText('Redirigiendo al login en unos segundos...')).toBeInTheDocument();
  act(() => jest.advanceTimersByTime(2900));
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/google-callback/);
  act(() => jest.advanceTimersByTime(200));
  expect(screen.getByTestId('location')).toHaveTextContent('/login?redirect_url=betopro%3A%2F%2Fauth%2Fsuccess');
  expect(api.requests).toHaveLength(0);
});

it('a code the API cannot turn into a session ends on the error screen, signed out', async () => {
  userReply = { status: 500 };
  renderAt('/auth/google/callback?code=abc', <GoogleCallbackPage />);
  expect(await screen.findByRole('alert')).toHaveTextContent('Error durante la autenticación con Google');
  expect(useSession.getState().isAuthenticated).toBe(false);
  expect(localStorage.getItem('token')).toBeNull();
});

it('an address with neither a code nor an error is a cancelled sign-in, with no call', async () => {
  renderAt('/google-callback', <GoogleCallbackPage />);
  expect(await screen.findByRole('alert')).toHaveTextContent('Autenticación cancelada o fallida');
  expect(api.requests).toHaveLength(0);
});

it('an Apple failure names Apple, not Google (issue 17, item 4)', () => {
  renderAt('/auth/google/callback?error=auth_failed&provider=apple', <GoogleCallbackPage />);
  expect(screen.getByRole('alert')).toHaveTextContent(
    'Error en la autenticación con Apple. Por favor, inténtalo de nuevo.',
  );
  expect(screen.queryByText(/Google/)).not.toBeInTheDocument();
});
