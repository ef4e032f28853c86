-- A browser app's refresh asks whether the portal session behind it still stands (`portal_session_live`, 0040). Each
-- instance keeps the database's answer in its session memory until the moment time alone would change it, and forgets
-- it when a row it was read from changes (docs/decisions/0165-portal-session-standing-in-memory.md): the account, its
-- memberships and companies notify already (0011, 0020); the provider session's link and what the rules read of a
-- session row notify from here.

-- Until when a live portal session stays live if no row changes: its expiry, its companies' longest session counted
-- from its start and their inactivity limit counted from its last use, whichever comes first; NULL when it is not live.
CREATE FUNCTION portal_session_live_until(p_session text) RETURNS timestamptz
LANGUAGE sql STABLE AS $$
  SELECT least(s.expires_at,
               min(s.created_at + make_interval(hours => c.session_max_hours)),
               min(s.last_seen_at + make_interval(mins => c.idle_minutes)))
  FROM sessions s
  LEFT JOIN company_members m ON m.user_id = s.user_id AND m.status = 'active'
  LEFT JOIN companies c ON c.id = m.company_id AND c.status = 'active'
  WHERE s.id = p_session AND portal_session_live(p_session)
  GROUP BY s.id
$$;

-- What the rules read of a session: its start, address, method and provider besides what 0011 named, and its last use
-- when it moves back (forward, it only lets a kept answer stand longer than it says; the touch of every request
-- writes it that way, once a minute, and stays silent).
DROP TRIGGER sessions_update_session_notify ON sessions;
CREATE TRIGGER sessions_update_session_notify AFTER UPDATE ON sessions
  FOR EACH ROW
  WHEN ((OLD.user_id, OLD.ended_at, OLD.second_factor, OLD.token_version, OLD.expires_at, OLD.created_at,
         OLD.address, OLD.method, OLD.sso_company_id)
    IS DISTINCT FROM (NEW.user_id, NEW.ended_at, NEW.second_factor, NEW.token_version, NEW.expires_at, NEW.created_at,
         NEW.address, NEW.method, NEW.sso_company_id)
    OR NEW.last_seen_at < OLD.last_seen_at)
  EXECUTE FUNCTION portal_session_notify();

-- A provider session signed in again (its link written over, with the portal session of that sign-in), or its link
-- gone: its person is told.
CREATE TRIGGER oidc_session_links_session_notify AFTER UPDATE OR DELETE ON oidc_session_links
  FOR EACH ROW EXECUTE FUNCTION portal_session_notify();
