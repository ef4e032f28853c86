import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { webcrypto } from 'node:crypto';
import {
  forgetLandings,
  leaveTo,
  PENDING_REDIRECT_KEY,
  registrationIdFor,
  SIGN_IN_SECRET_KEY,
  useSession,
  whenApiIdle,
} from '@portal/shared';
import { fakeToken } from '@portal/shared/testing/fake-api';
import { securityStatus } from '@portal/shared/testing/fixtures';
import { bodyOf, renderAt, useFakeApi, user, type FakeApi } from '../../testing/render';
import LoginPage from './LoginPage';

jest.mock('@portal/shared', () => ({ ...jest.requireActual('@portal/shared'), leaveTo: jest.fn() }));

const TOKEN = fakeToken({ sub: 7, exp: Math.floor(Date.now() / 1000) + 3600 });
const PARTNER_TOKEN = 'token-para-el-socio';
let api: FakeApi;
let providers = { google: true, apple: true };

beforeEach(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  api = await useFakeApi({
    // The partner receives a token minted for it, never the session token.
    'POST /auth/partner-token': { status: 200, body: { access_token: PARTNER_TOKEN, expires_in: 3600, audience: 'x' } },
    'POST /auth/login': (req) => {
      const { email, password } = JSON.parse(req.body) as { email: string; password: string };
      if (email === 'pendiente@example.com') {
        return {
          status: 403,
          body: {
            statusCode: 403,
            message: 'Debes verificar tu email antes de iniciar sesión',
            code: 'EMAIL_NOT_VERIFIED',
            registrationId: 'registro-probado-0001',
          },
        };
      }
      if (email === 'bloqueada@example.com') {
        // A locked address: the wrong-password answer, whatever the password, plus when to retry.
        const body = {
          statusCode: 401,
          message: 'Credenciales inválidas',
          code: 'INVALID_CREDENTIALS',
          retryAfter: 900,
        };
        return { status: 401, body };
      }
      if (email === 'pausa@example.com') {
        // The fifth wrong password of an address: a pause of 30 s starts.
        const body = {
          statusCode: 401,
          message: 'Credenciales inválidas',
          code: 'INVALID_CREDENTIALS',
          retryAfter: 30,
        };
        return { status: 401, body };
      }
      if (email === 'sin-clave@example.com') {
        // Activated by an administrator: no password can be right yet.
        const message =
          'Tu cuenta está activa pero aún no tiene contraseña. Elígela con «¿Olvidaste tu contraseña?»: te enviaremos un código a tu email.';
        return { status: 401, body: { statusCode: 401, message, code: 'PASSWORD_NOT_SET' } };
      }
      if (password !== 'secreta1') return { status: 401, body: { statusCode: 401, message: 'Credenciales inválidas' } };
      return { status: 200, body: { access_token: TOKEN, user: user() }, delay: 100 };
    },
    'GET /auth/user': { status: 200, body: user() },
    'GET /auth/social/proveedores': () => ({ status: 200, body: providers }),
  });
});

afterEach(async () => {
  providers = { google: true, apple: true };
  // The sign-in page's background questions (a company's access for the typed address) end before the fake API.
  await whenApiIdle();
  await api.close();
  jest.useRealTimers();
  jest.restoreAllMocks();
  (leaveTo as jest.Mock).mockReset();
});

async function fillIn(email: string, password: string) {
  await userEvent.type(screen.getByLabelText('Email'), email);
  await userEvent.type(screen.getByLabelText('Contraseña'), password);
}

it('keeps Iniciar Sesión disabled until both fields are filled', async () => {
  renderAt('/login', <LoginPage />);
  const submit = screen.getByRole('button', { name: 'Iniciar Sesión' });
  expect(submit).toBeDisabled();
  await userEvent.type(screen.getByLabelText('Email'), 'ana@example.com');
  expect(submit).toBeDisabled();
  await userEvent.type(screen.getByLabelText('Contraseña'), 'x');
  expect(submit).toBeEnabled();
});

it('signs in with the trimmed email, shows the busy state, stores the session and goes to /apps', async () => {
  renderAt('/login', <LoginPage />);
  await fillIn('  ana@example.com ', 'secreta1');
  await userEvent.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));
  expect(screen.getByRole('button', { name: 'Iniciando sesión...' })).toBeDisabled();
  expect(screen.getByLabelText('Email')).toBeDisabled();
  expect(screen.getByLabelText('Contraseña')).toBeDisabled();
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
  expect(bodyOf(api, '/auth/login')).toEqual({ email: 'ana@example.com', password: 'secreta1' });
  expect(localStorage.getItem('token')).toBe(TOKEN);
  expect(useSession.getState()).toMatchObject({ isAuthenticated: true, user: { email: 'ana@example.com' } });
  // The user comes with the token: a sign-in is one round trip.
  expect(api.requests.map((r) => r.path)).not.toContain('/auth/user');
});

