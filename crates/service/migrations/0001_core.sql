-- Portable SQL: this one file runs on SQLite and PostgreSQL alike. Ids are text made
-- by the service, integers are BIGINT, flags are 0/1 BIGINT, times are unix seconds,
-- and on-chain amounts are decimal strings (they overflow every SQL integer type).

CREATE TABLE apps (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    -- SHA-256 of the app key, hex. The key itself is shown once and never stored.
    key_hash    TEXT NOT NULL UNIQUE,
    created_at  BIGINT NOT NULL
);

CREATE TABLE app_domains (
    app_id  TEXT NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    domain  TEXT NOT NULL,
    PRIMARY KEY (app_id, domain)
);

CREATE TABLE users (
    id          TEXT PRIMARY KEY,
    app_id      TEXT NOT NULL REFERENCES apps (id),
    provider    TEXT NOT NULL,
    -- The provider's stable id of the person; the e-mail for e-mail users.
    subject     TEXT NOT NULL,
    email       TEXT NOT NULL DEFAULT '',
    created_at  BIGINT NOT NULL,
    UNIQUE (app_id, provider, subject)
);

CREATE TABLE sessions (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL,
    revoked_at  BIGINT
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE wallets (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
    use_2fa     BIGINT NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL
);

CREATE TABLE accounts (
    id            TEXT PRIMARY KEY,
    wallet_id     TEXT NOT NULL REFERENCES wallets (id) ON DELETE CASCADE,
    network       TEXT NOT NULL,
    -- Lowercase hex; shown checksummed.
    address       TEXT NOT NULL,
    address_path  TEXT NOT NULL,
    label         TEXT NOT NULL,
    position      BIGINT NOT NULL,
    balance       TEXT NOT NULL DEFAULT '0',
    balance_at    BIGINT,
    UNIQUE (wallet_id, network, address)
);
CREATE INDEX accounts_wallet ON accounts (wallet_id, position);

CREATE TABLE token_accounts (
    id          TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    -- Lowercase hex.
    contract    TEXT NOT NULL,
    position    BIGINT NOT NULL,
    balance     TEXT NOT NULL DEFAULT '0',
    UNIQUE (account_id, contract)
);

CREATE TABLE nft_collections (
    network        TEXT NOT NULL,
    address        TEXT NOT NULL,
    scheme         BIGINT NOT NULL,
    name           TEXT NOT NULL DEFAULT '',
    description    TEXT NOT NULL DEFAULT '',
    external_link  TEXT NOT NULL DEFAULT '',
    image_url      TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (network, address)
);

CREATE TABLE nfts (
    id             TEXT PRIMARY KEY,
    account_id     TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    network        TEXT NOT NULL,
    contract       TEXT NOT NULL,
    -- Decimal.
    token_id       TEXT NOT NULL,
    scheme         BIGINT NOT NULL,
    quantity       BIGINT NOT NULL,
    name           TEXT NOT NULL DEFAULT '',
    description    TEXT NOT NULL DEFAULT '',
    external_link  TEXT NOT NULL DEFAULT '',
    image_url      TEXT NOT NULL DEFAULT '',
    content_url    TEXT,
    content_type   BIGINT NOT NULL DEFAULT 1,
    updated_at     BIGINT NOT NULL,
    UNIQUE (account_id, contract, token_id)
);

-- Where the next NFT log scan of an account starts.
CREATE TABLE nft_checkpoints (
    account_id  TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    next_block  BIGINT NOT NULL
);

-- The service's token-signing keys (ES256, PKCS#8 PEM), shared by every instance.
CREATE TABLE signing_keys (
    kid          TEXT PRIMARY KEY,
    private_pem  TEXT NOT NULL,
    created_at   BIGINT NOT NULL
);
