import { app } from '@portal/shared/testing/fixtures';
import { launchFor, storeLinks } from '../launch';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36';
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120 Safari/537.36';
const ALLOW = ['https://app2.example.com'];

const PLAY = 'https://play.google.com/store/apps/details?id=app2';
const APPLE = 'https://apps.apple.com/app/app2';
/** A mobile-only app: no web address, both stores. */
const mobileOnly = app(2, 'Beto Pro', { webUrl: null, isEnabledWeb: false, androidUrl: PLAY, iosUrl: APPLE });

describe('storeLinks', () => {
  it('lists the stores the app has, Google Play first, each with the https address a phone opens', () => {
    expect(storeLinks(mobileOnly)).toEqual([
      { field: 'androidUrl', store: 'Google Play', devices: 'Android', url: PLAY },
      { field: 'iosUrl', store: 'App Store', devices: 'iPhone y iPad', url: APPLE },
    ]);
    expect(storeLinks({ androidUrl: null, iosUrl: ` ${APPLE} ` }).map((link) => link.url)).toEqual([APPLE]);
  });

  it('leaves out deep links (nothing opens them on a phone without the app) and links the rule refuses', () => {
    expect(storeLinks({ androidUrl: 'betopro://auth/welcome', iosUrl: 'controlmax://inicio' })).toEqual([]);
    expect(storeLinks({ androidUrl: 'intent://x#Intent;end', iosUrl: 'javascript:alert(1)' })).toEqual([]);
    expect(storeLinks({ androidUrl: 'http://play.example.com/app', iosUrl: '' })).toEqual([]);
  });
});

describe('launchFor on a desktop', () => {
  it('offers where to get a mobile-only app instead of opening anything, from either tab', () => {
    for (const platform of ['mobile', 'web'] as const) {
      expect(launchFor(mobileOnly, platform, ALLOW, WINDOWS)).toEqual({
        kind: 'get-app',
        app: mobileOnly,
        stores: storeLinks(mobileOnly),
      });
    }
  });

  it('opens the web app when there is one, from the mobile tab too', () => {
    const both = app(2, 'Beto Pro');
    expect(launchFor(both, 'mobile', ALLOW, WINDOWS)).toEqual({
      kind: 'new-tab',
      url: 'https://app2.example.com/inicio',
      partnerToken: true,
    });
  });

  it('says where the app opens when it has no https link a phone could open', () => {
    const deepLinkOnly = { ...mobileOnly, androidUrl: 'betopro://auth/welcome', iosUrl: null };
    expect(launchFor(deepLinkOnly, 'mobile', ALLOW, WINDOWS)).toEqual({
      kind: 'notice',
      text: 'Beto Pro se abre desde un teléfono o una tableta: entra al portal desde uno de ellos.',
    });
    expect(launchFor(deepLinkOnly, 'web', ALLOW, WINDOWS)).toBeNull();
  });
});

describe('launchFor on a phone', () => {
  it('opens the store link of its system from the mobile tab, as before', () => {
    expect(launchFor(mobileOnly, 'mobile', ALLOW, IPHONE)).toEqual({
      kind: 'new-tab',
      url: APPLE,
      partnerToken: false,
    });
    expect(launchFor(mobileOnly, 'mobile', ALLOW, ANDROID)).toEqual({
      kind: 'new-tab',
      url: PLAY,
      partnerToken: false,
    });
  });

  it('opens the web app from the web tab, and the mobile link of an app that has no web address', () => {
    expect(launchFor(app(2, 'Beto Pro'), 'web', ALLOW, ANDROID)).toEqual({
      kind: 'new-tab',
      url: 'https://app2.example.com/inicio',
      partnerToken: true,
    });
    expect(launchFor(mobileOnly, 'web', ALLOW, ANDROID)).toEqual({ kind: 'new-tab', url: PLAY, partnerToken: false });
  });
});

describe('launchFor an app that signs in with the portal (OpenID Connect)', () => {
  const SIGN_IN = 'https://app2.example.com/oidc/iniciar';
  const oidcApp = app(2, 'Beto Pro', { inicioSesionUrl: SIGN_IN });

  it('opens its sign-in address in a new tab, with no partner token, wherever the web app would open', () => {
    const expected = { kind: 'new-tab', url: SIGN_IN, partnerToken: false };
    expect(launchFor(oidcApp, 'web', ALLOW, WINDOWS)).toEqual(expected);
    expect(launchFor(oidcApp, 'mobile', ALLOW, WINDOWS)).toEqual(expected);
    expect(launchFor(oidcApp, 'web', ALLOW, ANDROID)).toEqual(expected);
  });

  it('leaves the mobile launch as it is: the store link of the phone', () => {
    expect(launchFor(oidcApp, 'mobile', ALLOW, IPHONE)).toEqual({
      kind: 'new-tab',
      url: 'https://apps.apple.com/app/app2',
      partnerToken: false,
    });
  });
});
