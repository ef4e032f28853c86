import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { resetApiClient, resetAppsForTests, useSession } from '@portal/shared';
import { startFakeApi } from '@portal/shared/testing/fake-api';
import { app, user } from '@portal/shared/testing/fixtures';
import { renderAt } from '@portal/shared/testing/render';
import { AppsLauncher } from '../AppsLauncher';

const APPS = [
  app(1, 'Control Max 360', { webUrl: 'https://cm.example.com/' }),
  app(2, 'Beto Pro'),
  app(4, 'Suite', { isEnabledWeb: false }),
  app(5, 'Calculadora TXI', { webUrl: '/calculadora-txi' }),
  app(8, 'Panel interno', { webUrl: '/control-max' }),
];

type FakeApi = Awaited<ReturnType<typeof startFakeApi>>;
let api: FakeApi;

async function useApi(reply: { status: number; body?: unknown; delay?: number }) {
  api = await startFakeApi({ 'GET /apps/listar': reply });
  window.__PORTAL_CONFIG__ = { apiBaseUrl: api.url };
  resetApiClient();
}

beforeEach(async () => {
  resetAppsForTests();
  localStorage.clear();
  await useSession.getState().startSession('tok', user());
});

afterEach(async () => {
  await api?.close();
  jest.restoreAllMocks();
});

const page = { data: APPS, total: 5, totalPages: 1, currentPage: 1, hasNextPage: false, count: 5 };

it('asks for page 1 limit 100, shows the loading text, then the web-enabled apps in a grid', async () => {
  await useApi({ status: 200, body: page, delay: 50 });
  renderAt('/apps', <AppsLauncher />);
  await userEvent.click(screen.getByRole('button', { name: 'Aplicaciones' }));
  const panel = screen.getByRole('region', { name: 'Aplicaciones' });
  expect(within(panel).getByText('Conoce todas tus herramientas')).toBeInTheDocument();
  expect(within(panel).getByText('Cargando aplicaciones...')).toBeInTheDocument();
  expect(await within(panel).findByRole('button', { name: 'Control Max 360' })).toBeInTheDocument();
  expect(
    within(panel)
      .getAllByRole('button')
      .map((b) => b.textContent),
  ).toEqual(['Control Max 360', 'Beto Pro', 'Calculadora TXI', 'Panel interno']);
  expect(api.requests.map((r) => r.path)).toEqual(['/apps/listar?page=1&limit=100']);
});

it('does not ask again once the apps are loaded', async () => {
  await useApi({ status: 200, body: page });
  renderAt('/apps', <AppsLauncher />);
  const button = screen.getByRole('button', { name: 'Aplicaciones' });
  await userEvent.click(button);
  await screen.findByRole('button', { name: 'Beto Pro' });
  await userEvent.click(button);
  await userEvent.click(button);
  await screen.findByRole('button', { name: 'Beto Pro' });
  expect(api.requests).toHaveLength(1);
});

it('says when there are no apps', async () => {
  await useApi({ status: 200, body: { ...page, data: [], total: 0, count: 0 } });
  renderAt('/apps', <AppsLauncher />);
  await userEvent.click(screen.getByRole('button', { name: 'Aplicaciones' }));
  expect(await screen.findByText('No hay aplicaciones disponibles')).toBeInTheDocument();
});

