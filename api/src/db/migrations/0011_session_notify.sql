-- Each API instance keeps the session state of GET /auth/user and of every route's authorization in memory
-- (api/src/domain/sessions/state-cache.ts; docs/decisions/0014-session-state-in-memory.md). These triggers are the one
-- owner of its invalidation: any change to what that state is read from, whatever code path or tool makes it (logout,
-- password change or reset, suspension, admin edit, plan change, the CLI, a hand-written UPDATE), notifies every
-- instance on channel 'portal_session_state'. The payload is the user id, or '*' when the change may concern every user
-- (a plan or app renamed). PostgreSQL delivers a notification only when its transaction commits, and folds identical
-- ones of one transaction together.
CREATE FUNCTION portal_session_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME IN ('plans', 'apps', 'revoked_tokens') THEN
    PERFORM pg_notify('portal_session_state', '*');
  ELSIF TG_TABLE_NAME = 'users' THEN
    IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('portal_session_state', OLD.id::text); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('portal_session_state', NEW.id::text); END IF;
  ELSE
    IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('portal_session_state', OLD.user_id::text); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('portal_session_state', NEW.user_id::text); END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER users_session_notify AFTER INSERT OR UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION portal_session_notify();
CREATE TRIGGER user_plans_session_notify AFTER INSERT OR UPDATE OR DELETE ON user_plans
  FOR EACH ROW EXECUTE FUNCTION portal_session_notify();
CREATE TRIGGER plans_session_notify AFTER INSERT OR UPDATE OR DELETE ON plans
  FOR EACH ROW EXECUTE FUNCTION portal_session_notify();
CREATE TRIGGER apps_session_notify AFTER INSERT OR UPDATE OR DELETE ON apps
  FOR EACH ROW EXECUTE FUNCTION portal_session_notify();
CREATE TRIGGER revoked_tokens_session_notify AFTER INSERT OR UPDATE OR DELETE ON revoked_tokens
  FOR EACH ROW EXECUTE FUNCTION portal_session_notify();
-- Sessions: a new row or an ended, re-factored or deleted one. `last_seen_at` alone (written at most once a minute
-- per session while it is used) changes nothing an instance keeps, so it notifies nobody.
CREATE TRIGGER sessions_session_notify AFTER INSERT OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION portal_session_notify();
CREATE TRIGGER sessions_update_session_notify AFTER UPDATE ON sessions
  FOR EACH ROW
  WHEN ((OLD.user_id, OLD.ended_at, OLD.second_factor, OLD.token_version, OLD.expires_at)
    IS DISTINCT FROM (NEW.user_id, NEW.ended_at, NEW.second_factor, NEW.token_version, NEW.expires_at))
  EXECUTE FUNCTION portal_session_notify();
