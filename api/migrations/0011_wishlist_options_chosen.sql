-- Whether the shopper chose the item's size and length (1) or only its colour (0): a product page
-- with nothing chosen saves the colour's first variant, whose size the wishlist must not offer as
-- the shopper's. Items saved before this migration keep 1, as they were treated.
ALTER TABLE wishlist_item ADD COLUMN options_chosen BIGINT NOT NULL DEFAULT 1;
