-- A company's own sign-in through SAML 2.0 (AD FS, Entra ID, Okta, Google Workspace): the portal is the service
-- provider (docs/decisions/0098-saml-library.md, 0099-company-saml-sign-in.md).

-- One connection per company, OpenID Connect or SAML. For SAML, `issuer` is the identity provider's entity ID (the
-- Issuer its assertions name) and `saml_metadata` its metadata as the company's IT pasted it, or as last read from
-- `saml_metadata_url` (at `saml_metadata_read_at`, read again once a day); the OIDC client's id and sealed secret are
-- then empty.
ALTER TABLE company_identity_providers
  ADD COLUMN protocol text NOT NULL DEFAULT 'oidc',
  ADD COLUMN saml_metadata text,
  ADD COLUMN saml_metadata_url text,
  ADD COLUMN saml_metadata_read_at timestamptz,
  ALTER COLUMN client_id DROP NOT NULL,
  ALTER COLUMN client_secret_sealed DROP NOT NULL,
  ADD CONSTRAINT company_identity_providers_protocol_check CHECK (
    (protocol = 'oidc' AND client_id IS NOT NULL AND client_secret_sealed IS NOT NULL AND saml_metadata IS NULL)
    OR (protocol = 'saml' AND saml_metadata IS NOT NULL)
  );

-- A sign-in sent to a company's SAML identity provider (the AuthnRequest's ID), waiting for its response at the ACS:
-- the tab's binding and destination come back from here, not from the cross-site POST. Consumed by the response.
CREATE TABLE saml_requests (
  id            text PRIMARY KEY,
  company_id    integer NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  binding       text NOT NULL,
  redirect_url  text,
  expires_at    timestamptz NOT NULL
);
CREATE INDEX saml_requests_expires_at_idx ON saml_requests (expires_at);

-- The assertions already used, by their issuer and ID, until they expire: a response posted twice (by any instance)
-- finds its assertion here and is refused.
CREATE TABLE saml_assertions_used (
  issuer        text NOT NULL,
  assertion_id  text NOT NULL,
  expires_at    timestamptz NOT NULL,
  PRIMARY KEY (issuer, assertion_id)
);
CREATE INDEX saml_assertions_used_expires_at_idx ON saml_assertions_used (expires_at);
