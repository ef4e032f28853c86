-- Events for partner apps (docs/decisions/0085-partner-events.md): what changed about a person or their plan in an
-- app, written by triggers in the transaction of the change (whatever code path or tool makes it), fanned out by the
-- API into one signed delivery per subscription (domain/partner-events/), delivered in order per subscription.

-- An https endpoint of an OpenID Connect client subscribed to some event types. The signing secret is kept sealed
-- (AES-256-GCM, lib/sealed.ts) because it must be read back to sign; after a rotation the previous one keeps signing
-- beside the new one until `previous_secret_until`. `next_seq` is the sequence number the next delivery gets. One
-- instance at a time sends a subscription's deliveries, in order: its claim (`claimed_by` until `locked_until`, renewed
-- while it sends) lapses when that instance dies, and another takes the subscription over.
CREATE TABLE partner_subscriptions (
  id                      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  client_id               text NOT NULL REFERENCES oidc_clients (client_id) ON DELETE CASCADE ON UPDATE CASCADE,
  url                     text NOT NULL,
  eventos                 text[] NOT NULL CHECK (cardinality(eventos) > 0),
  secret_sealed           text NOT NULL,
  previous_secret_sealed  text,
  previous_secret_until   timestamptz,
  -- 'activa'; 'desactivada' when the endpoint answered 410 Gone (the reason in `disabled_reason`).
  status                  text NOT NULL DEFAULT 'activa' CHECK (status IN ('activa', 'desactivada')),
  disabled_reason         text,
  disabled_at             timestamptz,
  next_seq                bigint NOT NULL DEFAULT 1,
  claimed_by              text,
  locked_until            timestamptz,
  created_by              integer REFERENCES users (id) ON DELETE SET NULL,
  created_at              timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX partner_subscriptions_client_idx ON partner_subscriptions (client_id);

-- What happened, as the triggers below saw it: the person (no foreign key, so a deleted person's event outlives
-- them), the app of a plan event, the client of a consent event. Fanned out by one instance at a time, in id order;
-- `fanned_out_at` marks the rows done (a cursor on the id would skip an event whose transaction commits late).
CREATE TABLE partner_events (
  id             bigserial PRIMARY KEY,
  user_id        integer NOT NULL,
  -- The person's public id (migration 0024), kept with the event: the subject a partner app knows them by is made of
  -- it (docs/decisions/0083-subjects.md), also once the account is gone.
  public_id      uuid,
  tipo           text NOT NULL,
  app_id         integer,
  client_id      text,
  data           jsonb NOT NULL DEFAULT '{}',
  created_at     timestamptz NOT NULL DEFAULT now(),
  fanned_out_at  timestamptz
);
CREATE INDEX partner_events_pending_idx ON partner_events (id) WHERE fanned_out_at IS NULL;
CREATE INDEX partner_events_created_idx ON partner_events (created_at);

-- One event for one subscription: the signed message (`payload`, built at fan-out with the subject that client
-- knows and only what its scopes allow), its sequence number in the subscription, and its delivery state. The
-- `message_id` is the Standard Webhooks `webhook-id`, the same on every try. `locked_until` marks a try in flight.
CREATE TABLE partner_deliveries (
  id                bigserial PRIMARY KEY,
  subscription_id   uuid NOT NULL REFERENCES partner_subscriptions (id) ON DELETE CASCADE,
  seq               bigint NOT NULL,
  event_id          bigint NOT NULL,
  message_id        text NOT NULL UNIQUE,
  tipo              text NOT NULL,
  payload           jsonb NOT NULL,
  -- 'pendiente' (to send or to retry), 'entregado', 'fallido' (every try failed), 'cancelada' (the subscription was
  -- disabled with it pending).
  status            text NOT NULL DEFAULT 'pendiente'
                    CHECK (status IN ('pendiente', 'entregado', 'fallido', 'cancelada')),
  attempts          integer NOT NULL DEFAULT 0,
  next_attempt_at   timestamptz NOT NULL DEFAULT now(),
  locked_until      timestamptz,
  last_error        text,
  last_status_code  integer,
  last_attempt_at   timestamptz,
  delivered_at      timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (subscription_id, seq),
  UNIQUE (subscription_id, event_id)
);
CREATE INDEX partner_deliveries_pending_idx ON partner_deliveries (subscription_id, seq) WHERE status = 'pendiente';
CREATE INDEX partner_deliveries_recent_idx ON partner_deliveries (subscription_id, id DESC);

-- The clients that know a person: those that were ever given a grant for them (first-party apps have no consent
-- row). Written by the trigger on oidc_payloads below; a person's `usuario.*` events go to these clients only. No
-- foreign key to users: `usuario.eliminado` is fanned out after the person is gone (the fan-out then forgets them).
CREATE TABLE oidc_client_people (
  client_id  text NOT NULL REFERENCES oidc_clients (client_id) ON DELETE CASCADE ON UPDATE CASCADE,
  user_id    integer NOT NULL,
  PRIMARY KEY (user_id, client_id)
);

-- Which expiry of a plan or licence was announced (`plan.vencido`): the expiry job sets it to the expiry it announced
-- in the statement that writes the event, so two instances never announce one expiry twice, and a new expiry set
-- later is announced again. Expiries that passed before this migration are taken as announced.
ALTER TABLE user_plans ADD COLUMN expiry_announced timestamptz;
UPDATE user_plans SET expiry_announced = fecha_vencimiento WHERE fecha_vencimiento <= now();
CREATE INDEX user_plans_expiry_due_idx ON user_plans (fecha_vencimiento)
  WHERE fecha_vencimiento IS NOT NULL AND expiry_announced IS DISTINCT FROM fecha_vencimiento;
ALTER TABLE company_licences ADD COLUMN expiry_announced timestamptz;
UPDATE company_licences SET expiry_announced = expires_at WHERE expires_at <= now();
CREATE INDEX company_licences_expiry_due_idx ON company_licences (expires_at)
  WHERE expiry_announced IS DISTINCT FROM expires_at;

-- Writes one event, only when an active subscription wants its type: a change no partner listens to costs one
-- look-up in a table of a few rows and writes nothing (subscribing later does not replay what happened before). The
-- notification wakes the fan-out at commit (it also polls); repeats in one transaction are sent once.
CREATE FUNCTION partner_event(p_user integer, p_tipo text, p_app integer, p_client text, p_data jsonb,
  p_public_id uuid DEFAULT NULL)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM partner_subscriptions WHERE status = 'activa' AND p_tipo = ANY (eventos)) THEN
    INSERT INTO partner_events (user_id, public_id, tipo, app_id, client_id, data)
    VALUES (p_user, coalesce(p_public_id, (SELECT public_id FROM users WHERE id = p_user)), p_tipo, p_app, p_client,
      p_data);
    PERFORM pg_notify('portal_partner_events', '');
  END IF;
