import { act, render, waitFor } from '@testing-library/react';
import { BrowserRouter } from 'react-router-dom';
import { type Landing, resetSessionForTests, signInLanding, takePendingPage, useSession } from '@portal/shared';
import { user } from '@portal/shared/testing/fixtures';
import { Guarded } from '../Guarded';

jest.mock('@portal/shared', () => ({ ...jest.requireActual('@portal/shared'), signInLanding: jest.fn() }));
jest.mock('../../layout/TopBar', () => ({ TopBar: () => <header>barra superior</header> }));

/** A signed-in person at /login in the browser's router, whose landing is decided when the test says. */
async function signedInAtLogin() {
  let decide: (landing: Landing) => void = () => undefined;
  jest.mocked(signInLanding).mockClear();
  jest.mocked(signInLanding).mockReturnValue(
    new Promise<Landing>((resolve) => {
      decide = resolve;
    }),
  );
  resetSessionForTests();
  useSession.setState({ isInitialized: true });
  await useSession.getState().startSession('tok', user());
  window.history.replaceState(null, '', '/login');
  render(
    <BrowserRouter>
      <Guarded guard="guest">
        <p>formulario</p>
      </Guarded>
    </BrowserRouter>,
  );
  await waitFor(() => expect(signInLanding).toHaveBeenCalled());
  return (landing: Landing) => act(async () => decide(landing));
}

it('sends a signed-in person on from the sign-in page, replacing it', async () => {
  const decide = await signedInAtLogin();
  await decide({ kind: 'page', path: '/apps' });
  expect(window.location.pathname).toBe('/apps');
});

it('does not send on from a page the tab has left while the landing was decided, but from the one shown next', async () => {
  const decide = await signedInAtLogin();
  // The browser is on another entry the router has not shown yet (Back pressed while the next page loads): the
  // sign-in page's tree is still the one on screen. The other entry is a sign-in page too, at the same address.
  window.history.pushState({ usr: null, key: 'otra', idx: 1 }, '', '/login?otra');
  await decide({ kind: 'page', path: '/apps' });
  expect(window.location.href).toMatch(/\/login\?otra$/);
  // The router shows that entry: a signed-in person there is sent on, once, replacing it.
  act(() => window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state })));
  await waitFor(() => expect(window.location.pathname).toBe('/apps'));
  expect(window.history.state.idx).toBe(1);
  expect(signInLanding).toHaveBeenCalledTimes(1);
});

describe('a signed-out visitor on a signed-in page', () => {
  async function signedOutAt(address: string, guard: 'user' | 'company' = 'company', signedOutOnPurpose = false) {
    resetSessionForTests();
    sessionStorage.clear();
    useSession.setState({ isInitialized: true });
    if (signedOutOnPurpose) await useSession.getState().logout();
    window.history.replaceState(null, '', address);
    render(
      <BrowserRouter>
        <Guarded guard={guard}>
          <p>página</p>
        </Guarded>
      </BrowserRouter>,
    );
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
  }

  it('goes to the sign-in, the tab keeping the whole address asked for (a saved link to a section)', async () => {
    await signedOutAt('/admin/empresas/1?vista=tabla#puestos');
    expect(takePendingPage()).toBe('/admin/empresas/1?vista=tabla#puestos');
  });

  it('after signing out on purpose keeps nothing: the page left is no page to come back to', async () => {
    await signedOutAt('/perfil', 'user', true);
    expect(takePendingPage()).toBeNull();
  });
});
