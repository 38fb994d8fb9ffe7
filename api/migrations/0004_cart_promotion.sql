-- The promotions engine's last evaluation of a cart (POST /api/cart/promotions): the discounts it
-- granted (JSON, minor units, by cart item id) and a fingerprint of the priced bag it was made
-- for. The cart view applies it only while the bag still has that fingerprint.
CREATE TABLE cart_promotion (
    cart_id TEXT PRIMARY KEY REFERENCES cart (id) ON DELETE CASCADE,
    fingerprint TEXT NOT NULL,
    discounts TEXT NOT NULL,
    synced_at BIGINT NOT NULL
);
