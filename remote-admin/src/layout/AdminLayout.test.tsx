import { act, screen, waitFor, render, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { getUserStats } from '../api/admin';
import AdminLayout from './AdminLayout';
import { leaveTo, type SecurityStatus, whenApiIdle } from '@portal/shared';
import { adminUser, useFakeApi as startFakeApi, type FakeApi } from '../testing/setup';

jest.mock('@portal/shared', () => ({ ...jest.requireActual('@portal/shared'), leaveTo: jest.fn() }));

let api: FakeApi;
afterEach(async () => {
  // The gate's status read may still be under way when a test ends early.
  await whenApiIdle();
  await api?.close();
  jest.restoreAllMocks();
});

const security = (overrides: Partial<SecurityStatus> = {}): SecurityStatus => ({
  totp: true,
  passkeys: 0,
  recoveryCodesLeft: 10,
  secondFactorRequired: true,
  sessionVerified: true,
  sessionTrustedDevice: false,
  ...overrides,
});

/** The fake API with the status of a verified administrator's session unless the test says otherwise. */
function useFakeApi(routes: Parameters<typeof startFakeApi>[0], user?: Parameters<typeof startFakeApi>[1]) {
  return startFakeApi({ 'GET /auth/seguridad': { status: 200, body: security() }, ...routes }, user);
}

function renderLayout() {
  return render(
    <MemoryRouter initialEntries={['/admin/usuarios']}>
      <Routes>
        <Route element={<AdminLayout />}>
          <Route path="/admin/usuarios" element={<p>Página de usuarios</p>} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}

describe('the admin layout', () => {
  it('shows the side panel and the page', async () => {
    api = await useFakeApi({}, adminUser({ name: 'Lucía', lastName: 'Gómez' }));
    renderLayout();
    expect(await screen.findByText('Página de usuarios')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Usuarios' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText('Lucía Gómez')).toBeInTheDocument();
    expect(screen.getByText('Administrador')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ir al inicio' })).toHaveAttribute('href', '/');
  });

  it('names every entry of the side panel in Spanish', async () => {
    api = await useFakeApi({}, adminUser());
    renderLayout();
    const nav = within(await screen.findByRole('navigation', { name: 'Panel de administración' }));
    expect(nav.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Usuarios', '/admin/usuarios'],
      ['Resumen', '/admin/dashboard'],
      ['Aplicaciones', '/admin/apps'],
      ['Empresas', '/admin/empresas'],
    ]);
  });

  it("shows a company's owner or administrator the frame with 'Empresa' only, and no second-factor gate", async () => {
    const empresas = [{ id: 4, nombre: 'Minera Andina S.A.', rol: 'propietario', estado: 'activo' }];
    api = await useFakeApi({}, adminUser({ role: 2, ...({ empresas } as object) }));
    renderLayout();
    const nav = within(await screen.findByRole('navigation', { name: 'Panel de administración' }));
    expect(nav.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Empresa', '/admin/empresas'],
    ]);
    expect(screen.getByText('Administración de empresa')).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it('refuses a plain member of a company like anyone else', async () => {
    const empresas = [{ id: 4, nombre: 'Minera Andina S.A.', rol: 'miembro', estado: 'activo' }];
    api = await useFakeApi({}, adminUser({ role: 2, ...({ empresas } as object) }));
    renderLayout();
    expect(screen.getByText('Acceso Denegado')).toBeInTheDocument();
  });

  it('falls back to Admin when the administrator has no name', async () => {
    api = await useFakeApi({}, adminUser({ name: '', lastName: '' }));
    renderLayout();
    expect(screen.getByText('Admin')).toBeInTheDocument();
  });

  it('refuses anyone but an administrator, even standalone', async () => {
    api = await useFakeApi({}, adminUser({ role: 2 }));
    renderLayout();
    expect(screen.getByText('Acceso Denegado')).toBeInTheDocument();
    expect(screen.getByText('No tienes permisos para acceder a esta área.')).toBeInTheDocument();
    expect(screen.queryByText('Página de usuarios')).not.toBeInTheDocument();
  });

  it('signs out and loads /login afresh', async () => {
    api = await useFakeApi({ 'POST /auth/logout': { status: 204 } });
    renderLayout();
    await screen.findByText('Página de usuarios');
    await userEvent.click(screen.getByRole('button', { name: 'Cerrar Sesión' }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('/login'));
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /auth/seguridad', 'POST /auth/logout']);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('opens and closes the side panel with the toggle', async () => {
    api = await useFakeApi({});
    renderLayout();
    // The toggle only shows on small screens (CSS media query), which jsdom does not apply.
    const toggle = screen.getByRole('button', { name: /Abrir menú/, hidden: true });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Cerrar menú', hidden: true }));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });
});

describe("the admin panel's second-factor gate", () => {
  it('asks an administrator without a second factor to set one up, and shows no admin page', async () => {
    api = await useFakeApi({
      'GET /auth/seguridad': { status: 200, body: security({ totp: false, passkeys: 0, sessionVerified: false }) },
    });
    renderLayout();
    expect(screen.getByRole('status')).toHaveTextContent('Cargando...');
    expect(await screen.findByRole('heading', { name: 'Configura tu segundo factor' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'Para usar el panel de administración necesitas una aplicación de autenticación o una llave de acceso.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Configurar ahora' })).toHaveAttribute('href', '/perfil?tab=seguridad');
    expect(screen.queryByText('Página de usuarios')).not.toBeInTheDocument();
    // Inside the admin frame: the side panel stays.
    expect(screen.getByRole('navigation', { name: 'Panel de administración' })).toBeInTheDocument();
  });

  it('asks an administrator whose session did not prove the factor to sign in again, and signs out', async () => {
    api = await useFakeApi({
      'GET /auth/seguridad': { status: 200, body: security({ passkeys: 1, sessionVerified: false }) },
      'POST /auth/logout': { status: 204 },
    });
    renderLayout();
    expect(await screen.findByRole('heading', { name: 'Confirma tu identidad' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'Cierra sesión y vuelve a iniciarla con tu segundo factor para usar el panel de administración.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('Página de usuarios')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cerrar sesión' }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('/login'));
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /auth/seguridad', 'POST /auth/logout']);
  });

  it('shows the admin page when the second factor is not required', async () => {
    api = await useFakeApi({
      'GET /auth/seguridad': {
        status: 200,
        body: security({ totp: false, secondFactorRequired: false, sessionVerified: false }),
      },
    });
    renderLayout();
    expect(await screen.findByText('Página de usuarios')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Configura tu segundo factor' })).not.toBeInTheDocument();
  });

  it('closes the panel when an admin call is refused for want of the second factor', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    api = await useFakeApi({
      'GET /user/stats': {
        status: 403,
        body: { statusCode: 403, code: 'SECOND_FACTOR_SESSION_REQUIRED', message: 'Vuelve a iniciar sesión' },
      },
    });
    renderLayout();
    await screen.findByText('Página de usuarios');
    await act(() => expect(getUserStats()).rejects.toThrow('Vuelve a iniciar sesión'));
    expect(await screen.findByRole('heading', { name: 'Confirma tu identidad' })).toBeInTheDocument();
    expect(screen.queryByText('Página de usuarios')).not.toBeInTheDocument();
  });

  it('says so in Spanish when the status cannot be read, and tries again', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let fail = true;
    api = await useFakeApi({
      'GET /auth/seguridad': () =>
        fail
          ? { status: 500, body: { statusCode: 500, message: 'Internal Server Error' } }
          : { status: 200, body: security() },
    });
    renderLayout();
    expect(
      await screen.findByRole('heading', { name: 'No se pudo abrir el panel de administración' }),
    ).toBeInTheDocument();
    expect(screen.getByText('No se pudo comprobar la seguridad de tu cuenta')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('Página de usuarios')).toBeInTheDocument();
  });
});
