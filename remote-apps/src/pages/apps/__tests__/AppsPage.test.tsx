import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  resetApiClient,
  resetAppsForTests,
  resetSessionForTests,
  useApps,
  useSession,
  whenApiIdle,
} from '@portal/shared';
import { startFakeApi } from '@portal/shared/testing/fake-api';
import { catalogue, user, userPlan, withPlans } from '../../../testing/fixtures';
import { renderAt } from '@portal/shared/testing/render';
import AppsPage from '../AppsPage';

type FakeApi = Awaited<ReturnType<typeof startFakeApi>>;
let api: FakeApi | undefined;
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36';
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120 Safari/537.36';

async function useApi(routes: Parameters<typeof startFakeApi>[0]) {
  api = await startFakeApi(routes);
  window.__PORTAL_CONFIG__ = {
    apiBaseUrl: api.url,
    links: { campaignUrl: 'https://campana.example.com/promo', supportEmail: 's@example.com' },
  };
  resetApiClient();
  return api;
}

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  resetAppsForTests();
  window.__PORTAL_CONFIG__ = {
    links: { campaignUrl: 'https://campana.example.com/promo', supportEmail: 's@example.com' },
  };
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  // The page asks for the apps with their plans on its own; that call ends (and logs) before the test does.
  await whenApiIdle();
  await api?.close();
  api = undefined;
  jest.restoreAllMocks();
});

async function signIn(overrides = {}) {
  await useSession.getState().startSession('tok-123', user(overrides));
}

function loadCatalogue() {
  useApps.setState({ apps: catalogue, isLoaded: true, isLoading: false, error: null });
}

function card(name: string) {
  return screen.getByRole('article', { name });
}

