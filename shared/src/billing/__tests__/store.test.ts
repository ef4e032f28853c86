import { resetApiClient } from '../../api/client';
import * as leave from '../../navigation/leave';
import { startFakeApi } from '../../testing/fake-api';
import { resetBillingForTests, useBilling } from '../store';

let api: Awaited<ReturnType<typeof startFakeApi>>;

async function serve(routes: Parameters<typeof startFakeApi>[0]) {
  api = await startFakeApi(routes);
  window.__PORTAL_CONFIG__ = { apiBaseUrl: api.url };
  resetApiClient();
}

beforeEach(() => resetBillingForTests());
afterEach(async () => {
  await api?.close();
  jest.restoreAllMocks();
});

describe('the billing store (spec §3): plans, portal session and client secret, each with loading and error', () => {
  it('loads the plans the provider sells, loading while the call runs', async () => {
    const prices = [{ id: 'price_1', nickname: 'PRO', unit_amount: 1000, currency: 'pen' }];
    await serve({ 'GET /facturacion/planes': { status: 200, body: prices } });
    const loading = useBilling.getState().loadPlans();
    expect(useBilling.getState().plans.loading).toBe(true);
    await loading;
    expect(useBilling.getState().plans).toEqual({ value: prices, loading: false, error: null });
  });

  it("opens the user's billing portal: POST with the user id, then the browser leaves for its url", async () => {
    const leaveTo = jest.spyOn(leave, 'leaveTo').mockImplementation(() => undefined);
    await serve({
      'POST /facturacion/portal': { status: 200, body: { url: 'https://billing.stripe.com/p/session_1' } },
    });
    await useBilling.getState().openPortal(7);
    expect(JSON.parse(api.requests[0]!.body)).toEqual({ userId: 7 });
    expect(leaveTo).toHaveBeenCalledWith('https://billing.stripe.com/p/session_1');
    expect(useBilling.getState().portal.error).toBeNull();
  });

  it("keeps the server's Spanish message on failure, and the spec's fallback for a text that is not ours", async () => {
    const leaveTo = jest.spyOn(leave, 'leaveTo').mockImplementation(() => undefined);
    await serve({
      'POST /facturacion/portal': {
        status: 503,
        body: { statusCode: 503, message: 'La facturación no está disponible' },
      },
      'POST /facturacion/customer-session': { status: 502, body: '<html>Bad Gateway</html>' },
    });
    await useBilling.getState().openPortal(7);
    expect(useBilling.getState().portal).toEqual({
      value: null,
      loading: false,
      error: 'La facturación no está disponible',
    });
    expect(leaveTo).not.toHaveBeenCalled();
    expect(await useBilling.getState().loadClientSecret(7)).toBeNull();
    expect(useBilling.getState().clientSecret.error).toBe('Error al crear sesion del cliente');
    useBilling.getState().clearErrors();
    expect(useBilling.getState().portal.error).toBeNull();
    expect(useBilling.getState().clientSecret.error).toBeNull();
  });

  it('answers the client secret for the pricing table and keeps it', async () => {
    await serve({ 'POST /facturacion/customer-session': { status: 200, body: { clientSecret: 'cuss_secret_abc' } } });
    expect(await useBilling.getState().loadClientSecret(7)).toBe('cuss_secret_abc');
    expect(useBilling.getState().clientSecret.value).toBe('cuss_secret_abc');
  });

  it('a second click while the portal call runs sends no second request', async () => {
    jest.spyOn(leave, 'leaveTo').mockImplementation(() => undefined);
    await serve({ 'POST /facturacion/portal': { status: 200, body: { url: 'https://billing.stripe.com/p/x' } } });
    await Promise.all([useBilling.getState().openPortal(7), useBilling.getState().openPortal(7)]);
    expect(api.requests.filter((r) => r.path === '/facturacion/portal')).toHaveLength(1);
  });
});
