import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PENDING_INVITATION_KEY, registrationIdFor, storePendingInvitation, useSession } from '@portal/shared';
import { bodyOf, renderAt, useFakeApi, user, type FakeApi } from '../../testing/render';
import RegisterPage from './RegisterPage';

let api: FakeApi;
let registerReply: { status: number; body?: unknown };
const INVITED = '/register?email=ana%40minera.pe&invitacion=482913';
const signedIn = () => ({
  status: 201,
  body: { email: 'ana@minera.pe', access_token: 'token-de-ana', user: user({ email: 'ana@minera.pe' }) },
});

beforeEach(async () => {
  sessionStorage.clear();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  registerReply = signedIn();
  api = await useFakeApi({
    'POST /auth/verificar-email': { status: 200, body: null },
    'POST /auth/register': () => registerReply,
    'GET /auth/user': { status: 200, body: user({ email: 'ana@minera.pe' }) },
  });
});

afterEach(async () => {
  await api.close();
  jest.restoreAllMocks();
});

async function createAccount() {
  await userEvent.type(screen.getByLabelText('Nombre'), 'Ana');
  await userEvent.type(screen.getByLabelText('Apellido'), 'Pérez');
  await userEvent.type(screen.getByLabelText('Teléfono'), '987654321');
  await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  await userEvent.type(await screen.findByLabelText('Contraseña'), 'Secreta1!');
  await userEvent.type(screen.getByLabelText('Confirmar contraseña'), 'Secreta1!');
  await userEvent.click(screen.getByRole('button', { name: 'Crear cuenta' }));
}

describe('registering with a company invitation', () => {
  it('types the invited address and says no verification code will follow', () => {
    renderAt(INVITED, <RegisterPage />);
    expect(screen.getByLabelText('Email')).toHaveValue('ana@minera.pe');
    // The first field left to type has the focus.
    expect(screen.getByLabelText('Nombre')).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Con la invitación a ana@minera.pe tu cuenta queda activa al crearla, sin código de verificación.',
    );
  });

  it('sends the code with the registration, signs in with the answer and goes to /apps, with no code step', async () => {
    storePendingInvitation({ codigo: '482913', email: 'ana@minera.pe' });
    renderAt(INVITED, <RegisterPage />);
    await createAccount();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
    expect(bodyOf(api, '/auth/register')).toEqual({
      email: 'ana@minera.pe',
      name: 'Ana',
      lastName: 'Pérez',
      phone: '+51987654321',
      password: 'Secreta1!',
      codigoInvitacion: '482913',
    });
    expect(useSession.getState()).toMatchObject({ token: 'token-de-ana', isAuthenticated: true });
    expect(useSession.getState().user?.email).toBe('ana@minera.pe');
    expect(useSession.getState().pendingVerificationEmail).toBeNull();
    expect(registrationIdFor('ana@minera.pe')).toBeFalsy();
    // The invitation is accepted: the next sign-in does not come back to it.
    expect(sessionStorage.getItem(PENDING_INVITATION_KEY)).toBeNull();
  });

  it("an owner invited to run the company lands on the company's page, not the apps' welcome", async () => {
    const owner = user({
      email: 'ana@minera.pe',
      empresas: [{ id: 12, nombre: 'Minera Andina S.A.', rol: 'propietario', estado: 'activo' }],
    } as Parameters<typeof user>[0]);
    registerReply = { status: 201, body: { email: 'ana@minera.pe', access_token: 'token-de-ana', user: owner } };
    renderAt(INVITED, <RegisterPage />);
    await createAccount();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/admin\/empresas\/12$/));
  });

  it("shows the API's Spanish refusal of a wrong or expired code on step 2, and nothing else changes", async () => {
    registerReply = {
      status: 400,
      body: { statusCode: 400, code: 'INVITACION_INVALIDA', message: 'La invitación no es válida o ya venció.' },
    };
    renderAt(INVITED, <RegisterPage />);
    await createAccount();
    expect(await screen.findByRole('alert')).toHaveTextContent('La invitación no es válida o ya venció.');
    expect(screen.getByTestId('location')).toHaveTextContent('/register');
    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(screen.getByRole('button', { name: 'Crear cuenta' })).toBeEnabled();
  });

  it('another address than the invited one is an ordinary registration, with its emailed code', async () => {
    registerReply = { status: 201, body: { email: 'otra@example.com', registrationId: 'registro-de-otra-01' } };
    renderAt(INVITED, <RegisterPage />);
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'otra@example.com');
    await createAccount();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/verify-email'));
    expect(bodyOf(api, '/auth/register')).not.toHaveProperty('codigoInvitacion');
  });
});
