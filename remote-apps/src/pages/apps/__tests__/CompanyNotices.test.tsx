import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  type MyInvitation,
  resetApiClient,
  resetAppsForTests,
  resetSessionForTests,
  useApps,
  useSession,
  whenApiIdle,
} from '@portal/shared';
import { type RecordedRequest, startFakeApi } from '@portal/shared/testing/fake-api';
import { renderAt } from '@portal/shared/testing/render';
import { catalogue, user } from '../../../testing/fixtures';
import AppsPage from '../AppsPage';

type FakeApi = Awaited<ReturnType<typeof startFakeApi>>;
let api: FakeApi | undefined;

const MINERA = { id: 12, nombre: 'Minera Andina S.A.' };
const invitation = (overrides: Partial<MyInvitation> = {}): MyInvitation => ({
  id: 31,
  empresa: MINERA,
  rol: 'miembro',
  vence: '2026-12-01T00:00:00.000Z',
  ...overrides,
});
const SEAT = {
  id: -4,
  plan: { nombre: 'PRO', descripcion: '' },
  app: { id: 1, nombre: 'Control Max 360' },
  fechaVencimiento: '2027-01-01T00:00:00.000Z',
  origen: 'empresa' as const,
  empresa: MINERA,
};

async function open(
  routes: Parameters<typeof startFakeApi>[0],
  overrides: Parameters<typeof user>[0] = {},
): Promise<FakeApi> {
  api = await startFakeApi({
    'GET /apps/listar-con-planes': { status: 200, body: [] },
    ...routes,
  });
  window.__PORTAL_CONFIG__ = {
    apiBaseUrl: api.url,
    links: { campaignUrl: 'https://campana.example.com/promo', supportEmail: 's@example.com' },
  };
  resetApiClient();
  await useSession.getState().startSession('tok-123', user(overrides));
  useApps.setState({ apps: catalogue, isLoaded: true, isLoading: false, error: null });
  renderAt('/apps', <AppsPage />);
  return api;
}

const sent = (method: string, path: string) =>
  (api?.requests ?? []).filter((r: RecordedRequest) => r.method === method && r.path === path);

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  resetAppsForTests();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  await whenApiIdle();
  await api?.close();
  api = undefined;
  jest.restoreAllMocks();
});

