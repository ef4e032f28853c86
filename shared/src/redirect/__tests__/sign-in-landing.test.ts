import { webcrypto } from 'node:crypto';
import { type FakeApi, useFakeApi } from '../../testing/fake-api';
import { securityStatus, user } from '../../testing/fixtures';
import { whenApiIdle } from '../../api/client';
import {
  beginSignInBinding,
  chooseRedirect,
  dropTokenFromAddress,
  SIGN_IN_SECRET_KEY,
  signInLanding,
  takeSignInSecret,
} from '../sign-in-landing';
import { PENDING_INTERACTION_KEY, storePendingInteraction } from '../pending-interaction';
import { PENDING_REDIRECT_KEY } from '../pending-redirect';
import { PENDING_INVITATION_KEY, storePendingInvitation } from '../pending-invitation';
import { PENDING_DEVICE_KEY, storePendingDevice } from '../pending-device';
import { PENDING_PAGE_KEY, storePendingPage } from '../pending-page';

const ALLOW = ['https://socio.example.com', 'betopro://auth/success'];

beforeEach(() => localStorage.clear());

describe('chooseRedirect: the one landing decision (spec §4)', () => {
  it("takes the address's allowed redirect_url first, and consumes the pending redirect anyway", () => {
    localStorage.setItem(PENDING_REDIRECT_KEY, 'betopro://auth/success');
    expect(chooseRedirect('https://socio.example.com/a', ALLOW)).toBe('https://socio.example.com/a');
    expect(localStorage.getItem(PENDING_REDIRECT_KEY)).toBeNull();
  });

  it('falls back to the pending redirect when the address names none or a refused one', () => {
    for (const asked of [null, 'https://evil.example.com', '//evil.example.com', 'javascript:alert(1)']) {
      localStorage.setItem(PENDING_REDIRECT_KEY, 'betopro://auth/success');
      expect(chooseRedirect(asked, ALLOW)).toBe('betopro://auth/success');
    }
  });

  it('answers null (the portal) when nothing allowed is left; a pending one no longer allowed is dropped', () => {
    expect(chooseRedirect(null, ALLOW)).toBeNull();
    localStorage.setItem(PENDING_REDIRECT_KEY, 'https://antes-permitido.example.com');
    expect(chooseRedirect('https://evil.example.com', ALLOW)).toBeNull();
    expect(localStorage.getItem(PENDING_REDIRECT_KEY)).toBeNull();
  });
});

describe('signInLanding: where every sign-in lands', () => {
  const UID = 'Xq3_kP9-aB7cD2eF1gH0i';
  const person = { role: 2 };
  let api: FakeApi;

  beforeEach(async () => {
    sessionStorage.clear();
    api = await useFakeApi(
      {
        'POST /auth/partner-token': { status: 200, body: { access_token: 'scoped', expires_in: 60, audience: 'x' } },
      },
      { allowList: ALLOW, user: user() },
    );
  });
  afterEach(async () => {
    await whenApiIdle();
    await api.close();
  });

  it('goes back to /autorizar for the interaction this tab was in, and consumes the pending redirect too', async () => {
    storePendingInteraction(UID);
    localStorage.setItem(PENDING_REDIRECT_KEY, 'betopro://auth/success');
    expect(await signInLanding(null, person)).toEqual({ kind: 'page', path: `/autorizar?interaccion=${UID}` });
    expect(sessionStorage.getItem(PENDING_INTERACTION_KEY)).toBeNull();
    expect(localStorage.getItem(PENDING_REDIRECT_KEY)).toBeNull();
    expect(api.requests).toEqual([]);
    // Read once: the next sign-in of the tab lands in the portal.
    expect(await signInLanding(null, person)).toEqual({ kind: 'page', path: '/apps' });
  });

  it("follows a refused redirect_url's fallback: the interaction still wins over the portal", async () => {
    storePendingInteraction(UID);
    expect(await signInLanding('https://evil.example.com', person)).toEqual({
      kind: 'page',
      path: `/autorizar?interaccion=${UID}`,
    });
  });

  it('an allowed redirect_url in the address is the newer request: the partner, and the interaction is dropped', async () => {
    storePendingInteraction(UID);
    expect(await signInLanding('https://socio.example.com/a', person)).toEqual({
      kind: 'leave',
      url: 'https://socio.example.com/a?token=scoped',
    });
    expect(sessionStorage.getItem(PENDING_INTERACTION_KEY)).toBeNull();
  });

  it('goes back to the company invitation the tab was following, once, where no partner takes the person', async () => {
    storePendingInvitation({ codigo: '482913', email: 'ana@minera.pe' });
    expect(await signInLanding(null, person)).toEqual({
      kind: 'page',
      path: '/invitacion?codigo=482913&email=ana%40minera.pe',
    });
    expect(sessionStorage.getItem(PENDING_INVITATION_KEY)).toBeNull();
    expect(await signInLanding(null, person)).toEqual({ kind: 'page', path: '/apps' });
  });

  it('goes back to /dispositivo with the device code the tab was about to answer, once', async () => {
    storePendingDevice('BCDF-GHJK');
    expect(await signInLanding(null, person)).toEqual({ kind: 'page', path: '/dispositivo?codigo=BCDF-GHJK' });
    expect(sessionStorage.getItem(PENDING_DEVICE_KEY)).toBeNull();
    expect(await signInLanding(null, person)).toEqual({ kind: 'page', path: '/apps' });
  });

  it('goes back to the page a signed-out visitor asked for, once', async () => {
    storePendingPage('/admin/empresas/1#puestos');
    expect(await signInLanding(null, person)).toEqual({ kind: 'page', path: '/admin/empresas/1#puestos' });
    expect(sessionStorage.getItem(PENDING_PAGE_KEY)).toBeNull();
    expect(await signInLanding(null, person)).toEqual({ kind: 'page', path: '/apps' });
  });

  it('the device, the invitation and a partner come before the asked page, which is consumed all the same', async () => {
    storePendingPage('/perfil');
    storePendingDevice('BCDF-GHJK');
    expect(await signInLanding(null, person)).toEqual({ kind: 'page', path: '/dispositivo?codigo=BCDF-GHJK' });
    expect(sessionStorage.getItem(PENDING_PAGE_KEY)).toBeNull();
    storePendingPage('/perfil');
    storePendingInvitation({ codigo: '482913', email: 'ana@minera.pe' });
    expect(await signInLanding(null, person)).toEqual({
      kind: 'page',
      path: '/invitacion?codigo=482913&email=ana%40minera.pe',
    });
    storePendingPage('/perfil');
    expect(await signInLanding('https://socio.example.com/a', person)).toEqual({
      kind: 'leave',
      url: 'https://socio.example.com/a?token=scoped',
    });
    expect(await signInLanding(null, person)).toEqual({ kind: 'page', path: '/apps' });
  });

  it('a partner the address asks for comes before the invitation, which is consumed', async () => {
    storePendingInvitation({ codigo: '482913', email: 'ana@minera.pe' });
    expect(await signInLanding('https://socio.example.com/a', person)).toEqual({
      kind: 'leave',
      url: 'https://socio.example.com/a?token=scoped',
    });
    expect(sessionStorage.getItem(PENDING_INVITATION_KEY)).toBeNull();
  });

  it('without an interaction: the pending partner, else the portal', async () => {
    localStorage.setItem(PENDING_REDIRECT_KEY, 'betopro://auth/success');
    expect(await signInLanding(null, person)).toEqual({ kind: 'leave', url: 'betopro://auth/success?token=scoped' });
    expect(await signInLanding(null, person)).toEqual({ kind: 'page', path: '/apps' });
  });
});

