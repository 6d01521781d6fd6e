-- Tokens a person added by contract address: what the contract said of itself
-- when first added (a chain fact, the same for everyone, so one row per
-- network and contract), and which token accounts were added rather than
-- configured (those may be removed again).
CREATE TABLE added_tokens (
    network     TEXT NOT NULL,
    -- Lowercase hex.
    contract    TEXT NOT NULL,
    name        TEXT NOT NULL,
    symbol      TEXT NOT NULL,
    decimals    BIGINT NOT NULL,
    added_at    BIGINT NOT NULL,
    PRIMARY KEY (network, contract)
);

ALTER TABLE token_accounts ADD COLUMN added BIGINT NOT NULL DEFAULT 0;
