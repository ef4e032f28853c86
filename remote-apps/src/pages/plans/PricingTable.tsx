import { createElement, useEffect } from 'react';
import { Spinner, TEXT, useBilling } from '@portal/shared';

/** Stripe's script that defines the <stripe-pricing-table> element. */
export const PRICING_TABLE_SCRIPT = 'https://js.stripe.com/v3/pricing-table.js';

function loadPricingTableScript(): void {
  if (document.querySelector(`script[src="${PRICING_TABLE_SCRIPT}"]`)) return;
  const script = document.createElement('script');
  script.src = PRICING_TABLE_SCRIPT;
  script.async = true;
  document.head.appendChild(script);
}

/**
 * Spec §2: the payment provider's pricing table, with the user id as client reference and a customer-session
 * secret from POST /facturacion/customer-session, so a purchase lands on the right account.
 */
export function PricingTable({
  userId,
  publishableKey,
  pricingTableId,
  onError,
}: {
  userId: number;
  publishableKey: string;
  pricingTableId: string;
  onError: (message: string) => void;
}) {
  const clientSecret = useBilling((s) => s.clientSecret.value);
  const loadClientSecret = useBilling((s) => s.loadClientSecret);

  useEffect(() => {
    let current = true;
    loadClientSecret(userId).then((secret) => {
      if (!current) return;
      if (secret) loadPricingTableScript();
      else onError(useBilling.getState().clientSecret.error ?? '');
    });
    return () => {
      current = false;
    };
  }, [userId, onError, loadClientSecret]);

  if (!clientSecret) return <Spinner label={TEXT.loading} />;
  return createElement('stripe-pricing-table', {
    'pricing-table-id': pricingTableId,
    'publishable-key': publishableKey,
    'client-reference-id': String(userId),
    'customer-session-client-secret': clientSecret,
  });
}
