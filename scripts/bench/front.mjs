// Front-end bench (npm run bench): builds what is stale, starts the product with scripts/start.mjs on its own ports,
// and measures each route with Lighthouse (mobile profile, simulated throttling, the Chromium of scripts/lib/browser.mjs)
// twice over:
// - first visit: what a new person gets. Each run launches a new Chromium on a new, empty profile, with Lighthouse's
//   own defaults (as the CLI: storage reset, mobile); the signed-in routes get only the token in that profile.
//   FRONT_BENCH_RUNS runs (3) per route, the median of each figure.
// - warm browser: one Chromium kept for every route, only its HTTP cache cleared before each navigation (storage
//   kept), one run per route: the figure of the earlier rounds, which a returning visitor's browser is closer to.
// - real throttling: the first visit again, with Lighthouse throttling the connection and the CPU for real
//   (throttlingMethod 'devtools') instead of simulating them, so a figure that only pleases the simulation shows.
// - unthrottled paint: FRONT_BENCH_PAINT_RUNS (5) first visits in a new Chromium each, nothing throttled: when the first
//   contentful paint came, and when the page took input (`#root` lost its prerendered mark: React owns the form).
// Prints one markdown table each: JavaScript bytes on the wire, the deepest request chain that had finished before
// the largest contentful paint, and Lighthouse's performance score, FCP, LCP and TBT; the first visit's table also
// carries the unthrottled paint's medians.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { findChromium } from '../lib/browser.mjs';
import { buildAll } from '../lib/build.mjs';
import { ROOT } from '../lib/parts.mjs';

const require = createRequire(path.join(ROOT, 'e2e/package.json'));
const { default: lighthouse } = await import(require.resolve('lighthouse'));
const chromeLauncher = await import(require.resolve('chrome-launcher'));
const { default: puppeteer } = await import(require.resolve('puppeteer-core'));

/** @typedef {{ path: string, signedIn: boolean }} Route */
/** @typedef {{ fcp: number, ready: number | null }} Paint */
/**
 * @typedef {{ route: string, jsKb: number, scripts: number, depth: number, score: number, fcp: number, lcp: number,
 *   tbt: number, finalUrl: string }} Run
 */

/** @type {{ path?: string, error?: string }} */
const chromium = process.env.CHROME_PATH ? { path: process.env.CHROME_PATH } : findChromium();
if (chromium.error) {
  console.error(chromium.error);
  process.exit(1);
}
const CHROME_PATH = chromium.path;
const COLD_RUNS = Number(process.env.FRONT_BENCH_RUNS) || 3;
const PAINT_RUNS = Number(process.env.FRONT_BENCH_PAINT_RUNS) || 5;
const base = Number(process.env.FRONT_BENCH_PORT_BASE) || 3600;
const ports = { api: base, auth: base + 1, apps: base + 2, admin: base + 3, calculator: base + 4, host: base + 80 };
const admin = { email: 'bench@portal.local', password: 'Clave-del-bench-2026' };
const ALL_ROUTES = [
  { path: '/login', signedIn: false },
  { path: '/register', signedIn: false },
  { path: '/apps', signedIn: true },
  { path: '/admin/usuarios', signedIn: true },
  { path: '/calculadora-txi', signedIn: true },
];
// FRONT_BENCH_ROUTES=/login,/apps measures only those (while working on one page); every route by default.
const only = process.env.FRONT_BENCH_ROUTES?.split(',').filter(Boolean);
const ROUTES = only ? ALL_ROUTES.filter((route) => only.includes(route.path)) : ALL_ROUTES;
// At localhost, where `npm start` opens the portal: at an IP address the sign-in page adds, once its scripts ran, a
// notice that passkeys do not work there, and that late notice would be the largest paint.
const hostUrl = `http://localhost:${ports.host}`;
const apiUrl = `http://127.0.0.1:${ports.api}`;

/** @param {string} dataDir @returns {Promise<import('node:child_process').ChildProcess>} */
function startPortal(dataDir) {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs'), '--no-build'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      API_PORT: String(ports.api),
      HOST_PORT: String(ports.host),
      REMOTE_AUTH_PORT: String(ports.auth),
      REMOTE_APPS_PORT: String(ports.apps),
      REMOTE_ADMIN_PORT: String(ports.admin),
      REMOTE_CALCULATOR_PORT: String(ports.calculator),
      DATA_DIR: dataDir,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      LOG_LEVEL: 'warn',
    },
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Portal listo')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`scripts/start.mjs terminó con código ${code}:\n${output}`)));
  });
}

