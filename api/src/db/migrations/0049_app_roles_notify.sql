-- The `roles` claim is kept with the account in each instance's session memory, as the plan claim is
-- (identity-provider/account-lookup.ts): a role given to or taken from a person notifies that person, and a change to
-- an app's roles (a default role added, or a role's key renamed) every instance's memory whole. Seats, memberships,
-- companies, licences and second factors, which decide whether a company's role counts, notify already (0020, 0021).
CREATE OR REPLACE FUNCTION portal_session_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  channel text := portal_session_channel();
BEGIN
  IF TG_TABLE_NAME IN ('plans', 'apps', 'revoked_tokens', 'companies', 'company_licences', 'app_roles') THEN
    PERFORM pg_notify(channel, '*');
  ELSIF TG_TABLE_NAME = 'users' THEN
    IF TG_OP <> 'INSERT' THEN PERFORM pg_notify(channel, OLD.id::text); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM pg_notify(channel, NEW.id::text); END IF;
  ELSE
    IF TG_OP <> 'INSERT' THEN PERFORM pg_notify(channel, OLD.user_id::text); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM pg_notify(channel, NEW.user_id::text); END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER user_app_roles_session_notify AFTER INSERT OR UPDATE OR DELETE ON user_app_roles
  FOR EACH ROW EXECUTE FUNCTION portal_session_notify();
CREATE TRIGGER app_roles_session_notify AFTER INSERT OR UPDATE OR DELETE ON app_roles
  FOR EACH STATEMENT EXECUTE FUNCTION portal_session_notify();
