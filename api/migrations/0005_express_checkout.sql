-- Express (wallet) checkout and the orders it creates (docs/api.md "Express checkout").
--
-- Shipping options per market: data, not code (docs/decisions.md). Prices are minor units of the
-- market's currency; `position` is the order the wallet sheet lists them in. The §5 rules filter
-- them by name ("click & collect" / "parcel shop" never, "express" / "next" only when allowed).
CREATE TABLE shipping_option (
    id TEXT PRIMARY KEY,
    market TEXT NOT NULL,
    name TEXT NOT NULL,
    detail TEXT NOT NULL,
    price BIGINT NOT NULL,
    position BIGINT NOT NULL
);
CREATE INDEX shipping_option_market ON shipping_option (market, position);
INSERT INTO shipping_option (id, market, name, detail, price, position) VALUES
    ('uk-standard', 'uk', 'Standard Delivery', '3-5 working days', 395, 1),
    ('uk-next-day', 'uk', 'Next Day Delivery', 'Order by 9pm', 595, 2),
    ('uk-express', 'uk', 'Express Delivery', 'Within 2 working days', 495, 3),
    ('uk-click-collect', 'uk', 'Click & Collect', 'Collect from a shop', 0, 4),
    ('uk-parcel-shop', 'uk', 'Parcel Shop', 'Collect from a parcel shop', 295, 5),
    ('us-standard', 'us', 'Standard Delivery', '5-8 working days', 1495, 1),
    ('us-express', 'us', 'Express Delivery', '2-3 working days', 2995, 2),
    ('us-parcel-shop', 'us', 'Parcel Shop', 'Collect from a parcel shop', 995, 3),
    ('eu-standard', 'eu', 'Standard Delivery', '3-7 working days', 895, 1),
    ('eu-next-day', 'eu', 'Next Day Delivery', 'Order by 6pm', 1995, 2),
    ('eu-express', 'eu', 'Express Delivery', '2-3 working days', 1495, 3),
    ('eu-click-collect', 'eu', 'Click & Collect', 'Collect from a shop', 0, 4);

-- One express checkout of a cart: the checkout id the confirmation path carries, the one
-- consignment (the shipping contact's country and area; replaced whenever the contact changes)
-- and the chosen option. `state`: open → paying (an authorisation is running) → ordered.
CREATE TABLE express_checkout (
    id TEXT PRIMARY KEY,
    cart_id TEXT NOT NULL,
    market TEXT NOT NULL,
    customer_id TEXT REFERENCES customer (id) ON DELETE SET NULL,
    consignment_id TEXT,
    consignment TEXT,
    shipping_option_id TEXT,
    state TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX express_checkout_cart ON express_checkout (cart_id);

-- Orders (the table is not called `order`, a reserved word). Money is minor units computed by the
-- server; `status` is one of the spec's order statuses (Pending while the payment runs, Confirmed
-- once paid, Cancelled when it failed) and `payment_status` pending / paid / failed.
CREATE TABLE shop_order (
    id TEXT PRIMARY KEY,
    number TEXT NOT NULL UNIQUE,
    checkout_id TEXT NOT NULL,
    customer_id TEXT REFERENCES customer (id) ON DELETE SET NULL,
    market TEXT NOT NULL,
    currency TEXT NOT NULL,
    status TEXT NOT NULL,
    payment_status TEXT NOT NULL,
    payment_method TEXT NOT NULL,
    payment_reference TEXT,
    subtotal BIGINT NOT NULL,
    discount BIGINT NOT NULL,
    shipping BIGINT NOT NULL,
    total BIGINT NOT NULL,
    shipping_option_id TEXT NOT NULL,
    shipping_option_name TEXT NOT NULL,
    email TEXT NOT NULL,
    shipping_address TEXT NOT NULL,
    billing_address TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX shop_order_customer ON shop_order (customer_id, created_at);
CREATE INDEX shop_order_checkout ON shop_order (checkout_id);

-- An order's lines at the prices charged. `allocations` (JSON [[location_id, units], …]) records
-- which warehouse each unit was taken from, so a failed payment puts back exactly that stock.
CREATE TABLE shop_order_line (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES shop_order (id) ON DELETE CASCADE,
    product_id BIGINT NOT NULL,
    variant_id BIGINT NOT NULL,
    sku TEXT NOT NULL,
    name TEXT NOT NULL,
    quantity BIGINT NOT NULL,
    list_price BIGINT NOT NULL,
    unit_price BIGINT NOT NULL,
    discount BIGINT NOT NULL,
    options TEXT NOT NULL,
    allocations TEXT NOT NULL,
    position BIGINT NOT NULL
);
CREATE INDEX shop_order_line_order ON shop_order_line (order_id);