/** Every script URL on a request's initiator stack, async parents included, and the parser's document. */
/** @param {any} initiator a DevTools Network.Initiator @returns {string[]} */
function stackUrls(initiator) {
  const urls = initiator?.url ? [initiator.url] : [];
  for (let stack = initiator?.stack; stack; stack = stack.parent)
    urls.push(...stack.callFrames.map((/** @type {{ url: string }} */ f) => f.url).filter(Boolean));
  return urls;
}

/**
 * Depth of the longest chain (document = 1) among the requests finished by `untilSeconds`. A request comes after
 * every script on its (async) stack that had finished when it started, and after the earlier fetches to its own
 * origin (the manifest before the remote's entry, /auth/user before the page's data): an upper bound of the
 * sequential round trips. A preload announced by the document's Link header comes right after the document.
 * @param {any[]} devtoolsLog Lighthouse's DevTools protocol log @param {number} untilSeconds
 */
function chainDepth(devtoolsLog, untilSeconds) {
  const sent = new Map();
  const finished = new Map();
  for (const { method, params } of devtoolsLog) {
    if (method === 'Network.requestWillBeSent' && !sent.has(params.requestId)) sent.set(params.requestId, params);
    if (method === 'Network.loadingFinished') finished.set(params.requestId, params.timestamp);
  }
  const requests = [...sent.values()].filter((r) => finished.has(r.requestId) && !r.request.url.startsWith('data:'));
  const document = requests.find((r) => r.type === 'Document');
  const memo = new Map();
  /** @type {(request: any) => number} */
  const depthOf = (request) => {
    if (request === document) return 1;
    if (memo.has(request.requestId)) return memo.get(request.requestId);
    memo.set(request.requestId, 2);
    const urls = new Set(stackUrls(request.initiator));
    const origin = new URL(request.request.url).origin;
    let parent = 1;
    for (const other of requests) {
      if (other === request || finished.get(other.requestId) > request.timestamp) continue;
      const onStack = urls.has(other.request.url);
      const dataBefore =
        (other.type === 'Fetch' || other.type === 'XHR') && new URL(other.request.url).origin === origin;
      if (onStack || dataBefore) parent = Math.max(parent, depthOf(other));
    }
    memo.set(request.requestId, parent + 1);
    return parent + 1;
  };
  let deepest = 0;
  for (const request of requests) {
    if (finished.get(request.requestId) > untilSeconds) continue;
    const depth = depthOf(request);
    deepest = Math.max(deepest, depth);
    if (process.env.FRONT_BENCH_DEBUG) console.log(depth, request.request.url);
  }
  return deepest;
}

/**
 * The session hint cookie's name, from the host's build (scripts/lib/prerender.mjs): a signed-in person's browser
 * carries it once the portal has started there, and the static server then answers the shell's frame.
 * FRONT_BENCH_HINT=0 measures the signed-in routes without it (the first visit after the hint was introduced).
 */
const sessionHintOf = () =>
  process.env.FRONT_BENCH_HINT === '0'
    ? null
    : /** @type {string} */ (
        JSON.parse(readFileSync(path.join(ROOT, 'host/dist/prerendered.json'), 'utf8')).sessionHint
      );

/**
 * Puts the token (or none) in the browser's storage for the portal's origin, with the session hint cookie as the
 * portal's start-up would have set it, then empties its HTTP cache.
 * @param {any} browser a puppeteer Browser @param {string | null} token
 */
async function prepare(browser, token) {
  const page = await browser.newPage();
  await page.goto(`${hostUrl}/runtime-config.js`);
  await page.evaluate(
    (/** @type {string | null} */ value) =>
      value ? localStorage.setItem('token', value) : localStorage.removeItem('token'),
    token,
  );
  const sessionHint = sessionHintOf();
  if (token && sessionHint) await page.setCookie({ name: sessionHint, value: '1', url: hostUrl });
  else if (sessionHint) await page.deleteCookie({ name: sessionHint, url: hostUrl });
  const session = await page.createCDPSession();
  await session.send('Network.clearBrowserCache');
  await page.close();
}

/** Warm browser: the kept Chromium, storage kept (the token), HTTP cache cleared. */
/** @param {any} chrome @param {any} browser @param {Route} route @param {string | null} token */
async function measureWarm(chrome, browser, route, token) {
  await prepare(browser, token);
  return lighthouseRun(chrome, route, { disableStorageReset: true });
}

const launchChromium = (/** @type {string[]} */ flags) =>
  chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: flags });

/**
 * First visit: a new Chromium on a new temporary profile (chrome-launcher makes one per launch and deletes it), the
 * flags the Lighthouse CLI uses (plus --no-sandbox, needed as root), Lighthouse's defaults. A signed-in route needs
 * the token in storage, so it is placed first and Lighthouse is told not to wipe it; the HTTP cache is empty again.
 */
