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

  it('shows a guest page at once when no session token is stored: start-up can only end signed out', () => {
    expect(decideAccess('guest', starting, '', ALLOW, false)).toEqual({ kind: 'render' });
    expect(decideAccess('guest', { ...starting, token: 'tok' }, '', ALLOW, false)).toEqual({ kind: 'loading' });
    expect(decideAccess('guest', starting, '', ALLOW, true)).toEqual({ kind: 'loading' });
    expect(decideAccess('user', starting, '', ALLOW, false)).toEqual({ kind: 'loading' });
  });

  it('renders public pages for everyone, at once', () => {
    expect(decideAccess('public', starting, '', ALLOW)).toEqual({ kind: 'render' });
    expect(decideAccess('public', signedIn(), '', ALLOW)).toEqual({ kind: 'render' });
  });

  it('sends signed-out people from the user area to /login', () => {
    expect(decideAccess('user', anonymous, '', ALLOW)).toEqual({ kind: 'navigate', to: '/login' });
  });

  it('never lets a token parameter open a page by itself (start-up turns it into the session first)', () => {
    expect(decideAccess('user', anonymous, '?token=abc', ALLOW)).toEqual({ kind: 'navigate', to: '/login' });
    expect(decideAccess('user', starting, '?token=abc', ALLOW)).toEqual({ kind: 'loading' });
    expect(decideAccess('admin', anonymous, '?token=abc', ALLOW)).toEqual({ kind: 'navigate', to: '/login' });
  });

  it('forwards a signed-in person on any page of the user area to an allowed redirect_url', () => {
    const partner = 'https://partner.example.com/home';
    const search = `?redirect_url=${encodeURIComponent(partner)}`;
    expect(decideAccess('user', signedIn(), search, ALLOW)).toEqual({ kind: 'land', redirectUrl: partner });
    expect(decideAccess('admin', signedIn(1), search, ALLOW)).toEqual({ kind: 'land', redirectUrl: partner });
    expect(decideAccess('user', signedIn(), '?redirect_url=betopro://auth/success', ALLOW)).toEqual({
      kind: 'land',
      redirectUrl: 'betopro://auth/success',
    });
  });

  it('sends a signed-in person whose redirect_url is not allowed to /apps, silently', () => {
    for (const hostile of ['https://evil.example.com', '//evil.example.com', 'javascript:alert(1)', '']) {
      const search = `?redirect_url=${encodeURIComponent(hostile)}`;
      expect(decideAccess('user', signedIn(), search, ALLOW)).toEqual({ kind: 'navigate', to: '/apps' });
    }
  });

  it('does not forward a signed-out person, nor a non-administrator on an admin page', () => {
    const search = '?redirect_url=https://partner.example.com';
    expect(decideAccess('user', anonymous, search, ALLOW)).toEqual({ kind: 'navigate', to: '/login' });
    expect(decideAccess('admin', signedIn(2), search, ALLOW)).toEqual({ kind: 'denied' });
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

  it('sends a signed-in person on a guest page on through the one landing decision, with the address target', () => {
    expect(decideAccess('guest', signedIn(), '?redirect_url=https%3A%2F%2Fpartner.example.com%2Fhome', ALLOW)).toEqual({
      kind: 'land',
      redirectUrl: 'https://partner.example.com/home',
    });
    // The allow-list, the pending redirect and /apps are signInLanding's (shared/src/redirect/sign-in-landing.ts).
    expect(decideAccess('guest', signedIn(), '?redirect_url=//evil.example.com', ALLOW)).toEqual({
      kind: 'land',
      redirectUrl: '//evil.example.com',
    });
    expect(decideAccess('guest', signedIn(), '', ALLOW)).toEqual({ kind: 'land', redirectUrl: null });
  });

  it('shows the sign-in form to a signed-in person when an app asked for a fresh sign-in, and only then', () => {
    const uid = 'Xq3_kP9-aB7cD2eF1gH0i';
    expect(decideAccess('guest', signedIn(), `?interaccion=${uid}&reautenticar=1`, ALLOW)).toEqual({ kind: 'render' });
    expect(decideAccess('guest', anonymous, `?interaccion=${uid}&reautenticar=1`, ALLOW)).toEqual({ kind: 'render' });
    // Without the flag, or with an id that is none, a signed-in person lands as usual (the interaction, if kept).
    expect(decideAccess('guest', signedIn(), `?interaccion=${uid}`, ALLOW)).toEqual({
      kind: 'land',
      redirectUrl: null,
    });
    expect(decideAccess('guest', signedIn(), '?interaccion=x&reautenticar=1', ALLOW)).toEqual({
      kind: 'land',
      redirectUrl: null,
    });
    // It waits for start-up like any guest page with a kept session.
    expect(decideAccess('guest', starting, `?interaccion=${uid}&reautenticar=1`, ALLOW)).toEqual({ kind: 'loading' });
  });

  describe('company pages', () => {
    const manager = (empresas: { id: number; rol: string; estado: string }[]): SessionView => ({
      ...signedIn(2),
      user: { ...user(2), empresas } as User,
    });
    const owner = manager([{ id: 7, rol: 'propietario', estado: 'activo' }]);

    it("opens a company's page to its owners and administrators, and to platform administrators", () => {
      expect(decideAccess('company', owner, '', ALLOW, true, '7')).toEqual({ kind: 'render' });
      expect(
        decideAccess('company', manager([{ id: 7, rol: 'administrador', estado: 'activo' }]), '', ALLOW, true, '7'),
      ).toEqual({ kind: 'render' });
      expect(decideAccess('company', signedIn(1), '', ALLOW, true, '7')).toEqual({ kind: 'render' });
    });

    it("denies another company's page, a plain member, a pending membership and anyone without a company", () => {
      expect(decideAccess('company', owner, '', ALLOW, true, '8')).toEqual({ kind: 'denied' });
      expect(
        decideAccess('company', manager([{ id: 7, rol: 'miembro', estado: 'activo' }]), '', ALLOW, true, '7'),
      ).toEqual({ kind: 'denied' });
      expect(
        decideAccess('company', manager([{ id: 7, rol: 'administrador', estado: 'pendiente' }]), '', ALLOW, true, '7'),
      ).toEqual({ kind: 'denied' });
      expect(decideAccess('company', signedIn(2), '', ALLOW, true, undefined)).toEqual({ kind: 'denied' });
      expect(decideAccess('company', anonymous, '', ALLOW, true, '7')).toEqual({ kind: 'navigate', to: '/login' });
    });

    it('opens the company list (no id) to whoever manages one; the rest of the panel stays for platform admins', () => {
      expect(decideAccess('company', owner, '', ALLOW, true, undefined)).toEqual({ kind: 'render' });
      expect(decideAccess('admin', owner, '', ALLOW)).toEqual({ kind: 'denied' });
    });
  });
});
