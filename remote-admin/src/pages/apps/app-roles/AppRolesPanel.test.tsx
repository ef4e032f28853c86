// 'Roles' of a catalogue app in the apps page: listed under the app's row with name, key and default; created,
// renamed, made the default and deleted (after a question that says what deleting does), each through the admin API,
// and the API's refusals shown in Spanish in the dialog.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type AppRole, whenApiIdle } from '@portal/shared';
import { app } from '@portal/shared/testing/fixtures';
import AppsAdminPage from '../AppsAdminPage';
import { type FakeApi, page, renderAt, useFakeApi } from '../../../testing/setup';

jest.mock('../ConnectedAppsSection', () => ({ ConnectedAppsSection: () => null }));
jest.setTimeout(30_000);

let api: FakeApi;
afterEach(async () => {
  await whenApiIdle();
  await api?.close();
});

const controlMax = app(1, 'Control Max 360');

/** The app's roles as the fake API keeps them: each call changes them as the real one would. */
function rolesApi(start: AppRole[]) {
  let roles = [...start];
  const byKey = () => [...roles].sort((a, b) => a.clave.localeCompare(b.clave));
  return {
    'GET /apps/listar': { status: 200, body: page([controlMax], 1, 1, 10) },
    'GET /admin/apps/1/roles': () => ({ status: 200, body: { data: byKey() } }),
    'POST /admin/apps/1/roles': (request: { body: string }) => {
      const body = JSON.parse(request.body) as Pick<AppRole, 'clave' | 'nombre'> & Partial<AppRole>;
      if (roles.some((role) => role.clave === body.clave))
        return {
          status: 409,
          body: {
            statusCode: 409,
            code: 'ROL_EXISTE',
            message: `Esta aplicación ya tiene un rol con la clave '${body.clave}'`,
          },
        };
      const created: AppRole = { descripcion: '', porDefecto: false, ...body };
      roles.push(created);
      return { status: 201, body: created };
    },
    'PATCH /admin/apps/1/roles/supervisor': (request: { body: string }) => {
      const change = JSON.parse(request.body) as Partial<AppRole>;
      if (change.porDefecto) roles = roles.map((role) => ({ ...role, porDefecto: false }));
      roles = roles.map((role) => (role.clave === 'supervisor' ? { ...role, ...change } : role));
      return { status: 200, body: roles.find((role) => role.clave === 'supervisor') };
    },
    'DELETE /admin/apps/1/roles/operador': () => {
      roles = roles.filter((role) => role.clave !== 'operador');
      return { status: 204 };
    },
  };
}

/** The bodies sent to `path` by `method`. */
const sent = (method: string, path: string) =>
  api.requests
    .filter((request) => request.method === method && request.path === path)
    .map((request) => JSON.parse(request.body));

const START: AppRole[] = [
  { clave: 'operador', nombre: 'Operador de planta', descripcion: 'Opera la línea', porDefecto: true },
  { clave: 'supervisor', nombre: 'Supervisor', descripcion: '', porDefecto: false },
];

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(0, 3)
        .map((cell) => cell.textContent),
    );

