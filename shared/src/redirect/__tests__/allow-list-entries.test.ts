import { allowListEntryProblem, allowListProblems } from '../allow-list-entries';

describe('allow-list entries checked at start (issue 13 item 2)', () => {
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
    expect(allowListEntryProblem(entry)).toContain(`"${entry}"`);
    expect(allowListEntryProblem(entry)).toContain('cualquiera puede crear direcciones');
  });

  it.each([
    ['the product domain', 'https://portal.example.com'],
    ['its subdomains', 'https://*.portal.example.com'],
    ['an exact dev tunnel', 'https://abc123-8080.euw.devtunnels.ms'],
    ['an exact app on a shared host', 'https://mi-app.vercel.app'],
    ['a local origin', 'http://127.0.0.1:5500'],
    ['a deep link', 'betopro://auth/success'],
  ])('accepts %s', (_name, entry) => {
    expect(allowListEntryProblem(entry)).toBeNull();
  });

  it('names every refused entry of a list and nothing else', () => {
    expect(
      allowListProblems(['https://portal.example.com', 'https://*.github.io', 'nada', 'https://a*.example.com']),
    ).toEqual([
      expect.stringContaining('"https://*.github.io"'),
      expect.stringContaining('"nada", que no es una dirección válida'),
      expect.stringContaining('"https://a*.example.com": el comodín solo puede ir al principio'),
    ]);
  });
});
