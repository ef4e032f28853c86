import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PortalSession } from '@portal/shared';
import { portalSession } from '@portal/shared/testing/fixtures';
import { SessionsModal } from './SessionsModal';
import { renderAt, useFakeApi, type FakeApi } from '../../testing/setup';

let api: FakeApi;
const open = (id: string, label: string, address: string) => portalSession(id, label, { address });
let sessions: PortalSession[];

afterEach(async () => {
  await api.close();
});

it('lists the user sessions and ends one, which leaves the list', async () => {
  sessions = [open('s1', 'Chrome en Linux', '198.51.100.7'), open('s2', 'Safari en iOS', '203.0.113.30')];
  api = await useFakeApi({
    'GET /admin/users/7/sessions': () => ({ status: 200, body: sessions }),
    'DELETE /admin/users/7/sessions/s2': () => {
      sessions = sessions.filter((s) => s.id !== 's2');
      return { status: 204 };
    },
  });
  const onClose = jest.fn();
  renderAt('/admin/usuarios', <SessionsModal user={{ id: 7, email: 'ana@example.com' }} onClose={onClose} />);
  const dialog = screen.getByRole('dialog', { name: 'Sesiones de ana@example.com' });
  const list = await within(dialog).findByRole('list', { name: 'Sesiones abiertas' });
  expect(within(list).getByText('Computadora · Chrome en Linux')).toBeInTheDocument();
  expect(within(list).getByText('Dirección: 203.0.113.30')).toBeInTheDocument();
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cerrar sesión de Safari en iOS' }));
  expect(await within(dialog).findByText('Sesión de Safari en iOS cerrada')).toBeInTheDocument();
  await waitFor(() => expect(within(dialog).queryByText('Computadora · Safari en iOS')).not.toBeInTheDocument());
  expect(api.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/admin/users/7/sessions/s2']);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
  expect(onClose).toHaveBeenCalled();
});

it('says so when the user has no open sessions', async () => {
  api = await useFakeApi({
    'GET /admin/users/8/sessions': { status: 200, body: [] },
  });
  renderAt('/admin/usuarios', <SessionsModal user={{ id: 8, email: 'sin@example.com' }} onClose={() => {}} />);
  expect(await screen.findByText('Este usuario no tiene sesiones abiertas.')).toBeInTheDocument();
});

it('a failure to load shows the Spanish fallback', async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  api = await useFakeApi({ 'GET /admin/users/9/sessions': { status: 503 } });
  renderAt('/admin/usuarios', <SessionsModal user={{ id: 9, email: 'x@example.com' }} onClose={() => {}} />);
  expect(await screen.findByRole('alert')).toHaveTextContent(/sesiones|servicio|disponible/i);
});
