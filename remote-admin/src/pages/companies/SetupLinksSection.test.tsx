// 'Enlaces de configuración' in a company's 'Ajustes': an owner creates a link (the URL shown once, with 'Copiar'),
// the list says who made each and until when, 'Revocar' asks first; a platform administrator lists and revokes but
// creates none; a company administrator does not see the section (the API refuses them).
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { whenApiIdle } from '@portal/shared';
import CompanyPage from './CompanyPage';
import { adminUser, type FakeApi, renderAt, useFakeApi } from '../../testing/setup';
import { company } from '../../testing/companies';

jest.setTimeout(30_000);

let api: FakeApi;
afterEach(async () => {
  await whenApiIdle();
  window.history.replaceState(null, '', '/');
  await api?.close();
});

const memberOf = (rol: 'propietario' | 'administrador') =>
  adminUser({
    role: 2,
    email: 'jefa@minera.pe',
    ...({ empresas: [{ id: 4, nombre: 'Minera Andina S.A.', rol, estado: 'activo' }] } as object),
  });

const URL_SHOWN = 'http://localhost:3000/configurar-empresa#cfg_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const LINKS = [
  {
    id: 7,
    creado: '2027-02-01T10:00:00.000Z',
    creadoPor: 'jefa@minera.pe',
    venceEn: '2027-02-02T10:00:00.000Z',
    estado: 'activo',
  },
  {
    id: 6,
    creado: '2027-01-20T10:00:00.000Z',
    creadoPor: 'otra@minera.pe',
    venceEn: '2027-01-21T10:00:00.000Z',
    estado: 'vencido',
  },
];

const base = (rol: 'propietario' | 'administrador' | null, over: Record<string, unknown> = {}) => ({
  'GET /empresas/4': { status: 200, body: company({ miRol: rol }) },
  'GET /empresas/4/licencias': { status: 200, body: [] },
  'GET /empresas/4/miembros': { status: 200, body: { data: [], total: 0, siguiente: null } },
  'GET /empresas/4/enlaces-configuracion': { status: 200, body: { data: LINKS } },
  ...over,
});

/** The bodies of the links created (POST), in order. */
const posted = (fake: FakeApi) =>
  fake.requests
    .filter((request) => request.method === 'POST' && request.path === '/empresas/4/enlaces-configuracion')
    .map((request) => JSON.parse(request.body || 'null'));

async function openSettings(user: ReturnType<typeof userEvent.setup>) {
  renderAt('/admin/empresas/4', <CompanyPage />, { pattern: '/admin/empresas/:id' });
  await user.click(await screen.findByRole('tab', { name: 'Ajustes' }));
}

