-- Sign-in with Google and Apple: the provider's account linked to ours. The subject is what identifies a person at the
-- provider for good; the email they had there is kept for reference only, so a later email change at the provider still
-- finds the same account here.
CREATE TABLE user_identities (
  provider    text NOT NULL CHECK (provider IN ('google', 'apple')),
  subject     text NOT NULL CHECK (length(subject) BETWEEN 1 AND 255),
  user_id     integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  email       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, subject)
);
CREATE INDEX user_identities_user_id_idx ON user_identities (user_id);
