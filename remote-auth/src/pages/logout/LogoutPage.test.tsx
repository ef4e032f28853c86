import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSession, leaveTo } from '@portal/shared';
import { renderAt, useFakeApi, user, type FakeApi } from '../../testing/render';
import LogoutPage from './LogoutPage';

jest.mock('@portal/shared', () => ({ ...jest.requireActual('@portal/shared'), leaveTo: jest.fn() }));

let api: FakeApi;
let logoutReply: { status: number; body?: unknown };

beforeEach(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  logoutReply = { status: 204 };
  api = await useFakeApi({ 'POST /auth/logout': () => logoutReply });
  await useSession.getState().startSession('tok', user());
});

afterEach(async () => {
  await api.close();
  jest.restoreAllMocks();
  (leaveTo as jest.Mock).mockReset();
});

const logoutCalls = () => api.requests.filter((r) => r.path === '/auth/logout');

/** Opening /logout from a link asks first; the person presses 'Cerrar sesión' from the keyboard. */
async function confirm() {
  const button = await screen.findByRole('button', { name: 'Cerrar sesión' });
  button.focus();
  await userEvent.keyboard('{Enter}');
}

it('asks before signing out when /logout is opened from a link, and signs out nobody meanwhile', async () => {
  renderAt('/logout', <LogoutPage />);
  expect(await screen.findByRole('heading', { name: '¿Cerrar sesión?' })).toBeInTheDocument();
  expect(screen.getByText(/ana@example\.com/)).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Cerrar sesión' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Cancelar' })).toHaveAttribute('href', '/apps');
  // Whatever time passes, a visit alone ends nothing.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(logoutCalls()).toEqual([]);
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/logout$/);
  expect(useSession.getState().isAuthenticated).toBe(true);
  expect(localStorage.getItem('token')).toBe('tok');
});

it("signs out on 'Cerrar sesión' (Enter on the focused button): 'Cerrando sesión...', the API's logout, /login", async () => {
  renderAt('/logout', <LogoutPage />);
  await confirm();
  expect(await screen.findByText('Cerrando sesión...')).toBeInTheDocument();
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
  expect(logoutCalls().map((r) => `${r.method} ${r.path} ${r.headers.authorization}`)).toEqual([
    'POST /auth/logout Bearer tok',
  ]);
  expect(useSession.getState().isAuthenticated).toBe(false);
  expect(localStorage.getItem('token')).toBeNull();
});

it("'Cancelar' goes back to /apps still signed in", async () => {
  renderAt('/logout', <LogoutPage />);
  await userEvent.click(await screen.findByRole('link', { name: 'Cancelar' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/));
  expect(logoutCalls()).toEqual([]);
  expect(useSession.getState().isAuthenticated).toBe(true);
});

it('goes straight on with no session to end: nothing to ask', async () => {
  useSession.getState().clearSession();
  renderAt('/logout', <LogoutPage />);
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
  expect(screen.queryByRole('button', { name: 'Cerrar sesión' })).toBeNull();
});

it('still signs out and goes to /login when the API fails', async () => {
  logoutReply = { status: 500 };
  renderAt('/logout', <LogoutPage />);
  await confirm();
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
  expect(useSession.getState().isAuthenticated).toBe(false);
});

it('goes to an allowed redirect URL once confirmed, never to a hostile one', async () => {
  renderAt('/logout?redirect_url=betopro%3A%2F%2Fauth%2Flogin', <LogoutPage />);
  await confirm();
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
  expect(leaveTo).not.toHaveBeenCalled();

  await useSession.getState().startSession('tok', user());
  renderAt('/logout?redirect_url=https%3A%2F%2Fportal.example.com%2Fadios', <LogoutPage />);
  expect(leaveTo).not.toHaveBeenCalled();
  await confirm();
  await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('https://portal.example.com/adios'));
});

it("takes the browser through the API's SAML logout chain when the sign-out answers one, ", async () => {
  const chain = `${api.url}/saml/idp/cierre?cadena=${'a'.repeat(43)}`;
  logoutReply = { status: 200, body: { siguiente: chain } };
  renderAt('/logout?redirect_url=https%3A%2F%2Fportal.example.com%2Fadios', <LogoutPage />);
  await confirm();
  await waitFor(() => expect(leaveTo).toHaveBeenCalledWith(chain));
  expect(leaveTo).toHaveBeenCalledTimes(1);
  expect(useSession.getState().isAuthenticated).toBe(false);
});

it("goes to /login when the sign-out names an address that is not the API's logout chain", async () => {
  logoutReply = {
    status: 200,
    body: { siguiente: `https://malo.example.com/saml/idp/cierre?cadena=${'a'.repeat(43)}` },
  };
  renderAt('/logout', <LogoutPage />);
  await confirm();
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
  expect(leaveTo).not.toHaveBeenCalled();
});
