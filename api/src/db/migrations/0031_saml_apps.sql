-- The portal as a SAML identity provider for partner apps (docs/decisions/0100-saml-identity-provider.md): the apps an
-- administrator registers from their metadata, the sign-ins waiting for the person, the consents, the apps' sessions
-- and the single logouts owed to them.

CREATE TABLE saml_apps (
  id serial PRIMARY KEY,
  name text NOT NULL,
  entity_id text NOT NULL UNIQUE,
  app_id integer REFERENCES apps (id) ON DELETE SET NULL,
  -- The service provider's metadata as registered; everything below is read from it, never from a request.
  metadata text NOT NULL,
  acs_urls text[] NOT NULL,
  slo_url text,
  name_id_format text NOT NULL CHECK (name_id_format IN ('persistent', 'emailAddress')),
  authn_requests_signed boolean NOT NULL,
  signing_certificates text[] NOT NULL,
  -- The HMAC key of the app's persistent NameIDs (32 random bytes, base64url): made once, never changed, never answered.
  subject_salt text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A person's consent to a SAML app, remembered as the OpenID Connect ones are.
CREATE TABLE saml_consents (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  saml_app_id integer NOT NULL REFERENCES saml_apps (id) ON DELETE CASCADE,
  granted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, saml_app_id)
);

-- An AuthnRequest taken and waiting for the person at the portal's /saml/continuar: used once, for ten minutes. Once
-- answered, it holds the response (or the refusal) until the browser fetches the page that posts it, once.
CREATE TABLE saml_requests (
  id text PRIMARY KEY,
  saml_app_id integer NOT NULL REFERENCES saml_apps (id) ON DELETE CASCADE,
  request_id text NOT NULL,
  acs_url text NOT NULL,
  relay_state text,
  expires_at timestamptz NOT NULL,
  answered_at timestamptz,
  user_id integer REFERENCES users (id) ON DELETE CASCADE,
  -- SHA-256 (base64url) of the one-time address's secret.
  delivery_hash text UNIQUE,
  response text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX saml_requests_expires_idx ON saml_requests (expires_at);

-- A SAML app a portal session signed into: what its single logout names (NameID and SessionIndex).
CREATE TABLE saml_sessions (
  id bigserial PRIMARY KEY,
  saml_app_id integer NOT NULL REFERENCES saml_apps (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  portal_session_id text NOT NULL,
  name_id text NOT NULL,
  name_id_format text NOT NULL,
  session_index text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (saml_app_id, portal_session_id)
);
CREATE INDEX saml_sessions_portal_session_idx ON saml_sessions (portal_session_id);

-- Single logouts owed to SAML apps, delivered, retried and given up as the back-channel logouts of OpenID Connect.
CREATE TABLE saml_logout_deliveries (
  id bigserial PRIMARY KEY,
  saml_app_id integer NOT NULL REFERENCES saml_apps (id) ON DELETE CASCADE,
  user_id integer,
  name_id text NOT NULL,
  name_id_format text NOT NULL,
  session_index text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  delivered_at timestamptz,
  failed_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX saml_logout_deliveries_due_idx ON saml_logout_deliveries (next_attempt_at)
  WHERE delivered_at IS NULL AND failed_at IS NULL;

-- A portal session that ends (a sign-out, an administrator closing it) owes each SAML app it signed into, that
-- publishes a logout address, a LogoutRequest: queued in the same change, so no path ends a session and forgets one.
CREATE FUNCTION saml_portal_session_ended() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  queued integer;
BEGIN
  INSERT INTO saml_logout_deliveries (saml_app_id, user_id, name_id, name_id_format, session_index)
    SELECT s.saml_app_id, s.user_id, s.name_id, s.name_id_format, s.session_index
    FROM saml_sessions s JOIN saml_apps a ON a.id = s.saml_app_id AND a.slo_url IS NOT NULL
    WHERE s.portal_session_id = NEW.id;
  GET DIAGNOSTICS queued = ROW_COUNT;
  DELETE FROM saml_sessions WHERE portal_session_id = NEW.id;
  IF queued > 0 THEN PERFORM pg_notify('portal_saml_logout', ''); END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER sessions_saml_end AFTER UPDATE ON sessions
  FOR EACH ROW WHEN (OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL)
  EXECUTE FUNCTION saml_portal_session_ended();

-- The same for every session of an account whose credentials changed (token version), that stopped being active, or
-- that is deleted (before its rows go): its SAML apps are told as its OpenID Connect apps are (users_oidc_end).
CREATE FUNCTION saml_account_sessions_ended() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  queued integer;
BEGIN
  INSERT INTO saml_logout_deliveries (saml_app_id, user_id, name_id, name_id_format, session_index)
    SELECT s.saml_app_id, s.user_id, s.name_id, s.name_id_format, s.session_index
    FROM saml_sessions s JOIN saml_apps a ON a.id = s.saml_app_id AND a.slo_url IS NOT NULL
    WHERE s.user_id = OLD.id;
  GET DIAGNOSTICS queued = ROW_COUNT;
  DELETE FROM saml_sessions WHERE user_id = OLD.id;
  IF queued > 0 THEN PERFORM pg_notify('portal_saml_logout', ''); END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER users_saml_end AFTER UPDATE ON users
  FOR EACH ROW WHEN (OLD.token_version IS DISTINCT FROM NEW.token_version
    OR (OLD.status = 'active' AND NEW.status <> 'active'))
  EXECUTE FUNCTION saml_account_sessions_ended();
CREATE TRIGGER users_saml_end_deleted BEFORE DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION saml_account_sessions_ended();

ALTER TABLE audit_log DROP CONSTRAINT audit_log_target_type_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_target_type_check
  CHECK (target_type IN ('user', 'app', 'oidc_client', 'company', 'saml_app'));
