-- Registration takeover (docs/decisions/0006-registration-ids.md): every registration of an email still waiting for
-- its code is a credential of its own. The account row of a pending email carries no usable password; the code
-- activates the registration whose opaque id the verifying browser presents (and only that one), or, without a
-- matching id, no password at all.
CREATE TABLE pending_registrations (
  -- Random, unguessable (24 bytes, base64url); worthless without the code mailed to the address.
  id             text PRIMARY KEY CHECK (length(id) BETWEEN 16 AND 64),
  user_id        integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  password_hash  text NOT NULL,
  name           text NOT NULL,
  last_name      text NOT NULL,
  phone          text NOT NULL,
  created_at     timestamptz NOT NULL,
  expires_at     timestamptz NOT NULL
);
CREATE INDEX pending_registrations_user_id_idx ON pending_registrations (user_id, created_at DESC);
CREATE INDEX pending_registrations_expires_at_idx ON pending_registrations (expires_at);

-- Pending accounts registered before this migration keep their password as a registration of their own (signing in
-- with it hands its id to the verification page), and their account row loses it.
INSERT INTO pending_registrations (id, user_id, password_hash, name, last_name, phone, created_at, expires_at)
  SELECT replace(gen_random_uuid()::text, '-', ''), id, password_hash, name, last_name, phone, now(), now() + interval '1 day'
  FROM users WHERE status = 'pending_verification' AND password_hash IS NOT NULL;
UPDATE users SET password_hash = NULL WHERE status = 'pending_verification';
