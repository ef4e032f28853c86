-- The request that queued a mail or wrote an audit entry (its X-Request-Id, docs/decisions/0054-request-ids.md): the
-- mail's log lines and the audit row name it, so an operator follows one request into both. NULL for the operator's
-- command, background work and rows written before.
ALTER TABLE mail_outbox ADD COLUMN request_id text;
ALTER TABLE audit_log ADD COLUMN request_id text;