describe('the company notices on /apps', () => {
  it("shows a pending invitation to the person's address with 'Aceptar' and 'Rechazar'", async () => {
    await open({ 'GET /empresas/invitaciones/mias': { status: 200, body: [invitation()] } });
    const notices = await screen.findByRole('region', { name: 'Avisos de empresas' });
    expect(within(notices).getByText('Minera Andina S.A. te invitó a unirte como Miembro')).toBeInTheDocument();
    expect(
      within(notices).getByRole('button', { name: 'Aceptar la invitación de Minera Andina S.A.' }),
    ).toHaveTextContent('Aceptar');
    expect(
      within(notices).getByRole('button', { name: 'Rechazar la invitación de Minera Andina S.A.' }),
    ).toHaveTextContent('Rechazar');
  });

  it('accepts by the invitation id, says so, and loads the user again so the seat shows', async () => {
    let accepted = false;
    await open({
      'GET /empresas/invitaciones/mias': { status: 200, body: [invitation({ rol: 'administrador' })] },
      'POST /empresas/invitaciones/aceptar': () => {
        accepted = true;
        return { status: 200, body: { empresa: MINERA, rol: 'administrador' } };
      },
      'GET /auth/user': () => ({
        status: 200,
        body: user(
          accepted ? { planesUsuarios: [SEAT], empresas: [{ ...MINERA, rol: 'administrador', estado: 'activo' }] } : {},
        ),
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: /^Aceptar la invitación/ }));
    expect(await screen.findByText('Te uniste a Minera Andina S.A. como Administrador.')).toBeInTheDocument();
    expect(JSON.parse(sent('POST', '/empresas/invitaciones/aceptar')[0]?.body ?? 'null')).toEqual({ idInvitacion: 31 });
    expect(screen.queryByText(/te invitó a unirte/)).not.toBeInTheDocument();
    const plans = await screen.findByRole('region', { name: 'Tus Aplicaciones' });
    expect(within(plans).getByText('Control Max 360: PRO')).toBeInTheDocument();
    expect(within(plans).getByText('Puesto de Minera Andina S.A.')).toBeInTheDocument();
  });

  it("shows the API's Spanish refusal in the notice and keeps it", async () => {
    await open({
      'GET /empresas/invitaciones/mias': { status: 200, body: [invitation()] },
      'POST /empresas/invitaciones/aceptar': {
        status: 400,
        body: { statusCode: 400, code: 'INVITACION_INVALIDA', message: 'La invitación no es válida o ya venció.' },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: /^Aceptar la invitación/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('La invitación no es válida o ya venció.');
    expect(screen.getByText('Minera Andina S.A. te invitó a unirte como Miembro')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Aceptar la invitación/ })).toBeEnabled();
  });

  it('declines with the invitation id in the address, and the notice goes', async () => {
    await open({
      'GET /empresas/invitaciones/mias': { status: 200, body: [invitation()] },
      'POST /empresas/invitaciones/31/rechazar': { status: 204 },
    });
    await userEvent.click(await screen.findByRole('button', { name: /^Rechazar la invitación/ }));
    await waitFor(() => expect(screen.queryByText(/te invitó a unirte/)).not.toBeInTheDocument());
    expect(sent('POST', '/empresas/invitaciones/31/rechazar')).toHaveLength(1);
    expect(sent('POST', '/empresas/invitaciones/aceptar')).toHaveLength(0);
  });

  it('tells a person whose domain join waits for approval', async () => {
    await open(
      { 'GET /empresas/invitaciones/mias': { status: 200, body: [] } },
      {
        empresas: [
          { ...MINERA, rol: 'miembro', estado: 'pendiente' },
          { id: 13, nombre: 'Otra S.A.', rol: 'miembro', estado: 'activo' },
        ],
      },
    );
    expect(
      await screen.findByText('Tu solicitud para unirte a Minera Andina S.A. está pendiente de aprobación'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Otra S\.A\./)).not.toBeInTheDocument();
  });

  it('tells a member whose company asks for a second factor, with the way to set one up', async () => {
    await open(
      { 'GET /empresas/invitaciones/mias': { status: 200, body: [] } },
      {
        empresas: [
          { ...MINERA, rol: 'miembro', estado: 'activo', segundoFactorPendiente: true },
          { id: 13, nombre: 'Otra S.A.', rol: 'miembro', estado: 'activo' },
        ],
      },
    );
    expect(
      await screen.findByText(
        'Minera Andina S.A. pide un segundo factor para usar sus puestos: configúralo en Seguridad',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Configurar segundo factor' })).toHaveAttribute(
      'href',
      '/perfil?tab=seguridad',
    );
    expect(screen.queryByText(/Otra S\.A\./)).not.toBeInTheDocument();
  });

  it('shows nothing when there is nothing to say, and the apps home works when the invitations cannot be read', async () => {
    await open({ 'GET /empresas/invitaciones/mias': { status: 500, body: { statusCode: 500, message: 'Error' } } });
    await waitFor(() => expect(sent('GET', '/empresas/invitaciones/mias')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'Avisos de empresas' })).not.toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Control Max 360' })).toBeInTheDocument();
  });

  it("reaches the notice's buttons with Tab", async () => {
    await open({ 'GET /empresas/invitaciones/mias': { status: 200, body: [invitation()] } });
    const accept = await screen.findByRole('button', { name: /^Aceptar la invitación/ });
    const decline = screen.getByRole('button', { name: /^Rechazar la invitación/ });
    const reached = new Set<Element | null>();
    for (let i = 0; i < 40 && !(reached.has(accept) && reached.has(decline)); i++) {
      await userEvent.tab();
      reached.add(document.activeElement);
    }
    expect(reached).toContain(accept);
    expect(reached).toContain(decline);
  });
});
