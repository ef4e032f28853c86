import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PENDING_INVITATION_KEY, signInLanding, takePendingInvitation, useSession } from '@portal/shared';
import type { FakeReply, RecordedRequest } from '@portal/shared/testing/fake-api';
import { bodyOf, renderAt, useFakeApi, user, type FakeApi } from '../../testing/render';
import InvitationPage from './InvitationPage';

const MINERA = { id: 12, nombre: 'Minera Andina S.A.' };
const LINK = '/invitacion?codigo=482913&email=ana%40minera.pe';
const ANA = user({ email: 'ana@minera.pe' });
const INVALID = {
  status: 400,
  body: { statusCode: 400, code: 'INVITACION_INVALIDA', message: 'La invitación no es válida o ya venció.' },
};

type Route = FakeReply | ((req: RecordedRequest) => FakeReply);
let api: FakeApi;

async function open(routes: Record<string, Route> = {}, { as = ANA as typeof ANA | null, address = LINK } = {}) {
  api = await useFakeApi({
    'GET /empresas/invitaciones/mias': {
      status: 200,
      body: [{ id: 31, empresa: MINERA, rol: 'miembro', vence: '2026-12-01T00:00:00.000Z' }],
    },
    'POST /empresas/invitaciones/aceptar': { status: 200, body: { empresa: MINERA, rol: 'miembro' } },
    'GET /auth/user': { status: 200, body: ANA },
    'POST /auth/logout': { status: 204 },
    ...routes,
  });
  if (as) await useSession.getState().startSession('token-de-ana', as);
  useSession.setState({ isInitialized: true });
  return renderAt(address, <InvitationPage />);
}

const sent = (method: string, path: string) => api.requests.filter((r) => r.method === method && r.path === path);

beforeEach(() => {
  sessionStorage.clear();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  await api?.close();
  jest.restoreAllMocks();
});

