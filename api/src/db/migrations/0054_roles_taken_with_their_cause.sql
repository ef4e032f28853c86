-- The roles a seat takes with it are written in the company's log by who took the seat and why, with the roles'
-- names beside their keys (docs/decisions/0154-roles-taken-name-who-and-why.md). The change that takes a seat back
-- says so in its transaction: `portal.audit_cause`, set with set_config(…, true) by the API (domain/audit/log.ts
-- `auditCause`): `{ actorId, actorEmail, details, motivo, requestId }`. Without it the entry is the portal's own.

-- This transaction's cause, or an empty object when none was said.
CREATE FUNCTION audit_cause() RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(current_setting('portal.audit_cause', true), '')::jsonb, '{}'::jsonb)
$$;

-- The names of an app's roles by key, as a person reads them.
CREATE FUNCTION app_role_names(p_app integer, p_keys text[]) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT coalesce(jsonb_object_agg(clave, nombre), '{}'::jsonb)
  FROM app_roles WHERE app_id = p_app AND clave = ANY (p_keys)
$$;

CREATE OR REPLACE FUNCTION app_roles_with_seat() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  antes text[];
  cause jsonb := audit_cause();
BEGIN
  WITH gone AS (
    DELETE FROM user_app_roles
    WHERE company_id = OLD.company_id AND user_id = OLD.user_id AND app_id = OLD.app_id
    RETURNING clave
  )
  SELECT array_agg(clave ORDER BY clave) INTO antes FROM gone;
  IF antes IS NOT NULL THEN
    INSERT INTO audit_log (actor_id, actor_email, action, target_type, target_id, details, company_id, request_id)
    VALUES ((cause->>'actorId')::integer, coalesce(cause->>'actorEmail', 'sistema'), 'company.app_roles_change',
      'company', OLD.company_id,
      jsonb_build_object('userId', OLD.user_id, 'email', (SELECT email FROM users WHERE id = OLD.user_id),
        'appId', OLD.app_id, 'antes', to_jsonb(antes), 'despues', '[]'::jsonb,
        'nombres', app_role_names(OLD.app_id, antes), 'fuenteRoles', 'puesto')
        || jsonb_strip_nulls(jsonb_build_object('motivo', cause->>'motivo'))
        || coalesce(cause->'details', '{}'::jsonb),
      OLD.company_id, cause->>'requestId');
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION app_roles_from_groups() RETURNS trigger LANGUAGE plpgsql AS $$
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
        'appId', NEW.app_id, 'antes', '[]'::jsonb, 'despues', to_jsonb(despues),
        'nombres', app_role_names(NEW.app_id, despues), 'fuenteRoles', 'grupo'),
      NEW.company_id);
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION app_roles_with_own_plan() RETURNS trigger LANGUAGE plpgsql AS $$
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
        'appId', OLD.app_id, 'antes', to_jsonb(antes), 'despues', '[]'::jsonb,
        'nombres', app_role_names(OLD.app_id, antes), 'fuenteRoles', 'plan'));
  END IF;
  RETURN NULL;
END
$$;
