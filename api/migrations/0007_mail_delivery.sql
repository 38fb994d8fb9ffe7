-- Delivering the outbox (api/src/mail): each message's HTML part, market and unsubscribe link,
-- and where its delivery stands. `state`: pending (waiting, or leased by a sender until
-- `lease_until`) → sent (the SMTP server answered 250), or failed (a permanent refusal, or the
-- last try of a temporary one; `last_error` says why). A sender claims a message by writing its
-- `lease_owner` and `lease_until`; a message whose lease ran out is free to claim again.
ALTER TABLE outbox ADD COLUMN html TEXT;
ALTER TABLE outbox ADD COLUMN market TEXT NOT NULL DEFAULT 'uk';
ALTER TABLE outbox ADD COLUMN list_unsubscribe TEXT;
ALTER TABLE outbox ADD COLUMN state TEXT NOT NULL DEFAULT 'pending';
ALTER TABLE outbox ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN next_attempt_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN lease_owner TEXT;
ALTER TABLE outbox ADD COLUMN lease_until BIGINT;
ALTER TABLE outbox ADD COLUMN last_error TEXT;
ALTER TABLE outbox ADD COLUMN updated_at BIGINT NOT NULL DEFAULT 0;
UPDATE outbox SET state = 'sent' WHERE sent_at IS NOT NULL;
CREATE INDEX outbox_due ON outbox (state, next_attempt_at);

-- A newsletter sign-up's unsubscribe token (its BLAKE3 hash; the token is in the email's
-- List-Unsubscribe link). Withdrawing consent adds a `withdraw` row, so the table stays a log.
ALTER TABLE marketing_consent ADD COLUMN unsubscribe_hash TEXT;
CREATE INDEX marketing_consent_unsubscribe ON marketing_consent (unsubscribe_hash);
