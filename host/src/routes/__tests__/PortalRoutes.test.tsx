import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { resetSessionForTests, useSession, type RemoteName } from '@portal/shared';
import { LocationProbe } from '@portal/shared/testing/render';
import { user } from '@portal/shared/testing/fixtures';
import { PortalRoutes } from '../PortalRoutes';
import { ROUTES } from '../route-table';

// The routes are tested without federation: each remote page is a stand-in that names the module it stands for.
jest.mock('../../federation/RemotePage', () => ({
  RemotePage: ({ remote, module }: { remote: RemoteName; module: string }) => <p>{`${remote}:${module}`}</p>,
}));
jest.mock('../../layout/TopBar', () => ({ TopBar: () => <header>barra superior</header> }));

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <PortalRoutes />
      <LocationProbe />
    </MemoryRouter>,
  );
}

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  useSession.setState({ isInitialized: true });
});

it('lists every route of the spec exactly once', () => {
  const paths = ROUTES.map((route) => route.path);
  expect(new Set(paths).size).toBe(paths.length);
  expect(paths).toEqual(
    expect.arrayContaining([
      '/login',
      '/register',
      '/verify-email',
      '/forgot-password',
      '/reset-password',
      '/google-callback',
      '/auth/google/callback',
      '/logout',
      '/playstoreapps/beto/datos-personales',
      '/',
      '/apps',
      '/apps/:id',
      '/pagos',
      '/success',
      '/perfil',
      '/planes',
      '/beto',
      '/control-max',
      '/calculadora-txi',
      '/admin',
      '/admin/usuarios',
      '/admin/dashboard',
      '/admin/apps',
    ]),
  );
});

it('shows "Cargando..." while the session starts', () => {
  useSession.setState({ isInitialized: false });
  renderAt('/calculadora-txi');
  expect(screen.getByRole('status')).toHaveTextContent('Cargando...');
});

it('sends a signed-out person from a protected route to /login', async () => {
  renderAt('/calculadora-txi');
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
  expect(screen.getByText('auth:./LoginPage')).toBeInTheDocument();
});

it('renders a user-area page under the top bar for a signed-in person', async () => {
  await useSession.getState().startSession('tok', user());
  renderAt('/calculadora-txi');
  expect(screen.getByText('barra superior')).toBeInTheDocument();
  expect(screen.getByText('calculator:./CalculatorPage')).toBeInTheDocument();
});

it('sends a signed-in person away from /login to /apps', async () => {
  await useSession.getState().startSession('tok', user());
  renderAt('/login');
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
});

it("shows 'Acceso Denegado' in the admin area to a non-administrator", async () => {
  await useSession.getState().startSession('tok', user({ role: 2 }));
  renderAt('/admin/usuarios');
  expect(screen.getByRole('heading', { name: 'Acceso Denegado' })).toBeInTheDocument();
  // The top bar stays: the way back to the rest of the portal (issue 18, item 7).
  expect(screen.getByText('barra superior')).toBeInTheDocument();
  expect(screen.getByText('No tienes permisos para acceder a esta área.')).toBeInTheDocument();
  expect(screen.queryByText('admin:./AdminLayout')).not.toBeInTheDocument();
});

it('renders the admin layout for an administrator', async () => {
  await useSession.getState().startSession('tok', user({ role: 1 }));
  renderAt('/admin/usuarios');
  expect(screen.getByText('admin:./AdminLayout')).toBeInTheDocument();
});

it('shows the not-found page for an unknown address, to anyone', () => {
  renderAt('/no-existe');
  expect(screen.getByRole('heading', { name: 'Página no encontrada' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Ir a Aplicaciones' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Regresar' })).toBeInTheDocument();
});

it('public pages render for a signed-out person', () => {
  renderAt('/playstoreapps/beto/datos-personales');
  expect(screen.getByText('auth:./PersonalDataPage')).toBeInTheDocument();
});

it('names the browser tab after each page (issue 18, item 7)', async () => {
  expect(ROUTES.every((route) => route.title.trim() !== '')).toBe(true);
  const view = renderAt('/login');
  await waitFor(() => expect(document.title).toBe('Iniciar sesión · Portal'));
  view.unmount();
  await useSession.getState().startSession('tok', user());
  renderAt('/apps');
  await waitFor(() => expect(document.title).toBe('Aplicaciones · Portal'));
});

it("'Regresar' on a not-found page opened directly (no history of the portal) goes to /apps (issue 18, item 7)", async () => {
  renderAt('/no-existe');
  expect(document.title).toBe('Página no encontrada · Portal');
  screen.getByRole('button', { name: 'Regresar' }).click();
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/apps'));
});
