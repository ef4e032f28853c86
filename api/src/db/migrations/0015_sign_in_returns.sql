-- The return of a Google/Apple sign-in to the portal: a one-time code instead of a session token in the address. The
-- browser tab that started the sign-in sent SHA-256 of a secret it keeps (`binding`); the code, stored as its SHA-256,
-- is redeemed once, within 60 s, only with that secret (routes/auth/oauth/returns.ts). In the database, so any API
-- instance may redeem what another made.
CREATE TABLE sign_in_returns (
  id text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  binding text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sign_in_returns_expires_at_idx ON sign_in_returns (expires_at);
