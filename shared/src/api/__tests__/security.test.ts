import { startFakeApi } from '../../testing/fake-api';
import { securityStatus } from '../../testing/fixtures';
import { login } from '../accounts';
import { ApiError, onSecondFactorGate, request, resetApiClient } from '../client';
import { hasNoSecondFactor, secondFactorGate } from '../security';

type FakeApi = Awaited<ReturnType<typeof startFakeApi>>;
let api: FakeApi;

async function useApi(routes: Parameters<typeof startFakeApi>[0]) {
  api = await startFakeApi(routes);
  window.__PORTAL_CONFIG__ = { apiBaseUrl: `${api.url}/` };
  resetApiClient();
}

const status = securityStatus;

beforeEach(() => {
  localStorage.clear();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  await api?.close();
  jest.restoreAllMocks();
});

describe("the admin panel's second-factor gate", () => {
  it('is open when not required, or when this session proved a factor; a trusted device never opens it', () => {
    expect(secondFactorGate(status({ secondFactorRequired: false }))).toBeNull();
    expect(secondFactorGate(status({ totp: true, sessionVerified: true }))).toBeNull();
    expect(secondFactorGate(status({ totp: true, sessionTrustedDevice: true }))).toBe('session');
  });

  it('asks to set up a factor when there is none, else to prove it', () => {
    expect(secondFactorGate(status({}))).toBe('setup');
    expect(secondFactorGate(status({ totp: true }))).toBe('session');
    expect(secondFactorGate(status({ passkeys: 2 }))).toBe('session');
    expect(hasNoSecondFactor(status({ passkeys: 1 }))).toBe(false);
  });
});

it("a right password of an account with a second factor rejects with the second step's ticket and methods", async () => {
  await useApi({
    'POST /auth/login': {
      status: 403,
      body: {
        statusCode: 403,
        message: 'Confirma tu identidad con tu segundo factor',
        code: 'SECOND_FACTOR_REQUIRED',
        ticket: 'ticket-del-segundo-paso-0001',
        methods: ['totp', 'recovery', 'otro'],
        permiteConfiarDispositivo: true,
      },
    },
  });
  const refusal = await login('ana@example.com', 'secreta1').catch((error: unknown) => error);
  expect(refusal).toBeInstanceOf(ApiError);
  expect(refusal).toMatchObject({
    code: 'SECOND_FACTOR_REQUIRED',
    secondStep: { ticket: 'ticket-del-segundo-paso-0001', methods: ['totp', 'recovery'], trustDevice: true },
  });
});

it('tells the listeners when an authenticated call is refused for want of the second factor', async () => {
  await useApi({
    'GET /admin/dashboard': {
      status: 403,
      body: { statusCode: 403, message: 'Configura un segundo factor', code: 'SECOND_FACTOR_SETUP_REQUIRED' },
    },
  });
  localStorage.setItem('token', 'stored-token');
  const heard = jest.fn();
  const stop = onSecondFactorGate(heard);
  await expect(request('get', 'admin/dashboard', { fallback: 'x' })).rejects.toThrow('Configura un segundo factor');
  stop();
  expect(heard).toHaveBeenCalledWith('SECOND_FACTOR_SETUP_REQUIRED');
  // The session goes on: only a 401 or a suspension ends it.
  expect(localStorage.getItem('token')).toBe('stored-token');
});
