-- Customer companies (docs/decisions/0073-companies-and-seats.md): a company groups people under its own
-- administrators, holds licences (seats of an app's plan until an expiry) and hands those seats to its members.

CREATE TABLE companies (
  id                      serial PRIMARY KEY,
  name                    text NOT NULL,
  status                  text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
  -- What a person who verifies an address at one of the company's proved domains becomes: a member at once
  -- ('automatic') or a request a company administrator approves ('approval').
  domain_join             text NOT NULL DEFAULT 'approval' CHECK (domain_join IN ('automatic', 'approval')),
  -- The company's seats count for a member only once that member has a second factor.
  require_second_factor   boolean NOT NULL DEFAULT false,
  created_at              timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX companies_name_key ON companies (lower(name));

-- A person in a company, with a role there. 'pending_approval': joined by email domain, waiting for an administrator.
CREATE TABLE company_members (
  company_id   integer NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  user_id      integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role         text NOT NULL CHECK (role IN ('propietario', 'administrador', 'miembro')),
  status       text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'pending_approval')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, user_id)
);
CREATE INDEX company_members_user_id_idx ON company_members (user_id);

-- An email domain a company claims; it is the company's once proved (a DNS TXT record or a platform administrator's
-- confirmation). A proved domain belongs to one company only.
CREATE TABLE company_domains (
  company_id          integer NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  domain              text NOT NULL,
  -- The value the company publishes in its TXT record.
  verification_token  text NOT NULL,
  verified_at         timestamptz,
  verified_by         text CHECK (verified_by IN ('dns', 'admin')),
  created_at          timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, domain)
);
CREATE UNIQUE INDEX company_domains_proved_key ON company_domains (domain) WHERE verified_at IS NOT NULL;

-- Seats of one app's plan sold to a company until an expiry: one licence per company and app. `seats_in_use` is kept
-- by the trigger below in the transaction that assigns or takes back a seat; an assignment locks the licence row and
-- refuses once `seats_in_use` reaches `seats`. Lowering `seats` below `seats_in_use` takes no seat back by itself.
CREATE TABLE company_licences (
  id             serial PRIMARY KEY,
  company_id     integer NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  app_id         integer NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  plan_id        integer NOT NULL,
  seats          integer NOT NULL CHECK (seats >= 0),
  seats_in_use   integer NOT NULL DEFAULT 0 CHECK (seats_in_use >= 0),
  expires_at     timestamptz NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, app_id),
  FOREIGN KEY (plan_id, app_id) REFERENCES plans (id, app_id) ON DELETE CASCADE
);

-- A seat: a member of the company using one of its licence's seats.
CREATE TABLE company_seats (
  company_id    integer NOT NULL,
  user_id       integer NOT NULL,
  app_id        integer NOT NULL,
  assigned_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, app_id, user_id),
  FOREIGN KEY (company_id, user_id) REFERENCES company_members (company_id, user_id) ON DELETE CASCADE,
  FOREIGN KEY (company_id, app_id) REFERENCES company_licences (company_id, app_id) ON DELETE CASCADE
);
CREATE INDEX company_seats_user_id_idx ON company_seats (user_id);

CREATE FUNCTION company_seats_in_use() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE company_licences SET seats_in_use = seats_in_use + 1
      WHERE company_id = NEW.company_id AND app_id = NEW.app_id;
  ELSE
    UPDATE company_licences SET seats_in_use = seats_in_use - 1
      WHERE company_id = OLD.company_id AND app_id = OLD.app_id;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER company_seats_in_use AFTER INSERT OR DELETE ON company_seats
  FOR EACH ROW EXECUTE FUNCTION company_seats_in_use();

-- An invitation to join a company with a role, mailed with a 6-digit code (HMAC kept, never the code). At most one
-- pending invitation per company and address.
CREATE TABLE company_invitations (
  id            serial PRIMARY KEY,
  company_id    integer NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  email         text NOT NULL,
  role          text NOT NULL CHECK (role IN ('propietario', 'administrador', 'miembro')),
  code_hash     text NOT NULL,
  attempts      integer NOT NULL DEFAULT 0,
  invited_by    integer REFERENCES users (id) ON DELETE SET NULL,
  sent_at       timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  accepted_at   timestamptz,
  accepted_by   integer REFERENCES users (id) ON DELETE SET NULL,
  revoked_at    timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX company_invitations_pending_key ON company_invitations (company_id, email)
  WHERE accepted_at IS NULL AND revoked_at IS NULL;
CREATE INDEX company_invitations_email_idx ON company_invitations (email) WHERE accepted_at IS NULL AND revoked_at IS NULL;

-- The company an audit entry is about, so a company administrator reads the entries of their company only.
ALTER TABLE audit_log ADD COLUMN company_id integer REFERENCES companies (id) ON DELETE CASCADE;
CREATE INDEX audit_log_company_idx ON audit_log (company_id, created_at DESC, id DESC) WHERE company_id IS NOT NULL;
ALTER TABLE audit_log DROP CONSTRAINT audit_log_target_type_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_target_type_check
  CHECK (target_type IN ('user', 'app', 'oidc_client', 'company'));

-- What a person's plan is read from now includes their seats and memberships (domain/apps-and-plans/effective-plans.ts):
-- the session state of every instance is told of a change to them, like a change to user_plans
-- (0011_session_notify.sql). A company's or licence's change may concern all its members: '*'.
CREATE OR REPLACE FUNCTION portal_session_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME IN ('plans', 'apps', 'revoked_tokens', 'companies', 'company_licences') THEN
    PERFORM pg_notify('portal_session_state', '*');
  ELSIF TG_TABLE_NAME = 'users' THEN
    IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('portal_session_state', OLD.id::text); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('portal_session_state', NEW.id::text); END IF;
  ELSE
    IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('portal_session_state', OLD.user_id::text); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('portal_session_state', NEW.user_id::text); END IF;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER company_members_session_notify AFTER INSERT OR UPDATE OR DELETE ON company_members
  FOR EACH ROW EXECUTE FUNCTION portal_session_notify();
CREATE TRIGGER company_seats_session_notify AFTER INSERT OR UPDATE OR DELETE ON company_seats
  FOR EACH ROW EXECUTE FUNCTION portal_session_notify();
CREATE TRIGGER companies_session_notify AFTER UPDATE OR DELETE ON companies
  FOR EACH ROW EXECUTE FUNCTION portal_session_notify();
-- The seat counter moves with every assignment; only what a member's plan is read from notifies.
CREATE TRIGGER company_licences_session_notify AFTER UPDATE ON company_licences
  FOR EACH ROW
  WHEN ((OLD.plan_id, OLD.expires_at) IS DISTINCT FROM (NEW.plan_id, NEW.expires_at))
  EXECUTE FUNCTION portal_session_notify();
CREATE TRIGGER company_licences_delete_session_notify AFTER DELETE ON company_licences
  FOR EACH ROW EXECUTE FUNCTION portal_session_notify();
