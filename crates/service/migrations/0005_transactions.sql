-- What the wallets sent through the service (signed on the device, broadcast
-- here), followed to the block, and the token transfers they received, found in
-- the logs of the networks' tracked tokens.
CREATE TABLE transactions (
    id              TEXT PRIMARY KEY,
    wallet_id       TEXT NOT NULL REFERENCES wallets (id) ON DELETE CASCADE,
    account_id      TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    network         TEXT NOT NULL,
    -- Lowercase 0x-hex.
    tx_hash         TEXT NOT NULL,
    -- The log's index for a received transfer; -1 for a sent transaction.
    log_index       BIGINT NOT NULL,
    -- 'sent' or 'received'.
    direction       TEXT NOT NULL,
    -- 'pending', 'mined', 'failed' or 'replaced'.
    status          TEXT NOT NULL,
    -- Lowercase hex: the recipient of a sent one, the sender of a received one.
    counterparty    TEXT NOT NULL,
    -- The token's contract (lowercase hex); NULL for the coin.
    contract        TEXT,
    -- Integer strings in the smallest unit (wei for the fee and caps).
    amount          TEXT NOT NULL,
    nonce           BIGINT,
    gas_limit       BIGINT,
    max_fee_per_gas TEXT,
    max_priority_fee_per_gas TEXT,
    fee             TEXT,
    block_number    BIGINT,
    replaced_by     TEXT,
    created_at      BIGINT NOT NULL,
    UNIQUE (account_id, tx_hash, log_index)
);
CREATE INDEX transactions_wallet ON transactions (wallet_id, created_at);
CREATE INDEX transactions_status ON transactions (status, created_at);
CREATE INDEX transactions_nonce ON transactions (account_id, nonce);

-- How far each account's incoming token transfers have been read (the next
-- block to read).
CREATE TABLE transfer_scans (
    account_id  TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    next_block  BIGINT NOT NULL
);
