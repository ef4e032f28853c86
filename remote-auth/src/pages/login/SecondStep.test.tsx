// The second factor on /login: the second step after a right password, and signing in with a passkey (the button, and
// the email field's suggestions). jsdom has no WebAuthn: @simplewebauthn/browser is faked; Chromium runs the real one
// (e2e).
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  WebAuthnAbortService,
} from '@simplewebauthn/browser';
import { leaveTo, storePendingInteraction, useSession, whenApiIdle } from '@portal/shared';
import { fakeToken } from '@portal/shared/testing/fake-api';
import { bodyOf, renderAt, useFakeApi, user, type FakeApi } from '../../testing/render';
import LoginPage from './LoginPage';

jest.mock('@portal/shared', () => ({ ...jest.requireActual('@portal/shared'), leaveTo: jest.fn() }));
jest.mock('@simplewebauthn/browser', () => ({
  browserSupportsWebAuthn: jest.fn(() => false),
  browserSupportsWebAuthnAutofill: jest.fn(async () => false),
  startAuthentication: jest.fn(),
  startRegistration: jest.fn(),
  WebAuthnAbortService: { cancelCeremony: jest.fn() },
}));

const TOKEN = fakeToken({ sub: 7, exp: Math.floor(Date.now() / 1000) + 3600 });
const TICKET = 'ticket-del-segundo-paso-0001';
const CEREMONY = 'ceremonia-de-inicio-0000001';
const ASSERTION = {
  id: 'credencial',
  rawId: 'credencial',
  type: 'public-key',
  response: {},
  clientExtensionResults: {},
};
let api: FakeApi;
let methods: string[];
let trustOffered: boolean;
/** This browser brought a trusted device of the account that no longer counts: the API's why. */
let untrusted: { motivo: string; mensaje: string } | undefined;

const wrongCode = {
  status: 401,
  body: { statusCode: 401, message: 'Código incorrecto', code: 'INVALID_SECOND_FACTOR' },
};
const expired = {
  status: 401,
  body: {
    statusCode: 401,
    message: 'El tiempo para confirmar tu identidad terminó. Inicia sesión de nuevo',
    code: 'SIGN_IN_TICKET_EXPIRED',
  },
};

async function start(routes: Parameters<typeof useFakeApi>[0] = {}) {
  api = await useFakeApi({
    'POST /auth/partner-token': { status: 200, body: { access_token: 'token-socio', expires_in: 3600, audience: 'x' } },
    'POST /auth/login': {
      status: 403,
      body: {
        statusCode: 403,
        message: 'Confirma tu identidad con tu segundo factor',
        code: 'SECOND_FACTOR_REQUIRED',
        ticket: TICKET,
        methods,
        permiteConfiarDispositivo: trustOffered,
        ...(untrusted ? { dispositivoNoConfiable: untrusted } : {}),
      },
    },
    'POST /auth/login/segundo-paso': (req) => {
      const { code } = JSON.parse(req.body) as { code: string };
      return code === '123456' || code === 'ABCDE-FGHJK'
        ? { status: 200, body: { access_token: TOKEN, user: user() } }
        : wrongCode;
    },
    'POST /auth/passkeys/opciones-inicio': {
      status: 200,
      body: { ceremonyId: CEREMONY, options: { challenge: 'reto' } },
    },
    'POST /auth/passkeys/iniciar-sesion': { status: 200, body: { access_token: TOKEN, user: user() } },
    ...routes,
  });
}

beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  methods = ['totp', 'recovery'];
  trustOffered = false;
  untrusted = undefined;
  jest.mocked(browserSupportsWebAuthn).mockReturnValue(false);
  jest.mocked(browserSupportsWebAuthnAutofill).mockResolvedValue(false);
  jest.mocked(startAuthentication).mockReset();
  jest.mocked(WebAuthnAbortService.cancelCeremony).mockClear();
});

afterEach(async () => {
  // The sign-in page's background questions (a company's access for the typed address) end before the fake API.
  await whenApiIdle();
  await api.close();
  jest.restoreAllMocks();
  (leaveTo as jest.Mock).mockReset();
});

async function signInWithPassword(path = '/login') {
  renderAt(path, <LoginPage />);
  await userEvent.type(screen.getByLabelText('Email'), 'ana@example.com');
  await userEvent.type(screen.getByLabelText('Contraseña'), 'secreta1');
  await userEvent.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));
  await screen.findByRole('heading', { name: 'Verificación en dos pasos' });
}

