-- A company's setup links (docs/decisions/0105-company-setup-link.md): a URL an owner hands to the company's IT, which
-- opens the domain, sign-in and directory steps without an account until it expires, is revoked or its owner leaves.
-- Only the secret's SHA-256 (hex) is kept.

CREATE TABLE company_setup_links (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  secret_hash text NOT NULL UNIQUE,
  created_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);

CREATE INDEX company_setup_links_company ON company_setup_links (company_id);
