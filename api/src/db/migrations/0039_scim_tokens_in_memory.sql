-- Each instance keeps the directory tokens it has lately let in (domain/companies/scim/token-memory.ts) and forgets
-- them all on the session-state channel's '*': a token revoked, moved to another hash or company, or deleted, by
-- whatever code path or tool, notifies it. Its last use (written at most once a minute) and a new token (never kept
-- before it is used) do not. A company suspended or deleted already notifies '*' (companies_session_notify, 0020).
CREATE OR REPLACE FUNCTION scim_token_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(portal_session_channel(), '*');
  RETURN NULL;
END
$$;

CREATE TRIGGER company_scim_tokens_session_notify AFTER UPDATE ON company_scim_tokens
  FOR EACH ROW
  WHEN ((OLD.revoked_at, OLD.token_hash, OLD.company_id) IS DISTINCT FROM (NEW.revoked_at, NEW.token_hash, NEW.company_id))
  EXECUTE FUNCTION scim_token_notify();
CREATE TRIGGER company_scim_tokens_delete_session_notify AFTER DELETE ON company_scim_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION scim_token_notify();
