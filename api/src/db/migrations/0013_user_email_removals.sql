-- How many addresses have left the users table, kept by triggers in the writing statement: each user deleted, and each
-- user whose email changed, adds 1; a TRUNCATE adds a number larger than any table. The email search's sample
-- (api/src/domain/user-directory/email-search.ts) reads it with the sample and again when it relies on the sample: a fragment the sample
-- put in N addresses is still in at least N minus the removals since, whatever was written between. Split over 16 rows
-- by connection, as user_counts is (0009), so that concurrent deletions do not queue on one row; read by summing.
CREATE TABLE user_email_removals (
  shard smallint PRIMARY KEY,
  n bigint NOT NULL
);

CREATE FUNCTION user_email_removals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  removed bigint;
BEGIN
  -- Each branch names only the transition tables its trigger has.
  IF TG_OP = 'TRUNCATE' THEN
    removed := 1000000000000000;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT count(*) INTO removed FROM removed_users;
  ELSE
    SELECT count(*) INTO removed
      FROM removed_users AS before JOIN added_users AS after ON after.id = before.id
      WHERE after.email IS DISTINCT FROM before.email;
  END IF;
  IF removed > 0 THEN
    INSERT INTO user_email_removals AS r (shard, n) VALUES (pg_backend_pid() % 16, removed)
      ON CONFLICT (shard) DO UPDATE SET n = r.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER users_email_removed_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS removed_users FOR EACH STATEMENT EXECUTE FUNCTION user_email_removals_apply();
CREATE TRIGGER users_email_removed_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS removed_users NEW TABLE AS added_users FOR EACH STATEMENT EXECUTE FUNCTION user_email_removals_apply();
CREATE TRIGGER users_email_removed_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION user_email_removals_apply();
