import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { webcrypto } from 'node:crypto';
import {
  leaveTo,
  PENDING_COMPANY_LINK_KEY,
  PENDING_REDIRECT_KEY,
  readCompanyLinkNotice,
  SIGN_IN_SECRET_KEY,
  whenApiIdle,
} from '@portal/shared';
import { fakeToken } from '@portal/shared/testing/fake-api';
import { renderAt, useFakeApi, user, type FakeApi } from '../../testing/render';
import LoginPage from './LoginPage';

jest.mock('@portal/shared', () => ({ ...jest.requireActual('@portal/shared'), leaveTo: jest.fn() }));

const TOKEN = fakeToken({ sub: 7, exp: Math.floor(Date.now() / 1000) + 3600 });
const CODE = 'q8Zt3mW9xYk2Lr5Pb7Nc1Vd4Hf6Js0Ga_-uEo3TiQw';
const SECRET = 'Xk9_pL2-mN4qR7sT1uV3wY5zA8bC0dE6fG2hJ4kL6mN';
const COMPANY = 'Minera Andina S.A.';
const LINKED = { status: 200, body: { empresa: { id: 4, nombre: COMPANY } } };
let api: FakeApi;
let linkReply: { status: number; body?: unknown };

/** The API's answer by the address's domain: a company that allows the password, one that does not, none. */
function accessFor(email: string) {
  const domain = email.split('@')[1];
  if (domain === 'minera.pe') return { empresa: { id: 4, nombre: COMPANY }, permitirContrasena: true };
  if (domain === 'solo-empresa.pe')
    return { empresa: { id: 5, nombre: 'Cementos del Sur' }, permitirContrasena: false };
  return { empresa: null, permitirContrasena: true };
}

beforeEach(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  Object.defineProperty(window.crypto, 'subtle', { value: webcrypto.subtle, configurable: true });
  linkReply = LINKED;
  api = await useFakeApi({
    'GET /auth/empresa/acceso': (req) => ({
      status: 200,
      body: accessFor(new URL(req.path, 'http://x').searchParams.get('email') ?? ''),
    }),
    'POST /auth/login': (req) => {
      const { password } = JSON.parse(req.body) as { password: string };
      if (password !== 'secreta1') return { status: 401, body: { statusCode: 401, message: 'Credenciales inválidas' } };
      return { status: 200, body: { access_token: TOKEN, user: user() } };
    },
    'POST /auth/social/canjear': { status: 200, body: { access_token: TOKEN, user: user() } },
    'POST /auth/empresa/vincular': () => linkReply,
    'GET /auth/user': { status: 200, body: user() },
    'GET /auth/social/proveedores': { status: 200, body: { google: true, apple: true } },
  });
});

afterEach(async () => {
  await whenApiIdle();
  await api.close();
  Reflect.deleteProperty(window.crypto, 'subtle');
  sessionStorage.clear();
  jest.restoreAllMocks();
  (leaveTo as jest.Mock).mockReset();
});

const accessCalls = () => api.requests.filter((request) => request.path.startsWith('/auth/empresa/acceso'));
const linkCalls = () => api.requests.filter((request) => request.path === '/auth/empresa/vincular');
const companyButton = (name = COMPANY) => screen.findByRole('button', { name: `Continuar con el acceso de ${name}` });

