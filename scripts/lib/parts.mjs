// What the product is made of, where each part listens, and the runtime config the browser reads.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Each remote's folder, keyed like the runtime config's `remotes`. A remote exists once its folder has a webpack config. */
export const REMOTES = {
  auth: { dir: 'remote-auth', port: 3001 },
  apps: { dir: 'remote-apps', port: 3002 },
  admin: { dir: 'remote-admin', port: 3003 },
  calculator: { dir: 'remote-calculator', port: 3004 },
};

export const DEFAULT_API_PORT = 3000;
export const DEFAULT_HOST_PORT = 8080;

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

export function presentRemotes() {
  return Object.entries(REMOTES)
    .filter(([, remote]) => existsSync(path.join(ROOT, remote.dir, 'webpack.config.js')))
    .map(([name, remote]) => ({ name, ...remote, absDir: path.join(ROOT, remote.dir) }));
}

function portFrom(env, name, fallback) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${name} debe ser un puerto entre 1 y 65535 (recibido: "${raw}")`);
  }
  return port;
}

const envName = (remote) => `REMOTE_${remote.toUpperCase()}`;

/** Ports and public URLs of every part, from the environment (README lists the variables). */
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

function list(raw) {
  return raw
    ? raw
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : undefined;
}

/**
 * Refuses an allow-list that would hand sessions to hosts anyone can create (a `*.` entry on a public suffix), with
 * the Spanish message naming each entry; the rule is the shared one the API also applies at start
 * (`shared/src/redirect/allow-list-entries.ts`, loaded through tsx like the API's own sources).
 */
export async function checkRedirectAllowList(entries) {
  const { tsImport } = await import('tsx/esm/api');
  const { allowListProblems } = await tsImport('../../shared/src/redirect/allow-list-entries.ts', import.meta.url);
  const problems = allowListProblems(entries);
  if (problems.length > 0) {
    throw new Error(problems.map((problem) => `Configuración inválida: REDIRECT_ALLOW_LIST ${problem}`).join('\n'));
  }
}

/** The object served as /runtime-config.js next to the host (and each standalone remote). */
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
export function corsOrigins(layout, env = process.env) {
  const origins = new Set([layout.host.url, ...layout.remotes.map((remote) => remote.origin)]);
  for (const origin of [...origins]) origins.add(origin.replace('//127.0.0.1:', '//localhost:'));
  for (const extra of list(env.CORS_EXTRA_ORIGINS) ?? []) origins.add(extra);
  return [...origins].map((origin) => new URL(origin).origin);
}
