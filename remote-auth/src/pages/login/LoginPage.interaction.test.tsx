import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { leaveTo, storePendingInteraction, useSession, whenApiIdle } from '@portal/shared';
import { fakeToken } from '@portal/shared/testing/fake-api';
import { renderAt, useFakeApi, user, type FakeApi } from '../../testing/render';
import LoginPage from './LoginPage';

jest.mock('@portal/shared', () => ({ ...jest.requireActual('@portal/shared'), leaveTo: jest.fn() }));

const UID = 'Xq3_kP9-aB7cD2eF1gH0i';
const DETAILS = `/oidc/interaccion/${UID}/detalles`;
const TOKEN = fakeToken({ sub: 7, exp: Math.floor(Date.now() / 1000) + 3600 });
let api: FakeApi;
let detailsReply: { status: number; body: unknown };

beforeEach(async () => {
  sessionStorage.clear();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  detailsReply = {
    status: 200,
    body: {
      cliente: { id: 'beto-pro', nombre: 'Beto Pro', primeraParte: false },
      permisos: [],
      consentimiento: true,
      reautenticar: false,
    },
  };
  api = await useFakeApi({
    [`GET ${DETAILS}`]: () => detailsReply,
    'POST /auth/login': { status: 200, body: { access_token: TOKEN, user: user() } },
    'POST /auth/partner-token': { status: 200, body: { access_token: 'socio', expires_in: 60, audience: 'x' } },
  });
});

afterEach(async () => {
  // The sign-in page's background questions (a company's access for the typed address) end before the fake API.
  await whenApiIdle();
  await api.close();
  jest.restoreAllMocks();
  jest.mocked(leaveTo).mockReset();
});

async function signIn() {
  await userEvent.type(screen.getByLabelText('Email'), 'ana@example.com');
  await userEvent.type(screen.getByLabelText('Contraseña'), 'secreta1');
  await userEvent.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));
}

it('names the app the person is signing in to, as the API knows it, above the form', async () => {
  renderAt(`/login?interaccion=${UID}`, <LoginPage />);
  expect(await screen.findByText('Inicia sesión para continuar a Beto Pro.')).toBeInTheDocument();
  expect(api.requests.find((r) => r.path === DETAILS)?.method).toBe('GET');
});

it('says it without the name when the interaction cannot be read', async () => {
  detailsReply = { status: 404, body: { statusCode: 404, code: 'INTERACTION_NOT_FOUND', message: 'x' } };
  renderAt(`/login?interaccion=${UID}`, <LoginPage />);
  await waitFor(() => expect(api.requests.some((r) => r.path === DETAILS)).toBe(true));
  expect(screen.getByText('Inicia sesión para continuar.')).toBeInTheDocument();
  expect(screen.queryByText(/continuar a/)).not.toBeInTheDocument();
});

it('shows no notice, and asks nothing, without a valid interaction', () => {
  renderAt('/login?interaccion=..%2Fadmin', <LoginPage />);
  expect(screen.queryByText(/Inicia sesión para continuar/)).not.toBeInTheDocument();
  expect(api.requests).toHaveLength(0);
});

it('after the sign-in, lands back on /autorizar for the interaction the tab kept', async () => {
  storePendingInteraction(UID);
  renderAt(`/login?interaccion=${UID}`, <LoginPage />);
  await signIn();
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/autorizar?interaccion=${UID}`));
  expect(leaveTo).not.toHaveBeenCalled();
});

it('a signed-in person asked for a fresh sign-in gets a new session, then goes back to the app', async () => {
  storePendingInteraction(UID, true);
  await useSession.getState().startSession('token-antiguo', user());
  useSession.setState({ isInitialized: true });
  renderAt(`/login?interaccion=${UID}&reautenticar=1`, <LoginPage />);
  await signIn();
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/autorizar?interaccion=${UID}`));
  expect(localStorage.getItem('token')).toBe(TOKEN);
});