describe('the apps home', () => {
  it("greets the user by name and lastName, whoever they are, and shows 'Plan gratuito' when every plan is free", async () => {
    await signIn({ planesUsuarios: [{ id: 1, plan: { nombre: 'free', descripcion: null } }] });
    loadCatalogue();
    renderAt('/apps', <AppsPage />);
    // A greeting with no grammatical gender: 'Bienvenido' would assume one.
    expect(screen.getByRole('heading', { level: 1, name: '¡Hola, Ana Pérez!' })).toBeInTheDocument();
    expect(screen.getByText('Plan gratuito')).toBeInTheDocument();
    expect(screen.queryByText('Tus Aplicaciones')).not.toBeInTheDocument();
    // The cards' titles come next under the h1, with no level skipped (axe's heading-order).
    expect(within(card('Beto Pro')).getByRole('heading', { level: 2, name: 'Beto Pro' })).toBeInTheDocument();
    expect(screen.queryAllByRole('heading', { level: 3 })).toEqual([]);
  });

  it("lists the plans under 'Tus Aplicaciones' once one is not free", async () => {
    await signIn({
      planesUsuarios: [
        { id: 1, plan: { nombre: 'PRO', descripcion: null }, app: { id: 2, nombre: 'Beto Pro' } },
        { id: 2, plan: { nombre: 'free', descripcion: null }, app: { id: 3, nombre: 'TX30' } },
      ],
    });
    loadCatalogue();
    renderAt('/apps', <AppsPage />);
    const section = screen.getByRole('region', { name: 'Tus Aplicaciones' });
    expect(within(section).getByText('Beto Pro: PRO')).toBeInTheDocument();
    expect(within(section).getByText('TX30: Gratis')).toBeInTheDocument();
    expect(screen.queryByText('Plan gratuito')).not.toBeInTheDocument();
  });

  it('has the web and mobile tabs and the two coming-soon tabs, disabled', async () => {
    await signIn();
    loadCatalogue();
    renderAt('/apps', <AppsPage />);
    expect(screen.getByRole('tab', { name: 'Aplicaciones web' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Aplicaciones para móvil' })).toBeEnabled();
    expect(screen.getByRole('tab', { name: 'Archivos (Próximamente)' })).toBeDisabled();
    expect(screen.getByRole('tab', { name: 'Educación (Próximamente)' })).toBeDisabled();
  });

  it('opens the campaign in a new tab and leads to /planes from the upgrade banner', async () => {
    await signIn();
    loadCatalogue();
    renderAt('/apps', <AppsPage />);
    const promo = screen.getByRole('link', { name: /campaña/ });
    expect(promo).toHaveAttribute('href', 'https://campana.example.com/promo');
    expect(promo).toHaveAttribute('target', '_blank');
    // Spec §2: a banner image. Drawn as SVG, decorative (the words beside it name the link).
    const image = promo.querySelector('img');
    expect(image?.getAttribute('src')).toMatch(/^data:image\/svg\+xml,/);
    expect(image).toHaveAttribute('alt', '');
    await userEvent.click(
      within(screen.getByRole('region', { name: 'Mejorar Plan' })).getByRole('button', { name: 'Mejorar Plan' }),
    );
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/planes$/);
  });

  it("shows 'Cargando aplicaciones...' while loading, then 'No hay aplicaciones disponibles' for an empty catalogue", async () => {
    await signIn();
    await useApi({
      'GET /apps/listar': {
        status: 200,
        delay: 150,
        body: { data: [], total: 0, totalPages: 0, currentPage: 1, hasNextPage: false, count: 0 },
      },
    });
    renderAt('/apps', <AppsPage />);
    expect(await screen.findByText('Cargando aplicaciones...')).toBeInTheDocument();
    expect(await screen.findByText('No hay aplicaciones disponibles')).toBeInTheDocument();
    expect(api!.requests.map((r) => r.path)).toContain('/apps/listar?page=1&limit=100');
  });

  it("shows the server's message when the catalogue cannot be loaded", async () => {
    await signIn();
    await useApi({
      'GET /apps/listar': { status: 500, body: { statusCode: 500, message: 'Error interno del servidor' } },
    });
    renderAt('/apps', <AppsPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Error interno del servidor');
  });

  it("offers 'Reintentar' when the catalogue cannot be loaded, which loads it", async () => {
    await signIn();
    let calls = 0;
    await useApi({
      'GET /apps/listar': () => {
        calls += 1;
        return calls === 1
          ? { status: 500, body: { statusCode: 500, message: 'Error interno del servidor' } }
          : { status: 200, body: { data: catalogue, total: catalogue.length, page: 1, limit: 100, totalPages: 1 } };
      },
    });
    renderAt('/apps', <AppsPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByRole('article', { name: 'Beto Pro' })).toBeInTheDocument();
    expect(calls).toBe(2);
  });
});

describe('the app cards', () => {
  it('enables each card by the platform of the tab: web by isEnabledWeb, mobile by isEnabledMovil', async () => {
    await signIn();
    loadCatalogue();
    renderAt('/apps', <AppsPage />);
    expect(within(card('TX30')).getByRole('button', { name: 'Abrir TX30' })).toBeEnabled();
    expect(within(card('C+Suite Completa')).getByRole('button', { name: 'Abrir C+Suite Completa' })).toBeDisabled();
    expect(within(card('C+Suite Completa')).getByText('No disponible en la web')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('tab', { name: 'Aplicaciones para móvil' }));
    expect(within(card('TX30')).getByRole('button', { name: 'Abrir TX30' })).toBeDisabled();
    expect(within(card('TX30')).getByRole('button', { name: 'Mejorar Plan de TX30' })).toBeDisabled();
    expect(within(card('TX30')).getByText('No disponible para móvil')).toBeInTheDocument();
    expect(within(card('Beto Pro')).getByRole('button', { name: 'Abrir Beto Pro' })).toBeEnabled();
  });

  it('opens an allowed partner web app with a token minted for it, never the session token', async () => {
    const server = await useApi({
      'POST /auth/partner-token': { status: 200, body: { access_token: 'scoped', expires_in: 3600, audience: 'x' } },
    });
    window.__PORTAL_CONFIG__ = { ...window.__PORTAL_CONFIG__, redirectAllowList: ['https://app2.example.com'] };
    await signIn();
    loadCatalogue();
    const tab = { opener: window as unknown, location: { replace: jest.fn() } };
    const open = jest.spyOn(window, 'open').mockImplementation(() => tab as unknown as Window);
    renderAt('/apps', <AppsPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Abrir Beto Pro' }));
    await waitFor(() =>
      expect(tab.location.replace).toHaveBeenCalledWith('https://app2.example.com/inicio?token=scoped'),
    );
    expect(open).toHaveBeenCalledWith('about:blank', '_blank');
    expect(tab.opener).toBeNull();
    const minted = server.requests.find((sent) => sent.path === '/auth/partner-token');
    expect(JSON.parse(minted!.body)).toEqual({ redirect_url: 'https://app2.example.com/inicio' });
  });

  it('opens a web app off the allow-list without any token', async () => {
    await signIn();
    loadCatalogue();
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    renderAt('/apps', <AppsPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Abrir Beto Pro' }));
    expect(open).toHaveBeenCalledWith('https://app2.example.com/inicio', '_blank', 'noopener,noreferrer');
  });

  it('navigates inside the portal for a relative web URL, without the token', async () => {
    await signIn();
    useApps.setState({
      apps: [catalogue[0]!, { ...catalogue[1]!, id: 9, nombre: 'Interna', webUrl: '/control-max' }],
      isLoaded: true,
    });
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    renderAt('/apps', <AppsPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Abrir Interna' }));
    expect(open).not.toHaveBeenCalled();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/control-max$/);
  });

  it('opens iosUrl on an iPhone and androidUrl on other devices, without the token', async () => {
    await signIn();
    loadCatalogue();
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    const agent = jest.spyOn(navigator, 'userAgent', 'get').mockReturnValue(IPHONE);
    renderAt('/apps', <AppsPage />);
    await userEvent.click(screen.getByRole('tab', { name: 'Aplicaciones para móvil' }));
    await userEvent.click(screen.getByRole('button', { name: 'Abrir Control Max 360' }));
    expect(open).toHaveBeenLastCalledWith('https://apps.apple.com/app/app1', '_blank', 'noopener,noreferrer');

    agent.mockReturnValue(ANDROID);
    await userEvent.click(screen.getByRole('button', { name: 'Abrir Control Max 360' }));
    expect(open).toHaveBeenLastCalledWith(
      'https://play.google.com/store/apps/details?id=app1',
      '_blank',
      'noopener,noreferrer',
    );
  });

  it('never sends a desktop to the Android link: it opens the web app, or shows where to get the app', async () => {
    await signIn();
    useApps.setState({
      apps: [catalogue[0]!, { ...catalogue[1]!, webUrl: null }],
      isLoaded: true,
      isLoading: false,
      error: null,
    });
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    jest.spyOn(navigator, 'userAgent', 'get').mockReturnValue(WINDOWS);
    renderAt('/apps', <AppsPage />);
    await userEvent.click(screen.getByRole('tab', { name: 'Aplicaciones para móvil' }));
    await userEvent.click(screen.getByRole('button', { name: 'Abrir Control Max 360' }));
    expect(open).toHaveBeenLastCalledWith('https://app1.example.com/inicio', '_blank', 'noopener,noreferrer');
    expect(open).toHaveBeenCalledTimes(1);

    const button = screen.getByRole('button', { name: 'Abrir Beto Pro' });
    await userEvent.click(button);
    expect(open).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(open.mock.calls)).not.toContain('play.google.com');
    const dialog = screen.getByRole('dialog', { name: 'Descarga Beto Pro en tu teléfono' });
    expect(within(dialog).getByRole('link', { name: /^Abrir en Google Play/ })).toHaveAttribute(
      'href',
      'https://play.google.com/store/apps/details?id=app2',
    );
    expect(within(dialog).getByRole('link', { name: /^Abrir en App Store/ })).toHaveAttribute(
      'href',
      'https://apps.apple.com/app/app2',
    );
    expect(await within(dialog).findAllByRole('img', { name: /^Código QR del enlace de Beto Pro en / })).toHaveLength(
      2,
    );

    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('says where an app opens when a desktop has neither its web app nor a store link to show', async () => {
    await signIn();
    useApps.setState({
      apps: [{ ...catalogue[1]!, webUrl: null, androidUrl: 'betopro://auth/welcome', iosUrl: null }],
      isLoaded: true,
      isLoading: false,
      error: null,
    });
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    jest.spyOn(navigator, 'userAgent', 'get').mockReturnValue(WINDOWS);
    renderAt('/apps', <AppsPage />);
    await userEvent.click(screen.getByRole('tab', { name: 'Aplicaciones para móvil' }));
    await userEvent.click(screen.getByRole('button', { name: 'Abrir Beto Pro' }));
    expect(open).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Beto Pro se abre desde un teléfono o una tableta: entra al portal desde uno de ellos.',
    );
  });

  it("never opens a stored mobile link whose scheme is not https or an app's own", async () => {
    await signIn();
    useApps.setState({
      apps: [{ ...catalogue[0]!, androidUrl: 'intent://abrir#Intent;scheme=x;package=com.evil;end' }],
      isLoaded: true,
      isLoading: false,
      error: null,
    });
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    jest.spyOn(navigator, 'userAgent', 'get').mockReturnValue(ANDROID);
    renderAt('/apps', <AppsPage />);
    await userEvent.click(screen.getByRole('tab', { name: 'Aplicaciones para móvil' }));
    await userEvent.click(screen.getByRole('button', { name: 'Abrir Control Max 360' }));
    expect(open).not.toHaveBeenCalled();
  });

  it("leads 'Mejorar Plan' to /apps/{id}, and app 4 has no such button", async () => {
    await signIn();
    loadCatalogue();
    renderAt('/apps', <AppsPage />);
    expect(within(card('C+Suite Completa')).queryByRole('button', { name: /Mejorar Plan/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Mejorar Plan de Beto Pro' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps\/2$/);
  });

  it("offers no 'Mejorar Plan' on an app whose plan a company's seat gives: the card names the seat's plan instead", async () => {
    const minera = { id: 12, nombre: 'Minera Andina S.A.' };
    await signIn({
      planesUsuarios: [
        userPlan({ id: 2, nombre: 'Beto Pro' }, 'PRO', minera),
        userPlan({ id: 1, nombre: 'Control Max 360' }, 'PRO'),
      ],
    });
    loadCatalogue();
    renderAt('/apps', <AppsPage />);
    const seatCard = card('Beto Pro');
    expect(within(seatCard).queryByRole('button', { name: /Mejorar Plan/ })).not.toBeInTheDocument();
    expect(within(seatCard).getByText('Tu plan PRO te lo da un puesto de Minera Andina S.A.')).toBeInTheDocument();
    expect(within(seatCard).getByRole('button', { name: 'Abrir Beto Pro' })).toBeEnabled();
    // Apps whose plan is the person's own keep it, as the spec has it.
    expect(
      within(card('Control Max 360')).getByRole('button', { name: 'Mejorar Plan de Control Max 360' }),
    ).toBeEnabled();
    expect(within(card('Control Max 360')).queryByText(/te lo da un puesto/)).not.toBeInTheDocument();
    expect(within(card('TX30')).getByRole('button', { name: 'Mejorar Plan de TX30' })).toBeInTheDocument();
  });

  it("offers 'Mejorar Plan' only on apps that have a PRO plan: not on the calculator", async () => {
    await useApi({
      'GET /apps/listar-con-planes': {
        status: 200,
        body: [
          withPlans(1, 'Control Max 360', { caracteristicas: [], precioMensual: 19, precioAnual: 190 }),
          withPlans(2, 'Beto Pro', { caracteristicas: [], precioMensual: 19, precioAnual: 190 }),
          withPlans(3, 'TX30', { caracteristicas: [], precioMensual: 19, precioAnual: 190 }),
        ],
      },
    });
    await signIn();
    loadCatalogue();
    renderAt('/apps', <AppsPage />);
    await waitFor(() =>
      expect(within(card('Calculadora TXI')).queryByRole('button', { name: /Mejorar Plan/ })).not.toBeInTheDocument(),
    );
    expect(within(card('Beto Pro')).getByRole('button', { name: 'Mejorar Plan de Beto Pro' })).toBeInTheDocument();
    expect(within(card('Calculadora TXI')).getByRole('button', { name: 'Abrir Calculadora TXI' })).toBeInTheDocument();
  });

  it('shows the built-in icons of apps 1-4, the presentation images of apps 1-3, and iconUrl or a placeholder otherwise', async () => {
    await signIn();
    useApps.setState({
      apps: [
        ...catalogue,
        { ...catalogue[0]!, id: 6, nombre: 'Con icono', iconUrl: 'https://cdn.example.com/i.png' },
        { ...catalogue[0]!, id: 7, nombre: 'Sin icono' },
      ],
      isLoaded: true,
    });
    const { container } = renderAt('/apps', <AppsPage />);
    for (const id of [1, 2, 3, 4]) expect(container.querySelector(`[data-icon="app-${id}"]`)).not.toBeNull();
    expect(
      [...container.querySelectorAll('[data-illustration]')].map((el) => el.getAttribute('data-illustration')),
    ).toEqual(['app-1', 'app-2', 'app-3']);
    expect(card('Con icono').querySelector('img')).toHaveAttribute('src', 'https://cdn.example.com/i.png');
    expect(card('Sin icono').querySelector('[data-icon="placeholder"]')).not.toBeNull();
  });
});
