import type { User } from '@portal/shared';
import { decideAccess, type SessionView } from '../access';

const ALLOW = ['https://partner.example.com', 'betopro://auth/success'];
const user = (role: number) => ({ id: 1, role }) as User;

const anonymous: SessionView = {
  isInitialized: true,
  isAuthenticated: false,
  isLoading: false,
  token: null,
  user: null,
};
const signedIn = (role = 2): SessionView => ({
  isInitialized: true,
  isAuthenticated: true,
  isLoading: false,
  token: 'tok',
  user: user(role),
});
const starting: SessionView = { ...anonymous, isInitialized: false };

describe('decideAccess', () => {
  it('waits for start-up before deciding (the "Cargando..." state)', () => {
    expect(decideAccess('user', starting, '', ALLOW)).toEqual({ kind: 'loading' });
    expect(decideAccess('admin', starting, '', ALLOW)).toEqual({ kind: 'loading' });
    expect(decideAccess('guest', starting, '', ALLOW)).toEqual({ kind: 'loading' });
  });

  it('renders public pages for everyone, at once', () => {
    expect(decideAccess('public', starting, '', ALLOW)).toEqual({ kind: 'render' });
    expect(decideAccess('public', signedIn(), '', ALLOW)).toEqual({ kind: 'render' });
  });

  it('sends signed-out people from the user area to /login', () => {
    expect(decideAccess('user', anonymous, '', ALLOW)).toEqual({ kind: 'navigate', to: '/login' });
  });

  it('lets a page of the user area render when the address carries a token (OAuth return)', () => {
    expect(decideAccess('user', anonymous, '?token=abc', ALLOW)).toEqual({ kind: 'render' });
    expect(decideAccess('user', starting, '?token=abc', ALLOW)).toEqual({ kind: 'render' });
  });

  it('does not let a token parameter open the admin area', () => {
    expect(decideAccess('admin', anonymous, '?token=abc', ALLOW)).toEqual({ kind: 'navigate', to: '/login' });
  });

  it('renders the user area for a signed-in person', () => {
    expect(decideAccess('user', signedIn(), '', ALLOW)).toEqual({ kind: 'render' });
  });

  it('denies the admin area to a signed-in non-administrator and opens it to role 1', () => {
    expect(decideAccess('admin', signedIn(2), '', ALLOW)).toEqual({ kind: 'denied' });
    expect(decideAccess('admin', signedIn(1), '', ALLOW)).toEqual({ kind: 'render' });
  });

  it('shows guest pages to signed-out people', () => {
    expect(decideAccess('guest', anonymous, '?redirect_url=https://partner.example.com', ALLOW)).toEqual({
      kind: 'render',
    });
  });

  it('sends a signed-in person on a guest page to the allowed redirect_url, without putting the session token in it', () => {
    expect(decideAccess('guest', signedIn(), '?redirect_url=https%3A%2F%2Fpartner.example.com%2Fhome', ALLOW)).toEqual({
      kind: 'leave',
      target: 'https://partner.example.com/home',
    });
    expect(decideAccess('guest', signedIn(), '?redirect_url=betopro://auth/success', ALLOW)).toEqual({
      kind: 'leave',
      target: 'betopro://auth/success',
    });
  });

  it('sends a signed-in person on a guest page to /apps when redirect_url is missing or not allowed, silently', () => {
    expect(decideAccess('guest', signedIn(), '', ALLOW)).toEqual({ kind: 'navigate', to: '/apps' });
    expect(decideAccess('guest', signedIn(), '?redirect_url=https://evil.example.com', ALLOW)).toEqual({
      kind: 'navigate',
      to: '/apps',
    });
    expect(decideAccess('guest', signedIn(), '?redirect_url=//evil.example.com', ALLOW)).toEqual({
      kind: 'navigate',
      to: '/apps',
    });
  });
});
