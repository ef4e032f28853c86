-- A SIEM destination is claimed only when its company has entries past the last one it sent
-- (docs/decisions/0159-one-sender.md): that entry's place, as a number beside the cursor that keeps it, so the claim
-- asks the company's places (audit_positions_company_idx) instead of claiming every destination to find out.
-- NULL: nothing sent yet (every entry of the company is due), or a cursor written before this column.
ALTER TABLE audit_streams ADD COLUMN sent_position bigint;
