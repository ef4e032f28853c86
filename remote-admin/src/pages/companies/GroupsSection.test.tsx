import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { whenApiIdle } from '@portal/shared';
import CompanyPage from './CompanyPage';
import { bodiesTo, type FakeApi, queriesTo, renderAt, useFakeApi } from '../../testing/setup';
import type { GroupRule, WaitingPerson } from '../../api/company-types';

jest.setTimeout(30_000);

let api: FakeApi;
afterEach(async () => {
  // A section's reload may still be on its way when a test ends: it lands before the fake API goes.
  await whenApiIdle();
  window.history.replaceState(null, '', '/');
  await api?.close();
});

const rule = (over: Partial<GroupRule> = {}): GroupRule => ({
  id: 7,
  grupo: 'Operadores Planta Norte',
  grupoRecibido: true,
  app: { id: 2, nombre: 'Control Max 360' },
  rol: null,
  rolesApp: ['operador'],
  personas: 4,
  creada: '2027-01-05T10:00:00.000Z',
  ...over,
});

const waiting: WaitingPerson[] = [
  {
    idUsuario: 31,
    email: 'luis.soto@minera.pe',
    nombre: 'Luis',
    apellido: 'Soto',
    idApp: 2,
    desde: '2027-01-06T10:00:00.000Z',
  },
];

const base = (over: Record<string, unknown> = {}) => ({
  'GET /empresas/4': {
    status: 200,
    body: {
      id: 4,
      nombre: 'Minera Andina S.A.',
      estado: 'activa',
      altaPorDominio: 'automatica',
      exigirSegundoFactor: false,
      miembros: 3,
      pendientes: 0,
      createdAt: '2027-01-05T10:00:00.000Z',
      miRol: null,
    },
  },
  'GET /empresas/4/licencias': {
    status: 200,
    body: [
      {
        id: 1,
        app: { id: 2, nombre: 'Control Max 360' },
        plan: { id: 5, nombre: 'Pro' },
        puestos: 2,
        enUso: 2,
        libres: 0,
        excedidos: 0,
        fechaVencimiento: '2099-12-31T23:59:59.000Z',
        vencida: false,
      },
    ],
  },
  'GET /empresas/4/miembros': { status: 200, body: { data: [], total: 0, siguiente: null } },
  'GET /empresas/4/grupos-directorio': {
    status: 200,
    body: [
      rule(),
      rule({ id: 10, grupo: 'Auditores', rolesApp: ['auditor', 'supervisor'], personas: 1 }),
      rule({
        id: 8,
        grupo: 'Jefes de Turno',
        grupoRecibido: false,
        app: null,
        rol: 'administrador',
        rolesApp: [],
        personas: 0,
      }),
    ],
  },
  'GET /empresas/4/grupos-directorio/esperando': { status: 200, body: waiting },
  'GET /empresas/4/roles-app': {
    status: 200,
    body: {
      data: [
        {
          idApp: 2,
          nombreApp: 'Control Max 360',
          roles: [
            { clave: 'operador', nombre: 'Operador de planta', descripcion: '', porDefecto: true },
            { clave: 'supervisor', nombre: 'Supervisor', descripcion: 'Aprueba los turnos', porDefecto: false },
          ],
        },
      ],
    },
  },
  ...over,
});

const show = () => renderAt('/admin/empresas/4', <CompanyPage />, { pattern: '/admin/empresas/:id' });

