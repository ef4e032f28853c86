import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSession } from '@portal/shared';
import { bodyOf, renderAt, useFakeApi, user, type FakeApi } from '../../testing/render';
import ProfilePage from './ProfilePage';

let api: FakeApi;
let updateReply: { status: number; body?: unknown; delay?: number };
let passwordReply: { status: number; body?: unknown };

const ANA = user({
  planesUsuarios: [
    {
      id: 1,
      plan: { nombre: 'free', descripcion: 'Plan gratuito de Beto Pro' },
      app: { id: 2, nombre: 'Beto Pro' },
      fechaVencimiento: null,
      origen: 'propio',
      empresa: null,
    },
  ],
});

beforeEach(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  updateReply = { status: 200, body: { user: { ...ANA, name: 'Ana María', phone: '+51911111111' } }, delay: 50 };
  passwordReply = {
    status: 200,
    body: { message: 'Contraseña actualizada correctamente', access_token: 'token-nuevo' },
  };
  api = await useFakeApi({
    'POST /auth/update-user': () => updateReply,
    'POST /auth/update-password': () => passwordReply,
  });
  await useSession.getState().startSession('tok', ANA);
});

afterEach(async () => {
  jest.useRealTimers();
  await api.close();
  jest.restoreAllMocks();
});

it('shows the side card with name, email and the plans under Tu plan actual', () => {
  renderAt('/perfil', <ProfilePage />);
  const card = screen.getByRole('region', { name: 'Tu cuenta' });
  expect(within(card).getByRole('heading', { name: 'Ana Pérez' })).toBeInTheDocument();
  expect(within(card).getByText('ana@example.com')).toBeInTheDocument();
  expect(within(card).getByRole('heading', { name: 'Tu plan actual' })).toBeInTheDocument();
  expect(within(card).getByText('Plan gratuito de Beto Pro')).toBeInTheDocument();
  expect(screen.getByRole('tab', { name: 'Información del perfil' })).toHaveAttribute('aria-selected', 'true');
  expect(screen.getByRole('tab', { name: 'Contraseña' })).toBeInTheDocument();
});

it("opens on 'Seguridad' from the new-device mail's link (/perfil?tab=seguridad), and on the first tab for anything else", () => {
  const first = renderAt('/perfil?tab=seguridad', <ProfilePage />);
  expect(screen.getByRole('tab', { name: 'Seguridad' })).toHaveAttribute('aria-selected', 'true');
  first.unmount();
  renderAt('/perfil?tab=otra', <ProfilePage />);
  expect(screen.getByRole('tab', { name: 'Información del perfil' })).toHaveAttribute('aria-selected', 'true');
});

it("saves name and phone: 'Guardando...', '✓ Actualizado' for 3 s, then idle; the stored user is replaced", async () => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  const clicks = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
  renderAt('/perfil', <ProfilePage />);
  const name = screen.getByLabelText('Nombre');
  expect(name).toHaveValue('Ana');
  await clicks.clear(name);
  await clicks.type(name, '  Ana María ');
  await clicks.clear(screen.getByLabelText('Teléfono'));
  await clicks.type(screen.getByLabelText('Teléfono'), '911 111 111');
  await clicks.click(screen.getByRole('button', { name: 'Guardar cambios' }));
  expect(screen.getByRole('button', { name: 'Guardando...' })).toBeDisabled();
  expect(await screen.findByRole('button', { name: '✓ Actualizado' })).toBeInTheDocument();
  expect(bodyOf(api, '/auth/update-user')).toEqual({
    idUsuario: 7,
    name: 'Ana María',
    lastName: 'Pérez',
    phone: '+51911111111',
  });
  expect(useSession.getState().user).toMatchObject({ name: 'Ana María', phone: '+51911111111' });
  expect(screen.getByLabelText('Teléfono')).toHaveValue('911 111 111');
  expect(screen.getByRole('heading', { name: 'Ana María Pérez' })).toBeInTheDocument();
  act(() => jest.advanceTimersByTime(2900));
  expect(screen.getByRole('button', { name: '✓ Actualizado' })).toBeInTheDocument();
  act(() => jest.advanceTimersByTime(200));
  expect(screen.getByRole('button', { name: 'Guardar cambios' })).toBeInTheDocument();
});

