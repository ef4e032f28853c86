-- One registry of the partner apps (docs/decisions/0126-connected-apps.md): what an app is, whatever protocol signs
-- people into it. A connected app owns its name, its catalogue app and whether it is the suite's own (first party);
-- its protocol connection (an OpenID Connect client, with or without device sign-in, or a SAML service provider) owns
-- only what its protocol needs, and goes with it.

CREATE TABLE connected_apps (
  id serial PRIMARY KEY,
  protocol text NOT NULL CHECK (protocol IN ('oidc', 'saml')),
  name text NOT NULL,
  app_id integer REFERENCES apps (id) ON DELETE SET NULL,
  first_party boolean NOT NULL DEFAULT false,
  -- Set while the rows are copied over below: the connection each registry row was made for.
  migrated_from integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- A catalogue app has at most one OpenID Connect client (its plan goes in that client's tokens), as before.
CREATE UNIQUE INDEX connected_apps_one_oidc_client_per_app ON connected_apps (app_id) WHERE protocol = 'oidc';

INSERT INTO connected_apps (protocol, name, app_id, first_party, migrated_from, created_at, updated_at)
  SELECT 'oidc', name, app_id, first_party, id, created_at, updated_at FROM oidc_clients ORDER BY id;
INSERT INTO connected_apps (protocol, name, app_id, first_party, migrated_from, created_at, updated_at)
  SELECT 'saml', name, app_id, false, id, created_at, updated_at FROM saml_apps ORDER BY id;

ALTER TABLE oidc_clients ADD COLUMN connected_app_id integer UNIQUE REFERENCES connected_apps (id) ON DELETE CASCADE;
UPDATE oidc_clients c SET connected_app_id = a.id FROM connected_apps a WHERE a.protocol = 'oidc' AND a.migrated_from = c.id;
ALTER TABLE oidc_clients ALTER COLUMN connected_app_id SET NOT NULL;
ALTER TABLE oidc_clients DROP COLUMN name, DROP COLUMN app_id, DROP COLUMN first_party;

ALTER TABLE saml_apps ADD COLUMN connected_app_id integer UNIQUE REFERENCES connected_apps (id) ON DELETE CASCADE;
UPDATE saml_apps s SET connected_app_id = a.id FROM connected_apps a WHERE a.protocol = 'saml' AND a.migrated_from = s.id;
ALTER TABLE saml_apps ALTER COLUMN connected_app_id SET NOT NULL;
ALTER TABLE saml_apps DROP COLUMN name, DROP COLUMN app_id;

ALTER TABLE connected_apps DROP COLUMN migrated_from;

-- The provider keeps its clients in memory: a change to what a client is (its name, app, first party) drops them on
-- every instance, as a change to the client row itself does.
CREATE TRIGGER connected_apps_memory_notify AFTER INSERT OR UPDATE OR DELETE ON connected_apps
  FOR EACH STATEMENT EXECUTE FUNCTION oidc_memory_notify();
CREATE OR REPLACE FUNCTION oidc_memory_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME IN ('oidc_clients', 'connected_apps') THEN
    PERFORM pg_notify(portal_session_channel(), '*');
  ELSIF OLD.account_id ~ '^[0-9]+$' THEN
    PERFORM pg_notify(portal_session_channel(), OLD.account_id);
  END IF;
  RETURN NULL;
END
$$;

-- Event subscriptions belong to the connected app, whatever its protocol.
ALTER TABLE partner_subscriptions ADD COLUMN connected_app_id integer REFERENCES connected_apps (id) ON DELETE CASCADE;
UPDATE partner_subscriptions p SET connected_app_id = c.connected_app_id FROM oidc_clients c WHERE c.client_id = p.client_id;
ALTER TABLE partner_subscriptions ALTER COLUMN connected_app_id SET NOT NULL;
ALTER TABLE partner_subscriptions DROP COLUMN client_id;
CREATE INDEX partner_subscriptions_connected_app_idx ON partner_subscriptions (connected_app_id);

-- The people a SAML app was given an assertion for, with the NameID it knows each by (the latest one sent): they
-- receive that person's events, as the people an OpenID Connect client was given a grant for (oidc_client_people).
-- No foreign key to users: a deleted person's 'usuario.eliminado' still reaches the app, and fan-out then forgets them.
CREATE TABLE saml_app_people (
  saml_app_id integer NOT NULL REFERENCES saml_apps (id) ON DELETE CASCADE,
  user_id     integer NOT NULL,
  name_id     text NOT NULL,
  PRIMARY KEY (user_id, saml_app_id)
);
INSERT INTO saml_app_people (saml_app_id, user_id, name_id)
  SELECT DISTINCT ON (saml_app_id, user_id) saml_app_id, user_id, name_id
  FROM saml_sessions ORDER BY saml_app_id, user_id, created_at DESC;
