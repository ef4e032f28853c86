-- The one door (docs/decisions/0115-one-continuation.md, 0116-device-sign-ins-are-sessions.md): the sessions that break
-- a company's rules are found in one place, here, whether the rules changed or a person joined the company; and a
-- device's sign-in is a portal session of its own, under the same rules.

-- A client address as the API records it, as an inet: an IPv4-mapped IPv6 address is its IPv4 one, and anything
-- unreadable is NULL (never an error inside a trigger).
CREATE FUNCTION portal_inet(p_address text) RETURNS inet
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  mapped text := substring(p_address FROM '^::[fF]{4}:(\d+\.\d+\.\d+\.\d+)$');
BEGIN
  RETURN coalesce(mapped, p_address)::inet;
EXCEPTION WHEN others THEN
  RETURN NULL;
END
$$;

-- Whether a client address (as the API records it) is inside one of a company's networks; no networks: any address.
CREATE FUNCTION portal_address_allowed(p_address text, p_networks text[]) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT cardinality(p_networks) = 0
    OR coalesce(portal_inet(p_address) <<= ANY (SELECT portal_inet(n) FROM unnest(p_networks) n), false)
$$;

-- Whether a session breaks a company's rules as they are now: an address outside its networks, a method it does not
-- allow (one never recorded counts as a password), older than its longest session, unused longer than it allows.
CREATE FUNCTION session_breaks_company_rules(s sessions, c companies) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT NOT portal_address_allowed(s.address, c.allowed_networks)
    OR NOT (coalesce(s.method, 'contrasena') = ANY (c.allowed_methods))
    OR (c.session_max_hours IS NOT NULL AND s.created_at <= now() - make_interval(hours => c.session_max_hours))
    OR (c.idle_minutes IS NOT NULL AND s.last_seen_at <= now() - make_interval(mins => c.idle_minutes))
$$;

-- Whether a portal session is live: not ended, not expired, of the account's current token version, the account
-- active, and within the rules of every active company where the person is an active member.
CREATE FUNCTION portal_session_live(p_session text) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.id = p_session AND s.ended_at IS NULL AND s.expires_at > now()
      AND s.token_version = u.token_version AND u.status = 'active'
      AND NOT EXISTS (
        SELECT 1 FROM company_members m JOIN companies c ON c.id = m.company_id
        WHERE m.user_id = s.user_id AND m.status = 'active' AND c.status = 'active'
          AND session_breaks_company_rules(s, c)))
$$;

-- Ends the open sessions of the company's active members (of one of them when p_user is given) that break its rules.
-- Each ended row notifies the session memory and ends the apps' sessions signed in with it (their own triggers).
CREATE FUNCTION end_sessions_breaking_company_rules(p_company integer, p_user integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  ended integer;
BEGIN
  UPDATE sessions s SET ended_at = now()
  FROM companies c, company_members m
  WHERE c.id = p_company AND c.status = 'active'
    AND m.company_id = c.id AND m.user_id = s.user_id AND m.status = 'active'
    AND (p_user IS NULL OR s.user_id = p_user)
    AND s.ended_at IS NULL
    AND session_breaks_company_rules(s, c);
  GET DIAGNOSTICS ended = ROW_COUNT;
  RETURN ended;
END
$$;

-- Joining a company, whichever way (an invitation, the email domain, the directory, the company's own sign-in, an
-- approval, the operator), ends the person's sessions that break its rules, as a change of the rules does.
CREATE FUNCTION company_member_joined() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM end_sessions_breaking_company_rules(NEW.company_id, NEW.user_id);
  RETURN NULL;
END
$$;

CREATE TRIGGER company_members_joined_end_sessions AFTER INSERT ON company_members
  FOR EACH ROW WHEN (NEW.status = 'active')
  EXECUTE FUNCTION company_member_joined();
CREATE TRIGGER company_members_activated_end_sessions AFTER UPDATE OF status ON company_members
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM 'active' AND NEW.status = 'active')
  EXECUTE FUNCTION company_member_joined();

-- A device's sign-in (the device authorization grant) is a portal session of its own, started when the person
-- approves it: its address is the device's, its method and second factor the approving session's, its last use the
-- device's last refresh. The grant it issued lives and dies with it.
CREATE TABLE oidc_device_grants (
  grant_id          text PRIMARY KEY,
  portal_session_id text NOT NULL UNIQUE REFERENCES sessions (id) ON DELETE CASCADE,
  client_id         text NOT NULL,
  user_id           integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at        timestamptz NOT NULL DEFAULT now()
);

-- The device's session ended (its person closed it, 'Cerrar las demás sesiones', a company rule, a logout of
-- everything): what the device holds goes with it.
CREATE FUNCTION device_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM oidc_payloads WHERE grant_id IN (SELECT grant_id FROM oidc_device_grants WHERE portal_session_id = NEW.id);
  RETURN NULL;
END
$$;
CREATE TRIGGER sessions_device_grants_end AFTER UPDATE ON sessions
  FOR EACH ROW WHEN (OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL)
  EXECUTE FUNCTION device_session_ended();

-- The device's grant went (the person took the app's access back, the client was deleted, the account's token
-- version moved, a replayed refresh token revoked it): its session ends too, so no list shows it open.
CREATE FUNCTION device_grant_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sessions SET ended_at = now()
    WHERE ended_at IS NULL AND id = (SELECT portal_session_id FROM oidc_device_grants WHERE grant_id = OLD.id);
  RETURN NULL;
END
$$;
CREATE TRIGGER oidc_payloads_device_grant_gone AFTER DELETE ON oidc_payloads
  FOR EACH ROW WHEN (OLD.kind = 'Grant')
  EXECUTE FUNCTION device_grant_gone();
