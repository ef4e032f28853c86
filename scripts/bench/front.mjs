// Front-end bench (npm run bench): builds what is stale, starts the product with scripts/start.mjs on its own ports,
// and for each route runs one Lighthouse navigation (mobile profile, simulated throttling, Debian's Chromium) on a
// cold cache. Prints one markdown row per route: JavaScript bytes on the wire, the deepest request chain that had
// finished before the largest contentful paint, and Lighthouse's performance score, LCP and TBT.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { buildAll } from '../lib/build.mjs';
import { ROOT } from '../lib/parts.mjs';

const require = createRequire(path.join(ROOT, 'e2e/package.json'));
const { default: lighthouse } = await import(require.resolve('lighthouse'));
const chromeLauncher = await import(require.resolve('chrome-launcher'));
const { default: puppeteer } = await import(require.resolve('puppeteer-core'));

const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';
const base = Number(process.env.FRONT_BENCH_PORT_BASE) || 3600;
const ports = { api: base, auth: base + 1, apps: base + 2, admin: base + 3, calculator: base + 4, host: base + 80 };
const admin = { email: 'bench@portal.local', password: 'Clave-del-bench-2026' };
const ROUTES = [
  { path: '/login', signedIn: false },
  { path: '/apps', signedIn: true },
  { path: '/admin/usuarios', signedIn: true },
  { path: '/calculadora-txi', signedIn: true },
];
const hostUrl = `http://127.0.0.1:${ports.host}`;
const apiUrl = `http://127.0.0.1:${ports.api}`;

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
function stackUrls(initiator) {
  const urls = initiator?.url ? [initiator.url] : [];
  for (let stack = initiator?.stack; stack; stack = stack.parent) urls.push(...stack.callFrames.map((f) => f.url).filter(Boolean));
  return urls;
}

/**
 * Depth of the longest chain (document = 1) among the requests finished by `untilSeconds`. A request comes after
 * every script on its (async) stack that had finished when it started, and after the earlier fetches to its own
 * origin (the manifest before the remote's entry, /auth/user before the page's data): an upper bound of the
 * sequential round trips. A preload announced by the document's Link header comes right after the document.
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
      const dataBefore = (other.type === 'Fetch' || other.type === 'XHR') && new URL(other.request.url).origin === origin;
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

async function measure(chrome, browser, route, token) {
  const page = await browser.newPage();
  await page.goto(`${hostUrl}/runtime-config.js`);
  await page.evaluate((value) => (value ? localStorage.setItem('token', value) : localStorage.removeItem('token')), token);
  // Storage is kept (the token) but every route starts on a cold HTTP cache.
  const session = await page.createCDPSession();
  await session.send('Network.clearBrowserCache');
  await page.close();
  const { lhr, artifacts } = await lighthouse(
    `${hostUrl}${route.path}`,
    { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true },
  );
  const requests = lhr.audits['network-requests'].details.items;
  const scripts = requests.filter((r) => r.resourceType === 'Script');
  const jsBytes = scripts.reduce((sum, r) => sum + r.transferSize, 0);
  if (process.env.FRONT_BENCH_DEBUG) {
    for (const r of scripts) console.log(route.path, (r.transferSize / 1024).toFixed(1), 'KB', r.url);
    const element = lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node;
    console.log(route.path, 'LCP element:', element?.snippet, element?.boundingRect);
    for (const id of ['first-contentful-paint', 'speed-index', 'cumulative-layout-shift', 'interactive']) {
      console.log(route.path, id, lhr.audits[id]?.displayValue, lhr.audits[id]?.score);
    }
  }
  const observed = lhr.audits.metrics.details.items[0];
  const lcpSeconds = (observed.observedLargestContentfulPaintTs ?? observed.observedLoadTs) / 1e6;
  return {
    route: route.path,
    jsKb: jsBytes / 1024,
    scripts: scripts.length,
    depth: chainDepth(artifacts.DevtoolsLog, lcpSeconds),
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    lcp: lhr.audits['largest-contentful-paint'].numericValue,
    tbt: lhr.audits['total-blocking-time'].numericValue,
    finalUrl: lhr.finalDisplayedUrl,
  };
}

async function main() {
  await buildAll({ log: () => {} });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-front-bench-'));
  const portal = await startPortal(dataDir);
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const login = await fetch(`${apiUrl}/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(admin),
    });
    if (!login.ok) throw new Error(`inicio de sesión del bench: ${login.status} ${await login.text()}`);
    const { access_token: token } = await login.json();
    const rows = [];
    for (const route of ROUTES) rows.push(await measure(chrome, browser, route, route.signedIn ? token : null));
    await browser.disconnect();
    console.log('| route | JS on the wire (KB) | scripts | request chain before LCP | Lighthouse perf | LCP (ms) | TBT (ms) |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const row of rows) {
      const shown = row.finalUrl.endsWith(row.route) ? row.route : `${row.route} (→ ${new URL(row.finalUrl).pathname})`;
      console.log(
        `| ${shown} | ${row.jsKb.toFixed(1)} | ${row.scripts} | ${row.depth} | ${row.score} | ${Math.round(row.lcp)} | ${Math.round(row.tbt)} |`,
      );
    }
  } finally {
    await chrome.kill();
    portal.kill('SIGTERM');
    await new Promise((resolve) => portal.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
