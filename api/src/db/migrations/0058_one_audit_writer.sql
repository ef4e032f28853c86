-- One writer for each fact (docs/decisions/0163-one-audit-writer.md): every entry of the audit log is written by
-- `audit_write()`, which the API's `recordAudit` (domain/audit/log.ts) and the triggers both call, and it decides where
-- the entry came from (`origen`) once, as it writes it; the roles a company's directory groups give are computed and
-- applied by `follow_group_app_roles()`, which the seat's trigger and the directory's code both call.

-- Where an entry came from, as a company's log says it: the change's own `fuente` (the company's directory, its
-- provider, an administrator's connection, its IT through a setup link; a directory group's seat or role is the
-- directory's), else what the actor says it is (the operator's command, the directory), else who the actor is when it
-- writes: nobody (the portal by itself), a platform administrator, the person themselves, or the company's managers.
CREATE FUNCTION audit_source(actor jsonb, details jsonb, target_type text, target_id integer) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN details->>'fuente' IN ('scim', 'proveedor', 'administrador', 'enlace') THEN details->>'fuente'
    WHEN details->>'fuente' = 'directorio' THEN 'scim'
    WHEN actor->>'origen' IS NOT NULL THEN actor->>'origen'
    WHEN actor->>'actorId' IS NULL THEN 'sistema'
    WHEN (SELECT role FROM users WHERE id = (actor->>'actorId')::integer) = 1 THEN 'plataforma'
    WHEN target_type = 'user' AND target_id = (actor->>'actorId')::integer THEN 'persona'
    ELSE 'administrador'
  END
$$;

-- The entries written so far, as they were read until now (the actor's role today, the special actors by address).
ALTER TABLE audit_log ADD COLUMN origen text;
UPDATE audit_log SET origen = audit_source(
  jsonb_strip_nulls(jsonb_build_object('actorId', actor_id, 'origen', CASE WHEN actor_id IS NULL THEN
    CASE actor_email WHEN 'operador (CLI)' THEN 'consola' WHEN 'directorio (SCIM)' THEN 'scim' END END)),
  details, target_type, target_id);
ALTER TABLE audit_log ALTER COLUMN origen SET NOT NULL;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_origen_check
  CHECK (origen IN ('scim', 'proveedor', 'administrador', 'enlace', 'plataforma', 'persona', 'consola', 'sistema'));

-- The audit log's one writer. `actor`: `{ actorId, actorEmail, details, requestId, origen }`, each optional (the shape
-- of `portal.audit_cause`; none: the portal itself, 'sistema'); `entries`: `[{ action, targetType, targetId, details,
-- companyId }]`, written in that order. Each entry's details take the actor's over its own. Answers how many it wrote.
CREATE FUNCTION audit_write(actor jsonb, entries jsonb) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  written integer;
BEGIN
  INSERT INTO audit_log (actor_id, actor_email, action, target_type, target_id, details, request_id, company_id, origen)
  SELECT (actor->>'actorId')::integer, coalesce(actor->>'actorEmail', 'sistema'), e.entry->>'action',
    e.entry->>'targetType', (e.entry->>'targetId')::integer, d.details, actor->>'requestId',
    (e.entry->>'companyId')::integer,
    audit_source(actor, d.details, e.entry->>'targetType', (e.entry->>'targetId')::integer)
  FROM jsonb_array_elements(coalesce(entries, '[]'::jsonb)) WITH ORDINALITY AS e(entry, n)
  CROSS JOIN LATERAL (
    SELECT coalesce(nullif(e.entry->'details', 'null'), '{}') || coalesce(nullif(actor->'details', 'null'), '{}')
      AS details
  ) d
  ORDER BY e.n;
  GET DIAGNOSTICS written = ROW_COUNT;
  RETURN written;
END
$$;

-- Who writes for a company's directory groups (the same as domain/audit/log.ts `directoryActor`): no account.
CREATE FUNCTION directory_audit_actor(p_request_id text) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object('actorEmail', 'directorio (SCIM)', 'details', jsonb_build_object('fuente', 'directorio'),
    'origen', 'scim', 'requestId', p_request_id)
$$;

-- The roles of an app the company's directory groups give these people now, in the apps they hold a seat of
-- (`p_app` null: every app): the active directory users in a group whose rule of that app names an existing role.
CREATE FUNCTION group_app_roles(p_company integer, p_people integer[], p_app integer)
RETURNS TABLE (user_id integer, app_id integer, clave text) LANGUAGE sql STABLE AS $$
  SELECT DISTINCT s.user_id, s.app_id, k.clave
  FROM company_seats s
  JOIN company_scim_users su ON su.company_id = s.company_id AND su.user_id = s.user_id AND su.active
  JOIN company_scim_group_members gm ON gm.scim_user_id = su.id
  JOIN company_group_rules r ON r.group_id = gm.group_id AND r.company_id = s.company_id AND r.app_id = s.app_id
  CROSS JOIN LATERAL unnest(r.roles_app) AS k(clave)
  JOIN app_roles ar ON ar.app_id = s.app_id AND ar.clave = k.clave
  WHERE s.company_id = p_company AND s.user_id = ANY (p_people) AND (p_app IS NULL OR s.app_id = p_app)
