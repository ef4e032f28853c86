import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { resetApiClient, useSession } from '@portal/shared';
import { startFakeApi } from '@portal/shared/testing/fake-api';
import { user } from '@portal/shared/testing/fixtures';
import { renderAt } from '@portal/shared/testing/render';
import { AvatarMenu } from '../AvatarMenu';

type FakeApi = Awaited<ReturnType<typeof startFakeApi>>;
let api: FakeApi;

beforeEach(async () => {
  localStorage.clear();
  api = await startFakeApi({
    'POST /auth/logout': { status: 204 },
    'POST /facturacion/portal': {
      status: 503,
      body: { statusCode: 503, message: 'La facturación no está disponible' },
    },
  });
  // A deployment that takes payments (its runtime config has Stripe's publishable key).
  window.__PORTAL_CONFIG__ = {
    apiBaseUrl: api.url,
    billing: { publishableKey: 'pk_test_portal', pricingTableId: 'prctbl_portal' },
  };
  resetApiClient();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  await api.close();
  jest.restoreAllMocks();
});

async function openMenu() {
  await userEvent.click(screen.getByRole('button', { name: 'Menú de usuario' }));
  return screen.getByRole('region', { name: 'Menú de usuario' });
}

it('lists the account entries and no Panel for an ordinary user', async () => {
  await useSession.getState().startSession('tok', user({ role: 2 }));
  renderAt('/apps', <AvatarMenu />);
  const menu = await openMenu();
  expect(within(menu).getByRole('link', { name: 'Mi perfil' })).toHaveAttribute('href', '/perfil');
  expect(within(menu).getByRole('button', { name: 'Mi facturación' })).toBeInTheDocument();
  expect(within(menu).getByRole('link', { name: 'Planes' })).toHaveAttribute('href', '/planes');
  expect(within(menu).queryByRole('link', { name: 'Panel' })).not.toBeInTheDocument();
  expect(within(menu).getByRole('button', { name: 'Cerrar sesión' })).toBeInTheDocument();
});

it("does not offer 'Mi facturación' where billing is off", async () => {
  window.__PORTAL_CONFIG__ = { apiBaseUrl: api.url };
  await useSession.getState().startSession('tok', user({ role: 2 }));
  renderAt('/apps', <AvatarMenu />);
  const menu = await openMenu();
  expect(within(menu).getByRole('link', { name: 'Mi perfil' })).toBeInTheDocument();
  expect(within(menu).queryByRole('button', { name: 'Mi facturación' })).not.toBeInTheDocument();
});

it('shows Panel, to /admin, to an administrator', async () => {
  await useSession.getState().startSession('tok', user({ role: 1 }));
  renderAt('/apps', <AvatarMenu />);
  const menu = await openMenu();
  expect(within(menu).getByRole('link', { name: 'Panel' })).toHaveAttribute('href', '/admin');
});

it("shows Panel, to /admin/empresas, to a company's active owner or administrator", async () => {
  for (const rol of ['propietario', 'administrador'] as const) {
    await useSession
      .getState()
      .startSession(
        'tok',
        user({ role: 2, empresas: [{ id: 3, nombre: 'Minera Andina S.A.', rol, estado: 'activo' }] }),
      );
    const { unmount } = renderAt('/apps', <AvatarMenu />);
    const menu = await openMenu();
    expect(within(menu).getByRole('link', { name: 'Panel' })).toHaveAttribute('href', '/admin/empresas');
    unmount();
  }
});

it('shows no Panel to a plain member, nor to an administrator whose membership waits for approval', async () => {
  const empresas = [
    { id: 3, nombre: 'Minera Andina S.A.', rol: 'miembro' as const, estado: 'activo' as const },
    { id: 4, nombre: 'Faena Norte', rol: 'administrador' as const, estado: 'pendiente' as const },
  ];
  await useSession.getState().startSession('tok', user({ role: 2, empresas }));
  renderAt('/apps', <AvatarMenu />);
  const menu = await openMenu();
  expect(within(menu).queryByRole('link', { name: 'Panel' })).not.toBeInTheDocument();
});

it("shows the profile picture when the identity provider's avatar host serves it, sending no referrer", async () => {
  const google = 'https://lh3.googleusercontent.com/a/ACg8oc-ana=s96-c';
  await useSession.getState().startSession('tok', user({ picture: google }));
  const { container } = renderAt('/apps', <AvatarMenu />);
  expect(container.querySelector('img')).toHaveAttribute('src', google);
  expect(container.querySelector('img')).toHaveAttribute('referrerpolicy', 'no-referrer');
});

it('shows the generic icon for a picture anywhere else (stored before the rule)', async () => {
  await useSession.getState().startSession('tok', user({ picture: 'https://img.example.com/ana.png' }));
  const { container } = renderAt('/apps', <AvatarMenu />);
  expect(container.querySelector('img')).toBeNull();
  expect(container.querySelector('svg')).not.toBeNull();
});

it("Cerrar sesión says 'Cerrando sesión...' while the API logs out, clears the session and goes to /login", async () => {
  await api.close();
  api = await startFakeApi({ 'POST /auth/logout': { status: 204, delay: 300 } });
  window.__PORTAL_CONFIG__ = { apiBaseUrl: api.url };
  resetApiClient();
  await useSession.getState().startSession('tok', user());
  renderAt('/apps', <AvatarMenu />);
  const menu = await openMenu();
  await userEvent.click(within(menu).getByRole('button', { name: 'Cerrar sesión' }));
  expect(await within(menu).findByRole('button', { name: 'Cerrando sesión...' })).toBeDisabled();
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
  expect(api.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization}`)).toEqual([
    'POST /auth/logout Bearer tok',
  ]);
  expect(useSession.getState().isAuthenticated).toBe(false);
});

it("Mi facturación asks for the user's billing portal and shows the server's message when it fails", async () => {
  await useSession.getState().startSession('tok', user({ id: 42 }));
  renderAt('/apps', <AvatarMenu />);
  const menu = await openMenu();
  await userEvent.click(within(menu).getByRole('button', { name: 'Mi facturación' }));
  expect(await within(menu).findByRole('alert')).toHaveTextContent('La facturación no está disponible');
  expect(JSON.parse(api.requests[0]?.body ?? '{}')).toEqual({ userId: 42 });
});

it('closes on an outside click', async () => {
  await useSession.getState().startSession('tok', user());
  renderAt('/apps', <AvatarMenu />);
  await openMenu();
  await userEvent.click(document.body);
  expect(screen.queryByRole('region', { name: 'Menú de usuario' })).not.toBeInTheDocument();
});
