-- A directory's externalId is the directory's to give (RFC 7643 §3.1): two people of a company may share one, as
-- Microsoft's reference server accepts (docs/decisions/0109-scim-reference-collection.md). Still indexed for the
-- `externalId eq` filter.
DROP INDEX company_scim_users_external_id_key;
CREATE INDEX company_scim_users_external_id_idx ON company_scim_users (company_id, external_id)
  WHERE external_id IS NOT NULL;