it("shows the server's message in a red box for a wrong password and stays signed out", async () => {
  renderAt('/login', <LoginPage />);
  await fillIn('ana@example.com', 'mala');
  await userEvent.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Credenciales inválidas');
  // The keyboard and the screen reader are taken to the message, not left on the button.
  expect(alert).toHaveFocus();
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/);
  expect(useSession.getState().isAuthenticated).toBe(false);
  expect(screen.getByLabelText('Email')).toBeEnabled();
});

it('sends the partner app its token when redirect_url is allowed', async () => {
  renderAt('/login?redirect_url=https%3A%2F%2Fapp.portal.example.com%2Fentrar', <LoginPage />);
  await fillIn('ana@example.com', 'secreta1');
  await userEvent.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));
  await waitFor(() =>
    expect(leaveTo).toHaveBeenCalledWith(`https://app.portal.example.com/entrar?token=${PARTNER_TOKEN}`),
  );
});

it('ignores a hostile redirect_url silently and goes to /apps', async () => {
  renderAt('/login?redirect_url=https%3A%2F%2Fevil.example.net%2Fsteal', <LoginPage />);
  await fillIn('ana@example.com', 'secreta1');
  await userEvent.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
  expect(leaveTo).not.toHaveBeenCalled();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

it('EMAIL_NOT_VERIFIED: message with the link, pending email kept, then verification after 2 s', async () => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  const clicks = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
  renderAt('/login?redirect_url=betopro%3A%2F%2Fauth%2Fsuccess', <LoginPage />);
  await clicks.type(screen.getByLabelText('Email'), 'pendiente@example.com');
  await clicks.type(screen.getByLabelText('Contraseña'), 'secreta1');
  await clicks.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Debes verificar tu email antes de iniciar sesión');
  const expected = '/verify-email?email=pendiente%40example.com&redirect_url=betopro%3A%2F%2Fauth%2Fsuccess';
  expect(screen.getByRole('link', { name: 'Ir a verificación de email' })).toHaveAttribute('href', expected);
  expect(useSession.getState().pendingVerificationEmail).toBe('pendiente@example.com');
  // The password proved a registration: its id is kept, so the code activates that password.
  expect(registrationIdFor('pendiente@example.com')).toBe('registro-probado-0001');
  act(() => jest.advanceTimersByTime(1900));
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/login/);
  act(() => jest.advanceTimersByTime(200));
  expect(screen.getByTestId('location')).toHaveTextContent(expected);
  // The verification page is told why the person is there, to say it again.
  expect(JSON.parse(screen.getByTestId('location-state').textContent ?? '')).toEqual({
    message: 'Debes verificar tu email antes de iniciar sesión',
    tone: 'info',
  });
});

it.each([
  ['auth_failed', 'Error en la autenticación con Google. Por favor, inténtalo de nuevo.'],
  ['token_invalid', 'Token de autenticación inválido. Por favor, inicia sesión nuevamente.'],
])('error=%s shows its message', (error, message) => {
  renderAt(`/login?error=${error}`, <LoginPage />);
  expect(screen.getByRole('alert')).toHaveTextContent(message);
});

it.each([
  ['google', 'Google'],
  ['apple', 'Apple'],
])(
  'a provider the API has no configuration for (error=provider_unavailable&provider=%s) is said to be unavailable',
  (provider, name) => {
    renderAt(`/login?error=provider_unavailable&provider=${provider}`, <LoginPage />);
    expect(screen.getByRole('status')).toHaveTextContent(`El acceso con ${name} no está disponible en este portal.`);
    expect(screen.queryByText(/inténtalo de nuevo/i)).not.toBeInTheDocument();
  },
);

it('a provider this portal has not configured says so when its button is pressed, and the page stays', async () => {
  providers = { google: false, apple: true };
  Object.defineProperty(window.crypto, 'subtle', { value: webcrypto.subtle, configurable: true });
  try {
    renderAt('/login', <LoginPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Continuar con Google' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'El acceso con Google no está disponible en este portal.',
    );
    expect(leaveTo).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Continuar con Google' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Continuar con Apple' }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalled());
    expect(new URL((leaveTo as jest.Mock).mock.lastCall[0] as string).pathname).toBe('/auth/apple');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  } finally {
    Reflect.deleteProperty(window.crypto, 'subtle');
  }
});

