import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { resetApiClient, resetSessionForTests, useSession } from '@portal/shared';
import { startFakeApi } from '@portal/shared/src/testing/fake-api';
import { user } from '../../../testing/fixtures';
import { renderAt } from '../../../testing/render';
import BetoPage from '../../marketing/BetoPage';
import ControlMaxPage from '../../marketing/ControlMaxPage';
import PaymentsPage from '../../payments/PaymentsPage';
import SuccessPage from '../SuccessPage';

it("/success says '¡Éxito!' and leads to /apps", async () => {
  renderAt('/success', <SuccessPage />);
  expect(screen.getByRole('heading', { name: '¡Éxito!' })).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Ir al Panel Principal' }));
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/);
});

it.each([
  ['/beto', <BetoPage key="beto" />, 'Beto Pro'],
  ['/control-max', <ControlMaxPage key="cm" />, 'Control Max 360'],
])("%s shows the features and use cases and goes back with 'Volver a Aplicaciones'", async (path, page, name) => {
  renderAt(path, page);
  expect(screen.getByRole('heading', { level: 1, name })).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Funciones' })).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Casos de uso' })).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Volver a Aplicaciones' }));
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/);
});

describe('/pagos', () => {
  let api: Awaited<ReturnType<typeof startFakeApi>>;
  beforeEach(async () => {
    localStorage.clear();
    resetSessionForTests();
    api = await startFakeApi({
      'POST /facturacion/portal': { status: 503, body: { statusCode: 503, message: 'La facturación no está disponible' } },
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
    await useSession.getState().startSession('tok', user({ id: 7 }));
    renderAt('/pagos', <PaymentsPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Mi facturación' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('La facturación no está disponible');
    expect(JSON.parse(api.requests[0]!.body)).toEqual({ userId: 7 });
    await userEvent.click(screen.getByRole('button', { name: 'Ir al Panel Principal' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/);
  });
});
