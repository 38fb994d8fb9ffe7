-- The checkout (docs/checkout.md): checkouts of a cart, payments on orders, guest order owners,
-- and stock that the schema keeps from going below zero.
--
-- Stock: `available` is what can be sold now at a location and can never be negative; `oversold`
-- is how far the platform's last report and the orders taken since then are below zero together
-- (available - oversold = reported - taken since the report). Rebuilt, because SQLite cannot add
-- a CHECK to an existing table.
CREATE TABLE inventory_next (
    variant_id BIGINT NOT NULL,
    location_id BIGINT NOT NULL,
    enabled BIGINT NOT NULL,
    available BIGINT NOT NULL CHECK (available >= 0),
    oversold BIGINT NOT NULL DEFAULT 0 CHECK (oversold >= 0),
    PRIMARY KEY (variant_id, location_id)
);
INSERT INTO inventory_next (variant_id, location_id, enabled, available, oversold)
    SELECT variant_id, location_id, enabled,
           CASE WHEN available < 0 THEN 0 ELSE available END,
           CASE WHEN available < 0 THEN 0 - available ELSE 0 END
    FROM inventory;
DROP TABLE inventory;
ALTER TABLE inventory_next RENAME TO inventory;

-- One checkout of a cart: the email, the one consignment (delivery address and shipping option)
-- and the billing choice (JSON `{"same_as_delivery":true}` or `{"address":{…}}`). `state`:
-- open → paying (Place order is charging) → ordered.
CREATE TABLE checkout (
    id TEXT PRIMARY KEY,
    cart_id TEXT NOT NULL,
    market TEXT NOT NULL,
    customer_id TEXT REFERENCES customer (id) ON DELETE SET NULL,
    email TEXT,
    consignment_id TEXT,
    shipping_address TEXT,
    shipping_option_id TEXT,
    billing TEXT,
    state TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX checkout_cart ON checkout (cart_id, state);

-- Orders of both checkouts: which one made it, the Place order key (the same key is the same
-- order), the provider's payment and what to ask it again, the guest browser that owns the
-- order (hash of its `sf_guest` cookie), and when stock was taken.
ALTER TABLE shop_order ADD COLUMN checkout_kind TEXT NOT NULL DEFAULT 'express';
ALTER TABLE shop_order ADD COLUMN idempotency_key TEXT;
ALTER TABLE shop_order ADD COLUMN payment_request TEXT;
ALTER TABLE shop_order ADD COLUMN payment_action_url TEXT;
ALTER TABLE shop_order ADD COLUMN owner_hash TEXT;
CREATE UNIQUE INDEX shop_order_place_key ON shop_order (checkout_id, idempotency_key);
CREATE INDEX shop_order_status ON shop_order (status, updated_at);