describe("A company's directory groups", () => {
  it('lists each rule with its group, what it gives and its people, and who waits for a seat', async () => {
    api = await useFakeApi(base());
    window.history.replaceState(null, '', '/admin/empresas/4#grupos');
    show();
    const table = await screen.findByRole('table', { name: 'Reglas de los grupos del directorio' });
    const [, first, deleted, second] = within(table).getAllByRole('row');
    expect(within(first!).getByText('Operadores Planta Norte')).toBeInTheDocument();
    expect(
      await within(first!).findByText('Puesto de Control Max 360 · Roles de la app: Operador de planta'),
    ).toBeInTheDocument();
    // A role deleted from the app after the rule was made: named as gone, never as one the group gives.
    expect(
      within(deleted!).getByText('Puesto de Control Max 360 · Roles de la app: auditor (rol eliminado), Supervisor'),
    ).toBeInTheDocument();
    expect(within(first!).getByText('4')).toBeInTheDocument();
    expect(within(second!).getByText('El directorio aún no envió este grupo')).toBeInTheDocument();
    expect(within(second!).getByText('Rol Administrador')).toBeInTheDocument();
    const waits = await screen.findByRole('table', { name: 'Esperan un puesto' });
    expect(within(waits).getByText('Luis Soto')).toBeInTheDocument();
    expect(within(waits).getByText('luis.soto@minera.pe')).toBeInTheDocument();
  });

  it('adds a rule (a group with nothing to give is refused before sending) and takes one away', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'POST /empresas/4/grupos-directorio': { status: 201, body: { id: 9 } },
        'DELETE /empresas/4/grupos-directorio/7': { status: 204 },
      }),
    );
    window.history.replaceState(null, '', '/admin/empresas/4#grupos');
    show();
    await user.click(await screen.findByRole('button', { name: 'Añadir regla' }));
    const dialog = screen.getByRole('dialog', { name: 'Añadir regla' });
    await user.type(within(dialog).getByLabelText('Nombre del grupo en el directorio'), 'Mantención');
    await user.selectOptions(within(dialog).getByLabelText('Puesto de la app'), 'Ninguna app');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Elige una app, un rol o los dos')).toBeInTheDocument();
    expect(bodiesTo(api, '/empresas/4/grupos-directorio').filter(Boolean)).toEqual([]);
    await user.selectOptions(within(dialog).getByLabelText('Puesto de la app'), 'Control Max 360');
    await user.selectOptions(within(dialog).getByLabelText('Rol'), 'Administrador');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Regla del grupo Mantención añadida')).toBeInTheDocument();
    expect(bodiesTo(api, '/empresas/4/grupos-directorio').filter(Boolean)).toEqual([
      { grupo: 'Mantención', idApp: 2, rol: 'administrador' },
    ]);

    await user.click(screen.getByRole('button', { name: 'Quitar la regla del grupo Operadores Planta Norte' }));
    const confirm = screen.getByRole('dialog', { name: '¿Quitar la regla del grupo Operadores Planta Norte?' });
    await user.click(within(confirm).getByRole('button', { name: 'Quitar' }));
    expect(await screen.findByText('Regla del grupo Operadores Planta Norte quitada')).toBeInTheDocument();
    expect(queriesTo(api, '/empresas/4/grupos-directorio/7')).toHaveLength(1);
  });

  it("'Añadir regla' offers the roles of the app chosen, read afresh, and sends the ones ticked", async () => {
    const user = userEvent.setup();
    api = await useFakeApi(base({ 'POST /empresas/4/grupos-directorio': { status: 201, body: { id: 9 } } }));
    window.history.replaceState(null, '', '/admin/empresas/4#grupos');
    show();
    await screen.findByRole('table', { name: 'Reglas de los grupos del directorio' });
    await user.click(await screen.findByRole('button', { name: 'Añadir regla' }));
    const dialog = screen.getByRole('dialog', { name: 'Añadir regla' });
    await user.type(within(dialog).getByLabelText('Nombre del grupo en el directorio'), 'Supervisores');
    const roles = within(await within(dialog).findByRole('group', { name: 'Roles de Control Max 360' }));
    expect(roles.getByRole('checkbox', { name: 'Operador de planta (operador)' })).not.toBeChecked();
    await user.click(roles.getByRole('checkbox', { name: 'Supervisor (supervisor)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Regla del grupo Supervisores añadida')).toBeInTheDocument();
    expect(bodiesTo(api, '/empresas/4/grupos-directorio').filter(Boolean)).toEqual([
      { grupo: 'Supervisores', idApp: 2, rolesApp: ['supervisor'] },
    ]);
    // The roles were read again when the dialog opened: a role deleted meanwhile is not offered.
    expect(queriesTo(api, '/empresas/4/roles-app')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Añadir regla' }));
    const again = screen.getByRole('dialog', { name: 'Añadir regla' });
    await user.selectOptions(within(again).getByLabelText('Puesto de la app'), 'Ninguna app');
    expect(within(again).queryByRole('group', { name: 'Roles de Control Max 360' })).not.toBeInTheDocument();
  });
});
