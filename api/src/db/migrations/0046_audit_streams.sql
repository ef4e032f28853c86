-- A company's activity log streamed to its own SIEM (docs/decisions/0139-audit-streams.md): each destination keeps
-- how far it got in the company's log (the cursor of domain/audit/ecs.ts, which never skips a committed entry), its
-- retry state and a lease for the one instance that sends to it at a time. Its secret (an HTTPS header's value, a
-- syslog client key) is sealed with the API's key, bound to the row.
CREATE TABLE audit_streams (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id integer NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('syslog', 'https')),
  settings jsonb NOT NULL,
  secret_sealed text,
  status text NOT NULL DEFAULT 'activo' CHECK (status IN ('activo', 'pausado')),
  cursor text,
  delivered_until timestamptz,
  delivered_at timestamptz,
  last_error text,
  failing_since timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_by text,
  locked_until timestamptz,
  created_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_streams_company_idx ON audit_streams (company_id);
CREATE INDEX audit_streams_due_idx ON audit_streams (next_attempt_at) WHERE status = 'activo';
