/**
 * The redirect allow-list the portal ships with (spec §5): the product's own domain and its test/community subdomains,
 * the web addresses of the product's own apps as seeded in the catalogue, and the mobile apps' deep links. `npm start`
 * and `scripts/serve.mjs` serve it to the browser and hand it to the API when REDIRECT_ALLOW_LIST is unset. No
 * dev-tunnel wildcard: anyone can create a host under devtunnels.ms; a tunnel of one's own is added by configuration
 * as an exact host.
 */
import { APP_DEEP_LINK_SCHEMES } from '../apps/links.ts';

/**
 * The domain vouched for when REDIRECT_WILDCARD_DOMAINS is unset: the product's placeholder domain, so the default
 * list's `https://*.portal.example.com` passes the start-up check (example.com is reserved, RFC 2606). A real
 * deployment names its own domain, or serves the portal from it (PORTAL_URL), for its own wildcards.
 */
export const DEFAULT_REDIRECT_WILDCARD_DOMAINS: readonly string[] = ['portal.example.com'];

/**
 * The web apps of the product (spec §1: the control app, the AI assistant, the transmitter software) and their
 * addresses: the catalogue is seeded with them (api/src/db/seed-data.ts), and the default allow-list names them, so
 * opening one from the portal carries the signed-in person (a partner token, docs/decisions/0007-partner-tokens.md)
 * out of the box. Exact hosts, not a wildcard over example.com (docs/decisions/0052-default-allow-list-product-apps.md).
 */
export const PRODUCT_APP_ORIGIN = {
  controlMax360: 'https://controlmax360.example.com',
  betoPro: 'https://betopro.example.com',
  tx30: 'https://tx30.example.com',
} as const;

export const PRODUCT_APP_ORIGINS: readonly string[] = Object.values(PRODUCT_APP_ORIGIN);

/** The deep-link paths every mobile app receives a session on. */
const DEEP_LINK_PATHS = ['auth', 'auth/success', 'auth/welcome', 'auth/login'];

export const DEFAULT_REDIRECT_ALLOW_LIST: readonly string[] = [
  'https://portal.example.com',
  'https://*.portal.example.com',
  ...PRODUCT_APP_ORIGINS,
  ...APP_DEEP_LINK_SCHEMES.flatMap((scheme) => DEEP_LINK_PATHS.map((path) => `${scheme}://${path}`)),
];
