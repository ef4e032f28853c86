import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { resetApiClient, resetAppsForTests, resetSessionForTests, useApps, useSession } from '@portal/shared';
import { startFakeApi } from '@portal/shared/testing/fake-api';
import { catalogue, user } from '../../../testing/fixtures';
import { renderAt } from '@portal/shared/testing/render';
import AppsPage from '../AppsPage';

type FakeApi = Awaited<ReturnType<typeof startFakeApi>>;
let api: FakeApi;

beforeEach(async () => {
  localStorage.clear();
  resetSessionForTests();
  resetAppsForTests();
  useApps.setState({ apps: catalogue, isLoaded: true });
  api = await startFakeApi({
    'POST /auth/update-presentacion': (req) => ({
      status: 200,
      body: { user: user({ id: JSON.parse(req.body).userId, presentacion: false }) },
    }),
  });
  window.__PORTAL_CONFIG__ = { apiBaseUrl: api.url };
  resetApiClient();
});

afterEach(() => api.close());

async function walkToTheEnd() {
  for (let i = 0; i < 2; i++) {
    await userEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    await screen.findByText(`${i + 2} de 3`);
  }
}

it('opens the presentation for a user whose presentacion is true, and only once in the session', async () => {
  await useSession.getState().startSession('tok', user({ presentacion: true }));
  const first = renderAt('/apps', <AppsPage />);
  expect(screen.getByRole('dialog')).toBeInTheDocument();
  expect(useSession.getState().hasShownPresentationModal).toBe(true);

  // Away from the page and back within the session, without finishing or dismissing it: not again.
  first.unmount();
  renderAt('/apps', <AppsPage />);
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(api.requests.some((r) => r.path === '/auth/update-presentacion')).toBe(false);
});

it('does not open for a user who has seen it (presentacion false)', async () => {
  await useSession.getState().startSession('tok', user({ presentacion: false }));
  renderAt('/apps', <AppsPage />);
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
});

it('records the presentation as seen for the user on finishing and stores the updated user', async () => {
  await useSession.getState().startSession('tok', user({ id: 42, presentacion: true }));
  renderAt('/apps', <AppsPage />);
  await walkToTheEnd();
  await userEvent.click(screen.getByRole('button', { name: 'Continuar con la Cuenta Gratis' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  const call = api.requests.find((r) => r.path === '/auth/update-presentacion');
  expect(call?.method).toBe('POST');
  expect(JSON.parse(call!.body)).toEqual({ userId: 42 });
  expect(useSession.getState().user?.presentacion).toBe(false);
  expect(JSON.parse(localStorage.getItem('auth-storage')!).state.user.presentacion).toBe(false);
});

it('dismissed with Escape, the presentation is recorded as seen as well, in the background', async () => {
  await useSession.getState().startSession('tok', user({ id: 42, presentacion: true }));
  renderAt('/apps', <AppsPage />);
  expect(screen.getByRole('dialog')).toBeInTheDocument();
  await userEvent.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  await waitFor(() => expect(useSession.getState().user?.presentacion).toBe(false));
  const call = api.requests.find((r) => r.path === '/auth/update-presentacion');
  expect(JSON.parse(call!.body)).toEqual({ userId: 42 });
});

it("'Anterior' on a later step goes back one step, and the first step has none: the presentation stays open", async () => {
  await useSession.getState().startSession('tok', user({ id: 42, presentacion: true }));
  renderAt('/apps', <AppsPage />);
  expect(screen.queryByRole('button', { name: 'Anterior' })).not.toBeInTheDocument();
  await walkToTheEnd();
  await userEvent.click(screen.getByRole('button', { name: 'Anterior' }));
  expect(await screen.findByText('2 de 3')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Anterior' }));
  expect(await screen.findByText('1 de 3')).toBeInTheDocument();
  expect(screen.getByRole('dialog')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Anterior' })).not.toBeInTheDocument();
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(api.requests.some((r) => r.path === '/auth/update-presentacion')).toBe(false);
  expect(useSession.getState().user?.presentacion).toBe(true);
});
