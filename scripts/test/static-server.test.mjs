// The CDN-like static server (scripts/lib/static-server.mjs) as a browser and a CDN meet it: revalidation answered
// with 304, ranges with 206, the compressed copy the build wrote, the SPA fallback, and the same headers on every answer.
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { precompress } from '../lib/precompress.mjs';
import { acceptedEncoding, hostPreloads, startStaticServer } from '../lib/static-server.mjs';

const dir = mkdtempSync(path.join(tmpdir(), 'portal-static-'));
const script = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;
/** @type {{ url: string, close(): Promise<void> }} */
let server;

before(async () => {
  writeFileSync(path.join(dir, 'index.html'), `<!doctype html><title>Portal</title>${' '.repeat(600)}`);
  writeFileSync(path.join(dir, 'main.0123456789.js'), script);
  // What a build that keeps its source maps for debugging leaves beside its files: never to be published.
  writeFileSync(path.join(dir, 'main.0123456789.js.map'), '{"version":3,"sources":["webpack://src/secreto.ts"]}');
  writeFileSync(path.join(dir, 'remoteEntry.js.map'), '{"version":3,"sources":["webpack://src/secreto.ts"]}');
  writeFileSync(path.join(dir, 'remoteEntry.js'), script);
  writeFileSync(path.join(dir, 'preload.json'), JSON.stringify({ scripts: ['main.0123456789.js'], routes: [] }));
  mkdirSync(path.join(dir, 'media'));
  writeFileSync(path.join(dir, 'media', 'clip.mp4'), Buffer.alloc(2000, 7));
  writeFileSync(path.join(path.dirname(dir), 'secreto.txt'), 'fuera de la carpeta');
  assert.equal(precompress(dir), 3);
  // A prerendered page (scripts/lib/prerender.mjs), small enough to have no compressed copy.
  writeFileSync(path.join(dir, 'login.html'), '<!doctype html><title>Iniciar sesión · Portal</title>');
  // The shell's frames and the list that names them and the session hint cookie (scripts/lib/prerender.mjs).
  mkdirSync(path.join(dir, '_frames'));
  writeFileSync(path.join(dir, '_frames', 'apps-id.html'), '<!doctype html><title>Mejorar plan · Portal</title>');
  writeFileSync(path.join(dir, '_frames', 'inicio.html'), '<!doctype html><title>Aplicaciones · Portal</title>');
  writeFileSync(
    path.join(dir, 'prerendered.json'),
    JSON.stringify({
      sessionHint: 'portal_sesion',
      signIn: ['/login'],
      frames: [
        { path: '/', file: '/_frames/inicio.html' },
        { path: '/apps/:id', file: '/_frames/apps-id.html' },
      ],
    }),
  );
  server = await startStaticServer({
    dir,
    port: 0,
    spa: true,
    runtimeConfig: { apiBaseUrl: 'http://127.0.0.1:3000', remotes: {}, redirectAllowList: [] },
  });
});
after(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (/** @type {string} */ pathname, /** @type {Record<string, string>} */ headers = {}) =>
  fetch(`${server.url}${pathname}`, { headers });

/** A GET through node:http, which leaves the body as it came (fetch decodes it). */
const rawGet = (/** @type {string} */ pathname, /** @type {Record<string, string>} */ headers = {}) =>
  /** @type {Promise<{ status: number, headers: http.IncomingHttpHeaders, body: Buffer }>} */ (
    new Promise((resolve, reject) => {
      http
        .get(`${server.url}${pathname}`, { headers }, (response) => {
          /** @type {Buffer[]} */
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
          );
        })
        .on('error', reject);
    })
  );

/** The headers every answer carries, a page's or a file's. @param {Response} response */
function assertFileHeaders(response) {
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
  assert.equal(response.headers.get('access-control-allow-origin'), '*');
}

