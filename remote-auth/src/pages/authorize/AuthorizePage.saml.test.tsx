// /saml/continuar, the portal's page of a partner app's SAML sign-in (the same page as /autorizar, another door): the same consent as an OpenID Connect app that
// is not the portal's own, asked once; 'Permitir' and 'Cancelar' answer with the session and the browser leaves for
// the API's one-time page; an expired or used request says so in Spanish; a signed-out visitor goes to /login with
// the page kept for the way back.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type InteractionDetails, PENDING_PAGE_KEY, replaceWith, useSession } from '@portal/shared';
import type { FakeReply, RecordedRequest } from '@portal/shared/testing/fake-api';
import { bodyOf, renderAt, useFakeApi, user, type FakeApi } from '../../testing/render';
import AuthorizePage from './AuthorizePage';

jest.mock('@portal/shared', () => ({ ...jest.requireActual('@portal/shared'), replaceWith: jest.fn() }));

const ID = 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6';
const BASE = `/saml/idp/solicitudes/${ID}`;
const PAGE = `http://127.0.0.1:3000/saml/idp/enviar?secreto=${'x'.repeat(43)}`;

function details(overrides: Partial<InteractionDetails> = {}): InteractionDetails {
  return {
    cliente: { id: 'saml-3', nombre: 'Historiador de planta', primeraParte: false },
    permisos: [
      { scope: 'openid', descripcion: 'Saber quién eres (un identificador de tu cuenta, nunca tu contraseña)' },
      { scope: 'email', descripcion: 'Ver tu email' },
      { scope: 'plan', descripcion: 'Ver tu plan en esta aplicación y su vencimiento' },
    ],
    consentimiento: true,
    reautenticar: false,
    segundoFactor: null,
    ...overrides,
  };
}

type Route = FakeReply | ((req: RecordedRequest) => FakeReply);
let api: FakeApi;

async function open(
  routes: Record<string, Route> = {},
  { signedIn = true, address = `/saml/continuar?solicitud=${ID}` } = {},
) {
  api = await useFakeApi({
    [`GET ${BASE}`]: { status: 200, body: details() },
    [`POST ${BASE}/continuar`]: { status: 200, body: { redirectTo: PAGE } },
    [`POST ${BASE}/cancelar`]: { status: 200, body: { redirectTo: `${PAGE}c` } },
    ...routes,
  });
  if (signedIn) await useSession.getState().startSession('token-de-ana', user());
  useSession.setState({ isInitialized: true });
  return renderAt(address, <AuthorizePage />);
}

const sent = (method: string, path: string) => api.requests.filter((r) => r.method === method && r.path === path);

beforeEach(() => {
  sessionStorage.clear();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  await api?.close();
  jest.restoreAllMocks();
  jest.mocked(replaceWith).mockReset();
});

it('asks as for a third-party app, and Permitir answers with the session and leaves for the API page', async () => {
  await open({ [`POST ${BASE}/continuar`]: { status: 200, body: { redirectTo: PAGE }, delay: 150 } });
  const heading = await screen.findByRole('heading', { name: 'Historiador de planta quiere acceder a tu cuenta' });
  await waitFor(() => expect(heading).toHaveFocus());
  expect(screen.getByText(/Has iniciado sesión como/)).toHaveTextContent('Has iniciado sesión como ana@example.com');
  const list = screen.getByRole('list', { name: 'Historiador de planta podrá:' });
  expect(within(list).getAllByRole('listitem')).toHaveLength(3);
  expect(screen.getByText(/es una aplicación de terceros/)).toBeInTheDocument();
  expect(sent('GET', BASE)[0]?.headers.authorization).toBe('Bearer token-de-ana');
  expect(sent('POST', `${BASE}/continuar`)).toHaveLength(0);

  await userEvent.click(screen.getByRole('button', { name: 'Permitir' }));
  expect(screen.getByRole('button', { name: 'Conectando...' })).toBeDisabled();
  await waitFor(() => expect(replaceWith).toHaveBeenCalledWith(PAGE));
  expect(bodyOf(api, `${BASE}/continuar`)).toEqual({ permitir: true });
  expect(sent('POST', `${BASE}/continuar`)[0]?.headers.authorization).toBe('Bearer token-de-ana');
});

