-- The session-state channel belongs to the schema that notifies on it. NOTIFY reaches every connection of the
-- database, whatever its search_path: two portals sharing a database in two schemas (the PostgreSQL test suites give
-- each file a schema of its own) would each forget their memory on the other's changes. In `public`, the usual case,
-- the channel keeps its name; in another schema it takes a fixed-length suffix of that schema's name, within
-- PostgreSQL's 63-byte identifiers whatever the schema is called. The listener asks this same function
-- (domain/sessions/memory.ts), so the two cannot disagree.
CREATE OR REPLACE FUNCTION portal_session_channel() RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN current_schema() = 'public' THEN 'portal_session_state'
    ELSE 'portal_session_state_' || left(md5(current_schema()), 16) END
$$;

CREATE OR REPLACE FUNCTION portal_session_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  channel text := portal_session_channel();
BEGIN
  IF TG_TABLE_NAME IN ('plans', 'apps', 'revoked_tokens', 'companies', 'company_licences') THEN
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

CREATE OR REPLACE FUNCTION oidc_memory_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'oidc_clients' THEN
    PERFORM pg_notify(portal_session_channel(), '*');
  ELSIF OLD.account_id ~ '^[0-9]+$' THEN
    PERFORM pg_notify(portal_session_channel(), OLD.account_id);
  END IF;
  RETURN NULL;
END
$$;
