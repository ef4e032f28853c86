import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { bodyOf, renderAt, useFakeApi, type FakeApi } from '../../testing/render';
import ResetPasswordPage from './ResetPasswordPage';

const CHANGED = 'Contraseña actualizada. Ya puedes iniciar sesión.';
let api: FakeApi;
let changeReply: { status: number; body?: unknown };
let resendReply: { status: number; body?: unknown };

beforeEach(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  changeReply = { status: 200, body: { message: CHANGED } };
  resendReply = { status: 200, body: { message: 'enviado' } };
  api = await useFakeApi({
    'POST /auth/change-password': () => changeReply,
    'POST /auth/forgot-password': () => resendReply,
  });
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
});

afterEach(async () => {
  jest.useRealTimers();
  await api.close();
  jest.restoreAllMocks();
});

const setup = () => userEvent.setup({ advanceTimers: jest.advanceTimersByTime });

async function fill(
  user: ReturnType<typeof setup>,
  { code = '123456', password = 'nueva1', confirmation = 'nueva1' } = {},
) {
  if (code) await user.type(screen.getByLabelText('Código'), code);
  if (password) await user.type(screen.getByLabelText('Nueva contraseña'), password);
  if (confirmation) await user.type(screen.getByLabelText('Confirmar contraseña'), confirmation);
  await user.click(screen.getByRole('button', { name: 'Cambiar contraseña' }));
}

it('takes the email from the address and the code as six digits at most', async () => {
  const user = setup();
  renderAt('/reset-password?email=ana%40example.com', <ResetPasswordPage />);
  expect(screen.getByLabelText('Email')).toHaveValue('ana@example.com');
  await user.type(screen.getByLabelText('Código'), '12x3456789');
  expect(screen.getByLabelText('Código')).toHaveValue('123456');
});

it.each([
  [{ code: '' }, 'Todos los campos son obligatorios'],
  [{ password: 'abcd', confirmation: 'abcd' }, 'La contraseña debe tener al menos 5 caracteres'],
  [{ confirmation: 'otra12' }, 'Las contraseñas no coinciden'],
])('%o: %s, and nothing is sent', async (input, message) => {
  const user = setup();
  renderAt('/reset-password?email=ana%40example.com', <ResetPasswordPage />);
  await fill(user, input);
  expect(screen.getByRole('alert')).toHaveTextContent(message);
  expect(api.requests).toHaveLength(0);
});

it("changes the password, shows the server's message and goes to /login after 2 s", async () => {
  const user = setup();
  renderAt('/reset-password?email=ana%40example.com', <ResetPasswordPage />);
  await fill(user);
  expect(await screen.findByRole('status')).toHaveTextContent(CHANGED);
  expect(bodyOf(api, '/auth/change-password')).toEqual({
    email: 'ana@example.com',
    code: '123456',
    newPassword: 'nueva1',
  });
  act(() => jest.advanceTimersByTime(1900));
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/reset-password/);
  act(() => jest.advanceTimersByTime(200));
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/);
});

it('hands /login the address it changed the password of, and the message, so the person only types the new password', async () => {
  const user = setup();
  renderAt('/reset-password', <ResetPasswordPage />);
  await user.type(screen.getByLabelText('Email'), '  ana@example.com ');
  await fill(user);
  expect(await screen.findByRole('status')).toHaveTextContent(CHANGED);
  act(() => jest.advanceTimersByTime(2000));
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/);
  expect(JSON.parse(screen.getByTestId('location-state').textContent ?? '{}')).toEqual({
    email: 'ana@example.com',
    message: CHANGED,
    tone: 'success',
  });
});

it("a rejected code shows the server's message for 5 s and stays", async () => {
  changeReply = { status: 400, body: { statusCode: 400, message: 'Código inválido o expirado' } };
  const user = setup();
  renderAt('/reset-password?email=ana%40example.com', <ResetPasswordPage />);
  await fill(user);
  expect(await screen.findByRole('alert')).toHaveTextContent('Código inválido o expirado');
  act(() => jest.advanceTimersByTime(5000));
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/reset-password/);
});

it('Reenviar código needs an email, then asks for a new code', async () => {
  const user = setup();
  renderAt('/reset-password', <ResetPasswordPage />);
  await user.click(screen.getByRole('button', { name: 'Reenviar código' }));
  expect(screen.getByRole('alert')).toHaveTextContent('Email requerido para reenviar código');
  await user.type(screen.getByLabelText('Email'), 'ana@example.com');
  await user.click(screen.getByRole('button', { name: 'Reenviar código' }));
  expect(await screen.findByRole('status')).toHaveTextContent('Código reenviado exitosamente');
  expect(bodyOf(api, '/auth/forgot-password')).toEqual({ email: 'ana@example.com' });
});

it('a failed resend says so', async () => {
  resendReply = { status: 500 };
  const user = setup();
  renderAt('/reset-password?email=ana%40example.com', <ResetPasswordPage />);
  await user.click(screen.getByRole('button', { name: 'Reenviar código' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Error al reenviar el código');
});

it('links to Iniciar sesión', () => {
  renderAt('/reset-password', <ResetPasswordPage />);
  expect(screen.getByRole('link', { name: 'Iniciar sesión' })).toHaveAttribute('href', '/login');
});
