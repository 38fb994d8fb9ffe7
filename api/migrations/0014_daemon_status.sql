-- The rebuild leader's last rebuilds and deploys as its status endpoint reports them
-- (api/src/webhooks/status.rs), so `GET /api/webhooks/status` answers the same on every host.
CREATE TABLE daemon_status (
    name TEXT PRIMARY KEY,
    body TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