it('shows the last name and saves it with the name, under the same rule', async () => {
  updateReply = { status: 200, body: { user: { ...ANA, lastName: 'Quispe Mamani' } } };
  renderAt('/perfil', <ProfilePage />);
  const lastName = screen.getByLabelText('Apellido');
  expect(lastName).toHaveValue('Pérez');
  expect(lastName).toHaveAttribute('autocomplete', 'family-name');

  await userEvent.clear(lastName);
  await userEvent.type(lastName, '   ');
  await userEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
  expect(screen.getByRole('alert')).toHaveTextContent('El apellido es requerido');
  expect(api.requests).toHaveLength(0);

  await userEvent.clear(lastName);
  await userEvent.type(lastName, ' Quispe Mamani ');
  await userEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
  expect(await screen.findByRole('button', { name: '✓ Actualizado' })).toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  expect(bodyOf(api, '/auth/update-user')).toMatchObject({ idUsuario: 7, name: 'Ana', lastName: 'Quispe Mamani' });
  expect(useSession.getState().user?.lastName).toBe('Quispe Mamani');
  expect(lastName).toHaveValue('Quispe Mamani');
  // The side card follows.
  expect(
    within(screen.getByRole('region', { name: 'Tu cuenta' })).getByRole('heading', { name: 'Ana Quispe Mamani' }),
  ).toBeInTheDocument();
});

it("shows the API's refusal of a last name in Spanish, under the form's label", async () => {
  updateReply = {
    status: 400,
    body: {
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message: "Datos inválidos: 'lastName' debe tener como máximo 100 caracteres",
    },
  };
  renderAt('/perfil', <ProfilePage />);
  await userEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(
    "Datos inválidos: 'Apellido' debe tener como máximo 100 caracteres",
  );
  expect(useSession.getState().user?.lastName).toBe('Pérez');
});

it('refuses a blank name without calling the API', async () => {
  renderAt('/perfil', <ProfilePage />);
  await userEvent.clear(screen.getByLabelText('Nombre'));
  await userEvent.type(screen.getByLabelText('Nombre'), '   ');
  await userEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
  expect(screen.getByRole('alert')).toHaveTextContent('El nombre es requerido');
  expect(api.requests).toHaveLength(0);
});

it('without a user says so', async () => {
  useSession.getState().clearSession();
  renderAt('/perfil', <ProfilePage />);
  await userEvent.type(screen.getByLabelText('Nombre'), 'Ana');
  await userEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
  expect(screen.getByRole('alert')).toHaveTextContent('Error: Usuario no encontrado');
});

it('fills the form when the user arrives after the page (OAuth return)', async () => {
  useSession.getState().clearSession();
  renderAt('/perfil', <ProfilePage />);
  expect(screen.getByLabelText('Nombre')).toHaveValue('');
  await act(() => useSession.getState().startSession('tok', ANA));
  expect(screen.getByLabelText('Nombre')).toHaveValue('Ana');
  expect(screen.getByLabelText('Teléfono')).toHaveValue('987 654 321');
  expect(screen.getByRole('combobox', { name: 'País del teléfono' })).toHaveValue('PE');
});

it('shows the stored phone with its country, in national format', async () => {
  await useSession.getState().startSession('tok', { ...ANA, phone: '+12015550123' });
  renderAt('/perfil', <ProfilePage />);
  expect(screen.getByRole('combobox', { name: 'País del teléfono' })).toHaveDisplayValue('Estados Unidos (+1)');
  expect(screen.getByLabelText('Teléfono')).toHaveValue('(201) 555-0123');
});

it('refuses a phone its country does not have, under the field, without calling the API', async () => {
  renderAt('/perfil', <ProfilePage />);
  await userEvent.clear(screen.getByLabelText('Teléfono'));
  await userEvent.type(screen.getByLabelText('Teléfono'), '812 345 678');
  await userEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
  expect(screen.getByText('El teléfono no es válido para el país elegido')).toBeInTheDocument();
  expect(screen.getByLabelText('Teléfono')).toHaveAttribute('aria-invalid', 'true');
  expect(api.requests).toHaveLength(0);
  await userEvent.clear(screen.getByLabelText('Teléfono'));
  await userEvent.type(screen.getByLabelText('Teléfono'), '912 345 678');
  expect(screen.queryByText('El teléfono no es válido para el país elegido')).not.toBeInTheDocument();
});

