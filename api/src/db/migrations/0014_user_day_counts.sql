-- How many users have each status per day of sign-up (created_at's day in UTC), kept by statement triggers in the
-- writing transaction as user_counts is (0012: net changes read from the transition tables, written once per pair,
-- split over 16 rows by connection, in key order). The user list finds the row a page number starts at from running
-- sums of these: the day that holds it, then the rest counted on the index within that day, instead of stepping over
-- every index entry before it (half a million for a page in the middle of a million users).
CREATE TABLE user_day_counts (
  status text NOT NULL,
  day date NOT NULL,
  shard smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (status, day, shard)
);

INSERT INTO user_day_counts (status, day, shard, n)
  SELECT status, (created_at AT TIME ZONE 'UTC')::date, 0, count(*) FROM users GROUP BY 1, 2;

CREATE FUNCTION user_day_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each branch names only the transition tables its trigger has.
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM user_day_counts;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO user_day_counts AS c (status, day, shard, n)
      SELECT status, (created_at AT TIME ZONE 'UTC')::date, pg_backend_pid() % 16, count(*) FROM added_users
      GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (status, day, shard) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO user_day_counts AS c (status, day, shard, n)
      SELECT status, (created_at AT TIME ZONE 'UTC')::date, pg_backend_pid() % 16, -count(*) FROM removed_users
      GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (status, day, shard) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO user_day_counts AS c (status, day, shard, n)
      SELECT status, day, pg_backend_pid() % 16, sum(delta) FROM (
        SELECT status, (created_at AT TIME ZONE 'UTC')::date AS day, -1 AS delta FROM removed_users
        UNION ALL
        SELECT status, (created_at AT TIME ZONE 'UTC')::date, 1 FROM added_users
      ) AS changed
      GROUP BY status, day HAVING sum(delta) <> 0 ORDER BY status, day
      ON CONFLICT (status, day, shard) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER users_day_counted_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS added_users FOR EACH STATEMENT EXECUTE FUNCTION user_day_counts_apply();
CREATE TRIGGER users_day_counted_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS removed_users FOR EACH STATEMENT EXECUTE FUNCTION user_day_counts_apply();
CREATE TRIGGER users_day_counted_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS removed_users NEW TABLE AS added_users FOR EACH STATEMENT EXECUTE FUNCTION user_day_counts_apply();
CREATE TRIGGER users_day_counted_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION user_day_counts_apply();
