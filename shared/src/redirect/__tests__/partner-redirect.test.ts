import { startFakeApi } from '../../testing/fake-api';
import { resetApiClient } from '../../api/client';
import { partnerRedirect } from '../partner-redirect';

jest.mock('../../navigation/leave', () => ({
  ...jest.requireActual('../../navigation/leave'),
  hardNavigate: jest.fn(),
}));

const ALLOW = ['https://partner.example.com', 'betopro://auth/success'];
const SESSION = 'session-token-of-the-portal';

type FakeApi = Awaited<ReturnType<typeof startFakeApi>>;
let api: FakeApi;

async function useApi(routes: Parameters<typeof startFakeApi>[0]) {
  api = await startFakeApi(routes);
  window.__PORTAL_CONFIG__ = { apiBaseUrl: `${api.url}/`, redirectAllowList: ALLOW };
  resetApiClient();
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('token', SESSION);
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  await api?.close();
  jest.restoreAllMocks();
});

describe('partnerRedirect (the partner never receives the portal session)', () => {
  it('mints a token for the allowed target with the session and adds it, keeping the rest of the URL', async () => {
    await useApi({
      'POST /auth/partner-token': { status: 200, body: { access_token: 'scoped', expires_in: 3600, audience: 'x' } },
    });
    expect(await partnerRedirect('https://partner.example.com/x?a=1', ALLOW)).toBe(
      'https://partner.example.com/x?a=1&token=scoped',
    );
    const [sent] = api.requests;
    expect(sent?.headers.authorization).toBe(`Bearer ${SESSION}`);
    expect(JSON.parse(sent?.body ?? '')).toEqual({ redirect_url: 'https://partner.example.com/x?a=1' });
  });

  it('replaces a token the target already carried, and adds one to a mobile deep link', async () => {
    await useApi({
      'POST /auth/partner-token': { status: 200, body: { access_token: 'scoped', expires_in: 3600, audience: 'x' } },
    });
    expect(await partnerRedirect('https://partner.example.com/?token=old', ALLOW)).toBe(
      'https://partner.example.com/?token=scoped',
    );
    expect(await partnerRedirect('betopro://auth/success', ALLOW)).toBe('betopro://auth/success?token=scoped');
  });

  it('asks nothing and gives null for a target that is not allowed, so the caller stays in the portal', async () => {
    await useApi({});
    for (const target of ['https://x.devtunnels.ms/', '//partner.example.com', 'javascript:alert(1)', null, '']) {
      expect(await partnerRedirect(target, ALLOW)).toBeNull();
    }
    expect(api.requests).toHaveLength(0);
  });

  it('gives null when the API refuses to mint (the session token is never used instead)', async () => {
    await useApi({
      'POST /auth/partner-token': {
        status: 400,
        body: { statusCode: 400, message: 'La dirección de destino no está permitida' },
      },
    });
    expect(await partnerRedirect('https://partner.example.com/', ALLOW)).toBeNull();
  });
});
