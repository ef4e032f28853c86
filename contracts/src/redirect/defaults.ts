/**
 * The redirect allow-list the portal ships with (spec §5): the product's own domain and its test/community subdomains,
 * and the mobile apps' deep links. `npm start` and `scripts/serve.mjs` serve it to the browser and hand it to the API
 * when REDIRECT_ALLOW_LIST is unset. No dev-tunnel wildcard: anyone can create a host under devtunnels.ms; a tunnel of
 * one's own is added by configuration as an exact host.
 */
import { APP_DEEP_LINK_SCHEMES } from '../apps/links.ts';

/**
 * The domain vouched for when REDIRECT_WILDCARD_DOMAINS is unset: the product's placeholder domain, so the default
 * list's `https://*.portal.example.com` passes the start-up check (example.com is reserved, RFC 2606). A real
 * deployment names its own domain, or serves the portal from it (PORTAL_URL), for its own wildcards.
 */
export const DEFAULT_REDIRECT_WILDCARD_DOMAINS: readonly string[] = ['portal.example.com'];

/** The deep-link paths every mobile app receives a session on. */
const DEEP_LINK_PATHS = ['auth', 'auth/success', 'auth/welcome', 'auth/login'];

export const DEFAULT_REDIRECT_ALLOW_LIST: readonly string[] = [
  'https://portal.example.com',
  'https://*.portal.example.com',
  ...APP_DEEP_LINK_SCHEMES.flatMap((scheme) => DEEP_LINK_PATHS.map((path) => `${scheme}://${path}`)),
];
