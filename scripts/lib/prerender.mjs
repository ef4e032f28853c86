// The sign-in pages and the shell's frame rendered to HTML at build time
// (docs/decisions/0026-prerendered-sign-in-pages.md): bundles host/prerender/render.tsx for Node (the shell's tree with
// remote-auth's pages imported from source, styled-components' ids as in the browser builds), renders each of its paths
// and writes `<page>.html` beside the host's index.html (the frames under `_frames/`): that page with the markup in
// `#root` (marked with the route, which the browser hydrates) and the rules it uses in the head, and
// `prerendered.json`, which tells the static server which file answers which path, and the cookie by which it knows a
// session is kept (scripts/lib/static-server.mjs). docs/decisions/0026-prerendered-sign-in-pages.md.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from './parts.mjs';
import { precompressFiles } from './precompress.mjs';

const require = createRequire(import.meta.url);

/** The splash the page template puts in `#root` (scripts/webpack/index.html; minified, maybe unquoted), replaced. */
const SPLASH = /<div id="?root"?>[\s\S]*?<\/div>/;

/** @param {string} text */
const escapeHtml = (text) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/** @param {string} outDir @returns {Promise<string>} the bundle's file */
function bundle(outDir) {
  const webpack = require('webpack');
  const { tsLoaderRule } = require('../webpack/federation.js');
  const hostDir = path.join(ROOT, 'host');
  /** @type {import('webpack').Configuration} */
  const config = {
    mode: 'production',
    target: 'node',
    context: hostDir,
    entry: './prerender/render.tsx',
    devtool: false,
    output: { path: outDir, filename: 'render.cjs', library: { type: 'commonjs2' } },
    resolve: { extensions: ['.tsx', '.ts', '.js'] },
    module: { rules: [tsLoaderRule(hostDir, true)] },
    // Packages are required from node_modules at render time; the portal's own TypeScript is compiled.
    externals: ({ request }, callback) =>
      request && /^[a-z@]/.test(request) && !request.startsWith('@portal/')
        ? callback(undefined, `commonjs ${request}`)
        : callback(),
    optimization: { minimize: false },
    performance: { hints: false },
  };
  return new Promise((resolve, reject) => {
    webpack(config, (/** @type {Error | null} */ error, /** @type {import('webpack').Stats | undefined} */ stats) => {
      if (error) return reject(error);
      if (stats?.hasErrors()) return reject(new Error(stats.toString({ all: false, errors: true, colors: false })));
      resolve(path.join(outDir, 'render.cjs'));
    });
  });
}

/** @typedef {{ path: string, html: string, styles: string, title: string }} RenderedPage */
/**
 * @typedef {{ pages: RenderedPage[], frames: RenderedPage[], sessionHint: string }} Rendered
 * `pages`: the sign-in pages; `frames`: the shell's frame of each page of the user area and the admin panel (by route
 * pattern, '/apps/:id'); `sessionHint`: the name of the cookie that says a session is kept.
 */

/** Bundles the render entry and renders every page and frame it lists. @returns {Promise<Rendered>} */
export async function renderPages() {
  // Inside the repository, so that the bundle's require() finds node_modules.
  const cache = path.join(ROOT, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const outDir = mkdtempSync(path.join(cache, 'portal-prerender-'));
  try {
    const file = await bundle(outDir);
    // In a process of its own: React and styled-components in their production builds (NODE_ENV, read when they
    // load), as in the browser, without changing the environment of the build or of what npm start runs next.
    const script = `const render = require(${JSON.stringify(file)});
      const pages = render.PRERENDERED_PATHS.map((path) => ({ path, ...render.renderPage(path) }));
      const frames = render.FRAME_PATHS.map((path) => ({ path, ...render.renderFrame(path) }));
      process.stdout.write(JSON.stringify({ pages, frames, sessionHint: render.SESSION_HINT }));`;
    const child = spawnSync(process.execPath, ['-e', script], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production' },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (child.status !== 0) throw new Error(`El prerender de las páginas falló:\n${child.stderr}`);
    return JSON.parse(child.stdout);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * The built page template with a rendered page in it: the markup in `#root` (marked with its path, for the browser's
 * bootstrap), its title, and its rules at the end of the head.
 * @param {string} template the host's dist/index.html @param {RenderedPage} page
 */
export function pageDocument(template, page) {
  if (!SPLASH.test(template)) throw new Error('host/dist/index.html no tiene el #root de la plantilla');
  return template
    .replace(SPLASH, () => `<div id="root" data-prerendered="${escapeHtml(page.path)}">${page.html}</div>`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(page.title)}</title>`)
    .replace('</head>', () => `${page.styles}</head>`);
}

/** The file of a route's frame, from its pattern: '/apps/:id' → '/_frames/apps-id.html', '/' → '/_frames/inicio.html'. */
export const frameFile = (/** @type {string} */ route) =>
  `/_frames/${route === '/' ? 'inicio' : route.slice(1).replaceAll(':', '').replaceAll('/', '-')}.html`;

/**
 * What the static server reads from the build: which file answers which path. @typedef {{ sessionHint: string,
 * signIn: string[], frames: { path: string, file: string }[] }} PrerenderedList
 */

/**
 * Writes the prerendered pages into the host's build (`/login` → `dist/login.html`, the frames under `dist/_frames/`),
 * compressed like the rest, and the list the static server reads (`dist/prerendered.json`).
 * @param {{ dist?: string, log?: (line: string) => void }} [options] @returns {Promise<string[]>} the files written
 */
export async function prerenderPages({ dist = path.join(ROOT, 'host/dist'), log = console.log } = {}) {
  const template = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const { pages, frames, sessionHint } = await renderPages();
  mkdirSync(path.join(dist, '_frames'), { recursive: true });
  const write = (/** @type {string} */ file, /** @type {RenderedPage} */ page) => {
    const absolute = path.join(dist, file);
    writeFileSync(absolute, pageDocument(template, page));
    return absolute;
  };
  const files = [
    ...pages.map((page) => write(`${page.path.slice(1)}.html`, page)),
    ...frames.map((frame) => write(frameFile(frame.path), frame)),
  ];
  precompressFiles(files);
  /** @type {PrerenderedList} */
  const list = {
    sessionHint,
    signIn: pages.map((page) => page.path),
    frames: frames.map((frame) => ({ path: frame.path, file: frameFile(frame.path) })),
  };
  writeFileSync(path.join(dist, 'prerendered.json'), `${JSON.stringify(list, null, 2)}\n`);
  log(`· host: páginas prerenderizadas (${list.signIn.join(', ')}) y el marco de ${frames.length} rutas`);
  return files;
}
