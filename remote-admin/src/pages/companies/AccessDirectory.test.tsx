import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import CompanyPage from './CompanyPage';
import { adminUser, bodiesTo, type FakeApi, queriesTo, renderAt, useFakeApi } from '../../testing/setup';
import { company } from '../../testing/companies';
import type { CompanyProvider, ScimRequest, ScimToken } from '../../api/company-types';

// Long flows on a shared machine: a dialog each step.
jest.setTimeout(30_000);

let api: FakeApi;
afterEach(() => api?.close());

const provider = (over: Partial<CompanyProvider> = {}): CompanyProvider => ({
  issuer: 'https://login.minera.pe',
  clientId: 'portal-minera',
  dominios: ['minera.pe'],
  permitirContrasena: true,
  redirectUri: 'https://api.portal.test/auth/empresa/callback',
  ultimoError: null,
  ultimoErrorEn: null,
  ultimoAcceso: null,
  actualizado: '2027-02-01T10:00:00.000Z',
  ...over,
});

const token = (id: number, over: Partial<ScimToken> = {}): ScimToken => ({
  id,
  prefijo: `scim_abc${id}xyz`,
  descripcion: `Entra ID ${id}`,
  creado: '2027-02-01T10:00:00.000Z',
  creadoPor: 'jefa@minera.pe',
  ultimoUso: null,
  revocado: null,
  ...over,
});

const logEntry = (id: number, over: Partial<ScimRequest> = {}): ScimRequest => ({
  id,
  fecha: `2027-02-0${id}T10:00:00.000Z`,
  metodo: 'POST',
  ruta: '/scim/v2/Users',
  estado: 201,
  detalle: `Alta número ${id}`,
  usuario: `persona${id}@minera.pe`,
  ...over,
});

const domains = [
  {
    dominio: 'minera.pe',
    verificado: true,
    verificadoPor: 'dns',
    registroTxt: { nombre: '_portal-verificacion.minera.pe', valor: 'a' },
  },
  {
    dominio: 'andina.pe',
    verificado: false,
    verificadoPor: null,
    registroTxt: { nombre: '_portal-verificacion.andina.pe', valor: 'b' },
  },
];

/** A signed-in company manager with `rol` in company 4. */
const manager = (rol: 'propietario' | 'administrador') =>
  adminUser({
    role: 2,
    email: 'jefa@minera.pe',
    ...({ empresas: [{ id: 4, nombre: 'Minera Andina S.A.', rol, estado: 'activo' }] } as object),
  });

const noProvider = {
  status: 404,
  body: { statusCode: 404, code: 'SIN_PROVEEDOR', message: 'La empresa no tiene proveedor de identidad' },
};

const base = (over: Record<string, unknown> = {}) => ({
  'GET /empresas/4': { status: 200, body: company() },
  'GET /empresas/4/licencias': { status: 200, body: [] },
  'GET /empresas/4/miembros': { status: 200, body: { data: [], total: 0, siguiente: null } },
  'GET /empresas/4/dominios': { status: 200, body: domains },
  'GET /empresas/4/proveedor': noProvider,
  'GET /empresas/4/proveedor/redireccion': {
    status: 200,
    body: { redirectUri: 'https://api.portal.test/auth/empresa/callback' },
  },
  'GET /empresas/4/scim/tokens': { status: 200, body: { data: [], urlBase: 'https://api.portal.test/scim/v2' } },
  'GET /empresas/4/scim/registro': { status: 200, body: { data: [] } },
  ...over,
});

const openTab = async (user: ReturnType<typeof userEvent.setup>, name: string) => {
  renderAt('/admin/empresas/4', <CompanyPage />, { pattern: '/admin/empresas/:id' });
  await user.click(await screen.findByRole('tab', { name }));
};