END
$$;

-- A person's profile, status and deletion.
CREATE FUNCTION partner_events_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cambios text[] := '{}';
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM partner_event(OLD.id, 'usuario.eliminado', NULL, NULL, '{}', OLD.public_id);
    RETURN NULL;
  END IF;
  IF OLD.name IS DISTINCT FROM NEW.name THEN cambios := array_append(cambios, 'name'); END IF;
  IF OLD.last_name IS DISTINCT FROM NEW.last_name THEN cambios := array_append(cambios, 'last_name'); END IF;
  IF OLD.email IS DISTINCT FROM NEW.email THEN cambios := array_append(cambios, 'email'); END IF;
  IF OLD.phone IS DISTINCT FROM NEW.phone THEN cambios := array_append(cambios, 'phone'); END IF;
  IF cardinality(cambios) > 0 THEN
    -- The values of this change, so each event says what it changed to (the fan-out keeps what the scopes allow).
    PERFORM partner_event(NEW.id, 'usuario.actualizado', NULL, NULL, jsonb_build_object('cambios', cambios,
      'valores', jsonb_build_object('name', NEW.name, 'last_name', NEW.last_name, 'email', NEW.email,
        'phone', NEW.phone)));
  END IF;
  IF OLD.status = 'active' AND NEW.status = 'suspended' THEN
    PERFORM partner_event(NEW.id, 'usuario.suspendido', NULL, NULL, '{}');
  ELSIF OLD.status = 'suspended' AND NEW.status = 'active' THEN
    PERFORM partner_event(NEW.id, 'usuario.reactivado', NULL, NULL, '{}');
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER users_partner_events AFTER UPDATE ON users
  FOR EACH ROW WHEN ((OLD.name, OLD.last_name, OLD.email, OLD.phone, OLD.status)
    IS DISTINCT FROM (NEW.name, NEW.last_name, NEW.email, NEW.phone, NEW.status))
  EXECUTE FUNCTION partner_events_users();
CREATE TRIGGER users_partner_events_deleted AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION partner_events_users();

-- A person's own plan in an app. A plan taken away because the person was deleted is told by `usuario.eliminado`.
CREATE FUNCTION partner_events_user_plans() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM partner_event(NEW.user_id, 'plan.asignado', NEW.app_id, NULL,
      jsonb_build_object('origen', 'propio', 'plan_id', NEW.plan_id, 'vence', NEW.fecha_vencimiento));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM partner_event(NEW.user_id, 'plan.cambiado', NEW.app_id, NULL,
      jsonb_build_object('origen', 'propio', 'plan_id', NEW.plan_id, 'vence', NEW.fecha_vencimiento,
        'plan_anterior_id', OLD.plan_id));
  ELSIF EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id) THEN
    PERFORM partner_event(OLD.user_id, 'plan.retirado', OLD.app_id, NULL,
      jsonb_build_object('origen', 'propio', 'plan_id', OLD.plan_id));
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER user_plans_partner_events AFTER INSERT OR DELETE ON user_plans
  FOR EACH ROW EXECUTE FUNCTION partner_events_user_plans();
