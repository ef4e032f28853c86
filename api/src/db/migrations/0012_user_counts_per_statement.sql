-- The user counters of 0009, kept per statement instead of per row. A row trigger adds 1 to the same counter row for
-- every user a statement writes, and within one transaction every one of those updates leaves a version of that row
-- that the next one must step over: a statement inserting a million users (the bench's seed, an import, a hand-written
-- INSERT … SELECT) took quadratic time and never ended. A statement trigger reads what the statement changed (its
-- transition tables) and writes each (status, role) pair's net change once: a handful of rows whatever the size.
-- A statement that changes no status and no role (a rename, a password, a sign-in) nets out to nothing and writes
-- nothing. Still in the writing transaction, still split over 16 rows by connection, still in key order.
DROP TRIGGER users_counted ON users;
DROP TRIGGER users_counted_change ON users;
DROP TRIGGER users_counted_truncate ON users;
DROP FUNCTION user_counts_track();
DROP FUNCTION user_counts_add(text, integer, integer);

CREATE FUNCTION user_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each branch names only the transition tables its trigger has (an INSERT has no old rows, a DELETE no new ones).
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM user_counts;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO user_counts AS c (status, role, shard, n)
      SELECT status, role, pg_backend_pid() % 16, count(*) FROM added_users
      GROUP BY status, role ORDER BY status, role
      ON CONFLICT (status, role, shard) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO user_counts AS c (status, role, shard, n)
      SELECT status, role, pg_backend_pid() % 16, -count(*) FROM removed_users
      GROUP BY status, role ORDER BY status, role
      ON CONFLICT (status, role, shard) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO user_counts AS c (status, role, shard, n)
      SELECT status, role, pg_backend_pid() % 16, sum(delta) FROM (
        SELECT status, role, -1 AS delta FROM removed_users
        UNION ALL
        SELECT status, role, 1 FROM added_users
      ) AS changed
      GROUP BY status, role HAVING sum(delta) <> 0 ORDER BY status, role
      ON CONFLICT (status, role, shard) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;

-- PostgreSQL allows transition tables only on a trigger of one event: one trigger an event, one function.
CREATE TRIGGER users_counted_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS added_users FOR EACH STATEMENT EXECUTE FUNCTION user_counts_apply();
CREATE TRIGGER users_counted_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS removed_users FOR EACH STATEMENT EXECUTE FUNCTION user_counts_apply();
CREATE TRIGGER users_counted_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS removed_users NEW TABLE AS added_users FOR EACH STATEMENT EXECUTE FUNCTION user_counts_apply();
CREATE TRIGGER users_counted_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION user_counts_apply();
