import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import CompanyPage from './CompanyPage';
import { bodiesTo, type FakeApi, renderAt, useFakeApi } from '../../testing/setup';
import { company } from '../../testing/companies';
import type { Licence } from '../../api/company-types';

jest.setTimeout(30_000);

let api: FakeApi;
afterEach(() => {
  window.history.replaceState(null, '', '/');
  return api?.close();
});

const licence: Licence = {
  id: 1,
  app: { id: 2, nombre: 'Control Max 360' },
  plan: { id: 5, nombre: 'Pro' },
  puestos: 3,
  enUso: 2,
  libres: 1,
  excedidos: 0,
  fechaVencimiento: '2099-12-31T23:59:59.000Z',
  vencida: false,
};

const seat = (id: number) => ({
  idUsuario: id,
  idApp: 2,
  email: `persona${id}@minera.pe`,
  nombre: '',
  apellido: '',
  asignadoEn: '2027-01-07T00:00:00.000Z',
});

const offered = [
  { clave: 'operador', nombre: 'Operador', descripcion: '', porDefecto: true },
  { clave: 'supervisor', nombre: 'Supervisor', descripcion: 'Aprueba los turnos', porDefecto: false },
];

const base = (over: Record<string, unknown> = {}) => ({
  'GET /empresas/4': { status: 200, body: company() },
  'GET /empresas/4/licencias': { status: 200, body: [licence] },
  'GET /empresas/4/miembros': { status: 200, body: { data: [], total: 0, siguiente: null } },
  'GET /empresas/4/puestos': { status: 200, body: { data: [seat(10), seat(11)], total: 2, siguiente: null } },
  ...over,
});

const show = () => renderAt('/admin/empresas/4', <CompanyPage />, { pattern: '/admin/empresas/:id' });

