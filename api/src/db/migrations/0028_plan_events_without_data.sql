-- The plan events of 0025's triggers (`plan.asignado`, `plan.cambiado`, `plan.retirado`) no longer carry `data`: the
-- fan-out never read it, and sends each client the person's plan as the one plan rule computes it then
-- (domain/partner-events/events.ts, `eventData`). A seat's event no longer reads its licence to fill it either.
-- Which events are written, when, for whom and for which app is unchanged (docs/triggers.md).
CREATE OR REPLACE FUNCTION partner_events_user_plans() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM partner_event(NEW.user_id, 'plan.asignado', NEW.app_id, NULL, '{}');
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM partner_event(NEW.user_id, 'plan.cambiado', NEW.app_id, NULL, '{}');
  ELSIF EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id) THEN
    PERFORM partner_event(OLD.user_id, 'plan.retirado', OLD.app_id, NULL, '{}');
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION partner_events_company_seats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM partner_event(NEW.user_id, 'plan.asignado', NEW.app_id, NULL, '{}');
  ELSIF EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id) THEN
    PERFORM partner_event(OLD.user_id, 'plan.retirado', OLD.app_id, NULL, '{}');
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION partner_events_company_licences() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM partner_event(s.user_id, 'plan.cambiado', NEW.app_id, NULL, '{}')
    FROM company_seats s WHERE s.company_id = NEW.company_id AND s.app_id = NEW.app_id;
  RETURN NULL;
END
$$;
