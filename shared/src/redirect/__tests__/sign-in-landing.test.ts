import { chooseRedirect, takeArrivingToken } from '../sign-in-landing';
import { PENDING_REDIRECT_KEY } from '../pending-redirect';

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

describe('takeArrivingToken', () => {
  const history = () => ({ state: null, replaceState: jest.fn() });

  it('changes nothing when the address has no token', () => {
    const h = history();
    expect(takeArrivingToken((p) => p, { pathname: '/apps', search: '?a=1', hash: '' }, h)).toBeNull();
    expect(h.replaceState).not.toHaveBeenCalled();
  });

  it('takes token and redirect_url out, keeping the rest on a page that stays', () => {
    const h = history();
    const taken = takeArrivingToken(
      (p) => p,
      { pathname: '/perfil', search: '?token=t&tab=seguridad&redirect_url=x', hash: '#h' },
      h,
    );
    expect(taken).toEqual({ token: 't', redirectUrl: 'x' });
    expect(h.replaceState).toHaveBeenCalledWith(null, '', '/perfil?tab=seguridad#h');
  });

  it('moves to the landing page with a clean address when the page does not stay', () => {
    const h = history();
    takeArrivingToken(() => '/apps', { pathname: '/google-callback', search: '?token=t&x=1', hash: '' }, h);
    expect(h.replaceState).toHaveBeenCalledWith(null, '', '/apps');
  });
});
