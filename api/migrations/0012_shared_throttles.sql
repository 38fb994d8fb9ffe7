-- What used to live in each API process's memory and must be shared by every host on one store.
-- Rate-limit windows (api/src/rate_limit.rs): one fixed window per key (an account, a client
-- address, a checkout), with its hits; a window that has ended is restarted by the next hit.
CREATE TABLE rate_window (
    key TEXT PRIMARY KEY,
    started_at BIGINT NOT NULL,
    ends_at BIGINT NOT NULL,
    hits BIGINT NOT NULL
);
CREATE INDEX rate_window_ends ON rate_window (ends_at);
-- Webhook deliveries already acted on (api/src/webhooks/replay.rs), so a replayed or re-sent
-- delivery is acknowledged and ignored whichever host it reaches.
CREATE TABLE webhook_delivery (
    id TEXT PRIMARY KEY,
    received_at BIGINT NOT NULL
);
CREATE INDEX webhook_delivery_received ON webhook_delivery (received_at);
