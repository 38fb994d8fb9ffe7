-- A registration waiting for its owner to open the link emailed to the address
-- (api/src/auth/confirmation.rs). The account is created only then, so registering answers the
-- same whether or not the email already has one. `payload` is the checked registration as JSON,
-- without the password; `password_hash` is its argon2 hash. One row per email: a newer
-- registration replaces an older one.
CREATE TABLE pending_registration (
    token_hash TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX pending_registration_email ON pending_registration (email);
