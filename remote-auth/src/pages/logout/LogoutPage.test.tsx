import { screen, waitFor } from '@testing-library/react';
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

it("says 'Cerrando sesión...', calls the API's logout and goes to /login", async () => {
  renderAt('/logout', <LogoutPage />);
  expect(screen.getByText('Cerrando sesión...')).toBeInTheDocument();
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
  expect(api.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization}`)).toEqual([
    'POST /auth/logout Bearer tok',
  ]);
  expect(useSession.getState().isAuthenticated).toBe(false);
  expect(localStorage.getItem('token')).toBeNull();
});

it('still signs out and goes to /login when the API fails', async () => {
  logoutReply = { status: 500 };
  renderAt('/logout', <LogoutPage />);
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
  expect(useSession.getState().isAuthenticated).toBe(false);
});

it('goes to an allowed redirect URL, never to a hostile one', async () => {
  renderAt('/logout?redirect_url=betopro%3A%2F%2Fauth%2Flogin', <LogoutPage />);
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
  expect(leaveTo).not.toHaveBeenCalled();

  await useSession.getState().startSession('tok', user());
  renderAt('/logout?redirect_url=https%3A%2F%2Fportal.example.com%2Fadios', <LogoutPage />);
  await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('https://portal.example.com/adios'));
});
