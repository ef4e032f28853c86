-- Billing: each portal user's customer at the payment provider (Stripe), created on first use.

CREATE TABLE billing_customers (
  user_id             integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  stripe_customer_id  text NOT NULL UNIQUE,
  created_at          timestamptz NOT NULL DEFAULT now()
);
