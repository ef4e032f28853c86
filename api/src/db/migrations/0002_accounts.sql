-- Accounts: one-time codes mailed to the user, and the outbox every mail goes through.

-- One row per account and purpose: issuing a new code replaces the previous one, so only one is ever live.
CREATE TABLE account_codes (
  user_id     integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose     text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
  -- HMAC-SHA256 of the code under a server-side key: a copy of the table does not give the codes away.
  code_hash   text NOT NULL,
  expires_at  timestamptz NOT NULL,
  attempts    integer NOT NULL DEFAULT 0,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL,
  PRIMARY KEY (user_id, purpose)
);

-- Mails are written here in the same transaction as the change that causes them and delivered by a loop that
-- retries with back-off, so an SMTP outage delays mail but neither loses it nor fails the request.
CREATE TABLE mail_outbox (
  id               serial PRIMARY KEY,
  recipient        text NOT NULL,
  subject          text NOT NULL,
  text_body        text NOT NULL,
  html_body        text NOT NULL,
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL,
  -- A delivery in progress holds the row until then, so two instances never send the same mail.
  locked_until     timestamptz,
  last_error       text,
  sent_at          timestamptz,
  created_at       timestamptz NOT NULL
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL;
