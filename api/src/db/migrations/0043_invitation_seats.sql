-- An invitation may carry a seat of one of the company's apps (docs/decisions/0132-inviting-many-people.md): the
-- invitee gets it on accepting, when the licence still has one free. Pending invitations never promise more seats
-- of an app than its licence has free; the partial index counts them.
ALTER TABLE company_invitations ADD COLUMN app_id integer REFERENCES apps (id) ON DELETE SET NULL;
CREATE INDEX company_invitations_app_idx ON company_invitations (company_id, app_id)
  WHERE app_id IS NOT NULL AND accepted_at IS NULL AND revoked_at IS NULL;
