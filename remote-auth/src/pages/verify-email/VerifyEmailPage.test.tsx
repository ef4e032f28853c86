import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  forgetRegistration,
  PENDING_REDIRECT_KEY,
  registrationIdFor,
  rememberRegistration,
  startResendCooldown,
  storePendingInteraction,
  useSession,
  leaveTo,
} from '@portal/shared';
import { fakeToken } from '@portal/shared/testing/fake-api';
import { bodyOf, renderAt, useFakeApi, user, type FakeApi } from '../../testing/render';
import VerifyEmailPage from './VerifyEmailPage';

jest.mock('@portal/shared', () => ({ ...jest.requireActual('@portal/shared'), leaveTo: jest.fn() }));

const TOKEN = fakeToken({ sub: 7, exp: Math.floor(Date.now() / 1000) + 3600 });
const PARTNER_TOKEN = 'token-para-el-socio';
const REGISTRATION_EXPIRED =
  'Los datos de tu registro ya no están guardados (caducan en un día, o este email tiene registros más nuevos). Escríbelos junto al mismo código y elige tu contraseña.';
let api: FakeApi;

beforeEach(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  api = await useFakeApi({
    // The partner receives a token minted for it, never the session token.
    'POST /auth/partner-token': { status: 200, body: { access_token: PARTNER_TOKEN, expires_in: 3600, audience: 'x' } },
    'POST /auth/verify-registration': (req) => {
      const body = JSON.parse(req.body) as { code: string; registrationId?: string; profile?: object };
      // As the API: the account gets a password with this browser's live registration id, or else with the profile
      // typed beside the code; a registration the server forgot, with no profile, is refused and the code kept.
      if (body.code !== '123456') {
        return { status: 400, body: { statusCode: 400, message: 'Código inválido o expirado' } };
      }
      const live = body.registrationId === 'registro-de-ana-0001';
      if (body.registrationId && !live && !body.profile) {
        return { status: 409, body: { statusCode: 409, code: 'REGISTRATION_EXPIRED', message: REGISTRATION_EXPIRED } };
      }
      return {
        status: 200,
        body: { access_token: TOKEN, user: user(), passwordSet: live || Boolean(body.profile) },
      };
    },
    'POST /auth/resend-verification': { status: 200, body: { message: 'ok', resendAfter: 60 } },
  });
  startResendCooldown('verify_email', 'ana@example.com', 0);
  // Ana registered in this browser (RegisterPage keeps the id the API answered).
  rememberRegistration('ana@example.com', 'registro-de-ana-0001');
});

afterEach(async () => {
  await api.close();
  jest.useRealTimers();
  jest.restoreAllMocks();
  (leaveTo as jest.Mock).mockReset();
});

function fakeTimers() {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  return userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
}

it('without an email in the address or pending, goes to /register', () => {
  renderAt('/verify-email', <VerifyEmailPage />);
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/register$/);
});

it('says again why the person was sent here from /login, and keeps it on screen', async () => {
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />, {
    state: { message: 'Debes verificar tu email antes de iniciar sesión', tone: 'info' },
  });
  expect(screen.getByRole('status')).toHaveTextContent('Debes verificar tu email antes de iniciar sesión');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(screen.getByRole('status')).toHaveTextContent('Debes verificar tu email antes de iniciar sesión');
});

it('falls back to the pending-verification email', () => {
  useSession.getState().setPendingVerificationEmail('pendiente@example.com');
  renderAt('/verify-email', <VerifyEmailPage />);
  expect(screen.getByText('pendiente@example.com')).toBeInTheDocument();
});

it('takes digits only, at most six, and enables Verificar código at exactly six', async () => {
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  const input = screen.getByLabelText('Código de verificación');
  const submit = screen.getByRole('button', { name: 'Verificar código' });
  await userEvent.type(input, '12a34');
  expect(input).toHaveValue('1234');
  expect(submit).toBeDisabled();
  await userEvent.type(input, '5678');
  expect(input).toHaveValue('123456');
  expect(submit).toBeEnabled();
});