describe("home-realm discovery: the company's own sign-in found by the address's domain", () => {
  it('offers the company button for a company domain (asked once the address rests), and not for another', async () => {
    renderAt('/login', <LoginPage />);
    await userEvent.type(screen.getByLabelText('Email'), 'ana@minera.pe');
    expect(await companyButton()).toBeEnabled();
    expect(accessCalls().map((request) => request.path)).toEqual(['/auth/empresa/acceso?email=ana%40minera.pe']);
    // The password form stays: this company allows it.
    expect(screen.getByLabelText('Contraseña')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Iniciar Sesión' })).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'ana@example.com');
    await waitFor(() => expect(accessCalls()).toHaveLength(2));
    await whenApiIdle();
    expect(screen.queryByRole('button', { name: /Continuar con el acceso de/ })).toBeNull();
  });

  it('asks nothing for an address still being typed, and asks at once when the field is left', async () => {
    renderAt('/login', <LoginPage />);
    await userEvent.type(screen.getByLabelText('Email'), 'ana@minera');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(accessCalls()).toHaveLength(0);
    await userEvent.type(screen.getByLabelText('Email'), '.pe');
    await userEvent.tab();
    expect(await companyButton()).toBeInTheDocument();
    expect(accessCalls()).toHaveLength(1);
  });

  it('a failed question is no trouble: the password form stays and nothing is said', async () => {
    await api.close();
    api = await useFakeApi({
      'GET /auth/empresa/acceso': { status: 503, body: { message: 'Servicio no disponible' } },
    });
    renderAt('/login', <LoginPage />);
    await userEvent.type(screen.getByLabelText('Email'), 'ana@minera.pe');
    await waitFor(() => expect(accessCalls()).toHaveLength(1));
    await whenApiIdle();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('button', { name: /Continuar con el acceso de/ })).toBeNull();
    expect(screen.getByLabelText('Contraseña')).toBeInTheDocument();
  });

  it('a company that allows no portal password: its button in place of the password form', async () => {
    renderAt('/login', <LoginPage />);
    await userEvent.type(screen.getByLabelText('Email'), 'luis@solo-empresa.pe');
    expect(await companyButton('Cementos del Sur')).toBeInTheDocument();
    expect(screen.queryByLabelText('Contraseña')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Iniciar Sesión' })).toBeNull();
    expect(screen.getByText('Tu empresa inicia sesión con su propio acceso.')).toBeInTheDocument();
    // Google and Apple stay (and passkeys, where the browser has them).
    expect(screen.getByRole('button', { name: 'Continuar con Google' })).toBeInTheDocument();
    // Enter in the address is the company's way in too.
    await userEvent.type(screen.getByLabelText('Email'), '{Enter}');
    await waitFor(() => expect(leaveTo).toHaveBeenCalledTimes(1));
    expect(new URL((leaveTo as jest.Mock).mock.lastCall[0] as string).pathname).toBe('/auth/empresa');
  });

  it("the button hands the browser to the API with the address, this tab's binding and the partner target", async () => {
    renderAt('/login?redirect_url=https%3A%2F%2Fportal.example.com%2Fx', <LoginPage />);
    await userEvent.type(screen.getByLabelText('Email'), ' ana@minera.pe ');
    await userEvent.click(await companyButton());
    await waitFor(() => expect(leaveTo).toHaveBeenCalledTimes(1));
    const url = new URL((leaveTo as jest.Mock).mock.lastCall[0] as string);
    expect(`${url.origin}${url.pathname}`).toBe(`${api.url}/auth/empresa`);
    expect(url.searchParams.get('email')).toBe('ana@minera.pe');
    expect(url.searchParams.get('redirect_url')).toBe('https://portal.example.com/x');
    // As for Google and Apple: only the SHA-256 of the tab's secret leaves it.
    const secret = sessionStorage.getItem(SIGN_IN_SECRET_KEY) ?? '';
    expect(secret).not.toBe('');
    const digest = await webcrypto.subtle.digest('SHA-256', Buffer.from(secret));
    expect(url.searchParams.get('binding')).toBe(Buffer.from(digest).toString('base64url'));
    expect(url.href).not.toContain(secret);
    expect(localStorage.getItem(PENDING_REDIRECT_KEY)).toBe('https://portal.example.com/x');
  });

  it('the keyboard reaches the button between the password and Iniciar Sesión', async () => {
    renderAt('/login', <LoginPage />);
    await userEvent.type(screen.getByLabelText('Email'), 'ana@minera.pe');
    const button = await companyButton();
    screen.getByLabelText('Email').focus();
    await userEvent.tab();
    expect(screen.getByLabelText('Contraseña')).toHaveFocus();
    await userEvent.tab();
    // The password field's show/hide control, then the recovery link.
    while (document.activeElement !== screen.getByRole('link', { name: '¿Olvidaste tu contraseña?' })) {
      await userEvent.tab();
    }
    await userEvent.tab();
    expect(button).toHaveFocus();
    await userEvent.type(screen.getByLabelText('Contraseña'), 'x');
    button.focus();
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Iniciar Sesión' })).toHaveFocus();
  });
});

describe("the company's refusals, back on /login", () => {
  it.each([
    ['company_email_unverified', 'Tu empresa no ha confirmado tu correo: no puedes iniciar sesión con su acceso.'],
    ['company_domain_mismatch', 'Tu correo no pertenece a los dominios que el acceso de tu empresa tiene autorizados.'],
    [
      'company_other_account',
      'Ese correo pertenece a una cuenta gestionada por otra empresa. Pide ayuda al administrador de tu empresa.',
    ],
    ['company_access_disabled', 'Tu empresa ha desactivado tu acceso al portal.'],
    ['company_unavailable', 'El acceso de tu empresa no está disponible en este momento. Inténtalo más tarde.'],
    [
      'company_rate_limited',
      'Demasiados intentos de inicio de sesión desde tu red. Espera un minuto e inténtalo de nuevo.',
    ],
    ['auth_failed', 'No se pudo iniciar sesión con el acceso de tu empresa. Inténtalo de nuevo.'],
  ])('error=%s&provider=empresa', (error, text) => {
    renderAt(`/login?error=${error}&provider=empresa`, <LoginPage />);
    expect(screen.getByRole('alert')).toHaveTextContent(text);
  });

  it("a password refused for the company's access shows the API's message and looks for its button", async () => {
    const message = `Tu empresa pide iniciar sesión con su propio acceso: pulsa «Continuar con el acceso de ${COMPANY}».`;
    await api.close();
    api = await useFakeApi({
      'POST /auth/login': { status: 403, body: { statusCode: 403, code: 'ACCESO_EMPRESA_OBLIGATORIO', message } },
      'GET /auth/empresa/acceso': { status: 200, body: accessFor('x@minera.pe') },
    });
    renderAt('/login', <LoginPage />);
    await userEvent.type(screen.getByLabelText('Email'), 'ana@minera.pe');
    await userEvent.type(screen.getByLabelText('Contraseña'), 'secreta1');
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(await companyButton()).toBeInTheDocument();
  });
});

describe("the company's own rules refusing a sign-in", () => {
  it.each([
    [
      'RED_NO_PERMITIDA',
      `La empresa «${COMPANY}» solo permite iniciar sesión desde sus redes, y esta dirección (198.51.100.7) no está entre ellas: conéctate desde la red de la empresa o pide a su administrador que la añada`,
    ],
    [
      'METODO_NO_PERMITIDO',
      `La empresa «${COMPANY}» no permite iniciar sesión con contraseña: usa el inicio de sesión de la empresa`,
    ],
  ])('%s: /login shows the rule and why, signed out', async (code, message) => {
    await api.close();
    api = await useFakeApi({ 'POST /auth/login': { status: 403, body: { statusCode: 403, code, message } } });
    renderAt('/login', <LoginPage />);
    await userEvent.type(screen.getByLabelText('Email'), 'ana@minera.pe');
    await userEvent.type(screen.getByLabelText('Contraseña'), 'secreta1');
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('the link an existing account proves by signing in', () => {
  const LINK_ADDRESS = `/login?vincular=${CODE}&empresa=Minera%20Andina%20S.A.&email=ana%40minera.pe`;
  const ASKED =
    'Ya tienes una cuenta en el portal con este correo. Inicia sesión con tu contraseña (o tu llave de acceso) para vincularla al acceso de Minera Andina S.A.';

  async function signInWithPassword() {
    await userEvent.type(screen.getByLabelText('Contraseña'), 'secreta1');
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
  }

  it("says why, fills in the address, and the sign-in sends the link once with the company sign-in's secret", async () => {
    // The company sign-in this tab started kept its secret where the Google/Apple return finds it.
    sessionStorage.setItem(SIGN_IN_SECRET_KEY, SECRET);
    renderAt(LINK_ADDRESS, <LoginPage />);
    expect(screen.getByRole('status')).toHaveTextContent(ASKED);
    expect(screen.getByLabelText('Email')).toHaveValue('ana@minera.pe');
    expect(screen.getByLabelText('Contraseña')).toHaveFocus();
    // Kept apart from the next provider sign-in's secret, which would replace it.
    expect(sessionStorage.getItem(SIGN_IN_SECRET_KEY)).toBeNull();
    expect(sessionStorage.getItem(PENDING_COMPANY_LINK_KEY)).toContain(CODE);

    await signInWithPassword();
    expect(linkCalls()).toHaveLength(1);
    expect(JSON.parse(linkCalls()[0]?.body ?? '{}')).toEqual({ codigo: CODE, secreto: SECRET });
    expect(linkCalls()[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(sessionStorage.getItem(PENDING_COMPANY_LINK_KEY)).toBeNull();
    expect(readCompanyLinkNotice()).toEqual({
      tone: 'success',
      text: 'Tu cuenta ya está vinculada al acceso de Minera Andina S.A.',
    });
  });

  it('a refused link never blocks the sign-in: the landing page gets the API message', async () => {
    const message =
      'El enlace con el acceso de tu empresa ha caducado o no es válido. Vuelve a pulsar «Continuar con el acceso de tu empresa».';
    linkReply = { status: 400, body: { statusCode: 400, code: 'VINCULO_INVALIDO', message } };
    sessionStorage.setItem(SIGN_IN_SECRET_KEY, SECRET);
    renderAt(LINK_ADDRESS, <LoginPage />);
    await signInWithPassword();
    expect(linkCalls()).toHaveLength(1);
    expect(readCompanyLinkNotice()).toEqual({ tone: 'error', text: message });
  });

  it('a reload of the address keeps the link it kept', async () => {
    sessionStorage.setItem(SIGN_IN_SECRET_KEY, SECRET);
    const first = renderAt(LINK_ADDRESS, <LoginPage />);
    first.unmount();
    renderAt(LINK_ADDRESS, <LoginPage />);
    expect(screen.getByRole('status')).toHaveTextContent(ASKED);
    await signInWithPassword();
    expect(JSON.parse(linkCalls()[0]?.body ?? '{}')).toEqual({ codigo: CODE, secreto: SECRET });
  });

  it('opened in a tab that did not start the company sign-in: said at once, nothing kept, nothing sent', async () => {
    renderAt(LINK_ADDRESS, <LoginPage />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'El enlace con el acceso de tu empresa ha caducado o no es válido.',
    );
    expect(sessionStorage.getItem(PENDING_COMPANY_LINK_KEY)).toBeNull();
    await userEvent.type(screen.getByLabelText('Email'), 'ana@minera.pe');
    await signInWithPassword();
    expect(linkCalls()).toHaveLength(0);
  });
});
