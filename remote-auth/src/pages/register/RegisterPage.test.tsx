import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import userEvent from '@testing-library/user-event';
import { PENDING_REDIRECT_KEY, registrationIdFor, rememberRegistration, useSession } from '@portal/shared';
import { bodyOf, renderAt, useFakeApi, type FakeApi } from '../../testing/render';
import RegisterPage from './RegisterPage';

let api: FakeApi;
let checkReply: { status: number; body?: unknown };
let registerReply: { status: number; body?: unknown };

beforeEach(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  checkReply = { status: 200, body: null };
  registerReply = { status: 201, body: { email: 'ana@example.com', registrationId: 'registro-de-ana-0001' } };
  api = await useFakeApi({
    'POST /auth/verificar-email': () => checkReply,
    'POST /auth/register': () => registerReply,
  });
});

afterEach(async () => {
  await api.close();
  jest.restoreAllMocks();
});

async function fillStep1({ email = 'Ana@Example.com', name = 'Ana', lastName = 'Pérez', phone = '987654321' } = {}) {
  if (email) await userEvent.type(screen.getByLabelText('Email'), email);
  if (name) await userEvent.type(screen.getByLabelText('Nombre'), name);
  if (lastName) await userEvent.type(screen.getByLabelText('Apellido'), lastName);
  if (phone) await userEvent.type(screen.getByLabelText('Teléfono'), phone);
}

async function toStep2() {
  await fillStep1();
  await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  await screen.findByLabelText('Confirmar contraseña');
}

/** Types into the page's fields from an effect, as the shell hands over what the prerendered form held (hydration.ts). */
function HandOver({ values }: { values: Record<string, string> }) {
  useEffect(() => {
    for (const [label, value] of Object.entries(values))
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
  }, [values]);
  return null;
}

it('keeps every field handed over in one go, before React renders again (what the prerendered form held)', async () => {
  const values = { Email: 'ana@example.com', Nombre: 'Ana', Apellido: 'Pérez' };
  renderAt(
    '/register',
    <>
      <RegisterPage />
      <HandOver values={values} />
    </>,
  );
  for (const [label, value] of Object.entries(values)) expect(screen.getByLabelText(label)).toHaveValue(value);
  await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  expect(screen.queryByText('El email es requerido')).not.toBeInTheDocument();
});

it('shows every step-1 message and asks the server nothing', async () => {
  renderAt('/register', <RegisterPage />);
  await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  for (const message of [
    'El email es requerido',
    'El nombre es requerido',
    'El apellido es requerido',
    'El teléfono es requerido',
  ]) {
    expect(screen.getByText(message)).toBeInTheDocument();
  }
  expect(api.requests).toHaveLength(0);
});

it('checks the phone length and the email format, and clears each error once corrected', async () => {
  renderAt('/register', <RegisterPage />);
  await fillStep1({ email: 'ana@', phone: '1234567' });
  await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  expect(screen.getByText('El email no es válido')).toBeInTheDocument();
  expect(screen.getByText('El teléfono debe tener al menos 10 dígitos')).toBeInTheDocument();
  // Long enough now, but no Peruvian number starts with 1 and has 9 digits.
  await userEvent.type(screen.getByLabelText('Teléfono'), '89');
  expect(screen.queryByText('El teléfono debe tener al menos 10 dígitos')).not.toBeInTheDocument();
  expect(screen.getByText('El teléfono no es válido para el país elegido')).toBeInTheDocument();
  await userEvent.clear(screen.getByLabelText('Teléfono'));
  await userEvent.type(screen.getByLabelText('Teléfono'), '912 345 678');
  expect(screen.queryByText('El teléfono no es válido para el país elegido')).not.toBeInTheDocument();
  await userEvent.type(screen.getByLabelText('Email'), 'example.com');
  expect(screen.queryByText('El email no es válido')).not.toBeInTheDocument();
});

it('defaults the phone country to Peru', () => {
  renderAt('/register', <RegisterPage />);
  expect(screen.getByRole('combobox', { name: 'País del teléfono' })).toHaveDisplayValue('Perú (+51)');
});

