-- Browsers a customer has signed in from (api/src/auth/devices.rs): the `sf_device` cookie holds
-- a random token, stored here as its BLAKE3 hash. When strangers' failed sign-ins reach an
-- account's overall cap, a sign-in from one of its known browsers is still allowed.
CREATE TABLE known_device (
    token_hash TEXT NOT NULL,
    customer_id TEXT NOT NULL REFERENCES customer (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    PRIMARY KEY (token_hash, customer_id)
);
CREATE INDEX known_device_seen ON known_device (last_seen_at);
