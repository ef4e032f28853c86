import {
  allowListEntryProblem,
  allowListProblems,
  wildcardDomainProblem,
  wildcardDomainProblems,
} from '../allow-list-entries';

/** The portal at portal.example.com, its API at api.empresa.com, no override. */
const PORTAL = { ownUrls: ['https://portal.example.com', 'https://api.empresa.com'], wildcardDomains: [] };

describe('allow-list entries checked at start', () => {
  it.each([
    ['a dev-tunnel wildcard', 'https://*.devtunnels.ms'],
    ['a dev-tunnel region wildcard', 'https://*.usw2.devtunnels.ms'],
    ['ngrok', 'https://*.ngrok-free.app'],
    ['Vercel', 'https://*.vercel.app'],
    ['GitHub Pages', 'https://*.github.io'],
    ['Netlify', 'https://*.netlify.app'],
    ['a top-level domain', 'https://*.com'],
    ['a country suffix', 'https://*.com.pe'],
  ])('refuses a wildcard on a suffix anyone can register under: %s', (_name, entry) => {
    expect(allowListEntryProblem(entry, PORTAL)).toContain(`"${entry}"`);
    expect(allowListEntryProblem(entry, PORTAL)).toContain('cualquiera puede crear direcciones');
  });

  it.each([
    ['the product domain', 'https://portal.example.com'],
    ['an exact dev tunnel', 'https://abc123-8080.euw.devtunnels.ms'],
    ['an exact app on a shared host', 'https://mi-app.vercel.app'],
    ['a local origin', 'http://127.0.0.1:5500'],
    ['a deep link', 'betopro://auth/success'],
  ])('accepts %s, with or without the portal’s addresses', (_name, entry) => {
    expect(allowListEntryProblem(entry, PORTAL)).toBeNull();
    expect(allowListEntryProblem(entry)).toBeNull();
  });

  it('names every refused entry of a list and nothing else', () => {
    expect(
      allowListProblems(
        ['https://portal.example.com', 'https://*.github.io', 'nada', 'https://a*.example.com'],
        PORTAL,
      ),
    ).toEqual([
      expect.stringContaining('"https://*.github.io"'),
      expect.stringContaining('"nada", que no es una dirección válida'),
      expect.stringContaining('"https://a*.example.com": el comodín solo puede ir al principio'),
    ]);
  });
});

describe('a trailing dot', () => {
  it.each([
    ['a tunnel wildcard', 'https://*.devtunnels.ms.'],
    ['a wildcard under the portal’s own host', 'https://*.portal.example.com.'],
    ['an exact host', 'https://mi-tunel.devtunnels.ms.'],
    ['an exact host with a port', 'https://portal.example.com.:8443'],
    ['a deep link', 'betopro://auth./success'],
  ])('refuses %s written with one, telling what to write instead', (_name, entry) => {
    const problem = allowListEntryProblem(entry, PORTAL);
    expect(problem).toContain(`"${entry}"`);
    expect(problem).toContain('termina en punto');
  });
});

describe('wildcards only over the portal’s own hosts or the domains named in REDIRECT_WILDCARD_DOMAINS', () => {
  it.each([
    'https://*.app.github.dev',
    'https://*.loca.lt',
    'https://*.serveo.net',
    'https://*.lhr.life',
    'https://*.pinggy.link',
    'https://*.zrok.io',
    'https://*.gitpod.io',
    'https://*.glitch.me',
    'https://*.amazonaws.com',
    'https://*.devtunnels.ms',
    // The portal's registrable domain is not its host: the rest of example.com may belong to anyone.
    'https://*.example.com',
    'https://*.empresa.com',
  ])('refuses %s, which the Public Suffix List does not name, naming the override', (entry) => {
    const problem = allowListEntryProblem(entry, PORTAL);
    expect(problem).toContain(`"${entry}"`);
    expect(problem).toContain('cualquiera puede crear direcciones');
    expect(problem).toContain('REDIRECT_WILDCARD_DOMAINS');
  });

  it('refuses every wildcard when nothing vouches for a domain', () => {
    expect(allowListEntryProblem('https://*.portal.example.com')).toContain('REDIRECT_WILDCARD_DOMAINS');
  });

  it.each([
    ['the portal’s test and community subdomains', 'https://*.portal.example.com'],
    ['deeper under the portal’s host', 'https://*.eu.portal.example.com'],
    ['under the API’s host', 'https://*.api.empresa.com'],
  ])('accepts a wildcard under the portal’s or the API’s own host: %s', (_name, entry) => {
    expect(allowListEntryProblem(entry, PORTAL)).toBeNull();
  });

  it('a portal served from a tunnel host vouches for that host only, never for the tunnel provider', () => {
    const onTunnel = { ownUrls: ['https://abc-8080.euw.devtunnels.ms'], wildcardDomains: [] };
    expect(allowListEntryProblem('https://*.devtunnels.ms', onTunnel)).toContain('REDIRECT_WILDCARD_DOMAINS');
    expect(allowListEntryProblem('https://*.euw.devtunnels.ms', onTunnel)).toContain('REDIRECT_WILDCARD_DOMAINS');
  });

  it('accepts a wildcard under a domain named in the override, at any depth', () => {
    const context = { ownUrls: [], wildcardDomains: ['apps.example.com'] };
    expect(allowListEntryProblem('https://*.apps.example.com', context)).toBeNull();
    expect(allowListEntryProblem('https://*.eu.apps.example.com', context)).toBeNull();
    expect(allowListEntryProblem('https://*.example.com', context)).toContain('REDIRECT_WILDCARD_DOMAINS');
  });

  it('an explicit override is believed for a domain off the list, never for a public suffix', () => {
    expect(
      allowListEntryProblem('https://*.devtunnels.ms', { ownUrls: [], wildcardDomains: ['devtunnels.ms'] }),
    ).toBeNull();
    const suffix = allowListEntryProblem('https://*.vercel.app', { ownUrls: [], wildcardDomains: ['vercel.app'] });
    expect(suffix).toContain('sufijo público');
  });
});

describe('REDIRECT_WILDCARD_DOMAINS entries', () => {
  it.each(['apps.example.com', 'devtunnels.ms', 'xn--espaa-rta.example.com'])('accepts %s', (domain) => {
    expect(wildcardDomainProblem(domain)).toBeNull();
  });

  it.each([
    ['a private-section suffix', 'vercel.app', 'sufijo público'],
    ['an ICANN suffix', 'com.pe', 'sufijo público'],
    ['a top-level domain', 'com', 'sufijo público'],
    ['a trailing dot', 'apps.example.com.', 'termina en punto'],
    ['an address instead of a domain', 'https://apps.example.com', 'no es un dominio'],
    ['a wildcard', '*.apps.example.com', 'no es un dominio'],
    ['an IP address', '10.0.0.1', 'no es un dominio'],
  ])('refuses %s, naming it', (_name, domain, reason) => {
    expect(wildcardDomainProblem(domain)).toContain(`"${domain}"`);
    expect(wildcardDomainProblem(domain)).toContain(reason);
  });

  it('lists one problem per refused domain', () => {
    expect(wildcardDomainProblems(['apps.example.com', 'github.io', 'x.'])).toHaveLength(2);
  });
});