it.each([
  ['the older spaced form, sent in E.164', '+51 987654321', '987 654 321', '+51987654321'],
  ['a value the library cannot read, sent back as stored', '555-0101', '555-0101', '555-0101'],
  ['no phone (Google or Apple accounts)', '', '', ''],
])('saving only the name keeps %s', async (_what, stored, shown, sent) => {
  await useSession.getState().startSession('tok', { ...ANA, phone: stored });
  renderAt('/perfil', <ProfilePage />);
  expect(screen.getByLabelText('Teléfono')).toHaveValue(shown);
  await userEvent.type(screen.getByLabelText('Nombre'), ' María');
  await userEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
  expect(await screen.findByRole('button', { name: '✓ Actualizado' })).toBeInTheDocument();
  expect(bodyOf(api, '/auth/update-user')).toEqual({ idUsuario: 7, name: 'Ana María', lastName: 'Pérez', phone: sent });
});

it("a failed save shows the update's fallback (spec §8 'update info') and keeps the stored user", async () => {
  updateReply = { status: 500 };
  renderAt('/perfil', <ProfilePage />);
  await userEvent.type(screen.getByLabelText('Nombre'), 'x');
  await userEvent.click(screen.getByRole('button', { name: 'Guardar cambios' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Error al actualizar información del usuario');
  expect(useSession.getState().user?.name).toBe('Ana');
  expect(screen.getByRole('button', { name: 'Guardar cambios' })).toBeEnabled();
});

async function openPasswordTab() {
  renderAt('/perfil', <ProfilePage />);
  await userEvent.click(screen.getByRole('tab', { name: 'Contraseña' }));
}

async function submitPasswords(current: string, next: string) {
  if (current) await userEvent.type(screen.getByLabelText('Contraseña actual'), current);
  if (next) await userEvent.type(screen.getByLabelText('Nueva contraseña'), next);
  await userEvent.click(screen.getByRole('button', { name: 'Actualizar contraseña' }));
}

it.each([
  ['', 'nueva1', 'Por favor completa ambos campos de contraseña.'],
  ['actual1', 'abcd', 'La nueva contraseña debe tener al menos 5 caracteres.'],
])('password tab: %s / %s gives %s and clears both fields', async (current, next, message) => {
  await openPasswordTab();
  await submitPasswords(current, next);
  expect(screen.getByRole('alert')).toHaveTextContent(message);
  expect(screen.getByLabelText('Contraseña actual')).toHaveValue('');
  expect(screen.getByLabelText('Nueva contraseña')).toHaveValue('');
  expect(api.requests).toHaveLength(0);
});

it('password tab: updates the password and clears both fields', async () => {
  await openPasswordTab();
  await submitPasswords('actual1', 'nueva1');
  expect(await screen.findByRole('status')).toHaveTextContent('Las contraseñas se actualizaron correctamente');
  expect(bodyOf(api, '/auth/update-password')).toEqual({ currentPassword: 'actual1', newPassword: 'nueva1' });
  expect(localStorage.getItem('token')).toBe('token-nuevo');
  expect(useSession.getState().isAuthenticated).toBe(true);
  expect(screen.getByLabelText('Contraseña actual')).toHaveValue('');
  expect(screen.getByLabelText('Nueva contraseña')).toHaveValue('');
});

it('password tab: a failure shows the fallback and clears both fields', async () => {
  passwordReply = { status: 400 };
  await openPasswordTab();
  await submitPasswords('mala12', 'nueva1');
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'Error al actualizar la contraseña, verifica los campos de entrada',
  );
  expect(screen.getByLabelText('Contraseña actual')).toHaveValue('');
  expect(screen.getByLabelText('Nueva contraseña')).toHaveValue('');
});
