-- The portal as the suite's OpenID Connect provider (docs/decisions/0055-openid-connect-provider.md): oidc-provider's
-- storage, the clients administrators register, the consents people gave to third-party apps, and the back-channel
-- logouts owed to the apps.

-- Clients, managed by administrators (routes/admin/oidc-clients.ts, the CLI). The secret of a confidential client is
-- kept only as its SHA-256 (it is 32 random bytes: no slow hash needed); a public client has none.
CREATE TABLE oidc_clients (
  id serial PRIMARY KEY,
  client_id text NOT NULL UNIQUE,
  name text NOT NULL,
  secret_hash text,
  redirect_uris text[] NOT NULL,
  post_logout_redirect_uris text[] NOT NULL DEFAULT '{}',
  backchannel_logout_uri text,
  initiate_login_uri text,
  first_party boolean NOT NULL DEFAULT false,
  app_id integer UNIQUE REFERENCES apps (id) ON DELETE SET NULL,
  scopes text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Every model oidc-provider stores (sessions, interactions, grants, codes, tokens, replay marks), one row each. The
-- columns beside the payload are what is looked up or revoked by: a token's grant, a session's uid, the session a
-- token was issued in, its account.
CREATE TABLE oidc_payloads (
  kind text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  uid text,
  session_uid text,
  account_id text,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (kind, id)
);
CREATE INDEX oidc_payloads_grant_id_idx ON oidc_payloads (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_payloads_uid_idx ON oidc_payloads (uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_payloads_session_uid_idx ON oidc_payloads (session_uid) WHERE session_uid IS NOT NULL;
CREATE INDEX oidc_payloads_account_id_idx ON oidc_payloads (account_id) WHERE account_id IS NOT NULL;
CREATE INDEX oidc_payloads_expires_at_idx ON oidc_payloads (expires_at);

-- Which portal session a provider session (by its uid, stable for its life) was signed in with: ending that portal
-- session ends the provider session, and an app's logout ends the portal session.
CREATE TABLE oidc_session_links (
  session_uid text PRIMARY KEY,
  portal_session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oidc_session_links_portal_session_idx ON oidc_session_links (portal_session_id);
CREATE INDEX oidc_session_links_user_idx ON oidc_session_links (user_id);

-- A person's answer to a third-party app's consent screen: the scopes allowed, remembered until revoked in /perfil.
CREATE TABLE oidc_consents (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  client_id text NOT NULL REFERENCES oidc_clients (client_id) ON DELETE CASCADE ON UPDATE CASCADE,
  scopes text[] NOT NULL,
  granted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, client_id)
);

-- Back-channel logouts owed to apps (OpenID Connect Back-Channel Logout 1.0): written in the transaction that ends the
-- sessions, delivered and retried by each instance's loop (domain/identity-provider/logout-deliveries.ts). One row per
-- app and provider session: a logout asked for twice is delivered once.
CREATE TABLE oidc_logout_deliveries (
  id bigserial PRIMARY KEY,
  client_id text NOT NULL,
  account_id text NOT NULL,
  sid text NOT NULL,
  reason text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  delivered_at timestamptz,
  failed_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (client_id, sid)
);
CREATE INDEX oidc_logout_deliveries_due_idx ON oidc_logout_deliveries (next_attempt_at)
  WHERE delivered_at IS NULL AND failed_at IS NULL;

-- Ends the provider sessions of one account (p_portal_session null: every one; else those signed in with that portal
-- session), revokes every grant issued in them (and, for the whole account, every grant it has) and queues a
-- back-channel logout to each app of those sessions that asked for one. Runs inside the change that ended the portal
-- session, so no code path can end a portal session and leave the apps signed in.
CREATE FUNCTION oidc_end_sessions(p_account text, p_portal_session text, p_reason text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  uids text[];
  queued integer;
BEGIN
  IF p_portal_session IS NULL THEN
    SELECT coalesce(array_agg(uid), '{}') INTO uids FROM oidc_payloads WHERE kind = 'Session' AND account_id = p_account;
  ELSE
    SELECT coalesce(array_agg(session_uid), '{}') INTO uids FROM oidc_session_links
      WHERE portal_session_id = p_portal_session;
  END IF;

  INSERT INTO oidc_logout_deliveries (client_id, account_id, sid, reason)
    SELECT a.key, s.account_id, a.value->>'sid', p_reason
    FROM oidc_payloads s
    CROSS JOIN LATERAL jsonb_each(coalesce(s.payload->'authorizations', '{}'::jsonb)) a
    JOIN oidc_clients c ON c.client_id = a.key AND c.backchannel_logout_uri IS NOT NULL
    WHERE s.kind = 'Session' AND s.uid = ANY (uids) AND s.account_id = p_account AND a.value ? 'sid'
  ON CONFLICT (client_id, sid) DO NOTHING;
  GET DIAGNOSTICS queued = ROW_COUNT;
  -- Wakes the delivery loops at commit (they also poll).
  IF queued > 0 THEN PERFORM pg_notify('portal_oidc_logout', ''); END IF;

  IF p_portal_session IS NULL THEN
    DELETE FROM oidc_payloads
      WHERE account_id = p_account AND kind IN ('Session', 'Grant', 'AuthorizationCode', 'AccessToken', 'RefreshToken');
  ELSE
    DELETE FROM oidc_payloads WHERE grant_id IN (
      SELECT grant_id FROM oidc_payloads WHERE session_uid = ANY (uids) AND grant_id IS NOT NULL
      UNION
      SELECT a.value->>'grantId' FROM oidc_payloads s
        CROSS JOIN LATERAL jsonb_each(coalesce(s.payload->'authorizations', '{}'::jsonb)) a
        WHERE s.kind = 'Session' AND s.uid = ANY (uids)
    );
    DELETE FROM oidc_payloads WHERE kind = 'Session' AND uid = ANY (uids);
  END IF;
  DELETE FROM oidc_session_links WHERE session_uid = ANY (uids);
END
$$;

-- The changes that end portal sessions, whichever code path or tool makes them: a session row ended (logout, 'Cerrar
-- todas las demás sesiones', an administrator ending it); the account's token version bumped (password change or
-- reset, suspension, demotion); the account no longer active, or deleted.
CREATE FUNCTION oidc_portal_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM oidc_end_sessions(OLD.id::text, NULL, 'account_deleted');
    RETURN OLD;
  ELSIF TG_TABLE_NAME = 'sessions' THEN
    PERFORM oidc_end_sessions(NEW.user_id::text, NEW.id, 'logout');
  ELSIF NEW.status <> 'active' AND OLD.status = 'active' THEN
    PERFORM oidc_end_sessions(NEW.id::text, NULL, 'account_' || NEW.status);
  ELSE
    PERFORM oidc_end_sessions(NEW.id::text, NULL, 'credentials_changed');
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER sessions_oidc_end AFTER UPDATE ON sessions
  FOR EACH ROW WHEN (OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL)
  EXECUTE FUNCTION oidc_portal_session_ended();
CREATE TRIGGER users_oidc_end AFTER UPDATE ON users
  FOR EACH ROW WHEN (OLD.token_version IS DISTINCT FROM NEW.token_version
    OR (OLD.status = 'active' AND NEW.status <> 'active'))
  EXECUTE FUNCTION oidc_portal_session_ended();
CREATE TRIGGER users_oidc_end_deleted BEFORE DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION oidc_portal_session_ended();

-- The audit log also names OpenID Connect clients (created, changed, secret rotated, deleted).
ALTER TABLE audit_log DROP CONSTRAINT audit_log_target_type_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_target_type_check
  CHECK (target_type IN ('user', 'app', 'oidc_client'));

-- The session memory keeps what the provider reads on every call (an access token, its grant, the client;
-- domain/identity-provider/provider-memory.ts): a kept payload that changes or goes notifies its account, as the
-- account's own changes do (0011), and a client that changes notifies everyone. Codes and refresh tokens are never
-- kept, so their consumption notifies nobody.
CREATE FUNCTION oidc_memory_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'oidc_clients' THEN
    PERFORM pg_notify('portal_session_state', '*');
  ELSIF OLD.account_id ~ '^[0-9]+$' THEN
    PERFORM pg_notify('portal_session_state', OLD.account_id);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER oidc_payloads_memory_notify AFTER UPDATE OR DELETE ON oidc_payloads
  FOR EACH ROW WHEN (OLD.kind IN ('AccessToken', 'Grant'))
  EXECUTE FUNCTION oidc_memory_notify();
CREATE TRIGGER oidc_clients_memory_notify AFTER INSERT OR UPDATE OR DELETE ON oidc_clients
  FOR EACH STATEMENT EXECUTE FUNCTION oidc_memory_notify();
