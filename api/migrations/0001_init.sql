-- Portable schema: runs unchanged on SQLite and PostgreSQL. Ids are TEXT (random), times are
-- BIGINT unix seconds, money is BIGINT minor units, flags are BIGINT 0/1: the sqlx Any driver
-- has no UUID, timestamp, NUMERIC or cross-database boolean mapping.

CREATE TABLE catalog_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- Prices and stock as imported from the catalog export: the only source the cart reads them from.
CREATE TABLE catalog_variant (
    variant_id BIGINT PRIMARY KEY,
    product_id BIGINT NOT NULL,
    sku TEXT NOT NULL,
    purchasing_disabled BIGINT NOT NULL,
    tracked BIGINT NOT NULL,
    price_uk BIGINT NOT NULL,
    sale_uk BIGINT,
    price_us BIGINT NOT NULL,
    sale_us BIGINT,
    price_eu BIGINT NOT NULL,
    sale_eu BIGINT
);
CREATE INDEX catalog_variant_product ON catalog_variant (product_id);

CREATE TABLE inventory (
    variant_id BIGINT NOT NULL,
    location_id BIGINT NOT NULL,
    enabled BIGINT NOT NULL,
    available BIGINT NOT NULL,
    PRIMARY KEY (variant_id, location_id)
);

CREATE TABLE customer (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    title TEXT NOT NULL,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    phone TEXT NOT NULL,
    date_of_birth TEXT NOT NULL,
    preference_email BIGINT NOT NULL,
    preference_post BIGINT NOT NULL,
    country_iso2 TEXT NOT NULL,
    accepts_marketing BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);

-- Only a hash of the session id is stored: a copy of the database does not sign anyone in.
CREATE TABLE session (
    id_hash TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customer (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX session_customer ON session (customer_id);

CREATE TABLE cart (
    id TEXT PRIMARY KEY,
    market TEXT NOT NULL,
    customer_id TEXT REFERENCES customer (id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX cart_customer ON cart (customer_id, market);

CREATE TABLE cart_item (
    id TEXT PRIMARY KEY,
    cart_id TEXT NOT NULL REFERENCES cart (id) ON DELETE CASCADE,
    product_id BIGINT NOT NULL,
    variant_id BIGINT NOT NULL,
    quantity BIGINT NOT NULL,
    options TEXT NOT NULL,
    merge_key TEXT NOT NULL,
    position BIGINT NOT NULL
);
CREATE INDEX cart_item_cart ON cart_item (cart_id);

CREATE TABLE address (
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customer (id) ON DELETE CASCADE,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    street_name TEXT NOT NULL,
    house_number TEXT NOT NULL,
    city TEXT NOT NULL,
    state_or_province TEXT NOT NULL,
    postal_code TEXT NOT NULL,
    country_code TEXT NOT NULL,
    phone TEXT NOT NULL,
    position BIGINT NOT NULL
);
CREATE INDEX address_customer ON address (customer_id);

CREATE TABLE wishlist (
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customer (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    is_public BIGINT NOT NULL,
    token TEXT NOT NULL,
    position BIGINT NOT NULL
);
CREATE INDEX wishlist_customer ON wishlist (customer_id);

CREATE TABLE wishlist_item (
    id TEXT PRIMARY KEY,
    wishlist_id TEXT NOT NULL REFERENCES wishlist (id) ON DELETE CASCADE,
    product_id BIGINT NOT NULL,
    variant_id BIGINT NOT NULL,
    position BIGINT NOT NULL,
    UNIQUE (wishlist_id, product_id, variant_id)
);

-- Reset tokens are stored hashed; used_at makes them single-use.
CREATE TABLE password_reset (
    token_hash TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customer (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);

-- Mail waiting to be sent. A sender (SMTP relay, provider API) drains rows with sent_at NULL.
CREATE TABLE outbox (
    id TEXT PRIMARY KEY,
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    kind TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    sent_at BIGINT
);

CREATE TABLE marketing_consent (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    category TEXT NOT NULL,
    action TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE stock_notification (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    product_id BIGINT NOT NULL,
    variant_id BIGINT,
    size TEXT NOT NULL,
    fit TEXT,
    market TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
