import { mobileLaunchUrl, webLaunchTarget } from '../launch';

describe('webLaunchTarget', () => {
  it('opens an external web app in a new tab with the token added', () => {
    expect(webLaunchTarget({ id: 2, webUrl: 'https://beto.example.com/chat?x=1' }, 'tok')).toEqual({
      kind: 'new-tab',
      url: 'https://beto.example.com/chat?x=1&token=tok',
    });
  });

  it('navigates inside the portal for a relative URL, without the token in the address', () => {
    expect(webLaunchTarget({ id: 9, webUrl: '/control-max' }, 'tok')).toEqual({ kind: 'navigate', path: '/control-max' });
  });

  it('opens the calculator (app 5) in a new tab', () => {
    expect(webLaunchTarget({ id: 5, webUrl: '/calculadora-txi' }, 'tok')).toEqual({ kind: 'new-tab', url: '/calculadora-txi' });
  });

  it('opens nothing for a missing, protocol-relative or script URL', () => {
    expect(webLaunchTarget({ id: 1, webUrl: null }, 'tok')).toBeNull();
    expect(webLaunchTarget({ id: 1, webUrl: '//evil.com' }, 'tok')).toBeNull();
    expect(webLaunchTarget({ id: 1, webUrl: 'javascript:alert(1)' }, 'tok')).toBeNull();
  });

  it('adds no token when there is no session', () => {
    expect(webLaunchTarget({ id: 1, webUrl: 'https://cm.example.com' }, null)).toEqual({ kind: 'new-tab', url: 'https://cm.example.com/' });
  });
});

describe('mobileLaunchUrl', () => {
  const app = { iosUrl: 'https://apps.apple.com/app/x', androidUrl: 'https://play.google.com/store/apps/details?id=x' };
  it('opens iosUrl on iOS and androidUrl everywhere else', () => {
    expect(mobileLaunchUrl(app, true)).toBe(app.iosUrl);
    expect(mobileLaunchUrl(app, false)).toBe(app.androidUrl);
    expect(mobileLaunchUrl({ iosUrl: null, androidUrl: '' }, false)).toBeNull();
  });
});
