import { act, screen, within } from '@testing-library/react';
import {
  COMPANY_LINK_NOTICE_KEY,
  resetApiClient,
  resetAppsForTests,
  resetSessionForTests,
  useApps,
  useSession,
  whenApiIdle,
} from '@portal/shared';
import { startFakeApi } from '@portal/shared/testing/fake-api';
import { renderAt } from '@portal/shared/testing/render';
import { catalogue, user } from '../../../testing/fixtures';
import AppsPage from '../AppsPage';

let api: Awaited<ReturnType<typeof startFakeApi>> | undefined;

beforeEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  resetSessionForTests();
  resetAppsForTests();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  api = await startFakeApi({
    'GET /apps/listar-con-planes': { status: 200, body: [] },
    'GET /empresas/invitaciones/mias': { status: 200, body: [] },
  });
  window.__PORTAL_CONFIG__ = {
    apiBaseUrl: api.url,
    links: { campaignUrl: 'https://campana.example.com/promo', supportEmail: 's@example.com' },
  };
  resetApiClient();
  await useSession.getState().startSession('tok-123', user());
  useApps.setState({ apps: catalogue, isLoaded: true, isLoading: false, error: null });
});

afterEach(async () => {
  await whenApiIdle();
  await api?.close();
  api = undefined;
  jest.restoreAllMocks();
});

const keep = (tone: string, text: string) =>
  sessionStorage.setItem(COMPANY_LINK_NOTICE_KEY, JSON.stringify({ tone, text, at: Date.now() }));

it('the page a sign-in lands on says the link to the company access was made, once', async () => {
  keep('success', 'Tu cuenta ya está vinculada al acceso de Minera Andina S.A.');
  const first = renderAt('/apps', <AppsPage />);
  const notices = await screen.findByRole('region', { name: 'Avisos de empresas' });
  expect(within(notices).getByRole('status')).toHaveTextContent(
    'Tu cuenta ya está vinculada al acceso de Minera Andina S.A.',
  );
  expect(sessionStorage.getItem(COMPANY_LINK_NOTICE_KEY)).toBeNull();
  act(() => first.unmount());
  renderAt('/apps', <AppsPage />);
  await whenApiIdle();
  expect(screen.queryByText(/vinculada/)).toBeNull();
});

it("or the API's reason it was not", async () => {
  const message =
    'El enlace con el acceso de tu empresa ha caducado o no es válido. Vuelve a pulsar «Continuar con el acceso de tu empresa».';
  keep('error', message);
  renderAt('/apps', <AppsPage />);
  expect(await screen.findByRole('alert')).toHaveTextContent(message);
});
