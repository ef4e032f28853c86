import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { bodyOf, renderAt, useFakeApi, type FakeApi } from '../../testing/render';
import ForgotPasswordPage from './ForgotPasswordPage';

const SENT = 'Si el email está registrado, te enviamos un código para cambiar la contraseña.';
let api: FakeApi;
let reply: { status: number; body?: unknown };

beforeEach(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  reply = { status: 200, body: { message: SENT } };
  api = await useFakeApi({ 'POST /auth/forgot-password': () => reply });
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
});

afterEach(async () => {
  jest.useRealTimers();
  await api.close();
  jest.restoreAllMocks();
});

const setup = () => userEvent.setup({ advanceTimers: jest.advanceTimersByTime });

it('needs the email', async () => {
  const user = setup();
  renderAt('/forgot-password', <ForgotPasswordPage />);
  await user.click(screen.getByRole('button', { name: 'Enviar código de recuperación' }));
  expect(screen.getByRole('alert')).toHaveTextContent('Por favor ingresa tu email');
  expect(api.requests).toHaveLength(0);
});

it("shows the server's message, then goes to /reset-password with the email after 2 s", async () => {
  const user = setup();
  renderAt('/forgot-password', <ForgotPasswordPage />);
  expect(screen.getByRole('heading', { name: 'Recuperar contraseña' })).toBeInTheDocument();
  await user.type(screen.getByLabelText('Email'), 'ana@example.com');
  await user.click(screen.getByRole('button', { name: 'Enviar código de recuperación' }));
  expect(await screen.findByRole('status')).toHaveTextContent(SENT);
  expect(bodyOf(api, '/auth/forgot-password')).toEqual({ email: 'ana@example.com' });
  act(() => jest.advanceTimersByTime(1900));
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/forgot-password$/);
  act(() => jest.advanceTimersByTime(200));
  expect(screen.getByTestId('location')).toHaveTextContent('/reset-password?email=ana%40example.com');
});

it('shows the fallback when the server gives no message, and the banner goes after 5 s', async () => {
  reply = { status: 500 };
  const user = setup();
  renderAt('/forgot-password', <ForgotPasswordPage />);
  await user.type(screen.getByLabelText('Email'), 'ana@example.com');
  await user.click(screen.getByRole('button', { name: 'Enviar código de recuperación' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Error al procesar la solicitud. Inténtalo de nuevo.');
  act(() => jest.advanceTimersByTime(5000));
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/forgot-password$/);
});

it('links back to /login', () => {
  renderAt('/forgot-password', <ForgotPasswordPage />);
  expect(screen.getByRole('link', { name: '← Volver a iniciar sesión' })).toHaveAttribute('href', '/login');
});

it('takes the address from the link that led here (the activation mail, /login)', () => {
  renderAt('/forgot-password?email=ana%40example.com', <ForgotPasswordPage />);
  expect(screen.getByLabelText('Email')).toHaveValue('ana@example.com');
});
