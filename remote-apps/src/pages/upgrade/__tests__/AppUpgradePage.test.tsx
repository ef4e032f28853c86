import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { resetApiClient, resetSessionForTests, type UserPlan, useSession } from '@portal/shared';
import { startFakeApi } from '@portal/shared/testing/fake-api';
import { app, user, withPlans } from '../../../testing/fixtures';
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
  localStorage.clear();
  resetSessionForTests();
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

/** The page's config: the API, a support address ('' when none is configured) and billing's publishable key. */
function configure(supportEmail: string, publishableKey = '') {
  window.__PORTAL_CONFIG__ = {
    apiBaseUrl: api.url,
    links: { campaignUrl: '', supportEmail },
    billing: { publishableKey, pricingTableId: publishableKey ? 'prctbl_1' : '' },
  };
}

const betoPlan = (nombre: string): UserPlan => ({
  id: 1,
  plan: { nombre, descripcion: '' },
  app: { id: 2, nombre: 'Beto Pro' },
  fechaVencimiento: null,
  origen: 'propio',
  empresa: null,
});

const PURCHASE_SOON = 'La compra en línea aún no está disponible.';

/** Beto Pro's upgrade page, and the note of how to upgrade once it shows. */
function upgradeHelp(): Promise<HTMLElement> {
  renderAt('/apps/2', <AppUpgradePage />, { pattern: '/apps/:id' });
  return screen.findByText(PURCHASE_SOON, { exact: false });
}

describe('how to upgrade while buying is coming soon', () => {
  it("names the support address, the app's name in the mail's subject", async () => {
    configure('soporte@acme.pe');
    const help = await upgradeHelp();
    expect(help).toHaveTextContent(`${PURCHASE_SOON} Para mejorar tu plan, escríbenos a soporte@acme.pe.`);
    expect(within(help).getByRole('link', { name: 'soporte@acme.pe' })).toHaveAttribute(
      'href',
      'mailto:soporte@acme.pe?subject=Mejorar%20mi%20plan%20de%20Beto%20Pro',
    );
  });

  it('without a support address, says an administrator of the portal can change the plan', async () => {
    configure('');
    const help = await upgradeHelp();
    expect(help).toHaveTextContent(
      `${PURCHASE_SOON} Para mejorar tu plan, pide a un administrador del portal que lo cambie.`,
    );
    expect(within(help).queryByRole('link')).not.toBeInTheDocument();
  });

  it("with billing configured, leads to 'Planes Premium', where the plans are bought", async () => {
    configure('soporte@acme.pe', 'pk_test_1');
    renderAt('/apps/2', <AppUpgradePage />, { pattern: '/apps/:id' });
    const help = await screen.findByText('Para suscribirte a un plan', { exact: false });
    expect(help).toHaveTextContent('Para suscribirte a un plan, ve a Planes Premium.');
    await userEvent.click(within(help).getByRole('link', { name: 'Planes Premium' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/planes');
  });
});

describe('the plan the person has', () => {
  it("on the free plan: 'Tu plan actual: Gratis' beside the PRO plan", async () => {
    await useSession.getState().startSession('tok', user({ planesUsuarios: [betoPlan('free')] }));
    renderAt('/apps/2', <AppUpgradePage />, { pattern: '/apps/:id' });
    const pro = await screen.findByRole('region', { name: 'Beto Pro PRO' });
    expect(within(pro).getByText('Tu plan actual: Gratis')).toBeInTheDocument();
  });

  it("on the PRO plan: the PRO plan is marked 'Tu plan actual'", async () => {
    await useSession.getState().startSession('tok', user({ planesUsuarios: [betoPlan('PRO')] }));
    renderAt('/apps/2', <AppUpgradePage />, { pattern: '/apps/:id' });
    const pro = await screen.findByRole('region', { name: 'Beto Pro PRO' });
    expect(within(pro).getByText('Tu plan actual')).toBeInTheDocument();
    expect(within(pro).queryByText('Tu plan actual: Gratis')).not.toBeInTheDocument();
  });

  it("on a company's seat: names the company, and still offers the PRO plan to buy as the person's own", async () => {
    const seat: UserPlan = { ...betoPlan('PRO'), origen: 'empresa', empresa: { id: 12, nombre: 'Minera Andina S.A.' } };
    await useSession.getState().startSession('tok', user({ planesUsuarios: [seat] }));
    renderAt('/apps/2', <AppUpgradePage />, { pattern: '/apps/:id' });
    const pro = await screen.findByRole('region', { name: 'Beto Pro PRO' });
    expect(within(pro).getByText('Tu plan actual')).toBeInTheDocument();
    expect(within(pro).getByText('Puesto de Minera Andina S.A.')).toBeInTheDocument();
    expect(
      within(pro).getByText(
        'Este plan te lo da un puesto de Minera Andina S.A.: si compras tu propio plan, lo conservas aunque la empresa retire el puesto.',
      ),
    ).toBeInTheDocument();
    // The prices stay: buying one's own plan is still offered.
    expect(within(pro).getAllByText(/USD/).length).toBeGreaterThan(0);
    // Who changes a seat's plan is the company, not the portal's administrators.
    expect(
      screen.getByText(
        'La compra en línea aún no está disponible. Tu plan de esta app es un puesto de Minera Andina S.A.: para cambiarlo, habla con un administrador de tu empresa.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/administrador del portal/)).not.toBeInTheDocument();
  });

  it("on a company's free seat: 'Tu plan actual: Gratis (Puesto de <Empresa>)'", async () => {
    const seat: UserPlan = {
      ...betoPlan('free'),
      origen: 'empresa',
      empresa: { id: 12, nombre: 'Minera Andina S.A.' },
    };
    await useSession.getState().startSession('tok', user({ planesUsuarios: [seat] }));
    renderAt('/apps/2', <AppUpgradePage />, { pattern: '/apps/:id' });
    const pro = await screen.findByRole('region', { name: 'Beto Pro PRO' });
    expect(within(pro).getByText('Tu plan actual: Gratis (Puesto de Minera Andina S.A.)')).toBeInTheDocument();
  });

  it('without a plan in that app, marks nothing', async () => {
    await useSession.getState().startSession('tok', user({ planesUsuarios: [] }));
    renderAt('/apps/2', <AppUpgradePage />, { pattern: '/apps/:id' });
    const pro = await screen.findByRole('region', { name: 'Beto Pro PRO' });
    expect(pro).not.toHaveTextContent('Tu plan actual');
  });
});
