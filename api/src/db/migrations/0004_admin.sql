-- Admin panel: a fast email filter over a million users, the audit log, and when a plan was assigned.

-- In the public schema and referenced qualified, so that a database whose search_path is another schema (the tests'
-- throw-away schemas) finds the operator class, and dropping such a schema never drops the extension.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

-- `GET /user/listar?email=` is a case-insensitive substring match; emails are stored lower-case, so a trigram index on
-- the column serves `email LIKE '%…%'` without a sequential scan.
CREATE INDEX users_email_trgm_idx ON users USING gin (email public.gin_trgm_ops);
-- The list is newest first; the id breaks ties between users created in the same instant.
CREATE INDEX users_created_at_idx ON users (created_at DESC, id DESC);
CREATE INDEX users_status_created_at_idx ON users (status, created_at DESC, id DESC);

-- When the current plan of a user in an app was assigned: the dashboard's new and active subscriptions.
ALTER TABLE user_plans ADD COLUMN started_at timestamptz NOT NULL DEFAULT now();
CREATE INDEX user_plans_started_at_idx ON user_plans (started_at);

-- Every admin action: who (actor, with the email kept if that account is deleted later), what, to whom, when, details.
CREATE TABLE audit_log (
  id           bigserial PRIMARY KEY,
  actor_id     integer REFERENCES users (id) ON DELETE SET NULL,
  actor_email  text NOT NULL,
  action       text NOT NULL,
  target_type  text NOT NULL CHECK (target_type IN ('user', 'app')),
  target_id    integer NOT NULL,
  details      jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(details) = 'object'),
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_created_at_idx ON audit_log (created_at DESC, id DESC);
CREATE INDEX audit_log_target_idx ON audit_log (target_type, target_id);
