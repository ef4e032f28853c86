import { screen, within } from '@testing-library/react';
import { resetApiClient, resetSessionForTests, useSession } from '@portal/shared';
import { startFakeApi } from '@portal/shared/testing/fake-api';
import { user, withPlans } from '../../../testing/fixtures';
import { renderAt } from '@portal/shared/testing/render';
import PlansPage from '../PlansPage';

type FakeApi = Awaited<ReturnType<typeof startFakeApi>>;
let api: FakeApi;

const catalogue = [
  withPlans(1, 'Control Max 360', { caracteristicas: ['Tableros ilimitados'], precioMensual: 19, precioAnual: 190 }),
  withPlans(2, 'Beto Pro', { caracteristicas: ['Consultas ilimitadas'], precioMensual: 15, precioAnual: 150 }),
  withPlans(3, 'TX30', { caracteristicas: ['Transmisores ilimitados'], precioMensual: 12.5, precioAnual: 120 }),
  { ...withPlans(5, 'Calculadora TXI', { caracteristicas: [], precioMensual: 0, precioAnual: 0 }), planes: [] },
];

const NO_BILLING = { publishableKey: '', pricingTableId: '' };

async function start(routes: Parameters<typeof startFakeApi>[0], billing = NO_BILLING, supportEmail = '') {
  api = await startFakeApi(routes);
  window.__PORTAL_CONFIG__ = { apiBaseUrl: api.url, billing, links: { campaignUrl: '', supportEmail } };
  resetApiClient();
}

const ONLINE_PURCHASE_SOON = 'La compra en línea aún no está disponible.';

beforeEach(async () => {
  localStorage.clear();
  resetSessionForTests();
  await useSession.getState().startSession('tok', user({ id: 7 }));
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  await api.close();
  jest.restoreAllMocks();
});

it('shows the suite at 39/299 USD and the cards of apps 2, 3, 1 with free and PRO features and coming-soon prices', async () => {
  await start({ 'GET /apps/listar-con-planes': { status: 200, body: catalogue } });
  renderAt('/planes', <PlansPage />);
  expect(screen.getByRole('heading', { level: 1, name: 'Planes Premium' })).toBeInTheDocument();
  const suite = screen.getByRole('region', { name: 'C+Suite Completa' });
  expect(within(suite).getByRole('button', { name: /^39 USD \/ mes\s*:\s*Próximamente$/ })).toBeDisabled();
  expect(within(suite).getByRole('button', { name: /^299 USD \/ año\s*:\s*Próximamente$/ })).toBeDisabled();

  const cards = await screen.findAllByTestId('plan-card');
  expect(cards.map((card) => within(card).getByRole('heading', { level: 2 }).textContent)).toEqual([
    'Beto Pro',
    'TX30',
    'Control Max 360',
  ]);
  const tx30 = cards[1]!;
  expect(within(tx30).getByText('TX30 gratis')).toBeInTheDocument();
  expect(within(tx30).getByText('Transmisores ilimitados')).toBeInTheDocument();
  expect(within(tx30).getByRole('button', { name: /^12.50 USD \/ mes\s*:\s*Próximamente$/ })).toBeDisabled();
  expect(within(tx30).getByRole('button', { name: /^120 USD \/ año\s*:\s*Próximamente$/ })).toBeDisabled();
});

it('says how to upgrade while buying is coming soon: by writing to the support address, the subject filled in', async () => {
  await start({ 'GET /apps/listar-con-planes': { status: 200, body: catalogue } }, NO_BILLING, 'soporte@acme.pe');
  renderAt('/planes', <PlansPage />);
  const help = screen.getByText(ONLINE_PURCHASE_SOON, { exact: false });
  expect(help).toHaveTextContent(`${ONLINE_PURCHASE_SOON} Para mejorar tu plan, escríbenos a soporte@acme.pe.`);
  expect(within(help).getByRole('link', { name: 'soporte@acme.pe' })).toHaveAttribute(
    'href',
    'mailto:soporte@acme.pe?subject=Mejorar%20mi%20plan',
  );
  expect(await screen.findAllByTestId('plan-card')).toHaveLength(3);
});

it('without a support address configured, says who can change the plan instead of an address that reaches nobody', async () => {
  await start({ 'GET /apps/listar-con-planes': { status: 200, body: catalogue } });
  renderAt('/planes', <PlansPage />);
  const help = screen.getByText(ONLINE_PURCHASE_SOON, { exact: false });
  expect(help).toHaveTextContent(
    `${ONLINE_PURCHASE_SOON} Para mejorar tu plan, pide a un administrador del portal que lo cambie.`,
  );
  expect(within(help).queryByRole('link')).not.toBeInTheDocument();
  expect(await screen.findAllByTestId('plan-card')).toHaveLength(3);
});

