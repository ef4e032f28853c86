-- Trusted devices (docs/decisions/0143-trusted-devices.md): a browser where the person proved a second factor and
-- ticked 'No volver a pedir en este dispositivo durante 30 días'. The cookie holds a random id; only its SHA-256 is
-- kept. A device lives 30 days, and only while the account's token version is the one it was trusted under (a
-- password change or a suspension bumps it).
CREATE TABLE trusted_devices (
  id             serial PRIMARY KEY,
  user_id        integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash     text NOT NULL UNIQUE,
  token_version  integer NOT NULL,
  label          text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  last_used_at   timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL
);
CREATE INDEX trusted_devices_user_id_idx ON trusted_devices (user_id, created_at);

-- The session a trusted device let in without the second step: the sign-in rules (ADMIN_SECOND_FACTOR) accept it
-- while that device stays trusted; it never counts as a second factor proved (amr, acr, an app's step-up).
ALTER TABLE sessions ADD COLUMN trusted_device_id integer REFERENCES trusted_devices (id) ON DELETE SET NULL;

-- A company's rules: whether its members may trust a device (true by default), and whether the second factor its
-- own provider says it proved counts as the portal's (docs/decisions/0144-company-provider-second-factor.md).
ALTER TABLE companies ADD COLUMN allow_trusted_devices boolean NOT NULL DEFAULT true;
ALTER TABLE companies ADD COLUMN trust_provider_second_factor boolean NOT NULL DEFAULT false;

-- A company sign-in's return carries whether the provider's second factor counts for the session it becomes.
ALTER TABLE sign_in_returns ADD COLUMN second_factor boolean NOT NULL DEFAULT false;
