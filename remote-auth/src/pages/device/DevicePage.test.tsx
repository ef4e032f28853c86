import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type DeviceRequest, PENDING_DEVICE_KEY, useSession } from '@portal/shared';
import { type FakeReply, firstThen, type RecordedRequest } from '@portal/shared/testing/fake-api';
import { renderAt, useFakeApi, user, type FakeApi } from '../../testing/render';
import DevicePage from './DevicePage';

const LOOKUP = 'POST /oidc/dispositivo/consultar';
const ANSWER = 'POST /oidc/dispositivo/confirmar';

const request: DeviceRequest = {
  codigo: 'BCDF-GHJK',
  cliente: { id: 'panel', nombre: 'Panel de planta', primeraParte: false },
  permisos: [
    { scope: 'openid', descripcion: 'Saber quién eres' },
    { scope: 'email', descripcion: 'Ver tu email' },
  ],
  dispositivo: { ip: '203.0.113.7', iniciadoEn: '2026-11-27T10:00:00.000Z' },
  expiraEn: '2026-11-27T10:10:00.000Z',
  segundoFactor: null,
};

let api: FakeApi;

type Route = FakeReply | ((req: RecordedRequest) => FakeReply);

async function open(routes: Record<string, Route>, { signedIn = true, address = '/dispositivo' } = {}) {
  api = await useFakeApi({
    [LOOKUP]: { status: 200, body: request },
    [ANSWER]: { status: 200, body: { resultado: 'permitido' } },
    ...routes,
  });
  if (signedIn) await useSession.getState().startSession('token-de-ana', user());
  useSession.setState({ isInitialized: true });
  return renderAt(address, <DevicePage />);
}

const sent = (path: string) => api.requests.filter((r) => r.method === 'POST' && r.path === path);

beforeEach(() => {
  sessionStorage.clear();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  await api?.close();
  jest.restoreAllMocks();
});

describe('/dispositivo', () => {
  it('with the code in the address: shows app, permissions, address and code, and grants nothing unasked', async () => {
    await open({}, { address: '/dispositivo?codigo=BCDF-GHJK' });
    const heading = await screen.findByRole('heading', {
      name: 'Panel de planta quiere acceder a tu cuenta desde un dispositivo',
    });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByText('BCDF-GHJK')).toBeInTheDocument();
    expect(screen.getByText('203.0.113.7')).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Panel de planta podrá:' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Saber quién eres', 'Ver tu email']);
    expect(JSON.parse(sent('/oidc/dispositivo/consultar')[0]?.body ?? '')).toEqual({ codigo: 'BCDF-GHJK' });
    expect(sent('/oidc/dispositivo/confirmar')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Permitir' }));
    expect(await screen.findByRole('heading', { name: 'Listo: vuelve al dispositivo' })).toBeInTheDocument();
    expect(JSON.parse(sent('/oidc/dispositivo/confirmar')[0]?.body ?? '')).toEqual({
      codigo: 'BCDF-GHJK',
      permitir: true,
    });
  });

  it('typed: a wrong code is told in Spanish; Rechazar sends permitir false and says so', async () => {
    const wrong = {
      status: 404,
      body: {
        statusCode: 404,
        code: 'DEVICE_CODE_NOT_FOUND',
        message: 'Código incorrecto. Revisa el código que muestra el dispositivo.',
      },
    };
    await open({
      [LOOKUP]: (req) => (JSON.parse(req.body ?? '{}').codigo === 'bbbbbbbb' ? wrong : { status: 200, body: request }),
      [ANSWER]: { status: 200, body: { resultado: 'rechazado' } },
    });
    const field = await screen.findByLabelText('Código del dispositivo');
    await userEvent.type(field, 'bbbbbbbb');
    await userEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByText('Código incorrecto. Revisa el código que muestra el dispositivo.')).toBeVisible();
    // The button was greyed out while the code was checked: the focus is back on the field, to type it again.
    expect(field).toHaveFocus();
    await userEvent.clear(field);
    await userEvent.type(field, 'bcdfghjk{Enter}');
    await userEvent.click(await screen.findByRole('button', { name: 'Rechazar' }));
    expect(await screen.findByRole('heading', { name: 'Acceso rechazado' })).toBeInTheDocument();
    expect(JSON.parse(sent('/oidc/dispositivo/confirmar')[0]?.body ?? '')).toEqual({
      codigo: 'BCDF-GHJK',
      permitir: false,
    });
  });

  it('an app asking for a second factor: the person proves it here first, then allows; Cancelar tells the device why', async () => {
    const asked = { ...request, segundoFactor: { metodos: ['totp' as const], permiteConfiarDispositivo: true } };
    await open({
      [LOOKUP]: firstThen({ status: 200, body: asked }, { status: 200, body: request }),
      'POST /auth/segundo-factor/verificar': { status: 204 },
    });
    await userEvent.type(await screen.findByLabelText('Código del dispositivo'), 'BCDF-GHJK{Enter}');
    const heading = await screen.findByRole('heading', { name: 'Confirma tu identidad' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByText('Panel de planta pide que confirmes tu identidad con tu segundo factor.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Permitir' })).toBeNull();
    await userEvent.type(screen.getByLabelText('Código de verificación'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verificar' }));
    // Proved: the request is read again, and the screen that names the app, the address and the code asks.
    await userEvent.click(await screen.findByRole('button', { name: 'Permitir' }));
    expect(await screen.findByRole('heading', { name: 'Listo: vuelve al dispositivo' })).toBeInTheDocument();
    expect(sent('/oidc/dispositivo/consultar')).toHaveLength(2);
    expect(JSON.parse(sent('/oidc/dispositivo/confirmar')[0]?.body ?? '')).toEqual({
      codigo: 'BCDF-GHJK',
      permitir: true,
    });
  });

  it('Cancelar on the second factor an app asked for refuses the device, saying why', async () => {
    const asked = { ...request, segundoFactor: { metodos: [], permiteConfiarDispositivo: true } };
    await open(
      { [LOOKUP]: { status: 200, body: asked }, [ANSWER]: { status: 200, body: { resultado: 'rechazado' } } },
      { address: '/dispositivo?codigo=BCDF-GHJK' },
    );
    expect(await screen.findByText(/Panel de planta pide un segundo factor y aún no tienes uno/)).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(await screen.findByRole('heading', { name: 'Acceso rechazado' })).toBeInTheDocument();
    expect(JSON.parse(sent('/oidc/dispositivo/confirmar')[0]?.body ?? '')).toEqual({
      codigo: 'BCDF-GHJK',
      permitir: false,
      motivo: 'segundo_factor',
    });
  });

  it('signed out: the tab keeps the code and the person goes to sign in', async () => {
    await open({}, { signedIn: false, address: '/dispositivo?codigo=BCDF-GHJK' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    expect(JSON.parse(sessionStorage.getItem(PENDING_DEVICE_KEY) ?? '{}').codigo).toBe('BCDF-GHJK');
    expect(sent('/oidc/dispositivo/consultar')).toHaveLength(0);
  });
});