it("shows the server's message when the list fails", async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  await useApi({ status: 503, body: { message: 'Servicio no disponible temporalmente.' } });
  renderAt('/apps', <AppsLauncher />);
  await userEvent.click(screen.getByRole('button', { name: 'Aplicaciones' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Servicio no disponible temporalmente.');
});

it('opens an allowed partner app with a token minted for it (never the session token), and closes', async () => {
  api = await startFakeApi({
    'GET /apps/listar': { status: 200, body: page },
    'POST /auth/partner-token': {
      status: 200,
      body: { access_token: 'scoped', expires_in: 3600, audience: 'https://cm.example.com' },
    },
  });
  window.__PORTAL_CONFIG__ = { apiBaseUrl: api.url, redirectAllowList: ['https://cm.example.com'] };
  resetApiClient();
  const tab = { opener: window as unknown, location: { replace: jest.fn() } };
  const open = jest.spyOn(window, 'open').mockImplementation(() => tab as unknown as Window);
  renderAt('/apps', <AppsLauncher />);
  await userEvent.click(screen.getByRole('button', { name: 'Aplicaciones' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Control Max 360' }));
  expect(open).toHaveBeenCalledWith('about:blank', '_blank');
  await waitFor(() => expect(tab.location.replace).toHaveBeenCalledWith('https://cm.example.com/?token=scoped'));
  expect(screen.queryByRole('region', { name: 'Aplicaciones' })).not.toBeInTheDocument();
});

it('opens the sign-in address of an app that signs in with the portal, minting no partner token', async () => {
  const oidcApp = app(3, 'Gestor de Planta', {
    webUrl: 'https://cm.example.com/gestor',
    inicioSesionUrl: 'https://cm.example.com/oidc/iniciar',
  });
  api = await startFakeApi({
    'GET /apps/listar': { status: 200, body: { ...page, data: [...APPS, oidcApp] } },
    'POST /auth/partner-token': { status: 200, body: { access_token: 'scoped', expires_in: 3600, audience: 'x' } },
  });
  window.__PORTAL_CONFIG__ = { apiBaseUrl: api.url, redirectAllowList: ['https://cm.example.com'] };
  resetApiClient();
  const open = jest.spyOn(window, 'open').mockImplementation(() => null);
  renderAt('/apps', <AppsLauncher />);
  await userEvent.click(screen.getByRole('button', { name: 'Aplicaciones' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Gestor de Planta' }));
  expect(open).toHaveBeenCalledWith('https://cm.example.com/oidc/iniciar', '_blank', 'noopener,noreferrer');
  expect(api.requests.some((request) => request.path === '/auth/partner-token')).toBe(false);
});

it('opens an external app off the allow-list without any token', async () => {
  await useApi({ status: 200, body: page });
  const open = jest.spyOn(window, 'open').mockImplementation(() => null);
  renderAt('/apps', <AppsLauncher />);
  await userEvent.click(screen.getByRole('button', { name: 'Aplicaciones' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Control Max 360' }));
  expect(open).toHaveBeenCalledWith('https://cm.example.com/', '_blank', 'noopener,noreferrer');
});

it('opens the calculator (app 5) in a new tab at /calculadora-txi', async () => {
  await useApi({ status: 200, body: page });
  const open = jest.spyOn(window, 'open').mockImplementation(() => null);
  renderAt('/apps', <AppsLauncher />);
  await userEvent.click(screen.getByRole('button', { name: 'Aplicaciones' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Calculadora TXI' }));
  expect(open).toHaveBeenCalledWith('/calculadora-txi', '_blank', 'noopener,noreferrer');
});

it('navigates inside the portal for an app with a relative address', async () => {
  await useApi({ status: 200, body: page });
  renderAt('/apps', <AppsLauncher />);
  await userEvent.click(screen.getByRole('button', { name: 'Aplicaciones' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Panel interno' }));
  expect(screen.getByTestId('location')).toHaveTextContent('/control-max');
});

it('closes on an outside click and on Escape', async () => {
  await useApi({ status: 200, body: page });
  renderAt('/apps', <AppsLauncher />);
  const button = screen.getByRole('button', { name: 'Aplicaciones' });
  await userEvent.click(button);
  await screen.findByRole('button', { name: 'Beto Pro' });
  await userEvent.click(document.body);
  expect(screen.queryByRole('region', { name: 'Aplicaciones' })).not.toBeInTheDocument();
  await userEvent.click(button);
  expect(button).toHaveAttribute('aria-expanded', 'true');
  await userEvent.keyboard('{Escape}');
  await waitFor(() => expect(button).toHaveAttribute('aria-expanded', 'false'));
});