it('sends the number of the chosen country in E.164, and refuses one that country does not have', async () => {
  renderAt('/register', <RegisterPage />);
  await fillStep1({ phone: '912 345 678' });
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'País del teléfono' }), 'MX');
  await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  expect(screen.getByText('El teléfono no es válido para el país elegido')).toBeInTheDocument();
  expect(screen.getByLabelText('Teléfono')).toHaveFocus();
  expect(api.requests).toHaveLength(0);

  await userEvent.clear(screen.getByLabelText('Teléfono'));
  await userEvent.type(screen.getByLabelText('Teléfono'), '55 1234 5678');
  await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  await screen.findByLabelText('Confirmar contraseña');
  await userEvent.type(screen.getByLabelText('Contraseña'), 'Secreta1!');
  await userEvent.type(screen.getByLabelText('Confirmar contraseña'), 'Secreta1!');
  await userEvent.click(screen.getByRole('button', { name: 'Crear cuenta' }));
  await waitFor(() => expect(bodyOf(api, '/auth/register')).toMatchObject({ phone: '+525512345678' }));
});

it('a new email goes to step 2; Anterior goes back with the data kept', async () => {
  renderAt('/register', <RegisterPage />);
  await toStep2();
  expect(bodyOf(api, '/auth/verificar-email')).toEqual({ email: 'Ana@Example.com' });
  expect(screen.getByText('Paso 2 de 2')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Anterior' }));
  expect(screen.getByLabelText('Nombre')).toHaveValue('Ana');
});

it('an active account goes to /login with its message', async () => {
  checkReply = { status: 200, body: { email: 'ana@example.com', status: 'active' } };
  renderAt('/register?redirect_url=betopro%3A%2F%2Fauth%2Fsuccess', <RegisterPage />);
  await fillStep1();
  await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  await waitFor(() =>
    expect(screen.getByTestId('location')).toHaveTextContent('/login?redirect_url=betopro%3A%2F%2Fauth%2Fsuccess'),
  );
  expect(screen.getByTestId('location-state')).toHaveTextContent(
    'Este usuario ya está registrado, ingrese para continuar',
  );
});

it('a pending account this browser did not register goes to step 2: a registration with a password of its own', async () => {
  checkReply = { status: 200, body: { email: 'ana@example.com', status: 'pending_verification' } };
  renderAt('/register', <RegisterPage />);
  await fillStep1();
  await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  expect(await screen.findByText('Paso 2 de 2')).toBeInTheDocument();
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/register$/);
  // It says why, and where the code from the other device goes, carrying what step 1 took.
  expect(
    screen.getByText(/Este email ya tiene un registro sin verificar, quizás hecho en otro dispositivo/),
  ).toBeVisible();
  await userEvent.click(screen.getByRole('link', { name: 'escríbelo aquí' }));
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/verify-email\?email=ana%40example\.com$/);
  expect(JSON.parse(screen.getByTestId('location-state').textContent ?? '{}')).toEqual({
    profile: { name: 'Ana', lastName: 'Pérez', phone: { country: 'PE', number: '987654321' } },
  });
});

it('a new email goes to step 2 with no word of another registration', async () => {
  checkReply = { status: 200, body: null };
  renderAt('/register', <RegisterPage />);
  await fillStep1();
  await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  expect(await screen.findByText('Paso 2 de 2')).toBeInTheDocument();
  expect(screen.queryByText(/otro dispositivo/)).not.toBeInTheDocument();
});

it('a pending account registered in this browser goes to verification', async () => {
  checkReply = { status: 200, body: { email: 'ana@example.com', status: 'pending_verification' } };
  rememberRegistration('ana@example.com', 'registro-de-ana-0001');
  renderAt('/register', <RegisterPage />);
  await fillStep1();
  await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  await waitFor(() =>
    expect(screen.getByTestId('location')).toHaveTextContent('/verify-email?email=ana%40example.com'),
  );
  expect(useSession.getState().pendingVerificationEmail).toBe('ana@example.com');
});

it('a failing check goes to /login with the fallback message', async () => {
  checkReply = { status: 500 };
  renderAt('/register', <RegisterPage />);
  await fillStep1();
  await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
  expect(screen.getByTestId('location-state')).toHaveTextContent(
    'Ups! Ocurrió un error inesperado, inténtalo de nuevo',
  );
});

it('step 2 checks the password and its confirmation', async () => {
  renderAt('/register', <RegisterPage />);
  await toStep2();
  await userEvent.click(screen.getByRole('button', { name: 'Crear cuenta' }));
  expect(screen.getByText('La contraseña es requerida')).toBeInTheDocument();
  expect(screen.getByText('Confirma tu contraseña')).toBeInTheDocument();
  await userEvent.type(screen.getByLabelText('Contraseña'), '12345');
  await userEvent.type(screen.getByLabelText('Confirmar contraseña'), '12346');
  await userEvent.click(screen.getByRole('button', { name: 'Crear cuenta' }));
  expect(screen.getByText('La contraseña debe tener al menos 6 caracteres')).toBeInTheDocument();
  expect(screen.getByText('Las contraseñas no coinciden')).toBeInTheDocument();
  expect(bodyOf(api, '/auth/register')).toBeUndefined();
});

