-- SAML single logout by the browser (HTTP-Redirect binding) to the apps that publish only that
-- (docs/decisions/0113-saml-front-channel-logout.md): the app's Redirect SingleLogoutService, and which of its owed
-- logouts go by SOAP (the back channel, delivered by the API alone) or by the person's browser, in a bounded chain
-- started by the portal's sign-out.
ALTER TABLE saml_apps ADD COLUMN slo_redirect_url text;

ALTER TABLE saml_logout_deliveries
  ADD COLUMN binding text NOT NULL DEFAULT 'soap' CHECK (binding IN ('soap', 'redirect')),
  -- The portal session that ended: the sign-out of that session in a browser takes its Redirect logouts along.
  ADD COLUMN portal_session_id text,
  -- SHA-256 (base64url) of the chain's secret, given to the browser that signed out (and to the apps as RelayState).
  ADD COLUMN chain_hash text,
  -- The ID of the LogoutRequest sent through the browser: the app's LogoutResponse must answer it (InResponseTo).
  ADD COLUMN request_id text,
  ADD COLUMN sent_at timestamptz;
CREATE INDEX saml_logout_deliveries_chain_idx ON saml_logout_deliveries (chain_hash) WHERE chain_hash IS NOT NULL;
CREATE INDEX saml_logout_deliveries_session_idx ON saml_logout_deliveries (portal_session_id)
  WHERE binding = 'redirect' AND delivered_at IS NULL AND failed_at IS NULL;

-- A portal session that ends owes each SAML app it signed into a logout: by SOAP when the app publishes that, else by
-- the browser when it publishes HTTP-Redirect (the sign-out in a browser carries it; otherwise it shows as failed).
CREATE OR REPLACE FUNCTION saml_portal_session_ended() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  queued integer;
BEGIN
  INSERT INTO saml_logout_deliveries (saml_app_id, user_id, name_id, name_id_format, session_index, binding,
      portal_session_id)
    SELECT s.saml_app_id, s.user_id, s.name_id, s.name_id_format, s.session_index,
      CASE WHEN a.slo_url IS NOT NULL THEN 'soap' ELSE 'redirect' END, s.portal_session_id
    FROM saml_sessions s JOIN saml_apps a ON a.id = s.saml_app_id
      AND (a.slo_url IS NOT NULL OR a.slo_redirect_url IS NOT NULL)
    WHERE s.portal_session_id = NEW.id;
  GET DIAGNOSTICS queued = ROW_COUNT;
  DELETE FROM saml_sessions WHERE portal_session_id = NEW.id;
  IF queued > 0 THEN PERFORM pg_notify('portal_saml_logout', ''); END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION saml_account_sessions_ended() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  queued integer;
BEGIN
  INSERT INTO saml_logout_deliveries (saml_app_id, user_id, name_id, name_id_format, session_index, binding,
      portal_session_id)
    SELECT s.saml_app_id, s.user_id, s.name_id, s.name_id_format, s.session_index,
      CASE WHEN a.slo_url IS NOT NULL THEN 'soap' ELSE 'redirect' END, s.portal_session_id
    FROM saml_sessions s JOIN saml_apps a ON a.id = s.saml_app_id
      AND (a.slo_url IS NOT NULL OR a.slo_redirect_url IS NOT NULL)
    WHERE s.user_id = OLD.id;
  GET DIAGNOSTICS queued = ROW_COUNT;
  DELETE FROM saml_sessions WHERE user_id = OLD.id;
  IF queued > 0 THEN PERFORM pg_notify('portal_saml_logout', ''); END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NULL;
END
$$;
