// What the product is made of, where each part listens, and the runtime config the browser reads.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_DEFAULT_PORT, HOST, REMOTES as MANIFEST_REMOTES } from '@portal/contracts/manifest';
import { isLoopbackHost } from '@portal/contracts/passkeys/relying-party';
import { allowListProblems, wildcardDomainProblems } from '@portal/contracts/redirect/allow-list-entries';
import { DEFAULT_REDIRECT_ALLOW_LIST, DEFAULT_REDIRECT_WILDCARD_DOMAINS } from '@portal/contracts/redirect/defaults';

/** @typedef {import('./types.js').Env} Env @typedef {import('./types.js').Layout} Layout */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Each remote's folder and default port (the portal's manifest), keyed like the runtime config's `remotes`. */
export const REMOTES = Object.fromEntries(
  Object.entries(MANIFEST_REMOTES).map(([name, remote]) => [name, { dir: remote.folder, port: remote.port }]),
);

export const DEFAULT_API_PORT = API_DEFAULT_PORT;
export const DEFAULT_HOST_PORT = HOST.port;

// The default redirect allow-list and its vouched-for domains are a product rule (spec §5) the browser and the API obey
// too: @portal/contracts owns them. Re-exported for the tests that start the product (e2e/support/env.ts).
export { DEFAULT_REDIRECT_ALLOW_LIST, DEFAULT_REDIRECT_WILDCARD_DOMAINS };

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

/**
 * The host name the parts are printed and configured at when they listen on `bind`: 'localhost' on this machine
 * (a loopback address, or every address), because browsers refuse an IP address for passkeys; any other address as
 * it is (an IPv6 one in brackets). A browser reaches 'localhost' on 127.0.0.1 as on ::1 (it tries both).
 */
/** @param {string} bind */
export function publicHostName(bind) {
  if (isLoopbackHost(bind) || bind === '0.0.0.0' || bind === '::' || bind === '[::]') return 'localhost';
  return bind.includes(':') && !bind.startsWith('[') ? `[${bind}]` : bind;
}

/** Ports and public URLs of every part, from the environment (README lists the variables). */
/** @returns {Layout} */
export function readLayout(env = process.env) {
  const bind = env.BIND_HOST || '127.0.0.1';
  const at = (/** @type {number} */ port) => `http://${publicHostName(bind)}:${port}`;
  const apiPort = portFrom(env, 'API_PORT', DEFAULT_API_PORT);
  const hostPort = portFrom(env, 'HOST_PORT', DEFAULT_HOST_PORT);
  const remotes = presentRemotes().map((remote) => {
    const port = portFrom(env, `${envName(remote.name)}_PORT`, remote.port);
    const origin = at(port);
    return { ...remote, port, origin, manifestUrl: env[`${envName(remote.name)}_URL`] || `${origin}/mf-manifest.json` };
  });
  return {
    bind,
    api: { port: apiPort, url: (env.PUBLIC_API_URL || at(apiPort)).replace(/\/+$/, '') },
    host: { port: hostPort, url: env.PUBLIC_PORTAL_URL || at(hostPort) },
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

/** REDIRECT_WILDCARD_DOMAINS as npm start passes it to the API (set but empty: none). */
/** @param {Env} env @returns {string[]} */
export function redirectWildcardDomains(env = process.env) {
  const raw = env.REDIRECT_WILDCARD_DOMAINS;
  return raw === undefined ? [...DEFAULT_REDIRECT_WILDCARD_DOMAINS] : (list(raw.toLowerCase()) ?? []);
}

/** The portal's and the API's public addresses as the API receives them (PORTAL_URL, API_PUBLIC_URL). */
/** @param {Layout} layout @param {Env} env @returns {[string, string]} */
function ownUrls(layout, env) {
  return [env.PORTAL_URL || layout.host.url, env.API_PUBLIC_URL || layout.api.url];
}

/**
 * Refuses an allow-list that would hand sessions to hosts anyone can create (a trailing dot, a `*.` entry outside the
 * portal's own hosts and REDIRECT_WILDCARD_DOMAINS, a public suffix), with the Spanish message naming each entry;
 * the rule is the one the API also applies at start (@portal/contracts, redirect/allow-list-entries), given the same
 * addresses and domains. Node loads it from its TypeScript source (type stripping): nothing is built first.
 */
/** @param {readonly string[]} entries @param {Env} [env] */
export async function checkRedirectAllowList(entries, env = process.env) {
  const wildcardDomains = redirectWildcardDomains(env);
  const context = { ownUrls: ownUrls(readLayout(env), env), wildcardDomains };
  const problems = [
    ...wildcardDomainProblems(wildcardDomains).map(
      (problem) => `Configuración inválida: REDIRECT_WILDCARD_DOMAINS ${problem}`,
    ),
    ...allowListProblems(entries, context).map((problem) => `Configuración inválida: REDIRECT_ALLOW_LIST ${problem}`),
  ];
  if (problems.length > 0) throw new Error(problems.join('\n'));
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
    PORTAL_URL: ownUrls(layout, env)[0],
    // The Google and Apple callbacks are built on the API's public address.
    API_PUBLIC_URL: ownUrls(layout, env)[1],
    // The same partner targets the browser checks: the sign-in with Google/Apple carries only these.
    REDIRECT_ALLOW_LIST: runtimeConfig(layout, env).redirectAllowList.join(','),
    // ...and the same domains vouched for, so the API's start-up check agrees with npm start's.
    REDIRECT_WILDCARD_DOMAINS: redirectWildcardDomains(env).join(','),
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
    redirectAllowList: list(env.REDIRECT_ALLOW_LIST) ?? [...DEFAULT_REDIRECT_ALLOW_LIST],
    // Public values only: the pricing table needs the publishable key and table id in the browser.
    billing: {
      publishableKey: env.STRIPE_PUBLISHABLE_KEY || '',
      pricingTableId: env.STRIPE_PRICING_TABLE_ID || '',
    },
    links: {
      campaignUrl: env.CAMPAIGN_URL || 'https://portal.example.com/campana',
      // Empty when unset: the pages then say who else can help, never an address that reaches nobody.
      supportEmail: env.SUPPORT_EMAIL || '',
    },
  };
}

/**
 * Browser origins the API must accept: the host, every remote (standalone mode), and any extra ones configured. A part
 * at localhost is accepted at 127.0.0.1 too (and the other way round): a page opened there works, passkeys aside.
 */
/** @param {Layout} layout @param {Env} [env] */
export function corsOrigins(layout, env = process.env) {
  const origins = new Set([layout.host.url, ...layout.remotes.map((remote) => remote.origin)]);
  for (const origin of [...origins]) {
    origins.add(origin.replace('//127.0.0.1:', '//localhost:'));
    origins.add(origin.replace('//localhost:', '//127.0.0.1:'));
  }
  for (const extra of list(env.CORS_EXTRA_ORIGINS) ?? []) origins.add(extra);
  return [...origins].map((origin) => new URL(origin).origin);
}