it("marks the plan the person has in each app with 'Tu plan actual'", async () => {
  await useSession.getState().startSession(
    'tok',
    user({
      id: 7,
      planesUsuarios: [
        {
          id: 1,
          plan: { nombre: 'PRO', descripcion: '' },
          app: { id: 2, nombre: 'Beto Pro' },
          fechaVencimiento: null,
          origen: 'propio',
          empresa: null,
        },
        {
          id: 2,
          plan: { nombre: 'free', descripcion: '' },
          app: { id: 3, nombre: 'TX30' },
          fechaVencimiento: null,
          origen: 'propio',
          empresa: null,
        },
      ],
    }),
  );
  await start({ 'GET /apps/listar-con-planes': { status: 200, body: catalogue } });
  renderAt('/planes', <PlansPage />);
  const [beto, tx30, controlMax] = await screen.findAllByTestId('plan-card');
  const tier = (card: HTMLElement, name: string) => within(card).getByRole('region', { name });
  expect(tier(beto!, 'Beto Pro PRO')).toHaveTextContent('Tu plan actual');
  expect(tier(beto!, 'Beto Pro Gratis')).not.toHaveTextContent('Tu plan actual');
  expect(tier(tx30!, 'TX30 Gratis')).toHaveTextContent('Tu plan actual');
  expect(tier(tx30!, 'TX30 PRO')).not.toHaveTextContent('Tu plan actual');
  // No plan in that app: nothing is marked.
  expect(controlMax).not.toHaveTextContent('Tu plan actual');
});

it("says where a plan a company's seat gives comes from: 'Puesto de <Empresa>' beside 'Tu plan actual'", async () => {
  const minera = { id: 12, nombre: 'Minera Andina S.A.' };
  await useSession.getState().startSession(
    'tok',
    user({
      planesUsuarios: [
        {
          id: -3,
          plan: { nombre: 'PRO', descripcion: '' },
          app: { id: 2, nombre: 'Beto Pro' },
          fechaVencimiento: null,
          origen: 'empresa',
          empresa: minera,
        },
      ],
    }),
  );
  await start({ 'GET /apps/listar-con-planes': { status: 200, body: catalogue } });
  renderAt('/planes', <PlansPage />);
  const [beto, tx30] = await screen.findAllByTestId('plan-card');
  const pro = within(beto!).getByRole('region', { name: 'Beto Pro PRO' });
  expect(pro).toHaveTextContent('Tu plan actual');
  expect(within(pro).getByText('Puesto de Minera Andina S.A.')).toBeInTheDocument();
  expect(tx30).not.toHaveTextContent('Puesto de');
});

it('names every region of the page once: each plan with its app (axe landmark-unique)', async () => {
  await useSession.getState().startSession('tok', user());
  await start({ 'GET /apps/listar-con-planes': { status: 200, body: catalogue } });
  renderAt('/planes', <PlansPage />);
  await screen.findAllByTestId('plan-card');
  // The name matcher is given each region's accessible name, as a screen reader computes it.
  const names: string[] = [];
  screen.getAllByRole('region', {
    name: (name) => {
      names.push(name);
      return true;
    },
  });
  expect(names).toEqual(expect.arrayContaining(['Beto Pro Gratis', 'Beto Pro PRO', 'TX30 Gratis', 'TX30 PRO']));
  expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
});

it("says 'Sin planes disponibles' when the plans cannot be loaded", async () => {
  await start({
    'GET /apps/listar-con-planes': { status: 500, body: { statusCode: 500, message: 'Error interno del servidor' } },
  });
  renderAt('/planes', <PlansPage />);
  expect(await screen.findByText('Sin planes disponibles')).toBeInTheDocument();
  expect(screen.queryByTestId('plan-card')).not.toBeInTheDocument();
});

it('shows the provider pricing table with the user id and the customer-session secret when billing is configured', async () => {
  await start(
    { 'POST /facturacion/customer-session': { status: 200, body: { clientSecret: 'cuss_secret_abc' } } },
    { publishableKey: 'pk_test_123', pricingTableId: 'prctbl_456' },
  );
  const { container } = renderAt('/planes', <PlansPage />);
  await screen.findByText((_, element) => element?.tagName.toLowerCase() === 'stripe-pricing-table');
  const table = container.querySelector('stripe-pricing-table')!;
  expect(table.getAttribute('pricing-table-id')).toBe('prctbl_456');
  expect(table.getAttribute('publishable-key')).toBe('pk_test_123');
  expect(table.getAttribute('client-reference-id')).toBe('7');
  expect(table.getAttribute('customer-session-client-secret')).toBe('cuss_secret_abc');
  expect(JSON.parse(api.requests.find((r) => r.path === '/facturacion/customer-session')!.body)).toEqual({ userId: 7 });
  expect(document.querySelector('script[src="https://js.stripe.com/v3/pricing-table.js"]')).not.toBeNull();
  // The table is where people subscribe: nothing says buying is unavailable.
  expect(screen.queryByText(ONLINE_PURCHASE_SOON, { exact: false })).not.toBeInTheDocument();
});

it("falls back to the portal's own plans, with the server's message, when billing answers 503", async () => {
  await start(
    {
      'POST /facturacion/customer-session': {
        status: 503,
        body: { statusCode: 503, message: 'La facturación no está disponible' },
      },
      'GET /apps/listar-con-planes': { status: 200, body: catalogue },
    },
    { publishableKey: 'pk_test_123', pricingTableId: 'prctbl_456' },
  );
  renderAt('/planes', <PlansPage />);
  expect(await screen.findByRole('alert')).toHaveTextContent('La facturación no está disponible');
  expect(await screen.findAllByTestId('plan-card')).toHaveLength(3);
});
