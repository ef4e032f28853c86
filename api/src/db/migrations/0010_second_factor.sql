-- Passkeys, the TOTP second factor with its recovery codes, and the short-lived state of the sign-in ceremonies
-- (docs/decisions/0017-second-factor.md, 0018-passkeys.md). A session now records whether it proved a second factor: in
-- the default ADMIN_SECOND_FACTOR=required, only such a session may administer.
ALTER TABLE sessions ADD COLUMN second_factor boolean NOT NULL DEFAULT false;

-- One row per WebAuthn credential. `id` is the credential id (base64url) the authenticator chose; the public key is
-- COSE (base64url), as @simplewebauthn/server answers it. The counter and the backup flags are kept and checked at every use.
CREATE TABLE passkeys (
  id text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports text[] NOT NULL DEFAULT '{}',
  device_type text NOT NULL,
  backed_up boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX passkeys_user_id_idx ON passkeys (user_id, created_at);

-- The TOTP authenticator of an account (one at most). Unconfirmed until a first code proves the app holds the
-- secret; `last_step` is the newest 30-second step accepted, so a code is never accepted twice.
CREATE TABLE totp_factors (
  user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret text NOT NULL,
  confirmed_at timestamptz,
  last_step bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Ten single-use codes per account, shown once and stored as SHA-256 (they are 50 random bits each, so a fast hash
-- is enough and a lookup stays exact). Generating a new set deletes the old one.
CREATE TABLE recovery_codes (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  UNIQUE (user_id, code_hash)
);

-- The second step of a password sign-in: a correct password for an account with a second factor answers a ticket
-- instead of a token. Stored as SHA-256 of the random ticket, single-use, 5 minutes, with its own tries.
CREATE TABLE sign_in_tickets (
  id text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  failures integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sign_in_tickets_expires_at_idx ON sign_in_tickets (expires_at);

-- WebAuthn ceremonies in flight: the challenge the options carried, single-use, 5 minutes. A registration is bound
-- to the session that asked (session_id); a sign-in to the random ceremony id handed to the browser that asked (the
-- row's id, stored as SHA-256) and, for a second step, to its ticket's user.
CREATE TABLE webauthn_challenges (
  id text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('register', 'sign_in')),
  challenge text NOT NULL,
  user_id integer REFERENCES users (id) ON DELETE CASCADE,
  session_id text REFERENCES sessions (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
CREATE INDEX webauthn_challenges_expires_at_idx ON webauthn_challenges (expires_at);
