-- A company's own sign-in and directory (docs/decisions/0080-company-sign-in.md, 0081-scim-provisioning.md).

-- The company's OpenID Connect provider (Entra ID, Okta, Google Workspace…): one per company. The client secret is
-- kept sealed (AES-256-GCM under a key derived from the API's signing key), never shown again.
CREATE TABLE company_identity_providers (
  company_id            integer PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
  issuer                text NOT NULL,
  client_id             text NOT NULL,
  client_secret_sealed  text NOT NULL,
  -- Whether people at the connection's domains may still sign in with a portal password.
  allow_password        boolean NOT NULL DEFAULT true,
  -- The last failure of a sign-in through the provider (a Spanish text shown to the company's administrators).
  last_error            text,
  last_error_at         timestamptz,
  last_sign_in_at       timestamptz,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now()
);

-- The domains a connection answers for: each one a domain the company has proved (company_domains), so one domain
-- leads to one company's provider at most. Removing the proved domain removes it here.
CREATE TABLE company_sign_in_domains (
  company_id  integer NOT NULL REFERENCES company_identity_providers (company_id) ON DELETE CASCADE,
  domain      text NOT NULL,
  PRIMARY KEY (company_id, domain),
  FOREIGN KEY (company_id, domain) REFERENCES company_domains (company_id, domain) ON DELETE CASCADE
);
CREATE UNIQUE INDEX company_sign_in_domains_domain_key ON company_sign_in_domains (domain);

-- A person of the company's provider (its `sub`) linked to a portal account.
CREATE TABLE company_identities (
  company_id    integer NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  subject       text NOT NULL,
  user_id       integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  email         text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, subject)
);
CREATE UNIQUE INDEX company_identities_user_key ON company_identities (company_id, user_id);
CREATE INDEX company_identities_user_id_idx ON company_identities (user_id);

-- A company sign-in that found an existing account with its own credentials: the link waits for the person to sign
-- in to that account too (proof of both sides). The code is kept as its SHA-256, bound to the tab that started.
CREATE TABLE company_link_returns (
  id          text PRIMARY KEY,
  company_id  integer NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  subject     text NOT NULL,
  user_id     integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  email       text NOT NULL,
  binding     text NOT NULL,
  expires_at  timestamptz NOT NULL
);

-- Bearer tokens of the company's directory (SCIM 2.0): the owner creates one, sees it once; kept as its SHA-256.
CREATE TABLE company_scim_tokens (
  id            serial PRIMARY KEY,
  company_id    integer NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  token_hash    text NOT NULL UNIQUE,
  -- The token's first characters, so its owner tells tokens apart.
  prefix        text NOT NULL,
  description   text NOT NULL DEFAULT '',
  created_by    integer REFERENCES users (id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX company_scim_tokens_company_idx ON company_scim_tokens (company_id);

-- A person as the company's directory knows them: the SCIM resource. `active` false (or a DELETE) took them out of the
-- company; the row stays for an `active` false so the directory reads back what it wrote.
CREATE TABLE company_scim_users (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id    integer NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  user_id       integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  user_name     text NOT NULL,
  external_id   text,
  given_name    text NOT NULL DEFAULT '',
  family_name   text NOT NULL DEFAULT '',
  display_name  text NOT NULL DEFAULT '',
  active        boolean NOT NULL DEFAULT true,
  version       integer NOT NULL DEFAULT 1,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX company_scim_users_user_key ON company_scim_users (company_id, user_id);
CREATE UNIQUE INDEX company_scim_users_user_name_key ON company_scim_users (company_id, lower(user_name));
CREATE UNIQUE INDEX company_scim_users_external_id_key ON company_scim_users (company_id, external_id)
  WHERE external_id IS NOT NULL;
CREATE INDEX company_scim_users_user_id_idx ON company_scim_users (user_id);

-- The company's last directory requests, so a failed sync can be explained to its administrators.
CREATE TABLE company_scim_requests (
  id           bigserial PRIMARY KEY,
  company_id   integer NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  method       text NOT NULL,
  path         text NOT NULL,
  status       integer NOT NULL,
  -- What was done or why it was refused, in Spanish.
  detail       text NOT NULL DEFAULT '',
  user_name    text,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX company_scim_requests_company_idx ON company_scim_requests (company_id, id DESC);

-- The audit log names the source of a provisioning change or a sign-in in its details ({"fuente": "scim" |
-- "proveedor" | "administrador"}); its actions are checked by the API (domain/accounts/audit-actions.ts).