describe("A company's setup links in 'Ajustes'", () => {
  it('an owner creates one for 48 hours and sees its URL once, with Copiar; the list shows the links', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base('propietario', {
        'POST /empresas/4/enlaces-configuracion': {
          status: 201,
          body: { id: 8, url: URL_SHOWN, venceEn: '2027-02-03T10:00:00.000Z' },
        },
      }),
      memberOf('propietario'),
    );
    await openSettings(user);
    const panel = await screen.findByRole('region', { name: 'Enlaces de configuración' });
    const table = await within(panel).findByRole('table', { name: 'Enlaces de configuración' });
    expect(within(table).getByText('jefa@minera.pe')).toBeInTheDocument();
    expect(within(table).getByText('Vencido')).toBeInTheDocument();
    const hours = within(panel).getByLabelText('Horas que sirve (de 1 a 72)');
    expect(hours).toHaveValue('24');
    await user.clear(hours);
    await user.type(hours, '48');
    await user.click(within(panel).getByRole('button', { name: 'Crear enlace' }));
    expect(await within(panel).findByText(URL_SHOWN)).toBeInTheDocument();
    expect(within(panel).getByText(/no se volverá a mostrar/)).toBeInTheDocument();
    // The keyboard goes on from the link made: its note, then 'Copiar'.
    expect(document.activeElement).toHaveTextContent(/no se volverá a mostrar/);
    expect(within(panel).getByRole('button', { name: 'Copiar enlace de configuración' })).toBeInTheDocument();
    expect(posted(api)).toEqual([{ horas: 48 }]);
  });

  it('refuses hours out of 1–72 in Spanish, sending nothing', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(base('propietario'), memberOf('propietario'));
    await openSettings(user);
    const panel = await screen.findByRole('region', { name: 'Enlaces de configuración' });
    const hours = within(panel).getByLabelText('Horas que sirve (de 1 a 72)');
    await user.clear(hours);
    await user.type(hours, '73');
    await user.click(within(panel).getByRole('button', { name: 'Crear enlace' }));
    expect(await within(panel).findByText('Indica un número de horas entre 1 y 72')).toBeInTheDocument();
    expect(posted(api)).toEqual([]);
  });

  it("'Revocar' asks first; Cancelar sends nothing, confirming revokes the link", async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base('propietario', { 'DELETE /empresas/4/enlaces-configuracion/7': { status: 204 } }),
      memberOf('propietario'),
    );
    await openSettings(user);
    const panel = await screen.findByRole('region', { name: 'Enlaces de configuración' });
    const revoke = await within(panel).findByRole('button', { name: /^Revocar el enlace creado el/ });
    await user.click(revoke);
    let dialog = await screen.findByRole('dialog', { name: '¿Revocar el enlace de configuración?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.requests.filter((request) => request.method === 'DELETE')).toEqual([]);
    await user.click(revoke);
    dialog = await screen.findByRole('dialog', { name: '¿Revocar el enlace de configuración?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revocar' }));
    expect(await screen.findByText('Enlace de configuración revocado')).toBeInTheDocument();
    expect(api.requests.filter((request) => request.method === 'DELETE').map((request) => request.path)).toEqual([
      '/empresas/4/enlaces-configuracion/7',
    ]);
  });

  it('revoking the link just created takes its URL and Copiar away', async () => {
    const user = userEvent.setup();
    // The new link (id 8) is listed once created, and as revoked once its DELETE arrived.
    let fresh: 'activo' | 'revocado' | null = null;
    const link8 = () => ({ ...LINKS[0], id: 8, creado: '2027-02-03T09:00:00.000Z', estado: fresh });
    api = await useFakeApi(
      base('propietario', {
        'GET /empresas/4/enlaces-configuracion': () => ({
          status: 200,
          body: { data: fresh ? [link8(), ...LINKS] : LINKS },
        }),
        'POST /empresas/4/enlaces-configuracion': () => {
          fresh = 'activo';
          return { status: 201, body: { id: 8, url: URL_SHOWN, venceEn: '2027-02-04T09:00:00.000Z' } };
        },
        'DELETE /empresas/4/enlaces-configuracion/8': () => {
          fresh = 'revocado';
          return { status: 204 };
        },
      }),
      memberOf('propietario'),
    );
    await openSettings(user);
    const panel = await screen.findByRole('region', { name: 'Enlaces de configuración' });
    await user.click(await within(panel).findByRole('button', { name: 'Crear enlace' }));
    expect(await within(panel).findByText(URL_SHOWN)).toBeInTheDocument();
    const revokeNew = await within(panel).findByRole('button', {
      name: `Revocar el enlace creado el ${new Date('2027-02-03T09:00:00.000Z').toLocaleString('es-ES')}`,
    });
    await user.click(revokeNew);
    const dialog = await screen.findByRole('dialog', { name: '¿Revocar el enlace de configuración?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revocar' }));
    expect(await screen.findByText('Enlace de configuración revocado')).toBeInTheDocument();
    expect(within(panel).queryByText(URL_SHOWN)).not.toBeInTheDocument();
    expect(within(panel).queryByText(/no se volverá a mostrar/)).not.toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Copiar enlace de configuración' })).not.toBeInTheDocument();
    expect(api.requests.filter((request) => request.method === 'DELETE').map((request) => request.path)).toEqual([
      '/empresas/4/enlaces-configuracion/8',
    ]);
  });

  it('revoking an older link keeps the URL just created', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base('propietario', {
        'POST /empresas/4/enlaces-configuracion': {
          status: 201,
          body: { id: 8, url: URL_SHOWN, venceEn: '2027-02-04T09:00:00.000Z' },
        },
        'DELETE /empresas/4/enlaces-configuracion/7': { status: 204 },
      }),
      memberOf('propietario'),
    );
    await openSettings(user);
    const panel = await screen.findByRole('region', { name: 'Enlaces de configuración' });
    await user.click(await within(panel).findByRole('button', { name: 'Crear enlace' }));
    expect(await within(panel).findByText(URL_SHOWN)).toBeInTheDocument();
    await user.click(await within(panel).findByRole('button', { name: /^Revocar el enlace creado el/ }));
    const dialog = await screen.findByRole('dialog', { name: '¿Revocar el enlace de configuración?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revocar' }));
    expect(await screen.findByText('Enlace de configuración revocado')).toBeInTheDocument();
    expect(within(panel).getByText(URL_SHOWN)).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Copiar enlace de configuración' })).toBeInTheDocument();
  });

  it('a platform administrator lists and may revoke, but creates none', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(base(null));
    await openSettings(user);
    const panel = await screen.findByRole('region', { name: 'Enlaces de configuración' });
    expect(await within(panel).findByRole('table', { name: 'Enlaces de configuración' })).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Crear enlace' })).not.toBeInTheDocument();
    expect(within(panel).getByText(/Solo un propietario/)).toBeInTheDocument();
  });

  it('a company administrator does not see the section, and asks the API nothing about links', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(base('administrador'), memberOf('administrador'));
    await openSettings(user);
    expect(await screen.findByRole('region', { name: 'Reglas de acceso de los miembros' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Enlaces de configuración' })).not.toBeInTheDocument();
    expect(api.requests.filter((request) => request.path.includes('enlaces-configuracion'))).toEqual([]);
  });
});