CREATE TRIGGER user_plans_partner_events_changed AFTER UPDATE ON user_plans
  FOR EACH ROW WHEN ((OLD.plan_id, OLD.fecha_vencimiento) IS DISTINCT FROM (NEW.plan_id, NEW.fecha_vencimiento))
  EXECUTE FUNCTION partner_events_user_plans();

-- A seat of a company's licence: given or taken back (also when the licence or the membership goes).
CREATE FUNCTION partner_events_company_seats() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  licence record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT plan_id, expires_at INTO licence FROM company_licences
      WHERE company_id = NEW.company_id AND app_id = NEW.app_id;
    PERFORM partner_event(NEW.user_id, 'plan.asignado', NEW.app_id, NULL,
      jsonb_build_object('origen', 'empresa', 'empresa_id', NEW.company_id, 'plan_id', licence.plan_id,
        'vence', licence.expires_at));
  ELSIF EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id) THEN
    PERFORM partner_event(OLD.user_id, 'plan.retirado', OLD.app_id, NULL,
      jsonb_build_object('origen', 'empresa', 'empresa_id', OLD.company_id));
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER company_seats_partner_events AFTER INSERT OR DELETE ON company_seats
  FOR EACH ROW EXECUTE FUNCTION partner_events_company_seats();

-- A licence's plan or expiry changed: every seat holder's plan changed.
CREATE FUNCTION partner_events_company_licences() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM partner_event(s.user_id, 'plan.cambiado', NEW.app_id, NULL,
      jsonb_build_object('origen', 'empresa', 'empresa_id', NEW.company_id, 'plan_id', NEW.plan_id,
        'vence', NEW.expires_at, 'plan_anterior_id', OLD.plan_id))
    FROM company_seats s WHERE s.company_id = NEW.company_id AND s.app_id = NEW.app_id;
  RETURN NULL;
END
$$;
CREATE TRIGGER company_licences_partner_events AFTER UPDATE ON company_licences
  FOR EACH ROW WHEN ((OLD.plan_id, OLD.expires_at) IS DISTINCT FROM (NEW.plan_id, NEW.expires_at))
  EXECUTE FUNCTION partner_events_company_licences();

-- A consent taken back or narrowed (/perfil, an administrator). One removed because the person or the client was
-- deleted is not a revocation: `usuario.eliminado` tells the first, and the second has no subscription left. A
-- consent taken back also ends what the client learns of the person, until it is given a grant again.
CREATE FUNCTION partner_events_consents() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id) THEN RETURN NULL; END IF;
  IF TG_OP = 'DELETE' THEN
    DELETE FROM oidc_client_people WHERE user_id = OLD.user_id AND client_id = OLD.client_id;
    PERFORM partner_event(OLD.user_id, 'consentimiento.revocado', NULL, OLD.client_id,
      jsonb_build_object('scopes_retirados', OLD.scopes));
  ELSIF NOT (NEW.scopes @> OLD.scopes) THEN
    PERFORM partner_event(OLD.user_id, 'consentimiento.revocado', NULL, OLD.client_id,
      jsonb_build_object('scopes_retirados',
        (SELECT coalesce(array_agg(s), '{}') FROM unnest(OLD.scopes) s WHERE NOT s = ANY (NEW.scopes))));
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER oidc_consents_partner_events AFTER UPDATE OR DELETE ON oidc_consents
  FOR EACH ROW EXECUTE FUNCTION partner_events_consents();

-- A grant saved for a person: that client now knows them.
CREATE FUNCTION oidc_client_people_seen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.account_id ~ '^[0-9]+$' AND NEW.payload ? 'clientId' THEN
    INSERT INTO oidc_client_people (client_id, user_id)
      SELECT NEW.payload->>'clientId', NEW.account_id::integer
      WHERE EXISTS (SELECT 1 FROM oidc_clients WHERE client_id = NEW.payload->>'clientId')
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER oidc_payloads_client_people AFTER INSERT ON oidc_payloads
  FOR EACH ROW WHEN (NEW.kind = 'Grant')
  EXECUTE FUNCTION oidc_client_people_seen();
-- The people existing grants and consents already link to their clients.
INSERT INTO oidc_client_people (client_id, user_id)
  SELECT DISTINCT p.payload->>'clientId', p.account_id::integer FROM oidc_payloads p
    JOIN oidc_clients c ON c.client_id = p.payload->>'clientId'
    WHERE p.kind = 'Grant' AND p.account_id ~ '^[0-9]+$'
  UNION
  SELECT client_id, user_id FROM oidc_consents
ON CONFLICT DO NOTHING;