/** @param {Route} route @param {string | null} token @param {object} [settings] Lighthouse settings of this run */
async function measureFirstVisit(route, token, settings = {}) {
  const chrome = await launchChromium(['--headless=new', '--no-sandbox']);
  try {
    if (token) {
      const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
      await prepare(browser, token);
      await browser.disconnect();
    }
    return await lighthouseRun(chrome, route, { disableStorageReset: Boolean(token), ...settings });
  } finally {
    await chrome.kill();
  }
}

/**
 * One unthrottled first visit: a new Chromium on a new profile, as measureFirstVisit, the page loaded by the DevTools
 * protocol without Lighthouse. The first contentful paint from the page's own paint timing; `ready` when `#root` lost
 * its prerendered mark (hydration.ts: React owns the markup and the form takes input), null on a page without one.
 * With FRONT_BENCH_DEBUG, each request's initial priority.
 * @param {Route} route @param {string | null} token @returns {Promise<Paint>}
 */
async function measurePaint(route, token) {
  const chrome = await launchChromium(['--headless=new', '--no-sandbox']);
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    if (token) await prepare(browser, token);
    const page = await browser.newPage();
    if (process.env.FRONT_BENCH_DEBUG) {
      const session = await page.createCDPSession();
      await session.send('Network.enable');
      session.on('Network.requestWillBeSent', (/** @type {any} */ sent) =>
        console.log(route.path, 'priority', sent.request.initialPriority, sent.request.url),
      );
    }
    await page.evaluateOnNewDocument(() => {
      const win = /** @type {any} */ (window);
      let marked = false;
      const observer = new MutationObserver(() => {
        const root = document.getElementById('root');
        if (root?.hasAttribute('data-prerendered')) marked = true;
        else if (root && marked) {
          win.__benchReady = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-prerendered'],
      });
    });
    await page.goto(`${hostUrl}${route.path}`, { waitUntil: 'load' });
    const ready = await page
      .waitForFunction(() => /** @type {any} */ (window).__benchReady, { timeout: 15_000 })
      .then((/** @type {any} */ handle) => handle.jsonValue())
      .catch(() => null);
    const fcp = await page.evaluate(
      () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
    );
    await browser.disconnect();
    return { fcp, ready };
  } finally {
    await chrome.kill();
  }
}

/** @param {any} chrome a launched Chrome @param {Route} route @param {object} flags @returns {Promise<Run>} */
async function lighthouseRun(chrome, route, flags) {
  const { lhr, artifacts } = await lighthouse(`${hostUrl}${route.path}`, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    ...flags,
  });
  const requests = lhr.audits['network-requests'].details.items;
  /** @type {{ resourceType: string, transferSize: number, url: string }[]} */
  const scripts = requests.filter((/** @type {{ resourceType: string }} */ r) => r.resourceType === 'Script');
  const jsBytes = scripts.reduce((sum, r) => sum + r.transferSize, 0);
  if (process.env.FRONT_BENCH_DEBUG) {
    for (const r of scripts) console.log(route.path, (r.transferSize / 1024).toFixed(1), 'KB', r.url);
    // Lighthouse 13 names the element in its LCP breakdown insight (the older audit is gone).
    const element = lhr.audits['lcp-breakdown-insight']?.details?.items?.find(
      (/** @type {{ type: string }} */ item) => item.type === 'node',
    );
    console.log(route.path, 'LCP element:', element?.snippet, element?.boundingRect);
    for (const id of ['first-contentful-paint', 'speed-index', 'cumulative-layout-shift', 'interactive']) {
      console.log(route.path, id, lhr.audits[id]?.displayValue, lhr.audits[id]?.score);
    }
    // Where the blocking time comes from: each long main-thread task (simulated timing) and each script's cost.
    for (const task of lhr.audits['long-tasks']?.details?.items ?? [])
      console.log(route.path, 'long task', Math.round(task.startTime), Math.round(task.duration), 'ms', task.url);
    for (const item of lhr.audits['bootup-time']?.details?.items ?? [])
      console.log(
        route.path,
        'script',
        Math.round(item.scripting),
        'ms run',
        Math.round(item.scriptParseCompile),
        'ms parse',
        item.url,
      );
  }
  const observed = lhr.audits.metrics.details.items[0];
  const lcpSeconds = (observed.observedLargestContentfulPaintTs ?? observed.observedLoadTs) / 1e6;
  return {
    route: route.path,
    jsKb: jsBytes / 1024,
    scripts: scripts.length,
    depth: chainDepth(artifacts.DevtoolsLog, lcpSeconds),
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcp: lhr.audits['first-contentful-paint'].numericValue,
    lcp: lhr.audits['largest-contentful-paint'].numericValue,
    tbt: lhr.audits['total-blocking-time'].numericValue,
    finalUrl: lhr.finalDisplayedUrl,
  };
}

