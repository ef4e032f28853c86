import { startFakeApi } from '../../testing/fake-api';
import { resetApiClient } from '../../api/client';
import { deviceOf } from '../../device/user-agent';
import { mobileLaunchUrl, openWebLaunch, webLaunchTarget } from '../launch';

jest.mock('../../navigation/leave', () => ({
  ...jest.requireActual('../../navigation/leave'),
  hardNavigate: jest.fn(),
}));

const ALLOW = ['https://beto.example.com', 'https://*.portal.example.com'];

describe('webLaunchTarget', () => {
  it('opens an external web app on the allow-list in a new tab, marked for a partner token (not the session)', () => {
    expect(webLaunchTarget({ id: 2, webUrl: 'https://beto.example.com/chat?x=1' }, ALLOW)).toEqual({
      kind: 'new-tab',
      url: 'https://beto.example.com/chat?x=1',
      partnerToken: true,
    });
  });

  it('opens an external web app off the allow-list without any token', () => {
    expect(webLaunchTarget({ id: 3, webUrl: 'https://otra.example.net/app' }, ALLOW)).toEqual({
      kind: 'new-tab',
      url: 'https://otra.example.net/app',
      partnerToken: false,
    });
  });

  it('navigates inside the portal for a relative URL, without the token in the address', () => {
    expect(webLaunchTarget({ id: 9, webUrl: '/control-max' }, ALLOW)).toEqual({
      kind: 'navigate',
      path: '/control-max',
    });
  });

  it('opens the calculator (app 5) in a new tab', () => {
    expect(webLaunchTarget({ id: 5, webUrl: '/calculadora-txi' }, ALLOW)).toEqual({
      kind: 'new-tab',
      url: '/calculadora-txi',
      partnerToken: false,
    });
  });

  it('opens the sign-in address of an app that signs in with the portal, instead of the partner-token hand-off', () => {
    const app = {
      id: 2,
      webUrl: 'https://beto.example.com/chat',
      inicioSesionUrl: 'https://beto.example.com/oidc/login',
    };
    expect(webLaunchTarget(app, ALLOW)).toEqual({
      kind: 'new-tab',
      url: 'https://beto.example.com/oidc/login',
      partnerToken: false,
    });
    // Even an app with no web address of its own, or an in-portal one.
    expect(webLaunchTarget({ ...app, webUrl: null }, ALLOW)).toMatchObject({
      url: 'https://beto.example.com/oidc/login',
    });
    expect(webLaunchTarget({ ...app, webUrl: '/control-max' }, ALLOW)).toMatchObject({ kind: 'new-tab' });
  });

  it('launches as before when the sign-in address is null, empty or not an http(s) address', () => {
    for (const inicioSesionUrl of [null, undefined, '', '  ', 'javascript:alert(1)', '/entrar', 'betopro://login']) {
      expect(webLaunchTarget({ id: 2, webUrl: 'https://beto.example.com/chat', inicioSesionUrl }, ALLOW)).toEqual({
        kind: 'new-tab',
        url: 'https://beto.example.com/chat',
        partnerToken: true,
      });
    }
  });

  it('opens nothing for a missing, protocol-relative or script URL', () => {
    expect(webLaunchTarget({ id: 1, webUrl: null }, ALLOW)).toBeNull();
    expect(webLaunchTarget({ id: 1, webUrl: '//evil.com' }, ALLOW)).toBeNull();
    expect(webLaunchTarget({ id: 1, webUrl: '/\\evil.com' }, ALLOW)).toBeNull();
    expect(webLaunchTarget({ id: 1, webUrl: 'javascript:alert(1)' }, ALLOW)).toBeNull();
  });
});

