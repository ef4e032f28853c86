/** @jest-environment-options {"url": "http://127.0.0.1:8080/login"} */
// /login opened at an IP address: browsers refuse passkeys there, so the page says why and where they work instead of
// offering a button (or a quiet autofill request) that can only fail. On localhost: SecondStep.test.tsx.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { browserSupportsWebAuthn, startAuthentication } from '@simplewebauthn/browser';
import { renderAt, useFakeApi, type FakeApi } from '../../testing/render';
import { whenApiIdle } from '@portal/shared';
import LoginPage from './LoginPage';

jest.mock('@simplewebauthn/browser', () => ({
  browserSupportsWebAuthn: jest.fn(() => true),
  browserSupportsWebAuthnAutofill: jest.fn(async () => true),
  startAuthentication: jest.fn(),
  startRegistration: jest.fn(),
  WebAuthnAbortService: { cancelCeremony: jest.fn() },
}));

const EXPLANATION =
  'Las llaves de acceso no funcionan en una dirección IP. Abre el portal en http://localhost:8080 para usarlas.';
let api: FakeApi;

async function start(methods: string[]) {
  api = await useFakeApi({
    'POST /auth/login': {
      status: 403,
      body: {
        statusCode: 403,
        message: 'Confirma tu identidad con tu segundo factor',
        code: 'SECOND_FACTOR_REQUIRED',
        ticket: 'ticket-del-segundo-paso-0001',
        methods,
      },
    },
    'POST /auth/passkeys/opciones-inicio': { status: 200, body: { ceremonyId: 'c', options: { challenge: 'reto' } } },
  });
}

beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  // The sign-in page's background questions (a company's access for the typed address) end before the fake API.
  await whenApiIdle();
  await api.close();
  jest.restoreAllMocks();
});

it('explains instead of offering the passkey button, with a link to this page on localhost; no ceremony starts', async () => {
  await start(['passkey']);
  renderAt('/login', <LoginPage />);
  const note = await screen.findByText(/no funcionan en una dirección IP/);
  expect(note).toHaveTextContent(EXPLANATION);
  expect(within(note).getByRole('link', { name: 'http://localhost:8080' })).toHaveAttribute(
    'href',
    'http://localhost:8080/login',
  );
  expect(screen.queryByRole('button', { name: 'Iniciar sesión con llave de acceso' })).not.toBeInTheDocument();
  // The other ways in are all there.
  for (const name of ['Iniciar Sesión', 'Continuar con Google', 'Continuar con Apple'])
    expect(screen.getByRole('button', { name })).toBeInTheDocument();
  expect(browserSupportsWebAuthn).not.toHaveBeenCalled();
  expect(api.requests.filter((r) => r.path === '/auth/passkeys/opciones-inicio')).toEqual([]);
  expect(startAuthentication).not.toHaveBeenCalled();
});

it('a second step by passkey says the same instead of offering one', async () => {
  await start(['passkey']);
  renderAt('/login', <LoginPage />);
  await userEvent.type(screen.getByLabelText('Email'), 'ana@example.com');
  await userEvent.type(screen.getByLabelText('Contraseña'), 'secreta1');
  await userEvent.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));
  await screen.findByRole('heading', { name: 'Verificación en dos pasos' });
  await waitFor(() => expect(screen.getByText(/no funcionan en una dirección IP/)).toHaveTextContent(EXPLANATION));
  expect(screen.queryByRole('button', { name: 'Usar mi llave de acceso' })).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Volver' })).toBeInTheDocument();
});
