import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import {
  forgetLandings,
  resetApiClient,
  resetSessionForTests,
  storePendingInteraction,
  useSession,
  type RemoteName,
} from '@portal/shared';
import { startFakeApi } from '@portal/shared/testing/fake-api';
import { LocationProbe } from '@portal/shared/testing/render';
import { securityStatus, user } from '@portal/shared/testing/fixtures';
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
  // What the tab keeps for its next sign-in (the page asked for signed out among it) is each test's own.
  sessionStorage.clear();
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
      '/autorizar',
      '/autorizar/error',
    ]),
  );
});

it('shows "Cargando..." while the session starts', () => {
  useSession.setState({ isInitialized: false });
  renderAt('/calculadora-txi');
  expect(screen.getByRole('status')).toHaveTextContent('Cargando...');
});

it('sends a signed-out person from a protected route to /login, and the sign-in back to that route', async () => {
  const view = renderAt('/calculadora-txi');
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
  expect(screen.getByText('auth:./LoginPage')).toBeInTheDocument();
  await act(() => useSession.getState().startSession('tok', user()));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/calculadora-txi$/));
  view.unmount();
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

it("a partner app's SAML sign-in (/saml/continuar) sends a signed-out person to /login and back to it", async () => {
  const address = '/saml/continuar?solicitud=q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6';
  const view = renderAt(address);
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
  await act(() => useSession.getState().startSession('tok', user()));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(address));
  expect(screen.getByText('auth:./AuthorizePage')).toBeInTheDocument();
  view.unmount();
});

describe("an app's sign-in with the portal (OpenID Connect)", () => {
  const uid = 'Xq3_kP9-aB7cD2eF1gH0i';
  afterEach(() => sessionStorage.clear());

  it('/autorizar and /autorizar/error render for anyone, signed in or not', async () => {
    const signedOut = renderAt(`/autorizar?interaccion=${uid}`);
    expect(screen.getByText('auth:./AuthorizePage')).toBeInTheDocument();
    signedOut.unmount();
    await useSession.getState().startSession('tok', user());
    renderAt('/autorizar/error?motivo=cliente_desconocido');
    expect(screen.getByText('auth:./AuthorizeErrorPage')).toBeInTheDocument();
  });

  it('a signed-in person at /login lands back on the interaction the tab was in', async () => {
    storePendingInteraction(uid);
    await useSession.getState().startSession('tok', user());
    renderAt(`/login?interaccion=${uid}`);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/autorizar?interaccion=${uid}`));
  });

  it('a signed-in person sees the sign-in form when the app asked for a fresh sign-in', async () => {
    storePendingInteraction(uid, true);
    await useSession.getState().startSession('tok', user());
    renderAt(`/login?interaccion=${uid}&reautenticar=1`);
    expect(screen.getByText('auth:./LoginPage')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(`/login?interaccion=${uid}&reautenticar=1`);
  });
});

describe('an administrator signed in at /login', () => {
  afterEach(() => jest.restoreAllMocks());
  const status = (overrides: Parameters<typeof securityStatus>[0]) => ({
    status: 200,
    body: securityStatus(overrides),
  });

  async function landingOf(security: { status: number; body: unknown }) {
    const api = await startFakeApi({ 'GET /auth/seguridad': security });
    window.__PORTAL_CONFIG__ = { apiBaseUrl: api.url };
    resetApiClient();
    try {
      await useSession.getState().startSession('tok', user({ role: 1 }));
      const view = renderAt('/login');
      await waitFor(() => expect(screen.getByTestId('location')).not.toHaveTextContent(/^\/login$/));
      const landed = screen.getByTestId('location').textContent;
      view.unmount();
      return { landed, asked: api.requests.filter((request) => request.path === '/auth/seguridad').length };
    } finally {
      await api.close();
      resetSessionForTests();
      useSession.setState({ isInitialized: true });
      // The next landing is a new page's (a new router whose first entry has the same key).
      forgetLandings();
    }
  }

  it("lands on 'Seguridad' when a second factor must still be set up", async () => {
    expect(await landingOf(status({}))).toEqual({ landed: '/perfil?tab=seguridad', asked: 1 });
  });

  it('lands on /apps when the requirement is lifted, a factor exists, or the status cannot be read', async () => {
    // The client logs the 503 it receives.
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect((await landingOf(status({ secondFactorRequired: false }))).landed).toBe('/apps');
    expect((await landingOf(status({ totp: true, sessionVerified: true }))).landed).toBe('/apps');
    expect((await landingOf({ status: 503, body: { statusCode: 503, message: 'No disponible' } })).landed).toBe(
      '/apps',
    );
  });
});

it("shows 'Acceso Denegado' in the admin area to a non-administrator", async () => {
  await useSession.getState().startSession('tok', user({ role: 2 }));
  renderAt('/admin/usuarios');
  expect(screen.getByRole('heading', { name: 'Acceso Denegado' })).toBeInTheDocument();
  // The top bar stays: the way back to the rest of the portal.
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

it('names the browser tab after each page', async () => {
  expect(ROUTES.every((route) => route.title.trim() !== '')).toBe(true);
  const view = renderAt('/login');
  await waitFor(() => expect(document.title).toBe('Iniciar sesión · Portal'));
  view.unmount();
  await useSession.getState().startSession('tok', user());
  renderAt('/apps');
  await waitFor(() => expect(document.title).toBe('Aplicaciones · Portal'));
});

it("'Regresar' on a not-found page opened directly (no history of the portal) goes to /apps", async () => {
  renderAt('/no-existe');
  expect(document.title).toBe('Página no encontrada · Portal');
  screen.getByRole('button', { name: 'Regresar' }).click();
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/apps'));
});
