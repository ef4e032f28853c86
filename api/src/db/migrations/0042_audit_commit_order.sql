-- A company's activity log read by a collector page after page without a gap (docs/decisions/0127-activity-log-as-ecs.md):
-- each entry keeps the transaction that wrote it. Entries are read in the order of that transaction id, and only those
-- of transactions older than every transaction still running: an entry that commits later can never land before a
-- cursor already handed out. The entries already written all get this migration's transaction: one group, in id order.
ALTER TABLE audit_log ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX audit_log_company_commit_order_idx ON audit_log (company_id, xid, id) WHERE company_id IS NOT NULL;
