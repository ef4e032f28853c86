import { isAllowedRedirect } from '../allow-list';

const ALLOW = [
  'https://portal.example.com',
  'https://*.portal.example.com',
  'https://*.socio.example.com',
  'https://abc123-8080.euw.devtunnels.ms',
  'http://127.0.0.1:5500',
  'betopro://auth',
  'betopro://auth/success',
  'betopro://auth/welcome',
  'betopro://auth/login',
];

describe('isAllowedRedirect', () => {
  it.each([
    ['the product domain', 'https://portal.example.com'],
    ['the product domain with any path and query', 'https://portal.example.com/apps/3?x=1#top'],
    ['a test subdomain', 'https://test.portal.example.com/welcome'],
    ['a community subdomain', 'https://comunidad.portal.example.com'],
    ['a subdomain of a partner wildcard', 'https://eu.socio.example.com/callback'],
    ['the configured dev tunnel (an exact host)', 'https://abc123-8080.euw.devtunnels.ms/callback'],
    ['an upper-case scheme and host (URLs are normalised)', 'HTTPS://PORTAL.EXAMPLE.COM/x'],
    ['an allowed local origin with its port', 'http://127.0.0.1:5500/index.html'],
    ['a mobile deep link', 'betopro://auth/success'],
    ['a mobile deep link with a trailing slash', 'betopro://auth/welcome/'],
    ['the bare mobile auth path', 'betopro://auth'],
  ])('allows %s', (_name, url) => {
    expect(isAllowedRedirect(url, ALLOW)).toBe(true);
  });

  it.each([
    ['a protocol-relative URL', '//evil.com'],
    ['credentials that hide the real host', 'https://portal.example.com@evil.com'],
    ['a look-alike suffix domain', 'https://portal.example.com.evil.com'],
    ['a domain that only ends with the same letters', 'https://evilportal.example.com'],
    ['javascript:', 'javascript:alert(document.cookie)'],
    ['javascript: with mixed case', 'JaVaScRiPt:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['a backslash after the scheme', 'https:\\\\evil.com'],
    ['a backslash inside the authority', 'https://portal.example.com\\@evil.com'],
    ['a leading space', ' https://portal.example.com'],
    ['a tab inside the scheme', 'ht\ttps://portal.example.com'],
    ['a different scheme for an allowed host', 'http://portal.example.com'],
    ['a different port for an allowed host', 'https://portal.example.com:8443/'],
    ['a different port for an allowed local origin', 'http://127.0.0.1:5501/'],
    ['a unicode look-alike host (Cyrillic о)', 'https://pоrtal.example.com'],
    ['a fullwidth-dot look-alike', 'https://portal。example。com.evil.com'],
    ['a relative path', '/apps'],
    ['an empty string', ''],
    ['a deep link to another path', 'betopro://auth/steal'],
    ['a deep link of an unknown app', 'evilapp://auth/success'],
    ['a wildcard base without a subdomain', 'https://socio.example.com'],
    ['another dev tunnel than the configured one', 'https://evil-8080.euw.devtunnels.ms/'],
    ['garbage', 'not a url'],
  ])('refuses %s', (_name, url) => {
    expect(isAllowedRedirect(url, ALLOW)).toBe(false);
  });

  it.each([
    ['the configured dev tunnel with a trailing dot', 'https://abc123-8080.euw.devtunnels.ms./callback'],
    ['a wildcard subdomain with a trailing dot', 'https://test.portal.example.com./welcome'],
    ['the product domain with a trailing dot', 'https://portal.example.com./'],
    ['a trailing dot written percent-encoded', 'https://portal.example.com%2E/'],
    ['a trailing ideographic full stop (read as a dot)', 'https://portal.example.com\u3002/'],
    ['a deep link whose host ends in a dot', 'betopro://auth./success'],
  ])('refuses a target whose host ends in a dot: %s', (_name, url) => {
    expect(isAllowedRedirect(url, ALLOW)).toBe(false);
  });

  it('a pattern written with a trailing dot matches nothing, dotted or not', () => {
    const dotted = ['https://*.devtunnels.ms.', 'https://mi-tunel.devtunnels.ms.'];
    for (const target of [
      'https://attacker.devtunnels.ms./cb',
      'https://attacker.devtunnels.ms/cb',
      'https://mi-tunel.devtunnels.ms./cb',
      'https://mi-tunel.devtunnels.ms/cb',
    ]) {
      expect(isAllowedRedirect(target, dotted)).toBe(false);
    }
  });

  it('refuses everything when the allow-list is empty', () => {
    expect(isAllowedRedirect('https://portal.example.com', [])).toBe(false);
  });

  it('refuses null and undefined', () => {
    expect(isAllowedRedirect(null, ALLOW)).toBe(false);
    expect(isAllowedRedirect(undefined, ALLOW)).toBe(false);
  });
});
