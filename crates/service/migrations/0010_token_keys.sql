-- The token signing keys, sealed (XChaCha20-Poly1305 under a key derived from
-- `pin_secret`, bound to the kid): a copy of the database alone cannot mint
-- tokens. Keys made before this table (signing_keys, in clear) are moved here,
-- sealed, at start. A new key is published (verifies, in the JWKS) before it
-- signs, and an old one keeps verifying until the tokens it signed expired.
CREATE TABLE token_keys (
    kid           TEXT PRIMARY KEY,
    sealed        TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    -- When it starts signing.
    activated_at  BIGINT NOT NULL,
    -- When it stopped signing (a newer key activated); NULL while it is current.
    retired_at    BIGINT
);
