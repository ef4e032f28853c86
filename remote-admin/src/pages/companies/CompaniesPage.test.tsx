import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import CompaniesPage from './CompaniesPage';
import { adminUser, bodiesTo, type FakeApi, page, queriesTo, renderAt, useFakeApi } from '../../testing/setup';
import type { CompanyListItem } from '../../api/company-types';

// Long flows on a shared machine: a dialog each step.
jest.setTimeout(30_000);

let api: FakeApi;
afterEach(() => api?.close());

const company = (id: number, nombre: string, over: Partial<CompanyListItem> = {}): CompanyListItem => ({
  id,
  nombre,
  estado: 'activa',
  miembros: 12,
  licencias: 1,
  createdAt: '2027-01-05T10:00:00.000Z',
  ...over,
});

const manager = (empresas: { id: number; nombre: string; rol: string; estado: string }[]) =>
  adminUser({ role: 2, email: 'jefa@minera.pe', ...({ empresas } as object) });

describe('Empresas (platform administrator)', () => {
  it('lists the companies and searches by name and state', async () => {
    const user = userEvent.setup();
    api = await useFakeApi({
      'GET /admin/empresas': { status: 200, body: page([company(1, 'Minera Andina S.A.')], 1, 1, 10) },
    });
    renderAt('/admin/empresas', <CompaniesPage />);
    const table = await screen.findByRole('table', { name: 'Tabla de empresas' });
    expect(within(table).getByRole('link', { name: 'Minera Andina S.A.' })).toHaveAttribute(
      'href',
      '/admin/empresas/1',
    );
    expect(within(table).getByText('Activa')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Buscar por nombre'), 'minera');
    await user.click(screen.getByRole('button', { name: 'Buscar' }));
    await user.selectOptions(screen.getByLabelText('Estado'), 'suspendida');
    await waitFor(() =>
      expect(queriesTo(api, '/admin/empresas').at(-1)).toEqual({
        page: '1',
        limit: '10',
        nombre: 'minera',
        estado: 'suspendida',
      }),
    );
  });

  it("creates a company; a name already used gets the API's Spanish answer in the dialog", async () => {
    const user = userEvent.setup();
    let calls = 0;
    api = await useFakeApi({
      'GET /admin/empresas': { status: 200, body: page([], 0, 1, 10) },
      'POST /admin/empresas': () =>
        ++calls === 1
          ? {
              status: 409,
              body: { statusCode: 409, code: 'EMPRESA_EXISTENTE', message: 'Ya existe una empresa con ese nombre' },
            }
          : { status: 201, body: { id: 9 } },
    });
    renderAt('/admin/empresas', <CompaniesPage />);
    // No filter, no company: the page says there are none yet and what to do, not that a search failed.
    expect(
      await screen.findByText('Todavía no hay empresas: crea la primera con «Nueva empresa».'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Nueva empresa' }));
    const dialog = screen.getByRole('dialog', { name: 'Nueva empresa' });
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Escribe el nombre de la empresa');
    await user.type(within(dialog).getByLabelText('Nombre'), 'Minera Andina S.A.');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Ya existe una empresa con ese nombre')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Empresa «Minera Andina S.A.» creada')).toBeInTheDocument();
    // The list is asked for again with the new company.
    await waitFor(() => expect(queriesTo(api, '/admin/empresas')).toHaveLength(4));
    expect(bodiesTo(api, '/admin/empresas').filter(Boolean)).toEqual([
      { nombre: 'Minera Andina S.A.' },
      { nombre: 'Minera Andina S.A.' },
    ]);
  });

  it('suspends after a question and renames', async () => {
    const user = userEvent.setup();
    api = await useFakeApi({
      'GET /admin/empresas': { status: 200, body: page([company(4, 'Minera Andina S.A.')], 1, 1, 10) },
      'PATCH /admin/empresas/4': { status: 200, body: { ...company(4, 'Minera Andina S.A.'), estado: 'suspendida' } },
    });
    renderAt('/admin/empresas', <CompaniesPage />);
    await user.click(await screen.findByRole('button', { name: 'Suspender Minera Andina S.A.' }));
    const confirm = screen.getByRole('dialog', { name: '¿Suspender Minera Andina S.A.?' });
    await user.click(within(confirm).getByRole('button', { name: 'Suspender' }));
    expect(await screen.findByText('Minera Andina S.A. ha sido suspendida')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Renombrar Minera Andina S.A.' }));
    const rename = screen.getByRole('dialog', { name: 'Renombrar Minera Andina S.A.' });
    await user.clear(within(rename).getByLabelText('Nombre'));
    await user.type(within(rename).getByLabelText('Nombre'), 'Minera Andina SAC');
    await user.click(within(rename).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Empresa renombrada')).toBeInTheDocument();
    await waitFor(() => expect(queriesTo(api, '/admin/empresas')).toHaveLength(3));
    expect(bodiesTo(api, '/admin/empresas/4')).toEqual([{ estado: 'suspendida' }, { nombre: 'Minera Andina SAC' }]);
  });
});

describe('Empresas (company owners and administrators)', () => {
  it('sends a manager of one company straight to it, without asking for the platform list', async () => {
    api = await useFakeApi(
      {},
      manager([{ id: 4, nombre: 'Minera Andina S.A.', rol: 'propietario', estado: 'activo' }]),
    );
    renderAt('/admin/empresas', <CompaniesPage />);
    expect(await screen.findByTestId('location')).toHaveTextContent('/admin/empresas/4');
    expect(api.requests).toEqual([]);
  });

  it('lists only the companies the person manages when there are several', async () => {
    api = await useFakeApi(
      {},
      manager([
        { id: 4, nombre: 'Minera Andina S.A.', rol: 'propietario', estado: 'activo' },
        { id: 5, nombre: 'Transportes Sur', rol: 'administrador', estado: 'activo' },
        { id: 6, nombre: 'Otra', rol: 'miembro', estado: 'activo' },
      ]),
    );
    renderAt('/admin/empresas', <CompaniesPage />);
    expect(screen.getByRole('heading', { name: 'Tus empresas' })).toBeInTheDocument();
    expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Minera Andina S.A.',
      'Transportes Sur',
    ]);
    expect(screen.queryByRole('button', { name: 'Nueva empresa' })).not.toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });
});
