-- The admin's stat cards at a million users (docs/decisions/0019-user-counts-and-capped-totals.md): the database keeps
-- the count of users by status and role, in the same transaction as every insert, delete and change of status or role,
-- so `GET /user/stats` and the total of an unfiltered or status-only user list read a few dozen rows instead of
-- counting the table. Each (status, role) pair is split over 16 rows by the writing connection
-- (`pg_backend_pid() % 16`), so that sign-ups on different connections do not queue on one row; the figure is the sum.
CREATE TABLE user_counts (
  status text NOT NULL,
  role integer NOT NULL,
  shard smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (status, role, shard)
);

CREATE FUNCTION user_counts_add(s text, r integer, delta integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO user_counts AS c (status, role, shard, n) VALUES (s, r, pg_backend_pid() % 16, delta)
    ON CONFLICT (status, role, shard) DO UPDATE SET n = c.n + delta;
$$;

CREATE FUNCTION user_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM user_counts;
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM user_counts_add(NEW.status, NEW.role, 1);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM user_counts_add(OLD.status, OLD.role, -1);
  -- A change touches two rows, always in key order: two single changes never wait on each other in a cycle.
  ELSIF (OLD.status, OLD.role) < (NEW.status, NEW.role) THEN
    PERFORM user_counts_add(OLD.status, OLD.role, -1);
    PERFORM user_counts_add(NEW.status, NEW.role, 1);
  ELSE
    PERFORM user_counts_add(NEW.status, NEW.role, 1);
    PERFORM user_counts_add(OLD.status, OLD.role, -1);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER users_counted AFTER INSERT OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION user_counts_track();
CREATE TRIGGER users_counted_change AFTER UPDATE OF status, role ON users
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.role IS DISTINCT FROM NEW.role)
  EXECUTE FUNCTION user_counts_track();
CREATE TRIGGER users_counted_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION user_counts_track();

-- The users there already (the migration holds the startup lock: no instance writes users meanwhile).
INSERT INTO user_counts (status, role, shard, n)
  SELECT status, role, 0, count(*) FROM users GROUP BY status, role;
