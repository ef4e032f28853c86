import { act, render } from '@testing-library/react';
import { BrowserRouter, type NavigateFunction, useNavigate } from 'react-router-dom';
import { type Landing, signInLanding } from '@portal/shared';
import { useAfterSignIn } from '../useAfterSignIn';

jest.mock('@portal/shared', () => ({ ...jest.requireActual('@portal/shared'), signInLanding: jest.fn() }));

/** A landing decided later than the screen that asked for it (an administrator's, which asks the API first). */
function slowLanding() {
  let decide: (landing: Landing) => void = () => undefined;
  jest.mocked(signInLanding).mockReturnValue(
    new Promise<Landing>((resolve) => {
      decide = resolve;
    }),
  );
  return (landing: Landing) => act(async () => decide(landing));
}

/** The verification screen in a browser router: what it lands with, and the router's own navigation. */
function onVerificationScreen() {
  const screen: { afterSignIn?: (redirectUrl: string | null) => Promise<void>; navigate?: NavigateFunction } = {};
  function Screen() {
    screen.afterSignIn = useAfterSignIn();
    screen.navigate = useNavigate();
    return null;
  }
  window.history.replaceState(null, '', '/register');
  render(<BrowserRouter>{<Screen />}</BrowserRouter>);
  act(() => screen.navigate!('/verify-email?email=ana%40portal.test'));
  return screen as Required<typeof screen>;
}

it('lands from the screen the sign-in ended on, replacing it', async () => {
  const decide = slowLanding();
  const screen = onVerificationScreen();
  const landed = screen.afterSignIn(null);
  await decide({ kind: 'page', path: '/apps' });
  await landed;
  expect(window.location.pathname).toBe('/apps');
  // Replaced: Back goes to the registration, not to the verification again.
  expect(window.history.state.idx).toBe(1);
});

it('leaves a person who went Back before the landing was decided where they went', async () => {
  const decide = slowLanding();
  const screen = onVerificationScreen();
  const landed = screen.afterSignIn(null);
  await act(async () => {
    window.history.back();
    await new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
  });
  expect(window.location.pathname).toBe('/register');
  await decide({ kind: 'page', path: '/apps' });
  await landed;
  expect(window.location.pathname).toBe('/register');
});