describe("A company's own sign-in ('Acceso de la empresa')", () => {
  it("an owner connects it: the proved domains to choose, the secret required, the answer's redirect address", async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4': { status: 200, body: company({ miRol: 'propietario' }) },
        'PUT /empresas/4/proveedor': {
          status: 200,
          body: { redirectUri: 'https://api.portal.test/auth/empresa/callback' },
        },
      }),
      manager('propietario'),
    );
    await openTab(user, 'Acceso de la empresa');
    expect(await screen.findByText('La empresa aún no ha conectado su proveedor de identidad.')).toBeInTheDocument();
    // Before anything is connected: the address the company's IT registers with the provider to get the client.
    expect(screen.getByText('https://api.portal.test/auth/empresa/callback')).toBeInTheDocument();
    expect(screen.getByText(/^Registra esta dirección de redirección en tu proveedor/)).toBeInTheDocument();
    // Only the proved domain is offered, ticked already, and an owner types no other.
    expect(await screen.findByLabelText('minera.pe')).toBeChecked();
    expect(screen.queryByLabelText('andina.pe')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Otros dominios (separados por comas)')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Secreto de cliente')).toHaveAttribute('type', 'password');
    expect(screen.queryByText('Vacío: se mantiene el actual.')).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Emisor (issuer)'), 'https://login.minera.pe');
    await user.type(screen.getByLabelText('ID de cliente'), 'portal-minera');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Escribe el secreto de cliente')).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'PUT')).toEqual([]);

    await user.type(screen.getByLabelText('Secreto de cliente'), 's3creto');
    await user.click(screen.getByLabelText('Permitir también la contraseña del portal'));
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Acceso de la empresa guardado')).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'PUT').map((r) => r.path)).toEqual(['/empresas/4/proveedor']);
    expect(bodiesTo(api, '/empresas/4/proveedor').filter(Boolean)).toEqual([
      {
        issuer: 'https://login.minera.pe',
        clientId: 'portal-minera',
        clientSecret: 's3creto',
        dominios: ['minera.pe'],
        permitirContrasena: false,
      },
    ]);
    expect(screen.getByText('https://api.portal.test/auth/empresa/callback')).toBeInTheDocument();
    expect(screen.getByText(/^Registra esta dirección de redirección en tu proveedor/)).toBeInTheDocument();
    const copy = screen.getByRole('button', { name: 'Copiar dirección de redirección' });
    await user.click(copy);
    // The button keeps saying what it does ('Copiar', the start of its name); the status beside it says it is done.
    expect(await screen.findByText('Copiado')).toHaveAttribute('role', 'status');
    expect(copy).toHaveTextContent('Copiar');
    await expect(navigator.clipboard.readText()).resolves.toBe('https://api.portal.test/auth/empresa/callback');
  });

  it("says the API's refusal as the API words it", async () => {
    const user = userEvent.setup();
    const refusal = 'El dominio minera.pe no está verificado por esta empresa: verifícalo en «Dominios».';
    api = await useFakeApi(
      base({
        'GET /empresas/4': { status: 200, body: company({ miRol: 'propietario' }) },
        'GET /empresas/4/proveedor': { status: 200, body: provider() },
        'PUT /empresas/4/proveedor': {
          status: 409,
          body: { statusCode: 409, code: 'DOMINIO_NO_VERIFICADO', message: refusal },
        },
      }),
      manager('propietario'),
    );
    await openTab(user, 'Acceso de la empresa');
    expect(await screen.findByLabelText('minera.pe')).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    // An update leaves the secret out when its field is empty: the API keeps the current one.
    expect(bodiesTo(api, '/empresas/4/proveedor').filter(Boolean)).toEqual([
      {
        issuer: 'https://login.minera.pe',
        clientId: 'portal-minera',
        dominios: ['minera.pe'],
        permitirContrasena: true,
      },
    ]);
  });

  it('a platform administrator reads the last sign-in and error, proves typed domains, and disconnects after asking', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4/proveedor': {
          status: 200,
          body: provider({
            ultimoAcceso: '2027-02-03T08:00:00.000Z',
            ultimoError: 'El proveedor rechazó el código de acceso',
            ultimoErrorEn: '2027-02-02T09:30:00.000Z',
          }),
        },
        'PUT /admin/empresas/4/proveedor': {
          status: 200,
          body: { redirectUri: 'https://api.portal.test/auth/empresa/callback' },
        },
        'DELETE /admin/empresas/4/proveedor': { status: 204 },
      }),
    );
    await openTab(user, 'Acceso de la empresa');
    expect(await screen.findByText('https://login.minera.pe')).toBeInTheDocument();
    expect(
      screen.getByText(
        `Último error (${new Date('2027-02-02T09:30:00.000Z').toLocaleString('es-ES')}): El proveedor rechazó el código de acceso`,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(new Date('2027-02-03T08:00:00.000Z').toLocaleString('es-ES'))).toBeInTheDocument();
    expect(screen.getByText('Vacío: se mantiene el actual.')).toBeInTheDocument();

    await user.type(await screen.findByLabelText('Otros dominios (separados por comas)'), 'Andina.pe, cobre.pe');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Acceso de la empresa guardado')).toBeInTheDocument();
    expect(bodiesTo(api, '/admin/empresas/4/proveedor').filter(Boolean)).toEqual([
      {
        issuer: 'https://login.minera.pe',
        clientId: 'portal-minera',
        dominios: ['minera.pe', 'andina.pe', 'cobre.pe'],
        permitirContrasena: true,
      },
    ]);

    // Escape closes the question, nothing sent; then 'Desconectar' does it.
    await user.click(screen.getByRole('button', { name: 'Desconectar' }));
    const question = screen.getByRole('dialog', { name: '¿Desconectar el proveedor de identidad?' });
    expect(question).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Desconectar' }));
    const confirm = screen.getByRole('dialog', { name: '¿Desconectar el proveedor de identidad?' });
    await user.click(within(confirm).getByRole('button', { name: 'Desconectar' }));
    expect(await screen.findByText('Proveedor de identidad desconectado')).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      '/admin/empresas/4/proveedor',
    ]);
    expect(screen.getByText('La empresa aún no ha conectado su proveedor de identidad.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Desconectar' })).not.toBeInTheDocument();
  });

  it('a company administrator reads it: no form, no disconnect', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4': { status: 200, body: company({ miRol: 'administrador' }) },
        'GET /empresas/4/proveedor': { status: 200, body: provider() },
      }),
      manager('administrador'),
    );
    await openTab(user, 'Acceso de la empresa');
    expect(await screen.findByText('https://login.minera.pe')).toBeInTheDocument();
    expect(screen.getByText('Solo los propietarios de la empresa pueden cambiar esto.')).toBeInTheDocument();
    expect(screen.getByText('https://api.portal.test/auth/empresa/callback')).toBeInTheDocument();
    expect(screen.queryByLabelText('Emisor (issuer)')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Guardar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Desconectar' })).not.toBeInTheDocument();
    expect(queriesTo(api, '/empresas/4/dominios')).toEqual([]);
  });
});

