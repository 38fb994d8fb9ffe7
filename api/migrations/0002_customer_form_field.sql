-- Registration's custom_fields: name/value pairs shown among the customer's form_fields after
-- Title, Date of Birth, Preference Email and Preference Post (names are unique per customer).
CREATE TABLE customer_form_field (
    customer_id TEXT NOT NULL REFERENCES customer (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    position BIGINT NOT NULL,
    PRIMARY KEY (customer_id, name)
);
