import { screen, within } from '@testing-library/react';
import DashboardPage from './DashboardPage';
import { page, renderAt, useFakeApi, type FakeApi } from '../../testing/setup';

let api: FakeApi;
afterEach(() => api?.close());

const days = Array.from({ length: 14 }, (_, i) => ({
  date: `2026-11-${String(8 + i).padStart(2, '0')}`,
  count: i === 13 ? 4 : 0,
}));
const dashboard = {
  totalUsers: { value: 120, previous: 100, changePercent: 20 },
  activeApps: { value: 4, previous: 4, changePercent: 0 },
  activeSubscriptions: { value: 7, previous: 0, changePercent: null },
  newSubscriptions: { value: 2, previous: 4, changePercent: -50 },
  newUsersPerDay: days,
  monthlyRevenue: ['06', '07', '08', '09', '10', '11'].map((m, i) => ({ month: `2026-${m}`, amount: i * 1234.4 })),
  revenueSource: 'billing',
  planDistribution: [
    { app: 'Beto Pro', plan: 'PRO', users: 3, percentage: 42.9 },
    { app: 'Beto Pro', plan: 'free', users: 4, percentage: 57.1 },
  ],
};

describe('Dashboard de Administración', () => {
  it('says that there is no revenue to count when billing is not configured', async () => {
    api = await useFakeApi({
      'GET /admin/dashboard': {
        status: 200,
        body: {
          ...dashboard,
          revenueSource: 'none',
          monthlyRevenue: dashboard.monthlyRevenue.map((m) => ({ ...m, amount: 0 })),
        },
      },
      'GET /admin/auditoria': { status: 200, body: page([], 0, 1, 20) },
    });
    renderAt('/admin/dashboard', <DashboardPage />);
    expect(await screen.findByText(/La facturación no está configurada: no hay cobros que contar/)).toBeInTheDocument();
  });

  it("shows the server's figures: cards with their change, both charts, the distribution and real quick actions", async () => {
    api = await useFakeApi({
      'GET /admin/dashboard': { status: 200, body: dashboard },
      'GET /admin/auditoria': { status: 200, body: page([], 0, 1, 20) },
    });
    const { container } = renderAt('/admin/dashboard', <DashboardPage />);
    expect(screen.getByRole('heading', { name: 'Dashboard de Administración' })).toBeInTheDocument();
    const total = (await screen.findByRole('heading', { name: 'Total de usuarios' })).parentElement!;
    expect(total).toHaveTextContent('120');
    expect(total).toHaveTextContent('+20 % vs. mes anterior');
    expect(screen.getByRole('heading', { name: 'Suscripciones activas' }).parentElement).toHaveTextContent(
      'Sin datos del mes anterior',
    );
    expect(screen.getByRole('heading', { name: 'Nuevas suscripciones' }).parentElement).toHaveTextContent(
      '−50 % vs. mes anterior',
    );

    expect(screen.getAllByTestId('bar')).toHaveLength(14);
    expect(container.querySelectorAll('svg[viewBox="0 0 600 250"]')).toHaveLength(2);
    // Revenue in USD without decimals.
    expect(screen.getByRole('table', { name: 'Ingresos mensuales (USD)' })).toHaveTextContent('6.172 USD');
    expect(screen.getByRole('table', { name: 'Nuevos usuarios por día' })).toHaveTextContent('21/114');

    // What the revenue counts is said beside it; plans read 'Gratis'.
    expect(
      screen.getByText(
        'Cobros de suscripciones pagadas en la facturación. Los planes asignados por un administrador no cuentan.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Beto Pro · PRO')).toBeInTheDocument();
    expect(screen.getByText('Beto Pro · Gratis')).toBeInTheDocument();
    expect(screen.getByText('3 usuarios · 42,9 %')).toBeInTheDocument();

    const quick = within(screen.getByRole('heading', { name: 'Acciones rápidas' }).parentElement!);
    expect(quick.getByRole('link', { name: 'Gestionar usuarios' })).toHaveAttribute('href', '/admin/usuarios');
    expect(quick.getByRole('link', { name: 'Configurar apps' })).toHaveAttribute('href', '/admin/apps');
    expect(quick.getByRole('link', { name: 'Ver reportes' })).toHaveAttribute('href', '#auditoria');
    expect(await screen.findByText('Aún no hay acciones registradas')).toBeInTheDocument();
  });

  it('lists the audit log with who did what to whom', async () => {
    const entry = {
      id: 1,
      actorId: 1,
      actorEmail: 'admin@portal.test',
      action: 'user.status_change',
      targetType: 'user',
      targetId: 9,
      targetLabel: 'ana@example.com',
      details: { from: 'active', to: 'suspended' },
      createdAt: '2026-11-21T10:00:00.000Z',
    };
    api = await useFakeApi({
      'GET /admin/dashboard': { status: 200, body: dashboard },
      'GET /admin/auditoria': { status: 200, body: page([entry], 1, 1, 20) },
    });
    renderAt('/admin/dashboard', <DashboardPage />);
    const row = (await screen.findByText('ana@example.com')).closest('tr')!;
    expect(row).toHaveTextContent('admin@portal.test');
    expect(row).toHaveTextContent('Cambió el estado');
    expect(row).toHaveTextContent('Activo → Suspendido');
  });
});