describe("A company's directory ('Directorio (SCIM)')", () => {
  it('says when there are no tokens and no requests yet', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(base());
    await openTab(user, 'Directorio (SCIM)');
    expect(await screen.findByText('La empresa aún no tiene tokens del directorio.')).toBeInTheDocument();
    expect(await screen.findByText('El directorio aún no ha hecho ninguna petición.')).toBeInTheDocument();
    expect(screen.getByText('https://api.portal.test/scim/v2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copiar url base' })).toBeInTheDocument();
  });

  it('an owner creates a token, shown once, and revokes one after asking', async () => {
    const user = userEvent.setup();
    let created = false;
    api = await useFakeApi(
      base({
        'GET /empresas/4': { status: 200, body: company({ miRol: 'propietario' }) },
        'GET /empresas/4/scim/tokens': () => ({
          status: 200,
          body: {
            data: [
              ...(created ? [token(9, { descripcion: 'Okta' })] : []),
              token(7, { ultimoUso: '2027-02-04T10:00:00.000Z' }),
              token(6, { revocado: '2027-02-02T10:00:00.000Z', descripcion: '' }),
            ],
            urlBase: 'https://api.portal.test/scim/v2',
          },
        }),
        'POST /empresas/4/scim/tokens': () => {
          created = true;
          return {
            status: 201,
            body: {
              id: 9,
              token: 'scim_SECRETO-DE-UNA-VEZ',
              prefijo: 'scim_abc9xyz',
              descripcion: 'Okta',
              creado: '2027-02-05T10:00:00.000Z',
              urlBase: 'https://api.portal.test/scim/v2',
            },
          };
        },
        'DELETE /empresas/4/scim/tokens/7': { status: 204 },
      }),
      manager('propietario'),
    );
    await openTab(user, 'Directorio (SCIM)');
    const table = await screen.findByRole('table', { name: 'Tokens del directorio' });
    expect(within(table).getByText('scim_abc7xyz…')).toBeInTheDocument();
    expect(within(table).getByText('Activo')).toBeInTheDocument();
    expect(
      within(table).getByText(`Revocado ${new Date('2027-02-02T10:00:00.000Z').toLocaleString('es-ES')}`),
    ).toBeInTheDocument();
    // A revoked token is not offered again.
    expect(within(table).queryByRole('button', { name: 'Revocar token scim_abc6xyz…' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Crear token' }));
    const form = screen.getByRole('dialog', { name: 'Crear token del directorio' });
    await user.type(within(form).getByLabelText('Descripción (opcional)'), 'Okta');
    await user.click(within(form).getByRole('button', { name: 'Guardar' }));
    const shown = await screen.findByRole('dialog', { name: 'Token del directorio creado' });
    expect(within(shown).getByText('Copia el token ahora: no se volverá a mostrar.')).toBeInTheDocument();
    expect(within(shown).getByLabelText('Token')).toHaveValue('scim_SECRETO-DE-UNA-VEZ');
    await user.click(within(shown).getByRole('button', { name: 'Copiar token' }));
    await expect(navigator.clipboard.readText()).resolves.toBe('scim_SECRETO-DE-UNA-VEZ');
    expect(bodiesTo(api, '/empresas/4/scim/tokens').filter(Boolean)).toEqual([{ descripcion: 'Okta' }]);
    await user.click(within(shown).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('scim_abc9xyz…')).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent('scim_SECRETO-DE-UNA-VEZ');

    await user.click(screen.getByRole('button', { name: 'Revocar token scim_abc7xyz…' }));
    const confirm = screen.getByRole('dialog', { name: '¿Revocar el token scim_abc7xyz…?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revocar' }));
    expect(await screen.findByText('Token scim_abc7xyz… revocado')).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/empresas/4/scim/tokens/7']);
  });

  it("lists the directory's last requests newest first, again on 'Actualizar'", async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4/scim/registro': {
          status: 200,
          body: {
            data: [
              logEntry(3, { metodo: 'PATCH', ruta: '/scim/v2/Users/abc', estado: 200, detalle: 'Dada de baja' }),
              logEntry(1, { metodo: 'POST', estado: 409, detalle: 'Ya existe', usuario: null }),
              logEntry(2),
            ],
          },
        },
      }),
    );
    await openTab(user, 'Directorio (SCIM)');
    const table = await screen.findByRole('table', { name: 'Últimas peticiones del directorio' });
    const [first, second, third] = within(table).getAllByRole('row').slice(1) as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    expect([first, second, third].map((row) => within(row).getAllByRole('cell')[4]?.textContent)).toEqual([
      'Dada de baja',
      'Alta número 2',
      'Ya existe',
    ]);
    expect(within(first).getByText('PATCH')).toBeInTheDocument();
    expect(within(first).getByText('/scim/v2/Users/abc')).toBeInTheDocument();
    expect(within(third).getByText('409')).toBeInTheDocument();
    expect(within(second).getByText('persona2@minera.pe')).toBeInTheDocument();
    expect(queriesTo(api, '/empresas/4/scim/registro')).toEqual([{ limit: '50' }]);
    await user.click(screen.getByRole('button', { name: 'Actualizar' }));
    await waitFor(() => expect(queriesTo(api, '/empresas/4/scim/registro')).toHaveLength(2));
  });

  it('a company administrator reads tokens and requests: no create, no revoke', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4': { status: 200, body: company({ miRol: 'administrador' }) },
        'GET /empresas/4/scim/tokens': {
          status: 200,
          body: { data: [token(7)], urlBase: 'https://api.portal.test/scim/v2' },
        },
      }),
      manager('administrador'),
    );
    await openTab(user, 'Directorio (SCIM)');
    const table = await screen.findByRole('table', { name: 'Tokens del directorio' });
    expect(within(table).getByText('scim_abc7xyz…')).toBeInTheDocument();
    expect(within(table).queryByRole('columnheader', { name: 'Acciones' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Revocar/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Crear token' })).not.toBeInTheDocument();
    expect(screen.getByText('Solo los propietarios de la empresa pueden cambiar esto.')).toBeInTheDocument();
  });
});