describe('the second step', () => {
  it('takes the place of the password form, sends the code with the ticket and lands in /apps', async () => {
    await start();
    await signInWithPassword();
    expect(screen.getByText('Escribe el código de 6 dígitos de tu aplicación de autenticación')).toBeInTheDocument();
    expect(screen.queryByLabelText('Contraseña')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
    const field = screen.getByLabelText('Código de verificación');
    expect(field).toHaveAttribute('inputmode', 'numeric');
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    expect(screen.queryByRole('button', { name: 'Usar mi llave de acceso' })).not.toBeInTheDocument();
    // Not offered: a company of the person forbids trusted devices.
    expect(screen.queryByRole('checkbox')).toBeNull();

    await userEvent.type(field, '123 456');
    await userEvent.click(screen.getByRole('button', { name: 'Verificar' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
    expect(bodyOf(api, '/auth/login/segundo-paso')).toEqual({ ticket: TICKET, code: '123456' });
    expect(localStorage.getItem('token')).toBe(TOKEN);
    expect(useSession.getState()).toMatchObject({ isAuthenticated: true, user: { email: 'ana@example.com' } });
  });

  it('a browser that was a trusted device is told why the code is asked again', async () => {
    const why = 'Este dispositivo dejó de ser de confianza porque tu contraseña cambió.';
    trustOffered = true;
    untrusted = { motivo: 'contrasena', mensaje: why };
    await start();
    await signInWithPassword();
    expect(screen.getByRole('status')).toHaveTextContent(why);
    // The form is still the second step's, and the box offered again.
    expect(screen.getByLabelText('Código de verificación')).toBeInTheDocument();
    expect(
      screen.getByRole('checkbox', { name: 'No volver a pedir en este dispositivo durante 30 días' }),
    ).toBeVisible();
  });

  it("'No volver a pedir en este dispositivo durante 30 días': offered when allowed, sent ticked, the cookie kept", async () => {
    trustOffered = true;
    await start();
    const fetchSpy = jest.spyOn(globalThis, 'fetch');
    await signInWithPassword();
    const box = screen.getByRole('checkbox', { name: 'No volver a pedir en este dispositivo durante 30 días' });
    expect(box).not.toBeChecked();
    await userEvent.click(box);
    await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verificar' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
    expect(bodyOf(api, '/auth/login/segundo-paso')).toEqual({
      ticket: TICKET,
      code: '123456',
      confiarDispositivo: true,
    });
    // Both the password and the second step send and keep the browser's cookies: the trusted device's.
    const calls = fetchSpy.mock.calls.map(([input]) => input as Request);
    expect(
      ['/auth/login', '/auth/login/segundo-paso'].map(
        (path) => calls.find((r) => new URL(r.url).pathname === path)?.credentials,
      ),
    ).toEqual(['include', 'include']);
  });

  it('forwards to the partner app exactly as a password sign-in does', async () => {
    await start();
    await signInWithPassword('/login?redirect_url=https%3A%2F%2Fapp.portal.example.com%2Fentrar');
    await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verificar' }));
    await waitFor(() =>
      expect(leaveTo).toHaveBeenCalledWith('https://app.portal.example.com/entrar?token=token-socio'),
    );
  });

  it("lands back on an app's sign-in the tab was in, as a password sign-in does", async () => {
    const uid = 'Xq3_kP9-aB7cD2eF1gH0i';
    storePendingInteraction(uid);
    await start({ [`GET /oidc/interaccion/${uid}/detalles`]: { status: 404, body: { message: 'x' } } });
    await signInWithPassword(`/login?interaccion=${uid}`);
    await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verificar' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/autorizar?interaccion=${uid}`));
  });

  it("shows the API's message for a wrong code and stays on the step", async () => {
    await start();
    await signInWithPassword();
    await userEvent.type(screen.getByLabelText('Código de verificación'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verificar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Código incorrecto');
    expect(screen.getByRole('heading', { name: 'Verificación en dos pasos' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('an expired ticket returns to the password form with the message', async () => {
    await start({ 'POST /auth/login/segundo-paso': expired });
    await signInWithPassword();
    await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verificar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'El tiempo para confirmar tu identidad terminó. Inicia sesión de nuevo',
    );
    expect(screen.getByRole('heading', { name: 'Iniciar Sesión' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('ana@example.com');
    expect(screen.getByLabelText('Contraseña')).toHaveValue('');
  });

  it('switches to a recovery code and back', async () => {
    await start();
    await signInWithPassword();
    await userEvent.click(screen.getByRole('button', { name: 'Usar un código de recuperación' }));
    expect(screen.queryByLabelText('Código de verificación')).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Código de recuperación'), 'ABCDE-FGHJX');
    await userEvent.click(screen.getByRole('button', { name: 'Usar la aplicación de autenticación' }));
    expect(screen.getByLabelText('Código de verificación')).toHaveValue('');
    await userEvent.click(screen.getByRole('button', { name: 'Usar un código de recuperación' }));
    await userEvent.type(screen.getByLabelText('Código de recuperación'), 'ABCDE-FGHJK');
    await userEvent.click(screen.getByRole('button', { name: 'Verificar' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
    expect(bodyOf(api, '/auth/login/segundo-paso')).toEqual({ ticket: TICKET, code: 'ABCDE-FGHJK' });
  });

  it('Volver returns to the password form', async () => {
    await start();
    await signInWithPassword();
    await userEvent.click(screen.getByRole('button', { name: 'Volver' }));
    expect(screen.getByRole('heading', { name: 'Iniciar Sesión' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("offers the account's passkey, with the ticket", async () => {
    methods = ['passkey'];
    jest.mocked(startAuthentication).mockResolvedValue(ASSERTION as never);
    await start();
    await signInWithPassword();
    expect(screen.queryByLabelText('Código de verificación')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Usar mi llave de acceso' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
    expect(bodyOf(api, '/auth/passkeys/opciones-inicio')).toEqual({ ticket: TICKET });
    expect(bodyOf(api, '/auth/passkeys/iniciar-sesion')).toEqual({
      ceremonyId: CEREMONY,
      response: ASSERTION,
      ticket: TICKET,
    });
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'reto' }, useBrowserAutofill: false });
  });
});

describe('signing in with a passkey', () => {
  it('has no passkey button where the browser has no WebAuthn', async () => {
    await start();
    renderAt('/login', <LoginPage />);
    expect(screen.getByLabelText('Email')).toHaveAttribute('autocomplete', 'username webauthn');
    await waitFor(() => expect(browserSupportsWebAuthn).toHaveBeenCalled());
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Iniciar sesión con llave de acceso' })).not.toBeInTheDocument(),
    );
    expect(api.requests).toEqual([]);
  });

  it('the button runs the ceremony and lands in /apps', async () => {
    jest.mocked(browserSupportsWebAuthn).mockReturnValue(true);
    jest.mocked(startAuthentication).mockResolvedValue(ASSERTION as never);
    await start();
    renderAt('/login', <LoginPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Iniciar sesión con llave de acceso' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
    expect(bodyOf(api, '/auth/passkeys/opciones-inicio')).toEqual({});
    expect(bodyOf(api, '/auth/passkeys/iniciar-sesion')).toEqual({ ceremonyId: CEREMONY, response: ASSERTION });
    expect(localStorage.getItem('token')).toBe(TOKEN);
  });

  it("lands back on an app's sign-in the tab was in", async () => {
    const uid = 'Xq3_kP9-aB7cD2eF1gH0i';
    jest.mocked(browserSupportsWebAuthn).mockReturnValue(true);
    jest.mocked(startAuthentication).mockResolvedValue(ASSERTION as never);
    storePendingInteraction(uid);
    await start();
    renderAt('/login', <LoginPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Iniciar sesión con llave de acceso' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/autorizar?interaccion=${uid}`));
  });

  it('says so when the person cancels, and the API message when the passkey is refused', async () => {
    jest.mocked(browserSupportsWebAuthn).mockReturnValue(true);
    jest
      .mocked(startAuthentication)
      .mockRejectedValueOnce(Object.assign(new Error('cancelado'), { name: 'NotAllowedError' }))
      .mockResolvedValueOnce(ASSERTION as never);
    await start({
      'POST /auth/passkeys/iniciar-sesion': {
        status: 401,
        body: {
          statusCode: 401,
          message: 'No se pudo iniciar sesión con esta llave de acceso',
          code: 'PASSKEY_NOT_VERIFIED',
        },
      },
    });
    renderAt('/login', <LoginPage />);
    const button = await screen.findByRole('button', { name: 'Iniciar sesión con llave de acceso' });
    await userEvent.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent('Se canceló la operación');
    await userEvent.click(button);
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('No se pudo iniciar sesión con esta llave de acceso'),
    );
    expect(localStorage.getItem('token')).toBeNull();
  });

  it("signs in when a passkey is picked among the email field's suggestions", async () => {
    jest.mocked(browserSupportsWebAuthnAutofill).mockResolvedValue(true);
    jest.mocked(startAuthentication).mockResolvedValue(ASSERTION as never);
    await start();
    renderAt('/login', <LoginPage />);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'reto' }, useBrowserAutofill: true });
    expect(bodyOf(api, '/auth/passkeys/iniciar-sesion')).toEqual({ ceremonyId: CEREMONY, response: ASSERTION });
  });

  it("offers the email field's passkeys again after Volver from the second step", async () => {
    jest.mocked(browserSupportsWebAuthnAutofill).mockResolvedValue(true);
    jest.mocked(startAuthentication).mockRejectedValue(Object.assign(new Error('abortado'), { name: 'AbortError' }));
    await start();
    await signInWithPassword();
    const offers = () =>
      jest.mocked(startAuthentication).mock.calls.filter(([options]) => options.useBrowserAutofill === true).length;
    await waitFor(() => expect(offers()).toBe(1));
    expect(WebAuthnAbortService.cancelCeremony).toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Volver' }));
    await waitFor(() => expect(offers()).toBe(2));
    expect(screen.getByLabelText('Email')).toHaveAttribute('autocomplete', 'username webauthn');
  });

  it('the suggestions say nothing when not picked, and end when the page goes', async () => {
    jest.mocked(browserSupportsWebAuthnAutofill).mockResolvedValue(true);
    jest.mocked(startAuthentication).mockRejectedValue(Object.assign(new Error('abortado'), { name: 'AbortError' }));
    await start();
    const page = renderAt('/login', <LoginPage />);
    await waitFor(() => expect(startAuthentication).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    page.unmount();
    expect(WebAuthnAbortService.cancelCeremony).toHaveBeenCalled();
  });
});
