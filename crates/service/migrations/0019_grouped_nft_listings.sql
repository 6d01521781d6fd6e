-- Each wallet's NFT list grouped by collection (operations 3 and 4 when asked for
-- `application/vnd.satchel.nfts-grouped+json`), rendered with `body`. NULL for a
-- listing rendered before it was kept: the first read renders both again.
ALTER TABLE nft_listings ADD COLUMN grouped_body TEXT;
