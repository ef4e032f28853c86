import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { App } from '@portal/shared';
import AppsAdminPage from './AppsAdminPage';
import { bodiesTo, page, queriesTo, renderAt, useFakeApi, type FakeApi } from '../../testing/setup';

// 'Aplicaciones conectadas' has its own tests (ConnectedAppsSection.test.tsx) and calls of its own.
jest.mock('./ConnectedAppsSection', () => ({
  ConnectedAppsSection: () => <section>Sección de aplicaciones conectadas</section>,
}));

let api: FakeApi;
afterEach(() => api?.close());

const app = (id: number, nombre: string, overrides: Partial<App> = {}): App => ({
  id,
  nombre,
  descripcion: `Descripción de ${nombre}`,
  longDescription: '',
  iconUrl: null,
  webUrl: null,
  iosUrl: null,
  androidUrl: null,
  isEnabledWeb: true,
  isEnabledMovil: false,
  tags: [],
  ...overrides,
});

describe('Pagina de apps', () => {
  it('holds the connected apps, once, below the apps', async () => {
    api = await useFakeApi({ 'GET /apps/listar': { status: 200, body: page([app(1, 'Control Max 360')], 1, 1, 10) } });
    renderAt('/admin/apps', <AppsAdminPage />);
    const catalogue = await screen.findByText('Control Max 360');
    const connected = screen.getAllByText('Sección de aplicaciones conectadas');
    expect(connected).toHaveLength(1);
    expect(catalogue.compareDocumentPosition(connected[0]!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('edits an app through PUT /apps/update/{id} and reloads page 1, limit 10', async () => {
    const user = userEvent.setup();
    let descripcion = 'Descripción de TX30';
    api = await useFakeApi({
      'GET /apps/listar': () => ({
        status: 200,
        body: page([app(1, 'Control Max 360'), app(3, 'TX30', { descripcion })], 2, 1, 10),
      }),
      'PUT /apps/update/3': (request) => {
        descripcion = JSON.parse(request.body).descripcion;
        return { status: 200, body: app(3, 'TX30', { descripcion }) };
      },
    });
    renderAt('/admin/apps', <AppsAdminPage />);
    expect(screen.getByRole('heading', { name: 'Pagina de apps' })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Editar TX30' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar TX30' });
    const field = within(dialog).getByLabelText('Descripción');
    await user.clear(field);
    await user.type(field, 'Configuración de transmisores');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Aplicación actualizada')).toBeInTheDocument();
    expect(bodiesTo(api, '/apps/update/3')).toEqual([
      expect.objectContaining({ nombre: 'TX30', descripcion: 'Configuración de transmisores' }),
    ]);
    await waitFor(() =>
      expect(queriesTo(api, '/apps/listar')).toEqual([
        { page: '1', limit: '10' },
        { page: '1', limit: '10' },
      ]),
    );
    expect(await screen.findByText('Configuración de transmisores')).toBeInTheDocument();
  });

  it('creates an app and appends it to the end of the list; a missing name is refused first', async () => {
    const user = userEvent.setup();
    api = await useFakeApi({
      'GET /apps/listar': { status: 200, body: page([app(1, 'Control Max 360'), app(2, 'Beto Pro')], 2, 1, 10) },
      'POST /apps/register': (request) => ({
        status: 201,
        body: app(6, JSON.parse(request.body).nombre, { isEnabledWeb: false }),
      }),
    });
    renderAt('/admin/apps', <AppsAdminPage />);
    await screen.findByText('Beto Pro');
    await user.click(screen.getByRole('button', { name: 'Nueva aplicación' }));
    const dialog = screen.getByRole('dialog', { name: 'Nueva aplicación' });
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('El nombre es requerido');
    expect(bodiesTo(api, '/apps/register')).toEqual([]);

    await user.type(within(dialog).getByLabelText('Nombre'), 'Medidor X');
    await user.type(within(dialog).getByLabelText('Etiquetas (separadas por comas)'), 'Caudal, Gas');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Aplicación agregada')).toBeInTheDocument();
    expect(bodiesTo(api, '/apps/register')).toEqual([
      expect.objectContaining({
        nombre: 'Medidor X',
        isEnabledWeb: false,
        tags: [{ descripcion: 'Caudal' }, { descripcion: 'Gas' }],
      }),
    ]);
    const names = screen
      .getAllByRole('heading', { level: 2 })
      .map((h) => h.textContent)
      .filter((t) => t !== 'Aplicaciones');
    expect(names).toEqual(['Control Max 360', 'Beto Pro', 'Medidor X']);
  });

  it('a new app that starts a second page shows the page numbers', async () => {
    const user = userEvent.setup();
    const ten = Array.from({ length: 10 }, (_, i) => app(i + 1, `App ${i + 1}`));
    api = await useFakeApi({
      'GET /apps/listar': { status: 200, body: page(ten, 10, 1, 10) },
      'POST /apps/register': { status: 201, body: app(11, 'App 11') },
    });
    renderAt('/admin/apps', <AppsAdminPage />);
    await screen.findByText('App 10');
    expect(screen.queryByRole('navigation', { name: 'Paginación' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Nueva aplicación' }));
    const dialog = screen.getByRole('dialog', { name: 'Nueva aplicación' });
    await user.type(within(dialog).getByLabelText('Nombre'), 'App 11');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    const pages = await screen.findByRole('navigation', { name: 'Paginación' });
    expect(within(pages).getByRole('button', { name: 'Página 2' })).toBeInTheDocument();
  });

  it("shows the server's message when saving fails and keeps the form open", async () => {
    const user = userEvent.setup();
    api = await useFakeApi({
      'GET /apps/listar': { status: 200, body: page([app(1, 'Control Max 360')], 1, 1, 10) },
      'POST /apps/register': {
        status: 400,
        body: { statusCode: 400, message: "Datos inválidos: 'webUrl' no es válido" },
      },
    });
    renderAt('/admin/apps', <AppsAdminPage />);
    await user.click(await screen.findByRole('button', { name: 'Nueva aplicación' }));
    const dialog = screen.getByRole('dialog', { name: 'Nueva aplicación' });
    await user.type(within(dialog).getByLabelText('Nombre'), 'X');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    // The field is named with the form's label.
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent("Datos inválidos: 'URL web' no es válido"),
    );
  });

  it('shows the link rule under the form before sending a javascript: link', async () => {
    const user = userEvent.setup();
    api = await useFakeApi({ 'GET /apps/listar': { status: 200, body: page([app(1, 'Control Max 360')], 1, 1, 10) } });
    renderAt('/admin/apps', <AppsAdminPage />);
    await user.click(await screen.findByRole('button', { name: 'Nueva aplicación' }));
    const dialog = screen.getByRole('dialog', { name: 'Nueva aplicación' });
    await user.type(within(dialog).getByLabelText('Nombre'), 'X');
    await user.type(within(dialog).getByLabelText('URL iOS'), 'javascript://%0aalert(1)');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'La URL iOS debe ser una dirección https:// o el enlace de la app',
    );
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('lists every app: page numbers, the page size, and back to page 1 after an edit', async () => {
    const user = userEvent.setup();
    const all = Array.from({ length: 23 }, (_, i) => app(i + 1, `App ${i + 1}`));
    api = await useFakeApi({
      'GET /apps/listar': (request) => {
        const query = new URLSearchParams(request.path.split('?')[1]);
        const p = Number(query.get('page'));
        const limit = Number(query.get('limit'));
        return { status: 200, body: page(all.slice((p - 1) * limit, p * limit), all.length, p, limit) };
      },
      'PUT /apps/update/21': { status: 200, body: all[20] },
    });
    renderAt('/admin/apps', <AppsAdminPage />);
    expect(await screen.findByText('App 10')).toBeInTheDocument();
    expect(screen.queryByText('App 11')).not.toBeInTheDocument();
    const pages = within(screen.getByRole('navigation', { name: 'Paginación' }));
    expect(pages.getAllByRole('button', { name: /^Página/ }).map((b) => b.textContent)).toEqual(['1', '2', '3']);

    await user.click(pages.getByRole('button', { name: 'Página 3' }));
    expect(await screen.findByText('App 23')).toBeInTheDocument();
    expect(pages.getByRole('button', { name: 'Siguiente' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Editar App 21' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar App 21' });
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Aplicación actualizada')).toBeInTheDocument();
    expect(await screen.findByText('App 1')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Aplicaciones por página'), '30');
    expect(await screen.findByText('App 23')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Paginación' })).not.toBeInTheDocument();
    expect(queriesTo(api, '/apps/listar')).toEqual([
      { page: '1', limit: '10' },
      { page: '3', limit: '10' },
      { page: '1', limit: '10' },
      { page: '1', limit: '30' },
    ]);
  });
});
