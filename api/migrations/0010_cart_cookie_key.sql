-- The cart cookie's secret, distinct from the cart's public id (api/src/cart): the id appears in
-- every cart answer, the order confirmation's path and the checkout, so it must not be what
-- unlocks the cart. Carts made before this migration keep their id as their key until they
-- expire with their cookie (30 days).
ALTER TABLE cart ADD COLUMN cookie_key TEXT;
UPDATE cart SET cookie_key = id;
CREATE UNIQUE INDEX cart_cookie_key ON cart (cookie_key);
