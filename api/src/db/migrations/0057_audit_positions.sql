-- A company's activity log read in the order its entries took their place in it, after they committed
-- (docs/decisions/0162-audit-positions-after-commit.md). Reading below the database-wide oldest running transaction
-- (migration 0042) let any transaction left open, the portal's or not, hold every company's stream back. An entry now
-- waits in `audit_unpositioned` until a sequencer (domain/audit/positions.ts), one at a time under an advisory lock,
-- gives the committed ones their places in `audit_positions`: a place is handed out only after its entry committed,
-- and every place of a later round is larger, so a reader that saw a place has seen every smaller one.

-- Nothing writes in the log while its entries are placed and its old order dropped.
LOCK TABLE audit_log IN ACCESS EXCLUSIVE MODE;

CREATE TABLE audit_positions (
  entry_id    bigint PRIMARY KEY REFERENCES audit_log (id) ON DELETE CASCADE,
  company_id  integer NOT NULL,
  position    bigint NOT NULL
);
CREATE UNIQUE INDEX audit_positions_company_idx ON audit_positions (company_id, position);

CREATE TABLE audit_unpositioned (
  entry_id    bigint PRIMARY KEY REFERENCES audit_log (id) ON DELETE CASCADE,
  company_id  integer NOT NULL
);

CREATE SEQUENCE audit_position_seq AS bigint;

-- The entries written so far keep the order they were read in (a cursor handed out before names its last entry).
INSERT INTO audit_positions (entry_id, company_id, position)
SELECT id, company_id, row_number() OVER (ORDER BY xid, id) FROM audit_log WHERE company_id IS NOT NULL;
SELECT setval('audit_position_seq', coalesce((SELECT max(position) FROM audit_positions), 0) + 1, false);

ALTER TABLE audit_log DROP COLUMN xid;

-- The channel the sequencer is woken on and announces the companies with new places on: in another schema than
-- `public`, a name of that schema's own (as `portal_session_channel()`, migration 0029).
CREATE FUNCTION portal_audit_channel() RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN current_schema() = 'public' THEN 'portal_audit_log'
    ELSE 'portal_audit_log_' || left(md5(current_schema()), 16) END
$$;

-- A company's new entries wait for their place, and wake the sequencer when they commit (an empty payload).
CREATE FUNCTION audit_log_queue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_unpositioned (entry_id, company_id)
  SELECT id, company_id FROM added_entries WHERE company_id IS NOT NULL;
  IF FOUND THEN PERFORM pg_notify(portal_audit_channel(), ''); END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER audit_log_queued AFTER INSERT ON audit_log
  REFERENCING NEW TABLE AS added_entries FOR EACH STATEMENT EXECUTE FUNCTION audit_log_queue();
