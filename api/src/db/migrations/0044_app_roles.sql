-- An app's roles (docs/decisions/0134-app-roles.md): the keys a catalogue app defines, which a company gives the
-- people holding its seats, and the platform administrator gives people who hold the app by their own plan. Apps read
-- them as the `roles` claim (OpenID Connect) and attribute (SAML), and hear `roles.cambiados`.

-- A role of a catalogue app: its key (what apps read), its name and description (what people read). At most one per
-- app is the default: whoever holds the app and no other role of it has that one (read at issue time, never stored).
CREATE TABLE app_roles (
  app_id       integer NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  clave        text NOT NULL CHECK (clave ~ '^[a-z0-9_-]{1,40}$'),
  nombre       text NOT NULL,
  descripcion  text NOT NULL DEFAULT '',
  por_defecto  boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_id, clave)
);
CREATE UNIQUE INDEX app_roles_one_default_idx ON app_roles (app_id) WHERE por_defecto;

-- A role a person holds in an app, and who gave it: a company (`company_id`, to the holders of its seats) or the
-- platform (`company_id` null, to people with their own plan). A role deleted from the app is taken from everyone.
-- `fuente`: 'mano' (given by a person), 'grupo' (by a rule of a directory group: kept while a group gives it). A key given
-- both ways is two rows, so taking one way back leaves the other.
CREATE TABLE user_app_roles (
  id          bigserial PRIMARY KEY,
  user_id     integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  app_id      integer NOT NULL,
  clave       text NOT NULL,
  company_id  integer REFERENCES companies (id) ON DELETE CASCADE,
  fuente      text NOT NULL DEFAULT 'mano' CHECK (fuente IN ('mano', 'grupo')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (app_id, clave) REFERENCES app_roles (app_id, clave) ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX user_app_roles_key_idx ON user_app_roles (user_id, app_id, clave, coalesce(company_id, 0), fuente);
CREATE INDEX user_app_roles_app_idx ON user_app_roles (app_id, clave);
CREATE INDEX user_app_roles_company_idx ON user_app_roles (company_id, user_id, app_id) WHERE company_id IS NOT NULL;

-- Taking a seat back takes the roles that company gave in that app with it, whatever path takes it (a manager, the
-- member's removal, the directory, the company's deletion); audited in the company's log with the roles before.
CREATE FUNCTION app_roles_with_seat() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  antes text[];
BEGIN
  WITH gone AS (
    DELETE FROM user_app_roles
    WHERE company_id = OLD.company_id AND user_id = OLD.user_id AND app_id = OLD.app_id
    RETURNING clave
  )
  SELECT array_agg(clave ORDER BY clave) INTO antes FROM gone;
  IF antes IS NOT NULL THEN
    INSERT INTO audit_log (actor_email, action, target_type, target_id, details, company_id)
    VALUES ('sistema', 'company.app_roles_change', 'company', OLD.company_id,
      jsonb_build_object('userId', OLD.user_id, 'email', (SELECT email FROM users WHERE id = OLD.user_id),
        'appId', OLD.app_id, 'antes', to_jsonb(antes), 'despues', '[]'::jsonb, 'fuenteRoles', 'puesto'),
      OLD.company_id);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER company_seats_app_roles AFTER DELETE ON company_seats
  FOR EACH ROW EXECUTE FUNCTION app_roles_with_seat();

-- `roles.cambiados`: one event per person and app in a transaction, however many of their roles it changed; its data
-- (the keys the person holds then) is read at fan-out, as a plan event's plan is. None for a person being deleted.
CREATE FUNCTION partner_events_app_roles() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p_user integer;
  p_app integer;
BEGIN
  IF TG_OP = 'DELETE' THEN p_user := OLD.user_id; p_app := OLD.app_id;
  ELSE p_user := NEW.user_id; p_app := NEW.app_id; END IF;
  IF EXISTS (SELECT 1 FROM users WHERE id = p_user) AND NOT EXISTS (
    SELECT 1 FROM partner_events
    WHERE user_id = p_user AND app_id = p_app AND tipo = 'roles.cambiados' AND fanned_out_at IS NULL
      AND created_at = now()
  ) THEN
    PERFORM partner_event(p_user, 'roles.cambiados', p_app, NULL, '{}');
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER user_app_roles_partner_events AFTER INSERT OR DELETE ON user_app_roles
  FOR EACH ROW EXECUTE FUNCTION partner_events_app_roles();

-- A rule of a directory group may give roles of its app to the group's members holding its seat.
ALTER TABLE company_group_rules ADD COLUMN roles_app text[] NOT NULL DEFAULT '{}';

-- A seat given (by hand, by a group, with an invitation) takes the roles the company's group rules give its holder in
-- that app, whatever path gives it; audited in the company's log as the directory's.
CREATE FUNCTION app_roles_from_groups() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  despues text[];
BEGIN
  WITH wanted AS (
    SELECT DISTINCT k.clave
    FROM company_scim_users su
    JOIN company_scim_group_members gm ON gm.scim_user_id = su.id
    JOIN company_group_rules r ON r.group_id = gm.group_id AND r.company_id = NEW.company_id AND r.app_id = NEW.app_id
    CROSS JOIN LATERAL unnest(r.roles_app) AS k(clave)
    JOIN app_roles ar ON ar.app_id = NEW.app_id AND ar.clave = k.clave
    WHERE su.company_id = NEW.company_id AND su.user_id = NEW.user_id AND su.active
  ),
  given AS (
    INSERT INTO user_app_roles (user_id, app_id, clave, company_id, fuente)
    SELECT NEW.user_id, NEW.app_id, clave, NEW.company_id, 'grupo' FROM wanted
    ON CONFLICT DO NOTHING
    RETURNING clave
  )
  SELECT array_agg(clave ORDER BY clave) INTO despues FROM given;
  IF despues IS NOT NULL THEN
    INSERT INTO audit_log (actor_email, action, target_type, target_id, details, company_id)
    VALUES ('directorio (SCIM)', 'company.app_roles_change', 'company', NEW.company_id,
      jsonb_build_object('userId', NEW.user_id, 'email', (SELECT email FROM users WHERE id = NEW.user_id),
        'appId', NEW.app_id, 'antes', '[]'::jsonb, 'despues', to_jsonb(despues), 'fuenteRoles', 'grupo'),
      NEW.company_id);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER company_seats_group_app_roles AFTER INSERT ON company_seats
  FOR EACH ROW EXECUTE FUNCTION app_roles_from_groups();

-- A person's own plan of an app taken away takes the roles the platform gave them there (they were given to the
-- plan's holder); audited in the platform's log.
CREATE FUNCTION app_roles_with_own_plan() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  antes text[];
BEGIN
  WITH gone AS (
    DELETE FROM user_app_roles
    WHERE company_id IS NULL AND user_id = OLD.user_id AND app_id = OLD.app_id
    RETURNING clave
  )
  SELECT array_agg(clave ORDER BY clave) INTO antes FROM gone;
  IF antes IS NOT NULL AND EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id) THEN
    INSERT INTO audit_log (actor_email, action, target_type, target_id, details)
    VALUES ('sistema', 'user.app_roles_change', 'user', OLD.user_id,
      jsonb_build_object('userId', OLD.user_id, 'email', (SELECT email FROM users WHERE id = OLD.user_id),
        'appId', OLD.app_id, 'antes', to_jsonb(antes), 'despues', '[]'::jsonb, 'fuenteRoles', 'plan'));
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER user_plans_app_roles AFTER DELETE ON user_plans
  FOR EACH ROW EXECUTE FUNCTION app_roles_with_own_plan();
