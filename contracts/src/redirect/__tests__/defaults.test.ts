import { isAllowedRedirect } from '../allow-list';
import { allowListEntryProblem, allowListProblems } from '../allow-list-entries';
import { DEFAULT_REDIRECT_ALLOW_LIST, DEFAULT_REDIRECT_WILDCARD_DOMAINS, PRODUCT_APP_ORIGINS } from '../defaults';

describe('the default redirect allow-list', () => {
  it('passes the start-up check with the default wildcard domain and nothing else vouching', () => {
    expect(
      allowListProblems(DEFAULT_REDIRECT_ALLOW_LIST, {
        ownUrls: [],
        wildcardDomains: DEFAULT_REDIRECT_WILDCARD_DOMAINS,
      }),
    ).toEqual([]);
  });

  it("names the product's apps as exact hosts, which need no vouching domain", () => {
    for (const origin of PRODUCT_APP_ORIGINS) {
      expect(DEFAULT_REDIRECT_ALLOW_LIST).toContain(origin);
      expect(origin).not.toContain('*');
      expect(allowListEntryProblem(origin)).toBeNull();
    }
    // The only wildcard is over the product's own domain.
    expect(DEFAULT_REDIRECT_ALLOW_LIST.filter((entry) => entry.includes('*'))).toEqual([
      'https://*.portal.example.com',
    ]);
  });

  it.each(['https://controlmax360.example.com', 'https://betopro.example.com/inicio?x=1', 'https://tx30.example.com/'])(
    'lets %s carry the signed-in person',
    (target) => {
      expect(isAllowedRedirect(target, DEFAULT_REDIRECT_ALLOW_LIST)).toBe(true);
    },
  );

  it.each([
    ['another host of example.com', 'https://otra.example.com'],
    ['a subdomain of an app', 'https://evil.betopro.example.com'],
    ['a look-alike suffix', 'https://betopro.example.com.evil.com'],
    ['the app over http', 'http://tx30.example.com'],
    ['the app on another port', 'https://tx30.example.com:8443'],
    ['the app with a trailing dot', 'https://tx30.example.com./'],
  ])('refuses %s', (_name, target) => {
    expect(isAllowedRedirect(target, DEFAULT_REDIRECT_ALLOW_LIST)).toBe(false);
  });
});
