import { create } from 'zustand';
import { createBillingPortalSession, createCustomerSession, listBillingPrices } from '../api/billing';
import { errorMessage } from '../api/client';
import { registerInstance } from '../instances';
import { FALLBACK } from '../messages/es';
import { leaveTo } from '../navigation/leave';
import type { BillingPrice } from '../types/entities';

/** One piece of billing state: its value, whether it is being asked for, and the Spanish error of the last try. */
export interface BillingSlot<T> {
  value: T | null;
  loading: boolean;
  error: string | null;
}

/**
 * The billing state of spec §3, one store for every screen that bills (/planes, /pagos and the avatar menu's
 * 'Mi facturación'): the plans the provider sells, the portal session and the customer session's client secret, each
 * with its loading and error flags. The calls are made here only.
 */
export interface BillingState {
  plans: BillingSlot<BillingPrice[]>;
  portal: BillingSlot<string>;
  clientSecret: BillingSlot<string>;
  loadPlans(): Promise<void>;
  /** Creates a billing portal session and sends the browser to it; on failure the error is in `portal.error`. */
  openPortal(userId: number): Promise<void>;
  /** The customer session's client secret for the pricing table (null on failure, the error in `clientSecret`). */
  loadClientSecret(userId: number): Promise<string | null>;
  /** Forgets every error (a screen that opens again starts clean). */
  clearErrors(): void;
}

const idle = <T>(): BillingSlot<T> => ({ value: null, loading: false, error: null });
const INITIAL = { plans: idle<BillingPrice[]>(), portal: idle<string>(), clientSecret: idle<string>() };

export const useBilling = create<BillingState>()((set, get) => {
  /** Runs one call for one slot: loading while it runs, then its value or its Spanish error. */
  async function track<K extends 'plans' | 'portal' | 'clientSecret'>(
    key: K,
    call: () => Promise<NonNullable<BillingState[K]['value']>>,
    fallback: string,
  ): Promise<BillingState[K]['value']> {
    set({ [key]: { ...get()[key], loading: true, error: null } } as Partial<BillingState>);
    try {
      const value = await call();
      set({ [key]: { value, loading: false, error: null } } as Partial<BillingState>);
      return value;
    } catch (error) {
      set({ [key]: { ...get()[key], loading: false, error: errorMessage(error, fallback) } } as Partial<BillingState>);
      return null;
    }
  }

  return {
    ...INITIAL,
    async loadPlans() {
      await track('plans', listBillingPrices, FALLBACK.billingProducts);
    },
    async openPortal(userId) {
      if (get().portal.loading) return;
      const url = await track(
        'portal',
        async () => (await createBillingPortalSession(userId)).url,
        FALLBACK.billingPortal,
      );
      if (url) leaveTo(url);
    },
    loadClientSecret(userId) {
      return track(
        'clientSecret',
        async () => (await createCustomerSession(userId)).clientSecret,
        FALLBACK.billingCustomerSession,
      );
    },
    clearErrors() {
      const { plans, portal, clientSecret } = get();
      set({
        plans: { ...plans, error: null },
        portal: { ...portal, error: null },
        clientSecret: { ...clientSecret, error: null },
      });
    },
  };
});

/** Only for tests: the store as it starts. */
export function resetBillingForTests(): void {
  useBilling.setState(INITIAL);
}

registerInstance('billing-store');
