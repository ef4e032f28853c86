// What the product is made of, where each part listens, and the runtime config the browser reads.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { API_DEFAULT_PORT, HOST, REMOTES as MANIFEST_REMOTES } from '../../shared/src/portal/manifest.ts';

/** @typedef {import('./types.js').Env} Env @typedef {import('./types.js').Layout} Layout */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Each remote's folder and default port (the portal's manifest), keyed like the runtime config's `remotes`. */
export const REMOTES = Object.fromEntries(
  Object.entries(MANIFEST_REMOTES).map(([name, remote]) => [name, { dir: remote.folder, port: remote.port }]),
);

export const DEFAULT_API_PORT = API_DEFAULT_PORT;
export const DEFAULT_HOST_PORT = HOST.port;

/**
 * Targets that may receive a signed-in user (spec §5): the product's own domains and their test/community
 * subdomains, and the mobile apps' deep links. No dev-tunnel wildcard (issue 13): anyone can create a host under
 * devtunnels.ms; a tunnel of one's own is added by configuration as an exact host (README, Configuration).
 */
export const DEFAULT_REDIRECT_ALLOW_LIST = [
  'https://portal.example.com',
  'https://*.portal.example.com',
  ...['betopro', 'controlmax'].flatMap((scheme) =>
    ['auth', 'auth/success', 'auth/welcome', 'auth/login'].map((p) => `${scheme}://${p}`),
  ),
];

/** The remotes whose folder has a webpack config. */
export function presentRemotes() {
  return Object.entries(REMOTES)
    .filter(([, remote]) => existsSync(path.join(ROOT, remote.dir, 'webpack.config.js')))
    .map(([name, remote]) => ({ name, ...remote, absDir: path.join(ROOT, remote.dir) }));
}

/** @param {Env} env @param {string} name @param {number} fallback */
function portFrom(env, name, fallback) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${name} debe ser un puerto entre 1 y 65535 (recibido: "${raw}")`);
  }
  return port;
}

const envName = (/** @type {string} */ remote) => `REMOTE_${remote.toUpperCase()}`;

/** Ports and public URLs of every part, from the environment (README lists the variables). */
/** @returns {Layout} */
export function readLayout(env = process.env) {
  const bind = env.BIND_HOST || '127.0.0.1';
  const apiPort = portFrom(env, 'API_PORT', DEFAULT_API_PORT);
  const hostPort = portFrom(env, 'HOST_PORT', DEFAULT_HOST_PORT);
  const remotes = presentRemotes().map((remote) => {
    const port = portFrom(env, `${envName(remote.name)}_PORT`, remote.port);
    const origin = `http://${bind}:${port}`;
    return { ...remote, port, origin, manifestUrl: env[`${envName(remote.name)}_URL`] || `${origin}/mf-manifest.json` };
  });
  return {
    bind,
    api: { port: apiPort, url: (env.PUBLIC_API_URL || `http://${bind}:${apiPort}`).replace(/\/+$/, '') },
    host: { port: hostPort, url: env.PUBLIC_PORTAL_URL || `http://${bind}:${hostPort}` },
    remotes,
  };
}

/** @param {string | undefined} raw @returns {string[] | undefined} */
function list(raw) {
  return raw
    ? raw
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : undefined;
}

/**
 * Reads the repository's `.env` into the environment when it exists (`.env.example` lists every variable); what the
 * environment already has wins. `npm start`, `npm run dev` and `scripts/serve.mjs` call it before anything else.
 */
/** @param {string} [file] */
export function loadDotEnv(file = path.join(ROOT, '.env')) {
  if (existsSync(file)) process.loadEnvFile(file);
}

/**
 * Refuses an allow-list that would hand sessions to hosts anyone can create (a `*.` entry on a public suffix), with
 * the Spanish message naming each entry; the rule is the shared one the API also applies at start
 * (`shared/src/redirect/allow-list-entries.ts`, compiled with the API into `api/dist/redirect-allow-list.js`).
 */
/** @param {string[]} entries */
export async function checkRedirectAllowList(entries) {
  const { API_DIST, buildApi } = await import('./build-api.mjs');
  await buildApi({ log: () => {} });
  const rule = pathToFileURL(path.join(API_DIST, 'redirect-allow-list.js')).href;
  const { allowListProblems } = await import(rule);
  const problems = allowListProblems(entries);
  if (problems.length > 0) {
    throw new Error(
      problems
        .map((/** @type {string} */ problem) => `Configuración inválida: REDIRECT_ALLOW_LIST ${problem}`)
        .join('\n'),
    );
  }
}

/** The API's environment under `npm start` and `npm run dev`: its port and origins follow the layout's parts. */
/** @param {Layout} layout @param {Env} [env] @returns {Env} */
export function apiEnvironment(layout, env = process.env) {
  return {
    ...env,
    PORT: String(layout.api.port),
    // A taken port is reported with the variable that moves it under npm start.
    PORT_VARIABLE: 'API_PORT',
    HOST: env.API_BIND_HOST || layout.bind,
    CORS_ORIGINS: env.CORS_ORIGINS || corsOrigins(layout).join(','),
    // Links in mails point at the portal the person uses.
    PORTAL_URL: env.PORTAL_URL || layout.host.url,
    // The Google and Apple callbacks are built on the API's public address.
    API_PUBLIC_URL: env.API_PUBLIC_URL || layout.api.url,
    // The same partner targets the browser checks: the sign-in with Google/Apple carries only these.
    REDIRECT_ALLOW_LIST: runtimeConfig(layout, env).redirectAllowList.join(','),
    // Request logs would bury the address to open; LOG_LEVEL=info brings them back.
    LOG_LEVEL: env.LOG_LEVEL || 'warn',
  };
}

/** The object served as /runtime-config.js next to the host (and each standalone remote). */
/** @param {Layout} layout @param {Env} [env] @returns {import('./types.js').RuntimeConfig} */
export function runtimeConfig(layout, env = process.env) {
  return {
    apiBaseUrl: layout.api.url,
    remotes: Object.fromEntries(layout.remotes.map((remote) => [remote.name, remote.manifestUrl])),
    redirectAllowList: list(env.REDIRECT_ALLOW_LIST) ?? DEFAULT_REDIRECT_ALLOW_LIST,
    // Public values only: the pricing table needs the publishable key and table id in the browser.
    billing: {
      publishableKey: env.STRIPE_PUBLISHABLE_KEY || '',
      pricingTableId: env.STRIPE_PRICING_TABLE_ID || '',
    },
    links: {
      campaignUrl: env.CAMPAIGN_URL || 'https://portal.example.com/campana',
      supportEmail: env.SUPPORT_EMAIL || 'soporte@portal.example.com',
    },
  };
}

/** Browser origins the API must accept: the host, every remote (standalone mode), and any extra ones configured. */
/** @param {Layout} layout @param {Env} [env] */
export function corsOrigins(layout, env = process.env) {
  const origins = new Set([layout.host.url, ...layout.remotes.map((remote) => remote.origin)]);
  for (const origin of [...origins]) origins.add(origin.replace('//127.0.0.1:', '//localhost:'));
  for (const extra of list(env.CORS_EXTRA_ORIGINS) ?? []) origins.add(extra);
  return [...origins].map((origin) => new URL(origin).origin);
}