it('a right code signs in, clears the pending email and goes to /apps', async () => {
  useSession.getState().setPendingVerificationEmail('ana@example.com');
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
  await userEvent.click(screen.getByRole('button', { name: 'Verificar código' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
  expect(bodyOf(api, '/auth/verify-registration')).toEqual({
    email: 'ana@example.com',
    code: '123456',
    registrationId: 'registro-de-ana-0001',
  });
  expect(useSession.getState()).toMatchObject({ isAuthenticated: true, token: TOKEN, pendingVerificationEmail: null });
  expect(localStorage.getItem('token')).toBe(TOKEN);
});

it("sends this browser's registration id with the code, and forgets it once verified", async () => {
  rememberRegistration('ana@example.com', 'registro-de-ana-0001');
  rememberRegistration('otra@example.com', 'registro-de-otra-0002');
  renderAt('/verify-email?email=Ana%40example.com', <VerifyEmailPage />);
  await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
  await userEvent.click(screen.getByRole('button', { name: 'Verificar código' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
  expect(bodyOf(api, '/auth/verify-registration')).toEqual({
    email: 'Ana@example.com',
    code: '123456',
    registrationId: 'registro-de-ana-0001',
  });
  expect(registrationIdFor('ana@example.com')).toBeUndefined();
  expect(registrationIdFor('otra@example.com')).toBe('registro-de-otra-0002');
});

async function fillAccount({ name = 'Ana', lastName = 'Pérez', phone = '987654321', password = 'Secreta1!' } = {}) {
  if (name) await userEvent.type(screen.getByLabelText('Nombre'), name);
  if (lastName) await userEvent.type(screen.getByLabelText('Apellido'), lastName);
  if (phone) await userEvent.type(screen.getByLabelText('Teléfono'), phone);
  if (password) {
    await userEvent.type(screen.getByLabelText('Contraseña'), password);
    await userEvent.type(screen.getByLabelText('Confirmar contraseña'), password);
  }
}

const OTHER_DEVICE = /Este navegador no tiene los datos de tu registro/;

it("with this browser's registration, asks for the code only", () => {
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  expect(screen.queryByText(OTHER_DEVICE)).not.toBeInTheDocument();
  expect(screen.queryByLabelText('Nombre')).not.toBeInTheDocument();
  expect(screen.queryByLabelText('Contraseña')).not.toBeInTheDocument();
});

it('on another device, asks beside the code for the profile and password registration asks, and sends them', async () => {
  forgetRegistration('ana@example.com'); // the mail opened on the phone
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  expect(screen.getByText(OTHER_DEVICE)).toBeInTheDocument();
  await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
  await fillAccount({ name: ' Ana ', phone: '987 654 321' });
  await userEvent.click(screen.getByRole('button', { name: 'Verificar código' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
  expect(bodyOf(api, '/auth/verify-registration')).toEqual({
    email: 'ana@example.com',
    code: '123456',
    profile: { name: 'Ana', lastName: 'Pérez', phone: '+51987654321', password: 'Secreta1!' },
  });
  expect(screen.queryByText('Tu cuenta está activa')).not.toBeInTheDocument();
});

it('on another device, the fields start plain; the code sent alone leads to the first one, and the next send says what is missing', async () => {
  forgetRegistration('ana@example.com');
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  expect(document.querySelectorAll('[aria-invalid="true"]')).toHaveLength(0);
  await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
  await userEvent.click(screen.getByRole('button', { name: 'Verificar código' }));
  await waitFor(() => expect(screen.getByLabelText('Nombre')).toHaveFocus());
  expect(document.querySelectorAll('[aria-invalid="true"]')).toHaveLength(0);
  expect(screen.queryByText('El nombre es requerido')).not.toBeInTheDocument();
  expect(api.requests.some((request) => request.path === '/auth/verify-registration')).toBe(false);

  await userEvent.type(screen.getByLabelText('Nombre'), 'Ana');
  await userEvent.click(screen.getByRole('button', { name: 'Verificar código' }));
  await waitFor(() => expect(screen.getByLabelText('Apellido')).toHaveFocus());
  expect(screen.getByText('El apellido es requerido')).toBeInTheDocument();
  expect(screen.getByText('La contraseña es requerida')).toBeInTheDocument();
  expect(screen.getByLabelText('Nombre')).not.toHaveAttribute('aria-invalid');
  expect(api.requests.some((request) => request.path === '/auth/verify-registration')).toBe(false);
});

it("on another device with step 1's profile handed over, the code sent alone leads to the password, still plain", async () => {
  forgetRegistration('ana@example.com');
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />, {
    state: { profile: { name: 'Ana', lastName: 'Pérez', phone: { country: 'PE', number: '987654321' } } },
  });
  await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
  await userEvent.click(screen.getByRole('button', { name: 'Verificar código' }));
  await waitFor(() => expect(screen.getByLabelText('Contraseña')).toHaveFocus());
  expect(document.querySelectorAll('[aria-invalid="true"]')).toHaveLength(0);
});

it('on another device, a missing or wrong field is said where it is, focused, and nothing is sent', async () => {
  forgetRegistration('ana@example.com');
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
  await fillAccount({ lastName: '', phone: '1234', password: '' });
  await userEvent.type(screen.getByLabelText('Contraseña'), 'Secreta1!');
  await userEvent.type(screen.getByLabelText('Confirmar contraseña'), 'Otra-1!');
  await userEvent.click(screen.getByRole('button', { name: 'Verificar código' }));
  await waitFor(() => expect(screen.getByLabelText('Apellido')).toHaveFocus());
  expect(screen.getByText('El apellido es requerido')).toBeInTheDocument();
  expect(screen.getByText('Las contraseñas no coinciden')).toBeInTheDocument();
  expect(screen.getByLabelText('Teléfono')).toHaveAttribute('aria-invalid', 'true');
  expect(api.requests.some((request) => request.path === '/auth/verify-registration')).toBe(false);
  // Corrected, each error goes away as it is typed.
  await userEvent.type(screen.getByLabelText('Apellido'), 'Pérez');
  expect(screen.queryByText('El apellido es requerido')).not.toBeInTheDocument();
});

it("on another device, takes the profile registration's first step handed over", async () => {
  forgetRegistration('ana@example.com');
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />, {
    state: { profile: { name: 'Ana', lastName: 'Pérez', phone: { country: 'PE', number: '987654321' } } },
  });
  expect(screen.getByLabelText('Nombre')).toHaveValue('Ana');
  expect(screen.getByLabelText('Apellido')).toHaveValue('Pérez');
  expect(screen.getByLabelText('Teléfono')).toHaveValue('987654321');
});

it('a registration id older than a day is not sent: the page asks for the profile', async () => {
  rememberRegistration('ana@example.com', 'registro-de-ana-0001', Date.now() - 24 * 60 * 60 * 1000 - 1000);
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
  await fillAccount();
  await userEvent.click(screen.getByRole('button', { name: 'Verificar código' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
  expect(bodyOf(api, '/auth/verify-registration')).not.toHaveProperty('registrationId');
});

const FORGOTTEN = /Los datos de tu registro ya no están guardados en el portal/;

it('a registration the server no longer has: asks beside the same code for the profile and password, then sends them', async () => {
  // This browser's registration is one the server no longer has (a day old, or pushed out by newer ones).
  rememberRegistration('ana@example.com', 'registro-olvidado-0003');
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
  await userEvent.click(screen.getByRole('button', { name: 'Verificar código' }));
  expect(await screen.findByText(FORGOTTEN)).toBeInTheDocument();
  await waitFor(() => expect(screen.getByLabelText('Nombre')).toHaveFocus());
  expect(screen.getByLabelText('Código de verificación')).toHaveValue('123456');
  expect(useSession.getState().isAuthenticated).toBe(false);
  expect(registrationIdFor('ana@example.com')).toBeUndefined();

  await fillAccount();
  await userEvent.click(screen.getByRole('button', { name: 'Verificar código' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
  const sent = api.requests.filter((request) => request.path === '/auth/verify-registration');
  expect(sent.map((request) => JSON.parse(request.body))).toEqual([
    { email: 'ana@example.com', code: '123456', registrationId: 'registro-olvidado-0003' },
    {
      email: 'ana@example.com',
      code: '123456',
      profile: { name: 'Ana', lastName: 'Pérez', phone: '+51987654321', password: 'Secreta1!' },
    },
  ]);
  expect(screen.queryByText('Tu cuenta está activa')).not.toBeInTheDocument();
});

it('a registration the server no longer has: once the fields were shown, a send with nothing typed says what is missing', async () => {
  rememberRegistration('ana@example.com', 'registro-olvidado-0004');
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
  await userEvent.click(screen.getByRole('button', { name: 'Verificar código' }));
  await waitFor(() => expect(screen.getByLabelText('Nombre')).toHaveFocus());
  expect(document.querySelectorAll('[aria-invalid="true"]')).toHaveLength(0);
  await userEvent.click(screen.getByRole('button', { name: 'Verificar código' }));
  expect(await screen.findByText('El nombre es requerido')).toBeInTheDocument();
  await waitFor(() => expect(screen.getByLabelText('Nombre')).toHaveFocus());
});

it('a registration id this browser dropped since the page opened: asks for the profile before sending anything', async () => {
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  forgetRegistration('ana@example.com');
  await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
  await userEvent.click(screen.getByRole('button', { name: 'Verificar código' }));
  expect(await screen.findByText(FORGOTTEN)).toBeInTheDocument();
  expect(api.requests.some((request) => request.path === '/auth/verify-registration')).toBe(false);
});

async function activatedWithoutPassword() {
  // An API that answers a verification with no password set (its answer to a client that sends neither).
  await api.close();
  api = await useFakeApi({
    'POST /auth/verify-registration': { status: 200, body: { access_token: TOKEN, user: user(), passwordSet: false } },
  });
  rememberRegistration('ana@example.com', 'registro-de-ana-0001');
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
  await userEvent.click(screen.getByRole('button', { name: 'Verificar código' }));
}

it('an account the server activated without a password says so and offers to create one, the address filled in', async () => {
  await activatedWithoutPassword();
  expect(await screen.findByText('Tu cuenta está activa')).toBeInTheDocument();
  expect(screen.getByText(/Tu cuenta aún no tiene contraseña/)).toBeInTheDocument();
  expect(useSession.getState()).toMatchObject({ isAuthenticated: true, token: TOKEN });
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/verify-email/);
  await userEvent.click(screen.getByRole('button', { name: 'Crear contraseña' }));
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/forgot-password\?email=ana%40example\.com$/);
});

it('Continuar sin contraseña goes where a verification goes', async () => {
  await activatedWithoutPassword();
  await userEvent.click(await screen.findByRole('button', { name: 'Continuar sin contraseña' }));
  // The landing is decided after a read of the session's places (signInLanding): it arrives, not at once.
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
});

it('a right code sends the partner app the token (redirect_url kept through registration)', async () => {
  renderAt('/verify-email?email=ana%40example.com&redirect_url=betopro%3A%2F%2Fauth%2Fsuccess', <VerifyEmailPage />);
  await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
  await userEvent.click(screen.getByRole('button', { name: 'Verificar código' }));
  await waitFor(() => expect(leaveTo).toHaveBeenCalledWith(`betopro://auth/success?token=${PARTNER_TOKEN}`));
});

it('a stored pending redirect is used once, when still allowed', async () => {
  localStorage.setItem(PENDING_REDIRECT_KEY, 'https://app.portal.example.com/hola');
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
  await userEvent.click(screen.getByRole('button', { name: 'Verificar código' }));
  await waitFor(() =>
    expect(leaveTo).toHaveBeenCalledWith(`https://app.portal.example.com/hola?token=${PARTNER_TOKEN}`),
  );
  expect(localStorage.getItem(PENDING_REDIRECT_KEY)).toBeNull();
});

it("an app's sign-in the tab was in when the person registered: back to /autorizar after the code", async () => {
  const uid = 'Xq3_kP9-aB7cD2eF1gH0i';
  storePendingInteraction(uid);
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
  await userEvent.click(screen.getByRole('button', { name: 'Verificar código' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/autorizar?interaccion=${uid}`));
  expect(leaveTo).not.toHaveBeenCalled();
  sessionStorage.clear();
});

it('a hostile redirect_url falls back to /apps silently', async () => {
  renderAt('/verify-email?email=ana%40example.com&redirect_url=javascript%3Aalert(1)', <VerifyEmailPage />);
  await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
  await userEvent.click(screen.getByRole('button', { name: 'Verificar código' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
  expect(leaveTo).not.toHaveBeenCalled();
});

it("a wrong code shows the server's message, cleared after 5 s", async () => {
  const user = fakeTimers();
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  await user.type(screen.getByLabelText('Código de verificación'), '999999');
  await user.click(screen.getByRole('button', { name: 'Verificar código' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Código inválido o expirado');
  act(() => jest.advanceTimersByTime(4900));
  expect(screen.getByRole('alert')).toBeInTheDocument();
  act(() => jest.advanceTimersByTime(200));
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  expect(useSession.getState().isAuthenticated).toBe(false);
});

it("Reenviar código asks for a new code, then reads 'Reenviar en {n}s' for 60 s", async () => {
  const user = fakeTimers();
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  await user.click(screen.getByRole('button', { name: 'Reenviar código' }));
  expect(await screen.findByRole('button', { name: 'Reenviar en 60s' })).toBeDisabled();
  expect(bodyOf(api, '/auth/resend-verification')).toEqual({ email: 'ana@example.com' });
  expect(screen.getByRole('status')).toHaveTextContent('Código reenviado exitosamente');
  for (let i = 0; i < 59; i += 1) act(() => jest.advanceTimersByTime(1000));
  expect(screen.getByRole('button', { name: 'Reenviar en 1s' })).toBeDisabled();
  act(() => jest.advanceTimersByTime(1000));
  expect(screen.getByRole('button', { name: 'Reenviar código' })).toBeEnabled();
});

it('after registering, the button counts down the wait the server gave, also after a reload', async () => {
  fakeTimers();
  // What register() keeps from the API's answer (resendAfter: 60), 3 s ago.
  startResendCooldown('verify_email', 'ana@example.com', 57);
  const first = renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  expect(screen.getByRole('button', { name: 'Reenviar en 57s' })).toBeDisabled();
  act(() => jest.advanceTimersByTime(2000));
  expect(screen.getByRole('button', { name: 'Reenviar en 55s' })).toBeDisabled();
  // A reload: the page starts again and keeps counting from where the wait is.
  first.unmount();
  act(() => jest.advanceTimersByTime(5000));
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  expect(screen.getByRole('button', { name: 'Reenviar en 50s' })).toBeDisabled();
  act(() => jest.advanceTimersByTime(50_000));
  expect(screen.getByRole('button', { name: 'Reenviar código' })).toBeEnabled();
});

it("a refused resend counts down the server's retryAfter, and the wait survives a reload", async () => {
  await api.close();
  api = await useFakeApi({
    'POST /auth/resend-verification': {
      status: 429,
      body: {
        statusCode: 429,
        code: 'CODE_COOLDOWN',
        message: 'Espera 45 segundos antes de pedir otro código',
        retryAfter: 45,
      },
    },
  });
  const user = fakeTimers();
  const page = renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  await user.click(screen.getByRole('button', { name: 'Reenviar código' }));
  expect(await screen.findByRole('button', { name: 'Reenviar en 45s' })).toBeDisabled();
  expect(screen.getByRole('alert')).toHaveTextContent('Espera 45 segundos antes de pedir otro código');
  act(() => jest.advanceTimersByTime(10_000));
  expect(screen.getByRole('button', { name: 'Reenviar en 35s' })).toBeDisabled();
  page.unmount();
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  expect(screen.getByRole('button', { name: 'Reenviar en 35s' })).toBeDisabled();
});

it('links back to registration', () => {
  renderAt('/verify-email?email=ana%40example.com', <VerifyEmailPage />);
  expect(screen.getByRole('link', { name: '← Volver al registro' })).toHaveAttribute('href', '/register');
});
