-- Each wallet's NFT list as operation 3 answers it, rendered when operation 4 stores
-- what the chain says. Reading one row is what keeps a 10,000-NFT wallet fast.
CREATE TABLE nft_listings (
    wallet_id   TEXT PRIMARY KEY REFERENCES wallets (id) ON DELETE CASCADE,
    body        TEXT NOT NULL,
    updated_at  BIGINT NOT NULL
);