it('goes on at once for an app already allowed, saying so meanwhile', async () => {
  await open({
    [`GET ${BASE}`]: { status: 200, body: details({ consentimiento: false }) },
    [`POST ${BASE}/continuar`]: { status: 200, body: { redirectTo: PAGE }, delay: 150 },
  });
  expect(await screen.findByText('Conectando con Historiador de planta...')).toBeInTheDocument();
  await waitFor(() => expect(replaceWith).toHaveBeenCalledWith(PAGE));
  expect(bodyOf(api, `${BASE}/continuar`)).toEqual({});
});

it('Cancelar tells the app the person refused', async () => {
  await open();
  await screen.findByRole('heading', { name: 'Historiador de planta quiere acceder a tu cuenta' });
  await userEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
  await waitFor(() => expect(replaceWith).toHaveBeenCalledWith(`${PAGE}c`));
  expect(sent('POST', `${BASE}/continuar`)).toHaveLength(0);
});

it('says in Spanish that a used or expired request cannot go on, and offers the catalogue', async () => {
  await open({
    [`GET ${BASE}`]: {
      status: 404,
      body: {
        statusCode: 404,
        code: 'SAML_REQUEST_NOT_FOUND',
        message: 'La solicitud de inicio de sesión expiró o ya se usó. Vuelve a la aplicación e inténtalo de nuevo.',
      },
    },
  });
  expect(await screen.findByText(/expiró o no es válida/)).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Ir a Aplicaciones' })).toBeInTheDocument();
  expect(replaceWith).not.toHaveBeenCalled();
});

it('never calls the API with an id that cannot be one', async () => {
  await open({}, { address: '/saml/continuar?solicitud=../../admin' });
  expect(await screen.findByText('La solicitud de la aplicación no es válida.')).toBeInTheDocument();
  expect(api.requests).toHaveLength(0);
});

it('sends a signed-out visitor to /login, keeping the page to come back to', async () => {
  await open({}, { signedIn: false });
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
  expect(sessionStorage.getItem(PENDING_PAGE_KEY)).toContain(`/saml/continuar?solicitud=${ID}`);
  expect(api.requests).toHaveLength(0);
});

it('ForceAuthn: a signed-in person signs in again, the page kept to come back to', async () => {
  await open({ [`GET ${BASE}`]: { status: 200, body: details({ reautenticar: true }) } });
  await waitFor(() =>
    expect(screen.getByTestId('location')).toHaveTextContent(`/login?solicitud=${ID}&reautenticar=1`),
  );
  expect(sessionStorage.getItem(PENDING_PAGE_KEY)).toContain(`/saml/continuar?solicitud=${ID}`);
  expect(sent('POST', `${BASE}/continuar`)).toHaveLength(0);
  expect(useSession.getState().isAuthenticated).toBe(true);
});

it("a sign-in the company's rules refuse says why, with the same page as an OpenID Connect app's", async () => {
  const message =
    'La empresa «Planta Norte» solo permite iniciar sesión desde sus redes, y esta dirección (203.0.113.9) no está entre ellas: conéctate desde la red de la empresa o pide a su administrador que la añada';
  await open({ [`GET ${BASE}`]: { status: 403, body: { statusCode: 403, code: 'RED_NO_PERMITIDA', message } } });
  expect(
    await screen.findByRole('heading', { name: 'No se pudo iniciar sesión en la aplicación' }),
  ).toBeInTheDocument();
  expect(screen.getByText(message)).toBeInTheDocument();
  expect(sent('POST', `${BASE}/continuar`)).toHaveLength(0);
  await userEvent.click(screen.getByRole('button', { name: 'Volver a la aplicación' }));
  await waitFor(() => expect(replaceWith).toHaveBeenCalledWith(`${PAGE}c`));
});

it("an app naming REFEDS MFA: the 'Código de verificación' first, and Cancelar answers that it was not met", async () => {
  await open({
    [`GET ${BASE}`]: {
      status: 200,
      body: details({ segundoFactor: { metodos: ['totp'], permiteConfiarDispositivo: true } }),
    },
  });
  expect(await screen.findByRole('heading', { name: 'Confirma tu identidad' })).toBeInTheDocument();
  expect(screen.getByLabelText('Código de verificación')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Permitir' })).toBeNull();
  await userEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
  await waitFor(() => expect(replaceWith).toHaveBeenCalledWith(`${PAGE}c`));
  expect(bodyOf(api, `${BASE}/cancelar`)).toEqual({ motivo: 'segundo_factor' });
  expect(sent('POST', `${BASE}/continuar`)).toHaveLength(0);
});