describe('openWebLaunch', () => {
  type FakeApi = Awaited<ReturnType<typeof startFakeApi>>;
  let api: FakeApi;
  let tab: { opener: unknown; location: { replace: jest.Mock } };

  beforeEach(async () => {
    api = await startFakeApi({
      'POST /auth/partner-token': { status: 200, body: { access_token: 'scoped', expires_in: 3600, audience: 'x' } },
    });
    window.__PORTAL_CONFIG__ = { apiBaseUrl: `${api.url}/`, redirectAllowList: ALLOW };
    resetApiClient();
    localStorage.setItem('token', 'portal-session');
    tab = { opener: window, location: { replace: jest.fn() } };
    jest.spyOn(window, 'open').mockImplementation(() => tab as unknown as Window);
  });

  afterEach(async () => {
    await api.close();
    jest.restoreAllMocks();
    localStorage.clear();
  });

  it('sends an allowed partner a token minted for it, in a tab opened at once and cut from the portal', async () => {
    await openWebLaunch({ url: 'https://beto.example.com/chat', partnerToken: true }, true, ALLOW);
    expect(window.open).toHaveBeenCalledWith('about:blank', '_blank');
    expect(tab.opener).toBeNull();
    expect(tab.location.replace).toHaveBeenCalledWith('https://beto.example.com/chat?token=scoped');
    expect(JSON.stringify(jest.mocked(window.open).mock.calls)).not.toContain('portal-session');
  });

  it('opens a target off the allow-list, or any target when signed out, as is, asking for no token', async () => {
    await openWebLaunch({ url: 'https://otra.example.net/', partnerToken: false }, true, ALLOW);
    await openWebLaunch({ url: 'https://beto.example.com/', partnerToken: true }, false, ALLOW);
    expect(jest.mocked(window.open).mock.calls).toEqual([
      ['https://otra.example.net/', '_blank', 'noopener,noreferrer'],
      ['https://beto.example.com/', '_blank', 'noopener,noreferrer'],
    ]);
    expect(api.requests).toHaveLength(0);
  });
});

describe('mobileLaunchUrl', () => {
  const app = { iosUrl: 'https://apps.apple.com/app/x', androidUrl: 'https://play.google.com/store/apps/details?id=x' };
  it('opens iosUrl on iOS and androidUrl on the other phones and tablets', () => {
    expect(mobileLaunchUrl(app, 'ios')).toBe(app.iosUrl);
    expect(mobileLaunchUrl(app, 'android')).toBe(app.androidUrl);
    expect(mobileLaunchUrl({ iosUrl: null, androidUrl: '' }, 'android')).toBeNull();
  });

  it('never sends a desktop to the Android link (nor the iOS one)', () => {
    expect(mobileLaunchUrl(app, 'desktop')).toBeNull();
  });

  it("opens the apps' registered schemes", () => {
    expect(mobileLaunchUrl({ iosUrl: 'betopro://auth/welcome', androidUrl: null }, 'ios')).toBe(
      'betopro://auth/welcome',
    );
    expect(mobileLaunchUrl({ iosUrl: null, androidUrl: 'controlmax://inicio' }, 'android')).toBe('controlmax://inicio');
  });

  it.each([
    'ms-msdt:/id PCWDiagnostic /skip force /param "IT_RebrowseForFile=?"',
    'ms-msdt://id%20PCWDiagnostic',
    'intent://abrir#Intent;scheme=medidor;package=com.evil;end',
    'search-ms://query=factura',
    'javascript://%0aalert(1)',
    'http://apps.example.com/ios',
    'file:///etc/passwd',
  ])('never opens a stored link with another scheme: %s', (link) => {
    expect(mobileLaunchUrl({ iosUrl: link, androidUrl: link }, 'ios')).toBeNull();
    expect(mobileLaunchUrl({ iosUrl: link, androidUrl: link }, 'android')).toBeNull();
  });
});

describe('deviceOf', () => {
  it.each([
    ['an iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148', 'ios'],
    [
      'an Android phone',
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36',
      'android',
    ],
    [
      'Windows Chrome',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120 Safari/537.36',
      'desktop',
    ],
    [
      'macOS Safari',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15',
      'desktop',
    ],
    ['Linux Firefox', 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0', 'desktop'],
  ])('%s', (_name, userAgent, device) => {
    expect(deviceOf(userAgent)).toBe(device);
  });
});
