-- What each account allowed others to spend or move, as found in its logs:
-- the newest ERC-20 Approval and NFT ApprovalForAll per contract, spender and
-- kind (1: allowance, 2: operator for all). A withdrawn one is deleted. The
-- device checks each with a call before showing it.
CREATE TABLE approvals (
    account_id    TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    -- Lowercase hex.
    contract      TEXT NOT NULL,
    spender       TEXT NOT NULL,
    kind          BIGINT NOT NULL,
    -- The allowance as a decimal string; 1 for an operator.
    value         TEXT NOT NULL,
    block_number  BIGINT NOT NULL,
    tx_hash       TEXT NOT NULL,
    PRIMARY KEY (account_id, contract, spender, kind)
);

-- Where each account's next approval log scan starts.
CREATE TABLE approval_scans (
    account_id  TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    next_block  BIGINT NOT NULL
);