describe('signInLanding: an administrator who must still set up a second factor', () => {
  it("goes to 'Seguridad' before the page asked for signed out, which is consumed", async () => {
    sessionStorage.clear();
    const api = await useFakeApi({ 'GET /auth/seguridad': { status: 200, body: securityStatus() } }, { user: user() });
    try {
      storePendingPage('/admin/usuarios');
      expect(await signInLanding(null, { role: 1 })).toEqual({ kind: 'page', path: '/perfil?tab=seguridad' });
      expect(sessionStorage.getItem(PENDING_PAGE_KEY)).toBeNull();
    } finally {
      await whenApiIdle();
      await api.close();
    }
  });
});

describe('dropTokenFromAddress: a ?token= is never a session', () => {
  const history = () => ({ state: null, replaceState: jest.fn() });

  it('changes nothing when the address has no token', () => {
    const h = history();
    expect(dropTokenFromAddress({ pathname: '/apps', search: '?a=1', hash: '' }, h)).toBe(false);
    expect(h.replaceState).not.toHaveBeenCalled();
  });

  it('takes only the token out, keeping the page, redirect_url and the rest', () => {
    const h = history();
    expect(
      dropTokenFromAddress({ pathname: '/perfil', search: '?token=t&tab=seguridad&redirect_url=x', hash: '#h' }, h),
    ).toBe(true);
    expect(h.replaceState).toHaveBeenCalledWith(null, '', '/perfil?tab=seguridad&redirect_url=x#h');
  });

  it('leaves a bare path when the token was all there was', () => {
    const h = history();
    dropTokenFromAddress({ pathname: '/auth/google/callback', search: '?token=t', hash: '' }, h);
    expect(h.replaceState).toHaveBeenCalledWith(null, '', '/auth/google/callback');
  });
});

describe("the tab's sign-in binding", () => {
  const subtle = Object.getOwnPropertyDescriptor(window.crypto, 'subtle');
  beforeEach(() => {
    sessionStorage.clear();
    Object.defineProperty(window.crypto, 'subtle', { value: webcrypto.subtle, configurable: true });
  });
  afterEach(() => {
    if (subtle) Object.defineProperty(window.crypto, 'subtle', subtle);
    else Reflect.deleteProperty(window.crypto, 'subtle');
  });

  it('keeps a fresh secret in this tab and answers its SHA-256; the secret is read once', async () => {
    const binding = await beginSignInBinding();
    const secret = sessionStorage.getItem(SIGN_IN_SECRET_KEY) ?? '';
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(binding).toBe(
      Buffer.from(await webcrypto.subtle.digest('SHA-256', Buffer.from(secret))).toString('base64url'),
    );
    expect(await beginSignInBinding()).not.toBe(binding);
    const latest = sessionStorage.getItem(SIGN_IN_SECRET_KEY);
    expect(takeSignInSecret()).toBe(latest);
    expect(takeSignInSecret()).toBeNull();
  });

  it('answers null where the browser has no digest (the API then refuses the start)', async () => {
    Reflect.deleteProperty(window.crypto, 'subtle');
    Object.defineProperty(window.crypto, 'subtle', { value: undefined, configurable: true });
    expect(await beginSignInBinding()).toBeNull();
    expect(sessionStorage.getItem(SIGN_IN_SECRET_KEY)).toBeNull();
  });
});
