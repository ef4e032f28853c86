-- Sessions (docs/decisions/0013-session-rows.md): every portal token belongs to one row here, created where the token
-- is issued. The row's id is the token's `jti` (and the `sid` of the partner tokens minted from it); ending the row
-- refuses them all at once, on every instance, because verification reads it on every request. Tokens issued before
-- this migration have no row and are refused: everyone signs in once more after the upgrade.
CREATE TABLE sessions (
  id text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  device text NOT NULL,
  browser text NOT NULL,
  os text NOT NULL,
  address text NOT NULL,
  -- The account's token_version when the session started: a password change or suspension bumps it, which ends
  -- every session's tokens, so lists show only the rows whose version is still the account's.
  token_version integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id, created_at);
