import { resetApiClient, resetAppsForTests, resetSessionForTests, useApps, useSession } from '@portal/shared';
import { fakeToken, startFakeApi } from '@portal/shared/testing/fake-api';
import { app, user } from '@portal/shared/testing/fixtures';
import { prefetchPageData } from '../prefetch';

const APPS = {
  data: [app(1, 'Control Max 360')],
  total: 1,
  totalPages: 1,
  currentPage: 1,
  hasNextPage: false,
  count: 1,
};
const inOneHour = () => Math.floor(Date.now() / 1000) + 3600;

type FakeApi = Awaited<ReturnType<typeof startFakeApi>>;
let api: FakeApi;
/** Whether the session had its user when the apps list was asked for. */
let userKnownWhenAppsAsked: boolean | undefined;

beforeEach(async () => {
  localStorage.clear();
  resetSessionForTests();
  resetAppsForTests();
  userKnownWhenAppsAsked = undefined;
  api = await startFakeApi({
    // The user answers late, so the apps list can only be asked for in parallel with it.
    'GET /auth/user': { status: 200, body: user(), delay: 300 },
    'GET /apps/listar': () => {
      userKnownWhenAppsAsked = useSession.getState().user !== null;
      return { status: 200, body: APPS };
    },
  });
  window.__PORTAL_CONFIG__ = { apiBaseUrl: api.url };
  resetApiClient();
});

afterEach(() => api.close());

const paths = () => api.requests.map((r) => r.path.split('?')[0]);

it('asks for the apps list of /apps at start-up, without waiting for the user', async () => {
  localStorage.setItem('token', fakeToken({ exp: inOneHour() }));
  const started = useSession.getState().initialize();
  prefetchPageData('/apps');
  await started;
  await useApps.getState().ensureLoaded();
  expect(paths().sort()).toEqual(['/apps/listar', '/auth/user']);
  expect(userKnownWhenAppsAsked).toBe(false);
  expect(useApps.getState().apps.map((a) => a.nombre)).toEqual(['Control Max 360']);
});

it('asks for nothing without a valid stored token, or on a page that shows no apps list', async () => {
  prefetchPageData('/apps');
  localStorage.setItem('token', fakeToken({ exp: Math.floor(Date.now() / 1000) - 1 }));
  prefetchPageData('/apps');
  localStorage.setItem('token', fakeToken({ exp: inOneHour() }));
  prefetchPageData('/calculadora-txi');
  prefetchPageData('/login');
  expect(useApps.getState().isLoading).toBe(false);
  await useSession.getState().initialize();
  expect(paths()).toEqual(['/auth/user']);
});
