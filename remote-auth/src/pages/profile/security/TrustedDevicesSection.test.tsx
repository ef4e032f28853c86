import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type TrustedDevice, useSession } from '@portal/shared';
import { renderAt, useFakeApi, user, type FakeApi } from '../../../testing/render';
import { TrustedDevicesSection } from './TrustedDevicesSection';

let api: FakeApi;
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
const device = (id: number, label: string, actual: boolean, added: number, used: number): TrustedDevice => ({
  id,
  label,
  createdAt: daysAgo(added),
  lastUsedAt: daysAgo(used),
  expiresAt: daysAgo(added - 30),
  actual,
});
let devices: TrustedDevice[];

beforeEach(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  devices = [device(3, 'Chrome en Linux', true, 10, 1), device(2, 'Safari en iOS', false, 20, 3)];
  api = await useFakeApi({
    'GET /auth/dispositivos-confiables': () => ({ status: 200, body: devices }),
    'DELETE /auth/dispositivos-confiables/2': () => {
      devices = devices.filter((d) => d.id !== 2);
      return { status: 204 };
    },
    'DELETE /auth/dispositivos-confiables': () => {
      const quitados = devices.length;
      devices = [];
      return { status: 200, body: { quitados } };
    },
  });
  await useSession.getState().startSession('tok', user());
});

afterEach(async () => {
  await api.close();
  jest.restoreAllMocks();
});

it('lists each device with when it was added and last used, marks this browser, and removes one or all', async () => {
  const fetchSpy = jest.spyOn(globalThis, 'fetch');
  renderAt('/perfil', <TrustedDevicesSection />);
  const list = await screen.findByRole('list', { name: 'Dispositivos de confianza' });
  const [mine, phone] = within(list).getAllByRole('listitem');
  expect(within(mine!).getByText('Chrome en Linux')).toBeInTheDocument();
  expect(within(mine!).getByText('Este dispositivo')).toBeInTheDocument();
  expect(within(mine!).getByText('Último uso: ayer')).toBeInTheDocument();
  expect(within(phone!).getByText('Último uso: hace 3 días')).toBeInTheDocument();
  expect(within(phone!).getByText(/^Agregado: /)).toBeInTheDocument();
  expect(within(phone!).queryByText('Este dispositivo')).toBeNull();
  // The list sends the browser's cookies: the API tells which device is this browser.
  const listing = fetchSpy.mock.calls.map(([input]) => input as Request).find((r) => r.method === 'GET');
  expect(listing?.credentials).toBe('include');

  await userEvent.click(within(phone!).getByRole('button', { name: /^Quitar Safari en iOS/ }));
  expect(await screen.findByText('Dispositivo quitado: volverá a pedir el segundo factor')).toBeInTheDocument();
  await waitFor(() => expect(screen.queryByText('Safari en iOS')).toBeNull());

  await userEvent.click(screen.getByRole('button', { name: 'Quitar todos' }));
  expect(await screen.findByText('Se quitó 1 dispositivo')).toBeInTheDocument();
  expect(await screen.findByText('No tienes dispositivos de confianza.')).toBeInTheDocument();
  expect(api.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
    '/auth/dispositivos-confiables/2',
    '/auth/dispositivos-confiables',
  ]);
});

it('says so when the list cannot be read', async () => {
  await api.close();
  api = await useFakeApi({
    'GET /auth/dispositivos-confiables': { status: 500, body: { statusCode: 500, message: 'Internal Server Error' } },
  });
  renderAt('/perfil', <TrustedDevicesSection />);
  expect(await screen.findByRole('alert')).toHaveTextContent('No se pudieron cargar los dispositivos de confianza');
});
