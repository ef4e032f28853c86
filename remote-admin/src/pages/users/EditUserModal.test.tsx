import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import UsersPage from './UsersPage';
import { bodiesTo, listedUser, page, queriesTo, renderAt, useFakeApi, type FakeApi } from '../../testing/setup';

const stats = { status: 200, body: { totalUsers: 2, activeUsers: 2, pendingVerification: 0, administrators: 1 } };
const ana = listedUser(7, { name: 'Ana', lastName: 'Pérez', phone: '+51912345678', email: 'ana@example.com' });
const self = listedUser(1, { role: 1, email: 'admin@portal.test', name: 'Administrador' });

let api: FakeApi;
afterEach(() => api?.close());

async function openEdit(email: string) {
  await userEvent.click(await screen.findByRole('button', { name: `Editar a ${email}` }));
  const dialog = await screen.findByRole('dialog', { name: 'Editar usuario' });
  expect(dialog).toHaveTextContent(email);
  return dialog;
}

describe("the users table's 'Editar'", () => {
  it('saves only what changed through editar, says so and reloads the list', async () => {
    const user = userEvent.setup();
    api = await useFakeApi({
      'GET /user/stats': stats,
      'GET /user/listar': { status: 200, body: page([self, ana], 2, 1, 50) },
      'PUT /auth/editar/7': { status: 200, body: { user: { ...ana, name: 'Ana María', role: 1 } } },
    });
    renderAt('/admin/usuarios', <UsersPage />);
    const dialog = await openEdit('ana@example.com');
    const save = within(dialog).getByRole('button', { name: 'Guardar' });
    expect(save).toBeDisabled();
    expect(within(dialog).getByLabelText('Teléfono')).toHaveValue('+51912345678');

    const name = within(dialog).getByLabelText('Nombre');
    await user.clear(name);
    await user.type(name, 'Ana María');
    await user.selectOptions(within(dialog).getByLabelText('Rol'), 'Administrador');
    await user.click(save);

    expect(await screen.findByText('ana@example.com ha sido actualizado')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(bodiesTo(api, '/auth/editar/7')).toEqual([{ name: 'Ana María', role: 1 }]);
    await waitFor(() => expect(queriesTo(api, '/user/listar')).toHaveLength(2));
  });

  it("shows the server's refusal, else the spec's fallback, and keeps the dialog open", async () => {
    const user = userEvent.setup();
    // The first save is refused with a message, the second fails with none.
    const replies = [
      { status: 400, body: { message: 'El teléfono no es válido para el país elegido' } },
      { status: 500 },
    ];
    api = await useFakeApi({
      'GET /user/stats': stats,
      'GET /user/listar': { status: 200, body: page([self, ana], 2, 1, 50) },
      'PUT /auth/editar/7': () => replies.shift() ?? { status: 500 },
    });
    renderAt('/admin/usuarios', <UsersPage />);
    const dialog = await openEdit('ana@example.com');
    const phone = within(dialog).getByLabelText('Teléfono');
    await user.clear(phone);
    await user.type(phone, '+51 112 345 678');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('El teléfono no es válido para el país elegido')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Error al editar usuario')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('checks the fields before sending, and warns when saving ends the sessions', async () => {
    const user = userEvent.setup();
    api = await useFakeApi({
      'GET /user/stats': stats,
      'GET /user/listar': { status: 200, body: page([self, ana], 2, 1, 50) },
    });
    renderAt('/admin/usuarios', <UsersPage />);
    const dialog = await openEdit('ana@example.com');
    await user.clear(within(dialog).getByLabelText('Apellido'));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('El apellido es requerido')).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'PUT')).toEqual([]);

    await user.selectOptions(within(dialog).getByLabelText('Estado'), 'Suspendido');
    expect(within(dialog).getByText('Al suspenderlo se cerrarán sus sesiones y no podrá entrar.')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'PUT')).toEqual([]);
  });

  it('lets administrators edit their own name but not their own role or status', async () => {
    api = await useFakeApi({
      'GET /user/stats': stats,
      'GET /user/listar': { status: 200, body: page([self, ana], 2, 1, 50) },
    });
    renderAt('/admin/usuarios', <UsersPage />);
    const dialog = await openEdit('admin@portal.test');
    expect(within(dialog).getByLabelText('Rol')).toBeDisabled();
    expect(within(dialog).getByLabelText('Estado')).toBeDisabled();
    expect(within(dialog).getByText('No puedes cambiar tu propio rol ni tu estado.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Nombre')).toBeEnabled();
  });
});
