import { act, screen, waitFor } from '@testing-library/react';
import {
  PENDING_REDIRECT_KEY,
  SIGN_IN_SECRET_KEY,
  storePendingCompanyLink,
  storePendingInteraction,
  useSession,
  leaveTo,
  whenApiIdle,
} from '@portal/shared';
import { fakeToken } from '@portal/shared/testing/fake-api';
import { renderAt, useFakeApi, user, type FakeApi } from '../../testing/render';
import GoogleCallbackPage from './GoogleCallbackPage';

jest.mock('@portal/shared', () => ({ ...jest.requireActual('@portal/shared'), leaveTo: jest.fn() }));

const TOKEN = fakeToken({ sub: 7, exp: Math.floor(Date.now() / 1000) + 3600 });
const PARTNER_TOKEN = 'token-para-el-socio';
let api: FakeApi;
let userReply: { status: number; body?: unknown };
let exchangeReply: { status: number; body?: unknown };
const SECRET = 'secreto-de-esta-pestana';
const REFUSED = {
  status: 400,
  body: {
    statusCode: 400,
    code: 'SIGN_IN_RETURN_INVALID',
    message: 'Token de autenticación inválido. Por favor, inicia sesión nuevamente.',
  },
};

beforeEach(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  userReply = { status: 200, body: user() };
  exchangeReply = { status: 200, body: { access_token: TOKEN, user: user() } };
  sessionStorage.setItem(SIGN_IN_SECRET_KEY, SECRET);
  api = await useFakeApi({
    // The partner receives a token minted for it, never the session token.
    'POST /auth/partner-token': { status: 200, body: { access_token: PARTNER_TOKEN, expires_in: 3600, audience: 'x' } },
    'GET /auth/user': () => userReply,
    'POST /auth/social/canjear': () => exchangeReply,
    'POST /auth/empresa/vincular': { status: 200, body: { empresa: { id: 4, nombre: 'Minera Andina S.A.' } } },
  });
});

afterEach(async () => {
  jest.useRealTimers();
  sessionStorage.clear();
  await whenApiIdle();
  await api.close();
  jest.restoreAllMocks();
  (leaveTo as jest.Mock).mockReset();
});

it("the return's code is exchanged by POST with this tab's secret, once, and a stored partner target gets the token", async () => {
  localStorage.setItem(PENDING_REDIRECT_KEY, 'betopro://auth/success');
  renderAt('/auth/google/callback?code=abc', <GoogleCallbackPage />);
  await waitFor(() => expect(leaveTo).toHaveBeenCalledWith(`betopro://auth/success?token=${PARTNER_TOKEN}`));
  const exchange = api.requests.find((r) => r.path === '/auth/social/canjear');
  expect(exchange?.method).toBe('POST');
  expect(JSON.parse(exchange?.body ?? '{}')).toEqual({ code: 'abc', secret: SECRET });
  expect(localStorage.getItem('token')).toBe(TOKEN);
  expect(sessionStorage.getItem(SIGN_IN_SECRET_KEY)).toBeNull();
});

it('a return this tab did not start (no secret here) is not redeemed: /login?error=token_invalid, signed out', async () => {
  sessionStorage.clear();
  renderAt('/auth/google/callback?code=de-otro', <GoogleCallbackPage />);
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login?error=token_invalid'));
  expect(api.requests).toHaveLength(0);
  expect(localStorage.getItem('token')).toBeNull();
});

it("a code the API refuses (another tab's, used or expired): /login?error=token_invalid keeping redirect_url", async () => {
  exchangeReply = REFUSED;
  renderAt('/auth/google/callback?code=abc&redirect_url=betopro%3A%2F%2Fauth%2Fsuccess', <GoogleCallbackPage />);
  await waitFor(() =>
    expect(screen.getByTestId('location')).toHaveTextContent(
      '/login?error=token_invalid&redirect_url=betopro%3A%2F%2Fauth%2Fsuccess',
    ),
  );
  expect(localStorage.getItem('token')).toBeNull();
  expect(useSession.getState().isAuthenticated).toBe(false);
});

it('a signed-in tab keeps its own session: nothing is redeemed, the person lands on /apps', async () => {
  const mine = fakeToken({ sub: 3, exp: Math.floor(Date.now() / 1000) + 3600 });
  useSession.setState({ token: mine, user: user({ id: 3 }), isAuthenticated: true, isInitialized: true });
  localStorage.setItem('token', mine);
  renderAt('/auth/google/callback?code=del-atacante', <GoogleCallbackPage />);
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps/));
  expect(api.requests.filter((r) => r.path === '/auth/social/canjear')).toHaveLength(0);
  expect(localStorage.getItem('token')).toBe(mine);
});

