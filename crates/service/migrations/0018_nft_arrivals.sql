-- How an NFT last came to its account, for the app's spam judgement: the
-- transfer's sender (the zero address for a mint), the transaction's sender,
-- and the transaction. NULL for NFTs found before these were kept.
ALTER TABLE nfts ADD COLUMN received_from TEXT;
ALTER TABLE nfts ADD COLUMN received_by TEXT;
ALTER TABLE nfts ADD COLUMN received_tx TEXT;
