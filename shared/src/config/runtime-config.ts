/**
 * The runtime configuration: written next to the host (and each standalone remote) as `runtime-config.js`,
 * which sets `window.__PORTAL_CONFIG__` before any bundle runs, so remotes and the API can move without a rebuild.
 */
import type { RemoteName } from '@portal/contracts/manifest';

export type { RemoteName };

export interface RuntimeConfig {
  /** Base URL of the API, without a trailing slash. */
  apiBaseUrl: string;
  /** URL of each remote's `mf-manifest.json`. */
  remotes: Partial<Record<RemoteName, string>>;
  /** Allowed redirect targets (see redirect/allow-list.ts for the pattern syntax). */
  redirectAllowList: string[];
  links: {
    /** External campaign page opened by the promo banner. */
    campaignUrl: string;
    /**
     * Support address (SUPPORT_EMAIL) shown on the personal-data deletion, not-found, plans and upgrade pages; empty
     * when the deployment has none, and each page then says who else can help.
     */
    supportEmail: string;
  };
  /** Stripe's pricing table on /planes; both empty when billing is not configured. */
  billing: {
    publishableKey: string;
    pricingTableId: string;
  };
  /**
   * What each prerendered page asks for once it is painted (the host's static server adds it; absent elsewhere): the
   * scripts it will run, the shell's and its remote's, and the remote's manifest. host/src/start/load-shell.ts.
   */
  preload?: Record<string, { scripts: string[]; manifest?: string }>;
}

declare global {
  interface Window {
    __PORTAL_CONFIG__?: Partial<RuntimeConfig>;
  }
}

export const DEFAULT_CONFIG: RuntimeConfig = {
  apiBaseUrl: 'http://127.0.0.1:3000',
  remotes: {},
  redirectAllowList: [],
  links: { campaignUrl: 'https://www.example.com', supportEmail: '' },
  billing: { publishableKey: '', pricingTableId: '' },
};

export function getRuntimeConfig(): RuntimeConfig {
  const injected = typeof window === 'undefined' ? undefined : window.__PORTAL_CONFIG__;
  return {
    ...DEFAULT_CONFIG,
    ...injected,
    apiBaseUrl: (injected?.apiBaseUrl ?? DEFAULT_CONFIG.apiBaseUrl).replace(/\/+$/, ''),
    links: { ...DEFAULT_CONFIG.links, ...injected?.links },
    billing: { ...DEFAULT_CONFIG.billing, ...injected?.billing },
  };
}

/**
 * Whether this deployment takes payments: its runtime config carries Stripe's publishable key (npm start passes it
 * with the API's secret key). Without it the billing entries ('Mi facturación') are not offered: they would only
 * lead to 'La facturación no está disponible'.
 */
export function billingEnabled(): boolean {
  return Boolean(getRuntimeConfig().billing.publishableKey);
}