describe("An app's roles in the apps page", () => {
  it('lists them under the app, and creates, renames, makes the default and deletes them', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(rolesApi(START));
    renderAt('/admin/apps', <AppsAdminPage />);
    const open = await screen.findByRole('button', { name: 'Roles de Control Max 360' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await user.click(open);
    expect(open).toHaveAttribute('aria-expanded', 'true');
    const panel = await screen.findByRole('region', { name: 'Roles de Control Max 360' });
    const table = await within(panel).findByRole('table', { name: 'Roles de Control Max 360' });
    expect(rowsOf(table)).toEqual([
      ['Operador de plantaOpera la línea', 'operador', 'Rol por defecto'],
      ['Supervisor', 'supervisor', 'No'],
    ]);

    await user.click(within(panel).getByRole('button', { name: 'Nuevo rol de Control Max 360' }));
    let dialog = screen.getByRole('dialog', { name: 'Nuevo rol de Control Max 360' });
    await user.type(within(dialog).getByLabelText('Clave'), 'Jefe Turno');
    await user.type(within(dialog).getByLabelText('Nombre'), 'Jefe de turno');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(
      await within(dialog).findByText('La clave solo puede tener letras minúsculas, dígitos, - y _ (hasta 40)'),
    ).toBeInTheDocument();
    expect(sent('POST', '/admin/apps/1/roles')).toEqual([]);
    await user.clear(within(dialog).getByLabelText('Clave'));
    await user.type(within(dialog).getByLabelText('Clave'), 'jefe_turno');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(panel).findByText('Rol Jefe de turno creado')).toBeInTheDocument();
    expect(sent('POST', '/admin/apps/1/roles')).toEqual([{ clave: 'jefe_turno', nombre: 'Jefe de turno' }]);
    await waitFor(() => expect(rowsOf(table)).toHaveLength(3));

    await user.click(within(table).getByRole('button', { name: 'Renombrar rol Supervisor' }));
    dialog = screen.getByRole('dialog', { name: 'Renombrar el rol Supervisor' });
    await user.clear(within(dialog).getByLabelText('Nombre'));
    await user.type(within(dialog).getByLabelText('Nombre'), 'Supervisor de turno');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(panel).findByText('Rol Supervisor de turno guardado')).toBeInTheDocument();

    await user.click(
      await within(table).findByRole('button', { name: 'Hacer por defecto el rol Supervisor de turno' }),
    );
    expect(await within(panel).findByText('Supervisor de turno es ahora el rol por defecto')).toBeInTheDocument();
    expect(sent('PATCH', '/admin/apps/1/roles/supervisor')).toEqual([
      { nombre: 'Supervisor de turno', descripcion: '' },
      { porDefecto: true },
    ]);
    await waitFor(() =>
      expect(rowsOf(table)).toEqual([
        ['Jefe de turno', 'jefe_turno', 'No'],
        ['Operador de plantaOpera la línea', 'operador', 'No'],
        ['Supervisor de turno', 'supervisor', 'Rol por defecto'],
      ]),
    );

    const remove = within(table).getByRole('button', { name: 'Eliminar rol Operador de planta' });
    await user.click(remove);
    dialog = screen.getByRole('dialog', { name: '¿Eliminar el rol Operador de planta de Control Max 360?' });
    expect(dialog).toHaveTextContent(
      'Se quitará a todas las personas que lo tienen, se lo haya dado una empresa, un grupo del directorio o la plataforma',
    );
    expect(dialog).toHaveTextContent('dejarán de recibir la clave «operador»');
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    expect(await within(panel).findByText('Rol Operador de planta eliminado')).toBeInTheDocument();
    expect(api.requests.filter((request) => request.method === 'DELETE').map((request) => request.path)).toEqual([
      '/admin/apps/1/roles/operador',
    ]);
    await waitFor(() => expect(rowsOf(table)).toHaveLength(2));
  });

  it("keeps the API's refusal in the dialog in Spanish, and gives the focus back to 'Nuevo rol' on leaving", async () => {
    const user = userEvent.setup();
    api = await useFakeApi(rolesApi(START));
    renderAt('/admin/apps', <AppsAdminPage />);
    await user.click(await screen.findByRole('button', { name: 'Roles de Control Max 360' }));
    const panel = await screen.findByRole('region', { name: 'Roles de Control Max 360' });
    await within(panel).findByRole('table');
    const add = within(panel).getByRole('button', { name: 'Nuevo rol de Control Max 360' });
    await user.click(add);
    const dialog = screen.getByRole('dialog', { name: 'Nuevo rol de Control Max 360' });
    await user.type(within(dialog).getByLabelText('Clave'), 'supervisor');
    await user.type(within(dialog).getByLabelText('Nombre'), 'Otro supervisor');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(
      await within(dialog).findByText("Esta aplicación ya tiene un rol con la clave 'supervisor'"),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(document.activeElement).toBe(add);
  });
});
