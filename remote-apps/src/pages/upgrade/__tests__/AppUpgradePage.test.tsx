import { screen, within } from '@testing-library/react';
import { resetApiClient } from '@portal/shared';
import { startFakeApi } from '@portal/shared/testing/fake-api';
import { app, withPlans } from '../../../testing/fixtures';
import { renderAt } from '@portal/shared/testing/render';
import AppUpgradePage from '../AppUpgradePage';

type FakeApi = Awaited<ReturnType<typeof startFakeApi>>;
let api: FakeApi;

beforeEach(async () => {
  api = await startFakeApi({
    'GET /apps/obtener-por-id/2': {
      status: 200,
      delay: 100,
      body: app(2, 'Beto Pro', { longDescription: 'Beto Pro responde tus dudas técnicas al instante.' }),
    },
    'GET /apps/obtener-por-id/99': { status: 404, body: { statusCode: 404, message: 'App no encontrada' } },
    'GET /apps/listar-con-planes': {
      status: 200,
      body: [
        withPlans(2, 'Beto Pro', {
          caracteristicas: ['Consultas ilimitadas', 'Informes descargables'],
          precioMensual: 15,
          precioAnual: 150,
        }),
      ],
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

it("shows 'Cargando...' and then the presentation, the PRO plan and the complete suite", async () => {
  renderAt('/apps/2', <AppUpgradePage />, { pattern: '/apps/:id' });
  expect(screen.getByText('Cargando...')).toBeInTheDocument();
  expect(await screen.findByText('Beto Pro responde tus dudas técnicas al instante.')).toBeInTheDocument();
  const pro = screen.getByRole('region', { name: 'Beto Pro PRO' });
  expect(within(pro).getByText('Informes descargables')).toBeInTheDocument();
  expect(within(pro).getByRole('button', { name: /^15 USD \/ mes\s*:\s*Próximamente$/ })).toBeDisabled();
  expect(within(pro).getByRole('button', { name: /^150 USD \/ año\s*:\s*Próximamente$/ })).toBeDisabled();
  const suite = screen.getByRole('region', { name: 'C+Suite Completa' });
  expect(within(suite).getByRole('button', { name: /^39 USD \/ mes\s*:\s*Próximamente$/ })).toBeInTheDocument();
  expect(within(suite).getByRole('button', { name: /^299 USD \/ año\s*:\s*Próximamente$/ })).toBeInTheDocument();
});

it("says 'App no encontrada' for an unknown app and for an id that is not a number", async () => {
  const unknown = renderAt('/apps/99', <AppUpgradePage />, { pattern: '/apps/:id' });
  expect(await screen.findByRole('heading', { name: 'App no encontrada' })).toBeInTheDocument();
  unknown.unmount();
  renderAt('/apps/abc', <AppUpgradePage />, { pattern: '/apps/:id' });
  expect(await screen.findByRole('heading', { name: 'App no encontrada' })).toBeInTheDocument();
});