const median = (/** @type {number[]} */ values) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const range = (/** @type {number[]} */ values) =>
  values.length > 1 ? ` (${Math.min(...values)}–${Math.max(...values)})` : '';

/** @param {number[]} values */
const medianOf = (values) => (values.length ? `${Math.round(median(values))}${range(values.map(Math.round))}` : '–');

/** @param {string} title @param {Run[][]} rows @param {Paint[][]} [paints] the unthrottled paint of each row */
function printTable(title, rows, paints) {
  console.log(`\n${title}\n`);
  const paintColumns = paints ? ' unthrottled FCP (ms) | unthrottled takes input (ms) |' : '';
  console.log(
    `| route | JS on the wire (KB) | scripts | request chain before LCP | Lighthouse perf | FCP (ms) | LCP (ms) | TBT (ms) |${paintColumns}`,
  );
  console.log(`|---|---:|---:|---:|---:|---:|---:|---:|${paints ? '---:|---:|' : ''}`);
  for (const [index, runs] of rows.entries()) {
    const [first] = runs;
    if (!first) continue;
    const paint = paints?.[index] ?? [];
    const paintCells = paints
      ? ` ${medianOf(paint.map((p) => p.fcp).filter(Number.isFinite))} | ${medianOf(paint.flatMap((p) => (p.ready === null ? [] : [p.ready])))} |`
      : '';
    const shown = first.finalUrl.endsWith(first.route)
      ? first.route
      : `${first.route} (→ ${new URL(first.finalUrl).pathname})`;
    const pick = (/** @type {'score' | 'fcp' | 'lcp' | 'tbt'} */ key) => runs.map((run) => Math.round(run[key]));
    console.log(
      `| ${shown} | ${median(runs.map((run) => run.jsKb)).toFixed(1)} | ${first.scripts} | ${median(runs.map((run) => run.depth))} ` +
        `| ${median(pick('score'))}${range(pick('score'))} | ${median(pick('fcp'))} | ${median(pick('lcp'))}${range(pick('lcp'))} ` +
        `| ${median(pick('tbt'))}${range(pick('tbt'))} |${paintCells}`,
    );
  }
}

async function main() {
  await buildAll({ log: () => {} });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-front-bench-'));
  const portal = await startPortal(dataDir);
  try {
    const login = await fetch(`${apiUrl}/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(admin),
    });
    if (!login.ok) throw new Error(`inicio de sesión del bench: ${login.status} ${await login.text()}`);
    const { access_token: token } = await login.json();
    const tokenFor = (/** @type {Route} */ route) => (route.signedIn ? token : null);

    const firstVisit = [];
    const realThrottling = [];
    const paints = [];
    for (const route of ROUTES) {
      const runs = [];
      const throttled = [];
      const painted = [];
      for (let run = 0; run < COLD_RUNS; run++) runs.push(await measureFirstVisit(route, tokenFor(route)));
      for (let run = 0; run < COLD_RUNS; run++)
        throttled.push(await measureFirstVisit(route, tokenFor(route), { throttlingMethod: 'devtools' }));
      for (let run = 0; run < PAINT_RUNS; run++) painted.push(await measurePaint(route, tokenFor(route)));
      firstVisit.push(runs);
      realThrottling.push(throttled);
      paints.push(painted);
    }

    const warm = [];
    const chrome = await launchChromium([
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ]);
    try {
      const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
      for (const route of ROUTES) warm.push([await measureWarm(chrome, browser, route, tokenFor(route))]);
      await browser.disconnect();
    } finally {
      await chrome.kill();
    }

    printTable(
      `Primera visita: Chromium y perfil nuevos en cada pasada, mediana de ${COLD_RUNS} (mín.–máx.); sin limitar, mediana de ${PAINT_RUNS}`,
      firstVisit,
      paints,
    );
    printTable(
      `Primera visita con limitación real (throttlingMethod 'devtools'), mediana de ${COLD_RUNS} (mín.–máx.)`,
      realThrottling,
    );
    printTable('Navegador caliente: un Chromium para todas las rutas, solo la caché HTTP vaciada, 1 pasada', warm);
  } finally {
    portal.kill('SIGTERM');
    await new Promise((resolve) => portal.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