describe("The company's activity", () => {
  /** One entry of the company's log, by its administrator unless `over` says otherwise. */
  const entry = (id: number, action: string, details: Record<string, unknown>, over: object = {}) => ({
    id,
    action,
    actorId: 1,
    actorEmail: 'jefa@minera.pe',
    targetType: 'company',
    targetId: 4,
    targetLabel: 'Minera Andina S.A.',
    details,
    createdAt: `2027-02-0${id}T10:00:00.000Z`,
    ...over,
  });
  /** The company's log as the API answers it: one page of `entries`. */
  const logPage = (entries: object[]) => ({
    'GET /empresas/4/auditoria': {
      status: 200,
      body: {
        data: entries,
        total: entries.length,
        totalPages: 1,
        currentPage: 1,
        hasNextPage: false,
        count: entries.length,
      },
    },
  });
  /** Opens 'Registro de actividad': its rows, and the text of each row's cells. */
  const activityRows = async (user: ReturnType<typeof userEvent.setup>) => {
    await openTab(user, 'Registro de actividad');
    const table = await screen.findByRole('table', { name: 'Registro de actividad' });
    const rows = within(table).getAllByRole('row').slice(1);
    const cells = (index: number) =>
      within(rows[index] as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    return { rows, cells };
  };

  it('names the sign-in and directory actions in Spanish, with where each came from', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        ...logPage([
          entry(1, 'company.provider_update', {
            issuer: 'https://login.minera.pe',
            dominios: ['minera.pe'],
            permitirContrasena: false,
            secretoCambiado: true,
          }),
          entry(2, 'company.sign_in', { fuente: 'proveedor', email: 'ana@minera.pe' }, { actorEmail: 'ana@minera.pe' }),
          entry(
            3,
            'company.member_deprovision',
            { fuente: 'scim', userName: 'luis@minera.pe' },
            { actorEmail: 'directorio (SCIM)' },
          ),
          entry(4, 'company.scim_token_create', { prefijo: 'scim_abc7xyz', descripcion: 'Okta' }),
        ]),
      }),
    );
    const { cells } = await activityRows(user);
    expect(cells(0).slice(2)).toEqual([
      'Administrador de la empresa',
      'Proveedor de identidad conectado o cambiado',
      'Minera Andina S.A.',
      'https://login.minera.pe · minera.pe · sin contraseña del portal · secreto cambiado',
    ]);
    expect(cells(1).slice(2, 5)).toEqual([
      'Proveedor de la empresa',
      'Inicio de sesión con el acceso de la empresa',
      'Minera Andina S.A.',
    ]);
    expect(cells(1)[5]).toBe('ana@minera.pe');
    expect(cells(2).slice(1, 4)).toEqual(['directorio (SCIM)', 'SCIM', 'Persona dada de baja por el directorio']);
    expect(cells(3)[3]).toBe('Token SCIM creado');
    expect(cells(3)[5]).toBe('token scim_abc7xyz… · Okta');
  });

  it("says who took roles with a seat, their names and why; the portal's own entries and a refused sign-in", async () => {
    const user = userEvent.setup();
    const portal = { actorId: null, actorEmail: 'sistema', origen: 'sistema' };
    const taken = { userId: 9, appId: 1, despues: [], fuenteRoles: 'puesto' };
    api = await useFakeApi(
      base({
        ...logPage([
          entry(
            1,
            'company.app_roles_change',
            {
              ...taken,
              email: 'ana@minera.pe',
              antes: ['operador', 'supervisor'],
              nombres: { operador: 'Operador de planta', supervisor: 'Supervisora' },
              motivo: 'miembro_retirado',
            },
            { actorId: 1, actorEmail: 'jefa@minera.pe', origen: 'administrador' },
          ),
          entry(
            2,
            'company.app_roles_change',
            {
              ...taken,
              email: 'luis@minera.pe',
              antes: ['supervisor'],
              nombres: { supervisor: 'Supervisora' },
              motivo: 'grupo_directorio',
              fuente: 'directorio',
            },
            { actorId: null, actorEmail: 'directorio (SCIM)', origen: 'scim' },
          ),
          // Written before the entries named their cause: the portal's own, with the keys it kept.
          entry(3, 'company.app_roles_change', { ...taken, email: 'eva@minera.pe', antes: ['operador'] }, portal),
          entry(
            4,
            'auth.sign_in_refused',
            { motivo: 'red', metodo: 'contrasena', address: '203.0.113.9' },
            { ...portal, targetType: 'user', targetId: 9, targetLabel: 'ana@minera.pe' },
          ),
        ]),
      }),
    );
    const { cells } = await activityRows(user);
    expect(cells(0).slice(1)).toEqual([
      'jefa@minera.pe',
      'Administrador de la empresa',
      'Cambió los roles en una aplicación',
      'Minera Andina S.A.',
      'app n.º 1 · ana@minera.pe: Operador de planta, Supervisora → sin roles · al salir de la empresa',
    ]);
    expect([cells(1)[1], cells(1)[2], cells(1)[5]]).toEqual([
      'directorio (SCIM)',
      'SCIM',
      'app n.º 1 · luis@minera.pe: Supervisora → sin roles · al salir del grupo del directorio que le daba el puesto',
    ]);
    expect([cells(2)[2], cells(2)[5]]).toEqual([
      'El propio portal',
      'app n.º 1 · eva@minera.pe: operador → sin roles · al quitarle el puesto',
    ]);
    expect(cells(3).slice(2)).toEqual([
      'El propio portal',
      'Inicio de sesión rechazado por las reglas de la empresa',
      'ana@minera.pe',
      'Fuera de las redes permitidas: 203.0.113.9 · Contraseña',
    ]);
  });

  it('names a setup link as the origin of what IT did through it, once, and reads a rules change', async () => {
    const user = userEvent.setup();
    const link = { actorId: null, actorEmail: 'enlace de configuración n.º 3', origen: 'enlace' };
    api = await useFakeApi(
      base({
        ...logPage([
          entry(
            1,
            'company.domain_add',
            { domain: 'minera.pe', fuente: 'enlace', enlaceId: 3, direccion: '203.0.113.9' },
            link,
          ),
          entry(
            2,
            'company.settings_change',
            {
              redesPermitidas: { de: [], a: ['203.0.113.0/24'] },
              metodosPermitidos: { de: ['contrasena', 'google'], a: ['empresa'] },
              sesionMaximaHoras: { de: null, a: 8 },
              inactividadMinutos: { de: 30, a: null },
              sesionesTerminadas: 2,
            },
            { actorId: 1, actorEmail: 'jefa@minera.pe', origen: 'administrador' },
          ),
        ]),
      }),
    );
    const { rows, cells } = await activityRows(user);
    expect(cells(0).slice(1)).toEqual([
      'enlace de configuración n.º 3',
      'Enlace de configuración',
      'Añadió un dominio',
      'Minera Andina S.A.',
      'minera.pe · desde 203.0.113.9',
    ]);
    // At 1280 px a word breaks only when it alone is wider than its column; an address or a URL may break anywhere.
    const [, who, origin] = within(rows[0] as HTMLElement).getAllByRole('cell');
    expect(getComputedStyle(origin as HTMLElement).overflowWrap).toBe('break-word');
    expect(getComputedStyle(who as HTMLElement).overflowWrap).toBe('anywhere');
    expect(cells(1)[5]).toBe(
      'Redes permitidas: cualquiera → 203.0.113.0/24 · Métodos permitidos: Contraseña, Google → Inicio de sesión de la empresa · Duración máxima de una sesión: sin límite → 8 h · Cierre tras minutos sin uso: 30 min → sin límite · 2 sesiones cerradas',
    );
  });
});
