-- Mail claims (docs/decisions/0022-mail-outbox.md): a claim is short and renewed by its sender while it is alive, so
-- the instance that holds it is named; a live sender renews and releases only its own rows, and a dead one's run out
-- in seconds.
ALTER TABLE mail_outbox ADD COLUMN claimed_by text;