it('creates the account, keeps the pending email and the partner target, and goes to verification', async () => {
  renderAt('/register?redirect_url=https%3A%2F%2Fportal.example.com%2Fbienvenida', <RegisterPage />);
  await toStep2();
  await userEvent.type(screen.getByLabelText('Contraseña'), 'Secreta1!');
  await userEvent.type(screen.getByLabelText('Confirmar contraseña'), 'Secreta1!');
  await userEvent.click(screen.getByRole('button', { name: 'Crear cuenta' }));
  await waitFor(() =>
    expect(screen.getByTestId('location')).toHaveTextContent(
      '/verify-email?email=ana%40example.com&redirect_url=https%3A%2F%2Fportal.example.com%2Fbienvenida',
    ),
  );
  expect(bodyOf(api, '/auth/register')).toEqual({
    email: 'Ana@Example.com',
    name: 'Ana',
    lastName: 'Pérez',
    phone: '+51987654321',
    password: 'Secreta1!',
  });
  expect(useSession.getState().pendingVerificationEmail).toBe('ana@example.com');
  // This browser keeps the registration's id for the verification page.
  expect(registrationIdFor('ana@example.com')).toBe('registro-de-ana-0001');
  expect(localStorage.getItem(PENDING_REDIRECT_KEY)).toBe('https://portal.example.com/bienvenida');
});

it("shows the server's error on step 2 and stays there", async () => {
  registerReply = { status: 409, body: { statusCode: 409, message: 'Ya existe una cuenta con este email' } };
  renderAt('/register', <RegisterPage />);
  await toStep2();
  await userEvent.type(screen.getByLabelText('Contraseña'), 'Secreta1!');
  await userEvent.type(screen.getByLabelText('Confirmar contraseña'), 'Secreta1!');
  await userEvent.click(screen.getByRole('button', { name: 'Crear cuenta' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Ya existe una cuenta con este email');
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/register$/);
  expect(screen.getByRole('button', { name: 'Crear cuenta' })).toBeEnabled();
});

it("says 'Creando cuenta...' while the account is created", async () => {
  registerReply = { status: 201, body: { email: 'ana@example.com' }, delay: 300 } as typeof registerReply;
  renderAt('/register', <RegisterPage />);
  await toStep2();
  await userEvent.type(screen.getByLabelText('Contraseña'), 'Secreta1!');
  await userEvent.type(screen.getByLabelText('Confirmar contraseña'), 'Secreta1!');
  const pending = userEvent.click(screen.getByRole('button', { name: 'Crear cuenta' }));
  expect(await screen.findByRole('button', { name: 'Creando cuenta...' })).toBeDisabled();
  await pending;
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/verify-email'));
});

it('the steps are history entries: Back on step 2 returns to step 1 with what was typed, and Forward keeps the passwords', async () => {
  renderAt('/register', <RegisterPage />);
  await toStep2();
  // Step 2 opens with the focus on its first field.
  expect(screen.getByLabelText('Contraseña')).toHaveFocus();
  await userEvent.type(screen.getByLabelText('Contraseña'), 'Clave-segura-1');
  await userEvent.type(screen.getByLabelText('Confirmar contraseña'), 'Clave-segura-1');
  await userEvent.click(screen.getByRole('button', { name: 'Anterior' }));
  expect(screen.getByText('Paso 1 de 2')).toBeInTheDocument();
  expect(screen.getByLabelText('Email')).toHaveValue('Ana@Example.com');
  await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  expect(await screen.findByLabelText('Confirmar contraseña')).toHaveValue('Clave-segura-1');
  expect(screen.getByLabelText('Contraseña')).toHaveValue('Clave-segura-1');
});

it("says 'Verificando...' with the fields disabled while the email is checked, and a refused step focuses its first error", async () => {
  checkReply = { status: 200, body: null, delay: 800 } as typeof checkReply;
  renderAt('/register', <RegisterPage />);
  await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  expect(screen.getByLabelText('Email')).toHaveFocus();
  await fillStep1();
  await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  expect(await screen.findByRole('button', { name: 'Verificando...' })).toBeDisabled();
  expect(screen.getByLabelText('Email')).toBeDisabled();
  expect(screen.getByLabelText('Nombre')).toBeDisabled();
  expect(await screen.findByLabelText('Confirmar contraseña')).toBeInTheDocument();
});