/** @param {Response} response */
function assertPageHeaders(response) {
  assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'self'/);
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(response.headers.get('access-control-allow-origin'), '*');
}

describe('static server', () => {
  it('revalidates the page: an ETag, then 304 with no body and the same security headers', async () => {
    const first = await get('/');
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'no-cache');
    assert.equal(first.headers.get('content-type'), 'text/html; charset=utf-8');
    // Fetched early, at low priority: the page paints before its scripts (decision 0060).
    assert.match(
      first.headers.get('link') ?? '',
      /<\/main\.0123456789\.js>; rel=preload; as=script; fetchpriority=low/,
    );
    const tag = first.headers.get('etag');
    assert.ok(tag, 'an ETag');
    const again = await get('/', { 'if-none-match': tag });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
    assertPageHeaders(again);
  });

  it('revalidates the entry and the runtime config the same way', async () => {
    for (const pathname of ['/remoteEntry.js', '/runtime-config.js']) {
      const first = await get(pathname);
      assert.equal(first.status, 200, pathname);
      assert.equal(first.headers.get('cache-control'), 'no-cache');
      const again = await get(pathname, { 'if-none-match': first.headers.get('etag') ?? '' });
      assert.equal(again.status, 304, pathname);
    }
    assert.match(await (await get('/runtime-config.js')).text(), /window\.__PORTAL_CONFIG__ = \{"apiBaseUrl"/);
  });

  it('keeps hashed files for a year and sends the compressed copy the browser accepts', async () => {
    const brotli = await fetch(`${server.url}/main.0123456789.js`, { headers: { 'accept-encoding': 'br' } });
    assert.equal(brotli.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(brotli.headers.get('content-encoding'), 'br');
    assert.equal(brotli.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(await brotli.text(), script, 'fetch decodes what the server compressed');
    const raw = await new Promise((resolve, reject) => {
      import('node:http').then(({ get: httpGet }) =>
        httpGet(`${server.url}/main.0123456789.js`, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
          /** @type {Buffer[]} */
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject),
      );
    });
    assert.equal(raw.headers['content-encoding'], 'gzip');
    assert.equal(zlib.gunzipSync(raw.body).toString(), script);
    assert.ok(raw.body.length < script.length / 4, 'the copy is smaller');
  });

  it('answers a byte range with 206 and Content-Range', async () => {
    const response = await get('/media/clip.mp4', { range: 'bytes=100-199' });
    assert.equal(response.status, 206);
    assert.equal(response.headers.get('content-range'), 'bytes 100-199/2000');
    assert.equal((await response.arrayBuffer()).byteLength, 100);
  });

  it("answers the host's routes with index.html, and a missing file with a Spanish 404", async () => {
    const route = await get('/apps/123');
    assert.equal(route.status, 200);
    assert.match(await route.text(), /<title>Portal<\/title>/);
    const missing = await get('/missing.0123456789.js');
    assert.equal(missing.status, 404);
    assert.equal(await missing.text(), 'No encontrado');
    assertFileHeaders(missing);
    const missingPage = await get('/falta.html');
    assert.equal(missingPage.status, 404);
    assertPageHeaders(missingPage);
  });

  it('sends the headers only a document reads with pages, not with the files a page loads', async () => {
    for (const pathname of ['/', '/apps/123', '/login', '/falta.html']) {
      const page = await get(pathname);
      assertPageHeaders(page);
      assert.equal(page.headers.get('x-frame-options'), 'DENY', pathname);
    }
    for (const pathname of ['/main.0123456789.js', '/remoteEntry.js', '/runtime-config.js', '/media/clip.mp4']) {
      const file = await get(pathname);
      assert.equal(file.status, 200, pathname);
      assertFileHeaders(file);
      assert.equal(file.headers.get('content-security-policy'), null, pathname);
      assert.equal(file.headers.get('x-frame-options'), null, pathname);
    }
  });

  it('sends the runtime config compressed as the browser accepts, each copy with its own ETag', async () => {
    const plain = await rawGet('/runtime-config.js');
    const config = plain.body.toString();
    assert.match(config, /^window\.__PORTAL_CONFIG__ = \{"apiBaseUrl"/);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers['content-length'], String(plain.body.length));
    const brotli = await rawGet('/runtime-config.js', { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(brotli.headers['content-encoding'], 'br');
    assert.equal(zlib.brotliDecompressSync(brotli.body).toString(), config);
    const gzip = await rawGet('/runtime-config.js', { 'accept-encoding': 'gzip, br;q=0' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(zlib.gunzipSync(gzip.body).toString(), config);
    const tags = new Set([plain, brotli, gzip].map((answer) => answer.headers.etag));
    assert.equal(tags.size, 3, 'one ETag per copy');
    const again = await rawGet('/runtime-config.js', {
      'accept-encoding': 'br',
      'if-none-match': `${brotli.headers.etag}`,
    });
    assert.equal(again.status, 304);
    const other = await rawGet('/runtime-config.js', {
      'accept-encoding': 'gzip',
      'if-none-match': `${brotli.headers.etag}`,
    });
    assert.equal(other.status, 200, "another copy's tag does not match");
    assert.equal(other.headers['content-encoding'], 'gzip');
  });

  it('reads Accept-Encoding: brotli first, a refused coding (q=0) is not taken', () => {
    assert.equal(acceptedEncoding('gzip, deflate, br, zstd'), 'br');
    assert.equal(acceptedEncoding('gzip'), 'gzip');
    assert.equal(acceptedEncoding('GZIP;q=0.5, BR;q=0'), 'gzip');
    assert.equal(acceptedEncoding('br;q=0, gzip;q=0'), null);
    assert.equal(acceptedEncoding('identity'), null);
    assert.equal(acceptedEncoding(undefined), null);
    assert.equal(acceptedEncoding(''), null);
  });

  it('answers a prerendered path with its page, whatever the query, with the page headers', async () => {
    for (const pathname of ['/login', '/login?redirect_url=https%3A%2F%2Fpartner.example.com', '/login/']) {
      const response = await get(pathname);
      assert.equal(response.status, 200, pathname);
      assert.match(await response.text(), /<title>Iniciar sesión · Portal<\/title>/, pathname);
      assert.equal(response.headers.get('cache-control'), 'no-cache');
      assert.match(response.headers.get('link') ?? '', /<\/runtime-config\.js>; rel=preload/);
      assertPageHeaders(response);
    }
    assert.match(await (await get('/register')).text(), /<title>Portal<\/title>/);
  });

  it("answers a kept session's user pages with their frame, and its sign-in pages with the plain shell", async () => {
    const kept = { cookie: 'otra=x; portal_sesion=1' };
    const titleOf = async (/** @type {string} */ pathname, /** @type {Record<string, string>} */ headers = {}) => {
      const response = await get(pathname, headers);
      assert.equal(response.status, 200, pathname);
      assert.equal(response.headers.get('cache-control'), 'no-cache');
      assert.equal(response.headers.get('vary'), 'Accept-Encoding, Cookie', 'a cache keeps one copy per cookie');
      assertPageHeaders(response);
      return (await response.text()).match(/<title>([^<]*)<\/title>/)?.[1];
    };
    assert.equal(await titleOf('/apps/123', kept), 'Mejorar plan · Portal');
    assert.equal(await titleOf('/apps/123/?redirect_url=x', kept), 'Mejorar plan · Portal');
    assert.equal(await titleOf('/', kept), 'Aplicaciones · Portal');
    assert.equal(await titleOf('/login?redirect_url=x', kept), 'Portal', 'no sign-in form for a kept session');
    assert.equal(await titleOf('/pagina-que-no-existe', kept), 'Portal');
    // Without the hint, or with another value or a look-alike name: as before.
    for (const cookie of ['', 'portal_sesion=0', 'xportal_sesion=1', 'portal_sesion=1x']) {
      assert.equal(await titleOf('/apps/123', { cookie }), 'Portal', cookie);
      assert.equal(await titleOf('/', { cookie }), 'Portal', cookie);
      assert.equal(await titleOf('/login', { cookie }), 'Iniciar sesión · Portal', cookie);
    }
  });

  it("sends HSTS as the API does, on pages and on files, with the API's own value", async () => {
    const { securityHeaders: api } = await import('../../api/src/plugins/external/helmet.ts');
    assert.equal(api['strict-transport-security'], 'max-age=31536000; includeSubDomains');
    for (const pathname of ['/', '/login', '/apps/3', '/main.0123456789.js', '/runtime-config.js', '/no-existe.js']) {
      const answer = await get(pathname);
      assert.equal(answer.headers.get('strict-transport-security'), api['strict-transport-security'], pathname);
    }
  });

  it('does not publish source maps: 404 whatever the encoding or method', async () => {
    for (const pathname of ['/main.0123456789.js.map', '/remoteEntry.js.map', '/MAIN.0123456789.JS.MAP']) {
      for (const headers of /** @type {Record<string, string>[]} */ ([{}, { 'accept-encoding': 'br, gzip' }])) {
        const answer = await get(pathname, headers);
        assert.equal(answer.status, 404, `${pathname} ${JSON.stringify(headers)}`);
        assert.doesNotMatch(await answer.text(), /secreto/);
      }
      const head = await fetch(`${server.url}${pathname}`, { method: 'HEAD' });
      assert.equal(head.status, 404);
    }
    assert.equal((await get('/main.0123456789.js')).status, 200);
  });

  it('the production build still writes its maps for debugging, hidden: no bundle points at one', async () => {
    const { createRequire } = await import('node:module');
    const { hostConfig, remoteConfig } = createRequire(import.meta.url)('../webpack/federation.js');
    const root = path.resolve(import.meta.dirname, '../..');
    const built = [hostConfig(path.join(root, 'host')), remoteConfig('auth', path.join(root, 'remote-auth'))].flatMap(
      (config) => config({}, { mode: 'production' }),
    );
    // Each also builds a small file beside (the host's starter, a remote's standalone runtime), which has no map.
    assert.deepEqual(
      built.map((config) => config.devtool),
      [false, 'hidden-source-map', false, 'hidden-source-map'],
    );
  });

  it('serves nothing outside its folder and only GET and HEAD', async () => {
    for (const pathname of ['/../secreto.txt', '/%2e%2e/secreto.txt', '/..%2fsecreto.txt']) {
      const response = await get(pathname);
      assert.notEqual(await response.text(), 'fuera de la carpeta', pathname);
    }
    const post = await fetch(`${server.url}/remoteEntry.js`, { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
  });

  it('sends a form posted to a page before its scripts ran back to that page, on this site only', async () => {
    const posted = (/** @type {string} */ pathname) =>
      fetch(`${server.url}${pathname}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=ana%40example.com&password=secreta',
      });
    const login = await posted('/login?redirect_url=https%3A%2F%2Fpartner.example.com');
    assert.equal(login.status, 303);
    assert.equal(login.headers.get('location'), '/login?redirect_url=https%3A%2F%2Fpartner.example.com');
    assert.doesNotMatch(await login.text(), /secreta/);
    assertPageHeaders(login);
    // Sent as written (fetch would resolve the dots first): the path the server reads is '//evil.example/login'.
    const sneaky = await new Promise((resolve, reject) => {
      const request = http.request(`${server.url}/`, { method: 'POST', path: '/x/..//evil.example/login' }, resolve);
      request.on('error', reject);
      request.end('password=secreta');
    });
    sneaky.resume();
    assert.equal(sneaky.statusCode, 303);
    assert.equal(sneaky.headers.location, '/evil.example/login', 'never //host: another site');
  });
});

describe("what the host's pages load (hostPreloads)", () => {
  /** A remote's manifest server, and a host folder whose preload.json names a sign-in page and a page of that remote. */
  async function hostWithRemote() {
    const manifest = {
      metaData: { remoteEntry: { path: '', name: 'remoteEntry.js' } },
      exposes: [
        { path: './LoginPage', assets: { js: { sync: ['login.1.js'] } } },
        { path: './AppsPage', assets: { js: { sync: ['apps.1.js'] } } },
      ],
    };
    const remote = http.createServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(manifest));
    });
    await new Promise((resolve) => remote.listen(0, '127.0.0.1', () => resolve(undefined)));
    const origin = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (remote.address()).port}`;
    const pages = mkdtempSync(path.join(tmpdir(), 'portal-preloads-'));
    writeFileSync(
      path.join(pages, 'preload.json'),
      JSON.stringify({
        scripts: ['main.1.js', 'startup.1.js'],
        routes: [
          { path: '/login', prerendered: true, remote: 'auth', modules: ['./LoginPage'] },
          { path: '/apps', prerendered: false, remote: 'apps', modules: ['./AppsPage'] },
        ],
      }),
    );
    writeFileSync(path.join(pages, 'index.html'), '<!doctype html><title>Portal</title>');
    const manifestUrl = `${origin}/mf-manifest.json`;
    const runtimeConfig = {
      apiBaseUrl: 'http://127.0.0.1:3000',
      remotes: { auth: manifestUrl, apps: manifestUrl },
      redirectAllowList: [],
    };
    return {
      origin,
      manifestUrl,
      pages,
      runtimeConfig,
      close: () => {
        remote.close();
        rmSync(pages, { recursive: true, force: true });
      },
    };
  }

  it('announces every file of a page its remote paints, and only a connection on a sign-in page', async () => {
    const host = await hostWithRemote();
    try {
      const { link } = hostPreloads({ dir: host.pages, runtimeConfig: host.runtimeConfig });
      const apps = await link('/apps');
      assert.match(apps, new RegExp(`<${host.manifestUrl}>; rel=preload; as=fetch; crossorigin=anonymous`));
      for (const file of ['/main.1.js', '/startup.1.js', `${host.origin}/remoteEntry.js`, `${host.origin}/apps.1.js`])
        assert.ok(apps.includes(`<${file}>; rel=preload; as=script; fetchpriority=low`), file);
      // The sign-in page paints from its HTML: nothing is fetched before that paint but what the page names itself.
      const login = await link('/login');
      assert.equal(login, `<${host.origin}>; rel=preconnect; crossorigin=anonymous`);
    } finally {
      host.close();
    }
  });

  it("gives a sign-in page's files in the runtime config, for its starter to ask for once the page is painted", async () => {
    const host = await hostWithRemote();
    const served = await startStaticServer({ dir: host.pages, port: 0, spa: true, runtimeConfig: host.runtimeConfig });
    try {
      const answer = await fetch(`${served.url}/runtime-config.js`);
      const body = await answer.text();
      const config = JSON.parse(body.replace(/^window\.__PORTAL_CONFIG__ = /, '').replace(/;\n$/, ''));
      assert.equal(config.apiBaseUrl, 'http://127.0.0.1:3000');
      assert.deepEqual(config.preload, {
        '/login': {
          scripts: ['/main.1.js', '/startup.1.js', `${host.origin}/remoteEntry.js`, `${host.origin}/login.1.js`],
          manifest: host.manifestUrl,
        },
      });
      // Revalidated as before: the same copy answers 304.
      const again = await fetch(`${served.url}/runtime-config.js`, {
        headers: { 'if-none-match': answer.headers.get('etag') ?? '' },
      });
      assert.equal(again.status, 304);
    } finally {
      await served.close();
      host.close();
    }
  });
});