it('a failed Apple sign-in names Apple, not Google', () => {
  renderAt('/login?error=auth_failed&provider=apple', <LoginPage />);
  expect(screen.getByRole('alert')).toHaveTextContent(
    'Error en la autenticación con Apple. Por favor, inténtalo de nuevo.',
  );
});

it('shows the message passed from registration', () => {
  renderAt('/login', <LoginPage />, {
    state: { message: 'Este usuario ya está registrado, ingrese para continuar', tone: 'info' },
  });
  expect(screen.getByRole('status')).toHaveTextContent('Este usuario ya está registrado, ingrese para continuar');
});

it('arriving from a changed password: the address filled in, the focus on the password, the message shown', () => {
  const changed = 'Contraseña actualizada. Ya puedes iniciar sesión.';
  renderAt('/login', <LoginPage />, { state: { email: 'ana@example.com', message: changed, tone: 'success' } });
  expect(screen.getByLabelText('Email')).toHaveValue('ana@example.com');
  expect(screen.getByLabelText('Contraseña')).toHaveFocus();
  expect(screen.getByRole('status')).toHaveTextContent(changed);
});

it('links to recovery and to registration keeping redirect_url', () => {
  renderAt('/login?redirect_url=betopro%3A%2F%2Fauth%2Fsuccess', <LoginPage />);
  expect(screen.getByRole('link', { name: '¿Olvidaste tu contraseña?' })).toHaveAttribute('href', '/forgot-password');
  expect(screen.getByRole('link', { name: 'Registrate' })).toHaveAttribute(
    'href',
    '/register?redirect_url=betopro%3A%2F%2Fauth%2Fsuccess',
  );
});

it("Google and Apple hand the browser to the API, with the partner target kept and this tab's binding", async () => {
  Object.defineProperty(window.crypto, 'subtle', { value: webcrypto.subtle, configurable: true });
  try {
    renderAt('/login?redirect_url=https%3A%2F%2Fportal.example.com%2Fx', <LoginPage />);
    const started = async (button: string, provider: string) => {
      await userEvent.click(screen.getByRole('button', { name: button }));
      await waitFor(() => expect(leaveTo).toHaveBeenCalled());
      const url = new URL((leaveTo as jest.Mock).mock.lastCall[0] as string);
      expect(`${url.origin}${url.pathname}`).toBe(`${api.url}/auth/${provider}`);
      expect(url.searchParams.get('redirect_url')).toBe('https://portal.example.com/x');
      // Only the SHA-256 of the secret leaves the tab; the secret stays in this tab's sessionStorage.
      const secret = sessionStorage.getItem(SIGN_IN_SECRET_KEY) ?? '';
      const digest = await webcrypto.subtle.digest('SHA-256', Buffer.from(secret));
      expect(url.searchParams.get('binding')).toBe(Buffer.from(digest).toString('base64url'));
      expect(url.href).not.toContain(secret);
      (leaveTo as jest.Mock).mockClear();
    };
    await started('Continuar con Google', 'google');
    expect(localStorage.getItem(PENDING_REDIRECT_KEY)).toBe('https://portal.example.com/x');
    await started('Continuar con Apple', 'apple');
  } finally {
    Reflect.deleteProperty(window.crypto, 'subtle');
  }
});

describe('an administrator who must still set up a second factor', () => {
  const status = (overrides: Parameters<typeof securityStatus>[0]) => ({
    status: 200,
    body: securityStatus(overrides),
  });

  async function signInAsAdmin(security: ReturnType<typeof status> | { status: number; body: unknown }) {
    await api.close();
    api = await useFakeApi({
      'POST /auth/login': { status: 200, body: { access_token: TOKEN, user: user({ role: 1 }) } },
      'GET /auth/seguridad': security,
    });
    renderAt('/login', <LoginPage />);
    await fillIn('admin@example.com', 'secreta1');
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));
  }

  it("lands on 'Seguridad', which asks for it, instead of /apps", async () => {
    await signInAsAdmin(status({}));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/perfil?tab=seguridad'));
    expect(api.requests.some((request) => request.path === '/auth/seguridad')).toBe(true);
  });

  it('lands on /apps when the requirement is lifted, a factor exists, or the status cannot be read', async () => {
    for (const security of [
      status({ secondFactorRequired: false }),
      status({ totp: true, sessionVerified: true }),
      { status: 503, body: { statusCode: 503, message: 'Servicio no disponible' } },
    ]) {
      await signInAsAdmin(security);
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
      act(() => useSession.getState().clearSession());
      document.body.innerHTML = '';
      // The next round is a new page (a new router whose first entry has the same key).
      forgetLandings();
    }
  });

  it('an ordinary user lands on /apps without asking', async () => {
    renderAt('/login', <LoginPage />);
    await fillIn('ana@example.com', 'secreta1');
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
    expect(api.requests.some((request) => request.path === '/auth/seguridad')).toBe(false);
  });
});

