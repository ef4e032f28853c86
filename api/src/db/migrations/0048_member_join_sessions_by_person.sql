-- A person joining a company ends their own sessions that break its rules. The one statement for both cases (the
-- whole company after a change of its rules, one person when they join) let PostgreSQL's generic plan walk every
-- active member of the company and look up each one's sessions, for every person a directory adds: a first sync of
-- 5 000 people made twelve million lookups of `sessions`. One person's case is now a statement of its own, which starts
-- from that person's sessions.
CREATE OR REPLACE FUNCTION end_sessions_breaking_company_rules(p_company integer, p_user integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  ended integer;
BEGIN
  IF p_user IS NULL THEN
    UPDATE sessions s SET ended_at = now()
    FROM companies c, company_members m
    WHERE c.id = p_company AND c.status = 'active'
      AND m.company_id = c.id AND m.user_id = s.user_id AND m.status = 'active'
      AND s.ended_at IS NULL
      AND session_breaks_company_rules(s, c);
  ELSE
    UPDATE sessions s SET ended_at = now()
    FROM companies c, company_members m
    WHERE s.user_id = p_user AND s.ended_at IS NULL
      AND c.id = p_company AND c.status = 'active'
      AND m.company_id = p_company AND m.user_id = p_user AND m.status = 'active'
      AND session_breaks_company_rules(s, c);
  END IF;
  GET DIAGNOSTICS ended = ROW_COUNT;
  RETURN ended;
END
$$;
