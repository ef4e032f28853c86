import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type PortalSession, useSession } from '@portal/shared';
import { portalSession } from '@portal/shared/testing/fixtures';
import { renderAt, useFakeApi, user, type FakeApi } from '../../../testing/render';
import { SessionsSection } from './SessionsSection';

let api: FakeApi;
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
const session = (id: string, label: string, current: boolean, address: string) =>
  portalSession(id, label, { current, address, createdAt: minutesAgo(120), lastSeenAt: minutesAgo(5) });
let sessions: PortalSession[];

beforeEach(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  sessions = [
    session('actual', 'Chrome en Linux', true, '198.51.100.7'),
    session('otra', 'Firefox en Windows', false, '203.0.113.20'),
    session('movil', 'Safari en iOS', false, '203.0.113.30'),
  ];
  api = await useFakeApi({
    'GET /auth/sessions': () => ({ status: 200, body: sessions }),
    'DELETE /auth/sessions/otra': () => {
      sessions = sessions.filter((s) => s.id !== 'otra');
      return { status: 204 };
    },
    'DELETE /auth/sessions/panel': () => {
      sessions = sessions.filter((s) => s.id !== 'panel');
      return { status: 204 };
    },
    'POST /auth/sessions/cerrar-otras': () => {
      const ended = sessions.filter((s) => !s.current).length;
      sessions = sessions.filter((s) => s.current);
      return { status: 200, body: { ended } };
    },
  });
  await useSession.getState().startSession('tok', user());
});

afterEach(async () => {
  await api.close();
  jest.restoreAllMocks();
});

it('lists the sessions with device, browser, address, dates and the Este dispositivo badge', async () => {
  renderAt('/perfil', <SessionsSection />);
  const items = await screen.findAllByTestId('sesion');
  expect(items).toHaveLength(3);
  expect(within(items[0]!).getByText('Este dispositivo')).toBeInTheDocument();
  expect(within(items[0]!).getByText('Computadora · Chrome en Linux')).toBeInTheDocument();
  expect(within(items[0]!).queryByRole('button', { name: 'Cerrar sesión' })).not.toBeInTheDocument();
  expect(within(items[1]!).getByText('Dirección: 203.0.113.20')).toBeInTheDocument();
  expect(within(items[1]!).getByText('Último uso: hace 5 minutos')).toBeInTheDocument();
  expect(within(items[1]!).getByText(/Inicio: .*\(hace 2 horas\)/)).toBeInTheDocument();
  expect(within(items[1]!).queryByText('Este dispositivo')).not.toBeInTheDocument();
});

it('ends one session only after confirming', async () => {
  renderAt('/perfil', <SessionsSection />);
  const items = await screen.findAllByTestId('sesion');
  await userEvent.click(within(items[1]!).getByRole('button', { name: 'Cerrar sesión' }));
  await userEvent.click(within(items[1]!).getByRole('button', { name: 'Cancelar' }));
  expect(api.requests.some((r) => r.method === 'DELETE')).toBe(false);
  await userEvent.click(within(items[1]!).getByRole('button', { name: 'Cerrar sesión' }));
  await userEvent.click(within(items[1]!).getByRole('button', { name: 'Sí, cerrar sesión' }));
  expect(await screen.findByText('Sesión cerrada')).toBeInTheDocument();
  await waitFor(() => expect(screen.getAllByTestId('sesion')).toHaveLength(2));
  expect(screen.queryByText('Computadora · Firefox en Windows')).not.toBeInTheDocument();
});

it('closes all the other sessions after confirming', async () => {
  renderAt('/perfil', <SessionsSection />);
  await screen.findAllByTestId('sesion');
  await userEvent.click(screen.getByRole('button', { name: 'Cerrar todas las demás sesiones' }));
  await userEvent.click(screen.getByRole('button', { name: 'Sí, cerrar todas' }));
  expect(await screen.findByText('Se cerraron 2 sesiones')).toBeInTheDocument();
  await waitFor(() => expect(screen.getAllByTestId('sesion')).toHaveLength(1));
  expect(screen.queryByRole('button', { name: 'Cerrar todas las demás sesiones' })).not.toBeInTheDocument();
});

it("names a device's session by its app, and ends it like any other", async () => {
  sessions.push(
    portalSession('panel', 'Panel de planta en Linux', {
      device: 'Televisor',
      app: 'Panel de planta',
      address: '10.20.0.7',
      createdAt: minutesAgo(60),
      lastSeenAt: minutesAgo(10),
    }),
  );
  renderAt('/perfil', <SessionsSection />);
  const device = (await screen.findAllByTestId('sesion')).find((item) =>
    within(item).queryByText('Con código de dispositivo'),
  );
  if (!device) throw new Error('the device session is not listed');
  expect(within(device).getByText('Televisor · Panel de planta en Linux')).toBeInTheDocument();
  expect(within(device).getByText('Con código de dispositivo')).toBeInTheDocument();
  expect(within(device).getByText(/Conectado a Panel de planta con un código/)).toBeInTheDocument();
  await userEvent.click(within(device).getByRole('button', { name: 'Cerrar sesión' }));
  await userEvent.click(within(device).getByRole('button', { name: 'Sí, cerrar sesión' }));
  await waitFor(() => expect(screen.queryByText('Televisor · Panel de planta en Linux')).not.toBeInTheDocument());
});

it('a failure to load shows a Spanish message', async () => {
  await api.close();
  api = await useFakeApi({ 'GET /auth/sessions': { status: 500, body: { message: 'x' } } });
  await useSession.getState().startSession('tok', user());
  renderAt('/perfil', <SessionsSection />);
  expect(await screen.findByText(/No se pudieron cargar las sesiones|x/)).toBeInTheDocument();
});