describe('signed in with the invited address', () => {
  it("shows the company and the role, and 'Aceptar invitación' accepts by the code", async () => {
    await open();
    expect(await screen.findByText('Minera Andina S.A. te invitó a unirte como Miembro')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Aceptar invitación' }));
    expect(await screen.findByText('Te uniste a Minera Andina S.A. como Miembro.')).toBeInTheDocument();
    expect(bodyOf(api, '/empresas/invitaciones/aceptar')).toEqual({ codigo: '482913' });
    expect(sent('POST', '/empresas/invitaciones/aceptar')[0]?.headers.authorization).toBe('Bearer token-de-ana');
    // The user is loaded again, so the company's seats show on /apps.
    await waitFor(() => expect(sent('GET', '/auth/user')).toHaveLength(1));
    expect(screen.getByRole('link', { name: 'Ir a mis aplicaciones' })).toHaveAttribute('href', '/apps');
  });

  it('matches the address whatever its case', async () => {
    await open({}, { address: '/invitacion?codigo=482913&email=Ana%40Minera.PE' });
    expect(await screen.findByRole('button', { name: 'Aceptar invitación' })).toBeInTheDocument();
  });

  it("shows the API's Spanish refusal of a wrong or expired code, and nothing else changes", async () => {
    await open({ 'POST /empresas/invitaciones/aceptar': INVALID });
    await userEvent.click(await screen.findByRole('button', { name: 'Aceptar invitación' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('La invitación no es válida o ya venció.');
    expect(screen.getByText('Minera Andina S.A. te invitó a unirte como Miembro')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Aceptar invitación' })).toBeEnabled();
    expect(sent('GET', '/auth/user')).toHaveLength(0);
  });
});

describe('an owner or administrator of the company', () => {
  it("accepting offers 'Administrar <empresa>', to the company's page, before the apps", async () => {
    await open({
      'GET /empresas/invitaciones/mias': {
        status: 200,
        body: [{ id: 31, empresa: MINERA, rol: 'propietario', vence: '2026-12-01T00:00:00.000Z' }],
      },
      'POST /empresas/invitaciones/aceptar': { status: 200, body: { empresa: MINERA, rol: 'propietario' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Aceptar invitación' }));
    expect(await screen.findByText('Te uniste a Minera Andina S.A. como Propietario.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Administrar Minera Andina S.A.' })).toHaveAttribute(
      'href',
      '/admin/empresas/12',
    );
    expect(screen.getByRole('link', { name: 'Ir a mis aplicaciones' })).toBeInTheDocument();
  });

  it("the link opened again, once accepted: 'Ya eres Propietario de …', the way to the company, nothing to accept", async () => {
    const owner = user({
      email: 'ana@minera.pe',
      empresas: [{ ...MINERA, rol: 'propietario', estado: 'activo' }],
    } as Partial<typeof ANA>);
    await open({ 'GET /empresas/invitaciones/mias': { status: 200, body: [] } }, { as: owner });
    expect(await screen.findByText(/No encontramos invitaciones pendientes para ana@minera\.pe/)).toHaveTextContent(
      'puede que ya la hayas aceptado, que haya vencido o que la hayan anulado',
    );
    expect(screen.getByText('Ya eres Propietario de Minera Andina S.A.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Administrar Minera Andina S.A.' })).toHaveAttribute(
      'href',
      '/admin/empresas/12',
    );
    expect(screen.queryByRole('button', { name: 'Aceptar invitación' })).not.toBeInTheDocument();
  });
});

it('a member whose invitation is gone is told so, with no way to manage and nothing to accept', async () => {
  const member = user({
    email: 'ana@minera.pe',
    empresas: [{ ...MINERA, rol: 'miembro', estado: 'activo' }],
  } as Partial<typeof ANA>);
  await open({ 'GET /empresas/invitaciones/mias': { status: 200, body: [] } }, { as: member });
  expect(await screen.findByText('Ya eres Miembro de Minera Andina S.A.')).toBeInTheDocument();
  expect(screen.queryByRole('link', { name: /Administrar/ })).not.toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Aceptar invitación' })).not.toBeInTheDocument();
});

describe('signed in with another address', () => {
  it('says so, accepts nothing, and signs out to continue', async () => {
    await open({}, { as: user({ email: 'pedro@example.com' }) });
    expect(
      await screen.findByText(
        'Esta invitación es para ana@minera.pe, pero iniciaste sesión como pedro@example.com. Solo puede aceptarla la cuenta de la dirección invitada.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Aceptar invitación' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cerrar sesión y continuar' }));
    expect(await screen.findByRole('button', { name: 'Iniciar sesión' })).toBeInTheDocument();
    expect(sent('POST', '/auth/logout')).toHaveLength(1);
    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(sent('GET', '/empresas/invitaciones/mias')).toHaveLength(0);
    expect(sent('POST', '/empresas/invitaciones/aceptar')).toHaveLength(0);
  });
});

describe('signed out', () => {
  it("'Iniciar sesión' goes to /login with the address typed, and the sign-in comes back to the invitation", async () => {
    await open({}, { as: null });
    expect(screen.getByText(/Esta invitación es para/)).toHaveTextContent('Esta invitación es para ana@minera.pe.');
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/);
    expect(sessionStorage.getItem(PENDING_INVITATION_KEY)).not.toBeNull();
    // The one landing decision, after whichever sign-in: back to /invitacion with the link.
    await expect(signInLanding(null, ANA)).resolves.toEqual({
      kind: 'page',
      path: '/invitacion?codigo=482913&email=ana%40minera.pe',
    });
    expect(takePendingInvitation()).toBeNull();
  });

  it("'Crear cuenta' goes to the registration with the address and the code", async () => {
    await open({}, { as: null });
    await userEvent.click(screen.getByRole('button', { name: 'Crear cuenta' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/register?email=ana%40minera.pe&invitacion=482913');
  });
});

it('says a link without a valid code or address is not valid, and asks the API nothing', async () => {
  await open({}, { address: '/invitacion?codigo=12&email=ana%40minera.pe' });
  expect(screen.getByRole('alert')).toHaveTextContent('El enlace de invitación no es válido.');
  expect(sent('GET', '/empresas/invitaciones/mias')).toHaveLength(0);
});