describe("A seat's roles in its app", () => {
  it('shows the roles the company gave checked and sends exactly the ones checked', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4/miembros/10/roles-app': {
          status: 200,
          body: {
            data: [
              { idApp: 2, nombreApp: 'Control Max 360', roles: ['operador'], rolesGrupo: [], disponibles: offered },
            ],
          },
        },
        'PUT /empresas/4/miembros/10/roles-app/2': { status: 200, body: { idApp: 2, roles: ['supervisor'] } },
      }),
    );
    show();
    await user.click(await screen.findByRole('tab', { name: 'Puestos' }));
    await user.click(await screen.findByRole('button', { name: 'Roles de Control Max 360 de persona10@minera.pe' }));
    const dialog = await screen.findByRole('dialog', { name: 'Roles de Control Max 360 · persona10@minera.pe' });
    const operador = await within(dialog).findByRole('checkbox', { name: 'Operador (operador)' });
    const supervisor = within(dialog).getByRole('checkbox', { name: 'Supervisor (supervisor)' });
    expect(operador).toBeChecked();
    expect(supervisor).not.toBeChecked();
    await user.click(operador);
    await user.click(supervisor);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Roles de Control Max 360 guardados para persona10@minera.pe')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodiesTo(api, '/empresas/4/miembros/10/roles-app/2')).toEqual([{ roles: ['supervisor'] }]);
  });

  it("shows a group's role fixed, keeps the server's refusal in the dialog, and says so when the app has no roles", async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4/miembros/10/roles-app': {
          status: 200,
          body: {
            data: [
              { idApp: 2, nombreApp: 'Control Max 360', roles: [], rolesGrupo: ['operador'], disponibles: offered },
            ],
          },
        },
        'PUT /empresas/4/miembros/10/roles-app/2': {
          status: 409,
          body: {
            statusCode: 409,
            code: 'SIN_PUESTO',
            message:
              'Esa persona no tiene un puesto de esta aplicación en la empresa: asígnale uno antes de darle roles',
          },
        },
        'GET /empresas/4/miembros/11/roles-app': {
          status: 200,
          body: { data: [{ idApp: 2, nombreApp: 'Control Max 360', roles: [], rolesGrupo: [], disponibles: [] }] },
        },
      }),
    );
    show();
    await user.click(await screen.findByRole('tab', { name: 'Puestos' }));
    await user.click(await screen.findByRole('button', { name: 'Roles de Control Max 360 de persona10@minera.pe' }));
    const dialog = await screen.findByRole('dialog', { name: 'Roles de Control Max 360 · persona10@minera.pe' });
    const fromGroup = within(dialog).getByRole('checkbox', { name: 'Operador (operador), del grupo del directorio' });
    expect(fromGroup).toBeChecked();
    expect(fromGroup).toBeDisabled();
    await user.click(await within(dialog).findByRole('checkbox', { name: 'Supervisor (supervisor)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(
      await within(dialog).findByText(
        'Esa persona no tiene un puesto de esta aplicación en la empresa: asígnale uno antes de darle roles',
      ),
    ).toBeInTheDocument();
    expect(bodiesTo(api, '/empresas/4/miembros/10/roles-app/2')).toEqual([{ roles: ['supervisor'] }]);
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));

    await user.click(screen.getByRole('button', { name: 'Roles de Control Max 360 de persona11@minera.pe' }));
    const none = await screen.findByRole('dialog', { name: 'Roles de Control Max 360 · persona11@minera.pe' });
    expect(
      await within(none).findByText(
        'Esta aplicación no tiene roles definidos: los define el administrador de la plataforma.',
      ),
    ).toBeInTheDocument();
    expect(within(none).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(bodiesTo(api, '/empresas/4/miembros/11/roles-app/2')).toEqual([]);
  });

  it('says so when the roles cannot be read, and opens no dialog', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(base({ 'GET /empresas/4/miembros/10/roles-app': { status: 500, body: {} } }));
    show();
    await user.click(await screen.findByRole('tab', { name: 'Puestos' }));
    await user.click(await screen.findByRole('button', { name: 'Roles de Control Max 360 de persona10@minera.pe' }));
    expect(await screen.findByText('No se pudieron cargar los roles')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe("A member's roles from their row in 'Miembros'", () => {
  const member = {
    idUsuario: 10,
    email: 'persona10@minera.pe',
    nombre: 'Ana',
    apellido: 'Rojas',
    rol: 'miembro',
    estado: 'activo',
    segundoFactor: false,
    puestos: [2, 3],
    desde: '2027-01-07T00:00:00.000Z',
  };
  const tx30: Licence = { ...licence, id: 2, app: { id: 3, nombre: 'TX30' } };

  it('gives the roles of every app whose seat they hold, sends only the apps changed, and gives the focus back', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4/licencias': { status: 200, body: [licence, tx30] },
        'GET /empresas/4/miembros': { status: 200, body: { data: [member], total: 1, siguiente: null } },
        'GET /empresas/4/miembros/10/roles-app': {
          status: 200,
          body: {
            data: [
              { idApp: 2, nombreApp: 'Control Max 360', roles: ['operador'], rolesGrupo: [], disponibles: offered },
              {
                idApp: 3,
                nombreApp: 'TX30',
                roles: [],
                rolesGrupo: [],
                disponibles: [{ clave: 'calibrador', nombre: 'Calibrador', descripcion: '', porDefecto: false }],
              },
            ],
          },
        },
        'PUT /empresas/4/miembros/10/roles-app/3': { status: 200, body: { idApp: 3, roles: ['calibrador'] } },
      }),
    );
    show();
    const open = await screen.findByRole('button', { name: 'Roles de persona10@minera.pe' });
    await user.click(open);
    const dialog = await screen.findByRole('dialog', { name: 'Roles de Ana Rojas' });
    const controlMax = within(within(dialog).getByRole('group', { name: 'Roles en Control Max 360' }));
    expect(controlMax.getByRole('checkbox', { name: 'Operador (operador)' })).toBeChecked();
    const tx = within(within(dialog).getByRole('group', { name: 'Roles en TX30' }));
    await user.click(tx.getByRole('checkbox', { name: 'Calibrador (calibrador)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Roles guardados para persona10@minera.pe')).toBeInTheDocument();
    expect(bodiesTo(api, '/empresas/4/miembros/10/roles-app/3')).toEqual([{ roles: ['calibrador'] }]);
    expect(bodiesTo(api, '/empresas/4/miembros/10/roles-app/2')).toEqual([]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(open);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(document.activeElement).toBe(open);
  });
});