$$;

-- These people's roles from the company's groups brought in line with what the groups give now (`group_app_roles()`),
-- and each person and app whose roles changed written in the company's log as the directory's, with the keys before
-- and after and their names. Answers how many people and apps changed.
CREATE FUNCTION follow_group_app_roles(p_company integer, p_people integer[], p_app integer, p_request_id text)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  changes jsonb;
BEGIN
  WITH held AS (
    SELECT u.user_id, u.app_id, u.clave FROM user_app_roles u
    WHERE u.company_id = p_company AND u.fuente = 'grupo' AND u.user_id = ANY (p_people)
      AND (p_app IS NULL OR u.app_id = p_app)
    FOR UPDATE
  ),
  wanted AS (SELECT * FROM group_app_roles(p_company, p_people, p_app)),
  compared AS (
    SELECT p.user_id, p.app_id,
      coalesce((SELECT array_agg(h.clave ORDER BY h.clave) FROM held h
        WHERE h.user_id = p.user_id AND h.app_id = p.app_id), '{}') AS antes,
      coalesce((SELECT array_agg(w.clave ORDER BY w.clave) FROM wanted w
        WHERE w.user_id = p.user_id AND w.app_id = p.app_id), '{}') AS despues
    FROM (SELECT h.user_id, h.app_id FROM held h UNION SELECT w.user_id, w.app_id FROM wanted w) p
  )
  SELECT jsonb_agg(jsonb_build_object('userId', c.user_id, 'appId', c.app_id, 'antes', to_jsonb(c.antes),
      'despues', to_jsonb(c.despues)) ORDER BY c.user_id, c.app_id)
  INTO changes
  FROM compared c WHERE c.antes <> c.despues;
  IF changes IS NULL THEN RETURN 0; END IF;

  DELETE FROM user_app_roles u USING jsonb_array_elements(changes) c
  WHERE u.company_id = p_company AND u.fuente = 'grupo' AND u.user_id = (c->>'userId')::integer
    AND u.app_id = (c->>'appId')::integer AND NOT ((c->'despues') ? u.clave);
  INSERT INTO user_app_roles (user_id, app_id, clave, company_id, fuente)
  SELECT (c->>'userId')::integer, (c->>'appId')::integer, k.clave, p_company, 'grupo'
  FROM jsonb_array_elements(changes) c CROSS JOIN LATERAL jsonb_array_elements_text(c->'despues') AS k(clave)
  WHERE NOT ((c->'antes') ? k.clave)
  ON CONFLICT DO NOTHING;

  PERFORM audit_write(directory_audit_actor(p_request_id), jsonb_agg(jsonb_build_object(
    'action', 'company.app_roles_change', 'targetType', 'company', 'targetId', p_company, 'companyId', p_company,
    'details', jsonb_build_object('userId', (c->>'userId')::integer,
      'email', (SELECT email FROM users WHERE id = (c->>'userId')::integer), 'appId', (c->>'appId')::integer,
      'antes', c->'antes', 'despues', c->'despues',
      'nombres', app_role_names((c->>'appId')::integer, ARRAY(
        SELECT jsonb_array_elements_text(c->'antes') UNION SELECT jsonb_array_elements_text(c->'despues'))),
      'fuenteRoles', 'grupo')) ORDER BY n))
  FROM jsonb_array_elements(changes) WITH ORDINALITY AS x(c, n);
  RETURN jsonb_array_length(changes);
END
$$;

-- The three triggers of migrations 0044 and 0054 now write through them.
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
    PERFORM audit_write(cause, jsonb_build_array(jsonb_build_object(
      'action', 'company.app_roles_change', 'targetType', 'company', 'targetId', OLD.company_id,
      'companyId', OLD.company_id,
      'details', jsonb_build_object('userId', OLD.user_id, 'email', (SELECT email FROM users WHERE id = OLD.user_id),
        'appId', OLD.app_id, 'antes', to_jsonb(antes), 'despues', '[]'::jsonb,
        'nombres', app_role_names(OLD.app_id, antes), 'fuenteRoles', 'puesto')
        || jsonb_strip_nulls(jsonb_build_object('motivo', cause->>'motivo')))));
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION app_roles_from_groups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM follow_group_app_roles(NEW.company_id, ARRAY[NEW.user_id], NEW.app_id, audit_cause()->>'requestId');
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
    PERFORM audit_write('{}'::jsonb, jsonb_build_array(jsonb_build_object(
      'action', 'user.app_roles_change', 'targetType', 'user', 'targetId', OLD.user_id,
      'details', jsonb_build_object('userId', OLD.user_id, 'email', (SELECT email FROM users WHERE id = OLD.user_id),
        'appId', OLD.app_id, 'antes', to_jsonb(antes), 'despues', '[]'::jsonb,
        'nombres', app_role_names(OLD.app_id, antes), 'fuenteRoles', 'plan'))));
  END IF;
  RETURN NULL;
END
$$;
