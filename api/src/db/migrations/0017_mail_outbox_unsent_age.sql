-- The metrics read the count and the oldest creation time of unsent mail at every scrape: this partial index answers
-- both from the unsent rows alone, however many sent ones the table keeps.
CREATE INDEX mail_outbox_unsent_created_idx ON mail_outbox (created_at) WHERE sent_at IS NULL;