it('the fresh sign-in an app asked for, started in this tab, replaces the session and goes back to the app', async () => {
  const uid = 'Xq3_kP9-aB7cD2eF1gH0i';
  const mine = fakeToken({ sub: 7, exp: Math.floor(Date.now() / 1000) + 60 });
  useSession.setState({ token: mine, user: user(), isAuthenticated: true, isInitialized: true });
  localStorage.setItem('token', mine);
  storePendingInteraction(uid, true);
  renderAt('/auth/google/callback?code=abc', <GoogleCallbackPage />);
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/autorizar?interaccion=${uid}`));
  expect(JSON.parse(api.requests.find((r) => r.path === '/auth/social/canjear')?.body ?? '{}')).toEqual({
    code: 'abc',
    secret: SECRET,
  });
  expect(localStorage.getItem('token')).toBe(TOKEN);
});

it('a signed-in tab in a fresh sign-in keeps its session for a return it did not start (no secret here)', async () => {
  const mine = fakeToken({ sub: 3, exp: Math.floor(Date.now() / 1000) + 3600 });
  useSession.setState({ token: mine, user: user({ id: 3 }), isAuthenticated: true, isInitialized: true });
  localStorage.setItem('token', mine);
  sessionStorage.clear();
  storePendingInteraction('Xq3_kP9-aB7cD2eF1gH0i', true);
  renderAt('/auth/google/callback?code=del-atacante', <GoogleCallbackPage />);
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/autorizar?interaccion='));
  expect(api.requests.filter((r) => r.path === '/auth/social/canjear')).toHaveLength(0);
  expect(localStorage.getItem('token')).toBe(mine);
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

it("a sign-in a rule of the person's company refuses shows the rule's Spanish message, signed out", async () => {
  const message =
    'La empresa «Minera Andina S.A.» no permite iniciar sesión con Google: usa el inicio de sesión de la empresa';
  exchangeReply = { status: 403, body: { statusCode: 403, code: 'METODO_NO_PERMITIDO', message } };
  renderAt('/auth/google/callback?code=abc', <GoogleCallbackPage />);
  expect(await screen.findByRole('alert')).toHaveTextContent(message);
  expect(useSession.getState().isAuthenticated).toBe(false);
  expect(localStorage.getItem('token')).toBeNull();
});

it('an address with neither a code nor an error is a cancelled sign-in, with no call', async () => {
  renderAt('/google-callback', <GoogleCallbackPage />);
  expect(await screen.findByRole('alert')).toHaveTextContent('Autenticación cancelada o fallida');
  expect(api.requests).toHaveLength(0);
});

it('an Apple failure names Apple, not Google', () => {
  renderAt('/auth/google/callback?error=auth_failed&provider=apple', <GoogleCallbackPage />);
  expect(screen.getByRole('alert')).toHaveTextContent(
    'Error en la autenticación con Apple. Por favor, inténtalo de nuevo.',
  );
  expect(screen.queryByText(/Google/)).not.toBeInTheDocument();
});

describe('a company link kept by /login (an existing account that proves itself by signing in)', () => {
  const CODE = 'q8Zt3mW9xYk2Lr5Pb7Nc1Vd4Hf6Js0Ga_-uEo3TiQw';
  const LINK_SECRET = 'Xk9_pL2-mN4qR7sT1uV3wY5zA8bC0dE6fG2hJ4kL6mN';
  const COMPANY = 'Minera Andina S.A.';
  const linkCalls = () => api.requests.filter((request) => request.path === '/auth/empresa/vincular');

  it('a Google or Apple sign-in redeems it too, once, through the same landing', async () => {
    storePendingCompanyLink({ codigo: CODE, empresa: COMPANY, secreto: LINK_SECRET });
    sessionStorage.setItem(SIGN_IN_SECRET_KEY, 'secreto-del-inicio-con-google');
    renderAt('/auth/google/callback?code=abc', <GoogleCallbackPage />);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
    expect(linkCalls()).toHaveLength(1);
    expect(JSON.parse(linkCalls()[0]?.body ?? '{}')).toEqual({ codigo: CODE, secreto: LINK_SECRET });
  });
});

describe("the return page for the company's access", () => {
  it('names it while it completes the sign-in', () => {
    sessionStorage.setItem(SIGN_IN_SECRET_KEY, SECRET);
    renderAt('/auth/google/callback?code=abc&provider=empresa', <GoogleCallbackPage />);
    expect(
      screen.getByText('Estamos completando tu inicio de sesión con el acceso de tu empresa.'),
    ).toBeInTheDocument();
  });

  it('names it when it failed, and goes back to /login', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      renderAt('/auth/google/callback?error=auth_failed&provider=empresa', <GoogleCallbackPage />);
      expect(screen.getByRole('alert')).toHaveTextContent(
        'No se pudo iniciar sesión con el acceso de tu empresa. Inténtalo de nuevo.',
      );
      jest.advanceTimersByTime(3000);
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
    } finally {
      jest.useRealTimers();
    }
  });
});