it('a locked address is told until when it may try again, and offered the way in without a password', async () => {
  const now = new Date();
  renderAt('/login', <LoginPage />);
  await fillIn('bloqueada@example.com', 'secreta1');
  await userEvent.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));
  const alert = await screen.findByRole('alert');
  // Within 15 minutes of midnight the pause ends tomorrow, and the text names the day.
  expect(alert).toHaveTextContent(
    /^Credenciales inválidas\. Por seguridad, los intentos desde este dispositivo están en pausa\. Podrás intentarlo de nuevo (el \d\d\/\d\d\/\d{4} )?a las \d\d:\d\d \(en 15 minutos\)\./,
  );
  const until = new Date(now.getTime() + 900_000);
  expect(alert).toHaveTextContent(`${String(until.getHours()).padStart(2, '0')}:`);
  expect(within(alert).getByRole('link', { name: '¿Olvidaste tu contraseña?' })).toHaveAttribute(
    'href',
    '/forgot-password',
  );
  expect(useSession.getState().isAuthenticated).toBe(false);

  // A plain wrong password of an unlocked address says nothing of a pause.
  await userEvent.clear(screen.getByLabelText('Email'));
  await userEvent.clear(screen.getByLabelText('Contraseña'));
  await fillIn('ana@example.com', 'mala');
  await userEvent.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));
  await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(/^Credenciales inválidas$/));
  expect(within(screen.getByRole('alert')).queryByRole('link')).toBeNull();
});

it('an account with no password yet is told so, and led to choose one with its address filled in', async () => {
  renderAt('/login', <LoginPage />);
  await fillIn(' sin-clave@example.com', 'la-del-registro');
  await userEvent.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent(/^Tu cuenta está activa pero aún no tiene contraseña\./);
  await userEvent.click(within(alert).getByRole('link', { name: '¿Olvidaste tu contraseña?' }));
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/forgot-password\?email=sin-clave%40example\.com$/);
});

describe('a pause after wrong passwords', () => {
  const loginCalls = () => api.requests.filter((request) => request.path === '/auth/login').length;

  async function pauseStarted() {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const person = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderAt('/login', <LoginPage />);
    await person.type(screen.getByLabelText('Email'), 'pausa@example.com');
    await person.type(screen.getByLabelText('Contraseña'), 'equivocada-5');
    await person.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/están en pausa\. Podrás intentarlo de nuevo a las/);
    return person;
  }

  it('keeps the button off with the time left on it, and sends nothing for that address, whatever password is typed', async () => {
    const person = await pauseStarted();
    const paused = screen.getByRole('button', { name: 'Inténtalo de nuevo en 0:30' });
    expect(paused).toBeDisabled();
    const said = screen.getByRole('alert').textContent;

    await person.clear(screen.getByLabelText('Contraseña'));
    await person.type(screen.getByLabelText('Contraseña'), 'secreta1{Enter}');
    expect(loginCalls()).toBe(1);
    expect(screen.getByRole('alert').textContent).toBe(said);
    expect(useSession.getState().isAuthenticated).toBe(false);

    act(() => jest.advanceTimersByTime(10_000));
    expect(screen.getByRole('button', { name: 'Inténtalo de nuevo en 0:20' })).toBeDisabled();
  });

  it('gives the button back when the pause ends, and says so', async () => {
    await pauseStarted();
    act(() => jest.advanceTimersByTime(30_000));
    expect(screen.getByRole('button', { name: 'Iniciar Sesión' })).toBeEnabled();
    expect(screen.getByRole('status')).toHaveTextContent('Ya puedes intentarlo de nuevo.');
    expect(screen.queryByRole('alert')).toBeNull();
    // The red box had the focus: the person goes on at the password.
    expect(screen.getByLabelText('Contraseña')).toHaveFocus();
  });

  it('holds only for the address it was given for', async () => {
    const person = await pauseStarted();
    await person.clear(screen.getByLabelText('Email'));
    await person.type(screen.getByLabelText('Email'), 'otra@example.com');
    expect(screen.getByRole('button', { name: 'Iniciar Sesión' })).toBeEnabled();
    await person.clear(screen.getByLabelText('Email'));
    await person.type(screen.getByLabelText('Email'), 'Pausa@example.com');
    expect(screen.getByRole('button', { name: /^Inténtalo de nuevo en 0:\d\d$/ })).toBeDisabled();
  });
});
