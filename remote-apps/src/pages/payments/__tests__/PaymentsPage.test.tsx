import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { resetApiClient, resetSessionForTests, useSession } from '@portal/shared';
import { startFakeApi } from '@portal/shared/testing/fake-api';
import { renderAt } from '@portal/shared/testing/render';
import { user } from '../../../testing/fixtures';
import PaymentsPage from '../PaymentsPage';

describe('/pagos', () => {
  let api: Awaited<ReturnType<typeof startFakeApi>>;
  beforeEach(async () => {
    localStorage.clear();
    resetSessionForTests();
    api = await startFakeApi({
      'POST /facturacion/portal': {
        status: 503,
        body: { statusCode: 503, message: 'La facturación no está disponible' },
      },
    });
    window.__PORTAL_CONFIG__ = { apiBaseUrl: api.url };
    resetApiClient();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    await api.close();
    jest.restoreAllMocks();
  });

  it("asks for the user's billing portal and shows the server's message when billing is unavailable", async () => {
    // A deployment that takes payments (Stripe's publishable key in its runtime config) whose API refuses the call.
    window.__PORTAL_CONFIG__ = {
      apiBaseUrl: api.url,
      billing: { publishableKey: 'pk_test_portal', pricingTableId: 'prctbl_portal' },
    };
    await useSession.getState().startSession('tok', user({ id: 7 }));
    renderAt('/pagos', <PaymentsPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Mi facturación' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('La facturación no está disponible');
    expect(JSON.parse(api.requests[0]!.body)).toEqual({ userId: 7 });
    await userEvent.click(screen.getByRole('button', { name: 'Ir al Panel Principal' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/);
  });

  it("without billing configured offers no 'Mi facturación' and says payments are not available", async () => {
    await useSession.getState().startSession('tok', user({ id: 7 }));
    renderAt('/pagos', <PaymentsPage />);
    expect(screen.queryByRole('button', { name: 'Mi facturación' })).not.toBeInTheDocument();
    expect(
      screen.getByText('Los pagos en línea aún no están disponibles. Tus planes actuales siguen activos.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ir al Panel Principal' })).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });
});
