-- 'Only our own sign-in' means the company's own provider (docs/decisions/0147-own-sign-in-is-own-provider.md): a
-- session signed in through a company's provider records whose it was, and a company's method rule reads 'empresa' as
-- its own provider only.
ALTER TABLE sessions ADD COLUMN sso_company_id integer REFERENCES companies (id) ON DELETE SET NULL;
ALTER TABLE sign_in_returns ADD COLUMN sso_company_id integer REFERENCES companies (id) ON DELETE CASCADE;

-- The open sessions signed in through a company's provider before: the company whose provider the person is linked
-- to, when it is one (a person linked to one company's provider is refused at any other's).
UPDATE sessions s SET sso_company_id = i.company_id
FROM company_identities i
WHERE s.method = 'empresa' AND s.ended_at IS NULL AND i.user_id = s.user_id
  AND NOT EXISTS (SELECT 1 FROM company_identities o WHERE o.user_id = s.user_id AND o.company_id <> i.company_id);

-- Whether a company whose id and allowed methods are given allows a session signed in with `p_method` (through the
-- provider of company `p_sso_company`, for 'empresa'; a method never recorded counts as a password): 'empresa' is
-- the company's own provider; another company's is allowed only where no method is restricted.
CREATE FUNCTION portal_method_allowed(p_method text, p_sso_company integer, p_company integer, p_allowed text[])
RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN coalesce(p_method, 'contrasena') <> 'empresa' THEN coalesce(p_method, 'contrasena') = ANY (p_allowed)
    WHEN p_sso_company = p_company THEN 'empresa' = ANY (p_allowed)
    ELSE p_allowed @> ARRAY['contrasena', 'google', 'apple', 'llave', 'empresa']::text[]
  END
$$;

CREATE OR REPLACE FUNCTION session_breaks_company_rules(s sessions, c companies) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT NOT portal_address_allowed(s.address, c.allowed_networks)
    OR NOT portal_method_allowed(s.method, s.sso_company_id, c.id, c.allowed_methods)
    OR (c.session_max_hours IS NOT NULL AND s.created_at <= now() - make_interval(hours => c.session_max_hours))
    OR (c.idle_minutes IS NOT NULL AND s.last_seen_at <= now() - make_interval(mins => c.idle_minutes))
$$;

-- The rule now means what it says: what breaks it ends, as a change of the rules ends it (with the apps' sessions and
-- logouts, through the triggers on sessions).
SELECT end_sessions_breaking_company_rules(c.id, NULL)
FROM companies c
WHERE c.status = 'active'
  AND NOT c.allowed_methods @> ARRAY['contrasena', 'google', 'apple', 'llave', 'empresa']::text[];
