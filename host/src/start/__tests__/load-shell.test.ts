import { loadShell, preloadKey } from '../load-shell';

const heads = () =>
  [...document.head.children].map((node) =>
    node instanceof HTMLScriptElement
      ? `script ${node.getAttribute('src')} async=${node.async}`
      : `${node.getAttribute('rel')} ${node.getAttribute('as')} ${node.getAttribute('href')} ${node.getAttribute('crossorigin') ?? '-'}`,
  );

describe("the starter's loading of the shell", () => {
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it('asks for every file of the page at once, then runs the entry, in order', () => {
    loadShell(['/main.1.js'], {
      scripts: ['/main.1.js', '/startup.1.js', 'http://remote.test/remoteEntry.js', 'http://remote.test/login.1.js'],
      manifest: 'http://remote.test/mf-manifest.json',
    });
    expect(heads()).toEqual([
      // Fetched as the federation runtime fetches it (uncredentialed), so its answer is the one used.
      'preload fetch http://remote.test/mf-manifest.json anonymous',
      'preload script /main.1.js -',
      'preload script /startup.1.js -',
      'preload script http://remote.test/remoteEntry.js -',
      'preload script http://remote.test/login.1.js -',
      // Run after the preloads are asked for: it uses its own.
      'script /main.1.js async=false',
    ]);
  });

  it('without a list (another server, a page of no list) runs the entry alone', () => {
    loadShell(['/main.1.js'], undefined);
    expect(heads()).toEqual(['script /main.1.js async=false']);
  });

  it('names a page as the runtime config does', () => {
    expect(preloadKey('/login')).toBe('/login');
    expect(preloadKey('/register/')).toBe('/register');
    expect(preloadKey('/')).toBe('/');
  });
});
