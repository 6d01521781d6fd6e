-- Whether an NFT's metadata was read (1) or could not be (2: its name is the
-- placeholder "#<tokenId>"): getNFTs' `state`.
ALTER TABLE nfts ADD COLUMN state BIGINT NOT NULL DEFAULT 1;
