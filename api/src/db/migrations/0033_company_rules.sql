-- A company's own rules for its members (docs/decisions/0103-company-rules.md): the networks they may sign in from
-- (CIDR, IPv4 or IPv6; none listed: any), the sign-in methods they may use, the longest a session lasts and the
-- longest it may stay unused. NULL limits: the portal's own.
ALTER TABLE companies
  ADD COLUMN allowed_networks text[] NOT NULL DEFAULT '{}',
  ADD COLUMN allowed_methods text[] NOT NULL DEFAULT '{contrasena,google,apple,llave,empresa}',
  ADD COLUMN session_max_hours integer,
  ADD COLUMN idle_minutes integer,
  ADD CONSTRAINT companies_allowed_methods_check CHECK (
    cardinality(allowed_methods) > 0
    AND allowed_methods <@ ARRAY['contrasena', 'google', 'apple', 'llave', 'empresa']::text[]
  ),
  ADD CONSTRAINT companies_session_max_hours_check CHECK (session_max_hours BETWEEN 1 AND 720),
  ADD CONSTRAINT companies_idle_minutes_check CHECK (idle_minutes BETWEEN 5 AND 1440);

-- How each session was signed in ('contrasena', 'google', 'apple', 'llave', 'empresa'): the rules' methods and the ID
-- token's `amr` (docs/decisions/0104-amr-and-acr.md). NULL for sessions from before.
ALTER TABLE sessions ADD COLUMN method text;

-- A sign-in return (Google, Apple, the company's own provider) carries its method to the session it becomes.
ALTER TABLE sign_in_returns ADD COLUMN method text;
