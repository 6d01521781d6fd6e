//! NFTs held by accounts, the collections they belong to, and where each account's
//! next log scan starts.

use super::{Db, DbResult, new_id};
use crate::clock::now;

/// An NFT as the service knows it now, to store.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StoredNft {
    pub network: String,
    pub contract: String,
    pub token_id: String,
    pub scheme: i64,
    pub quantity: i64,
    pub name: String,
    pub description: String,
    pub external_link: String,
    pub image_url: String,
    pub content_url: Option<String>,
    pub content_type: i64,
    /// 1: described by its metadata; 2: the metadata could not be read.
    pub state: i64,
    #[sqlx(flatten)]
    pub arrival: StoredArrival,
}

/// How an NFT last came to its account (lowercase hex), when it is known.
#[derive(Debug, Clone, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct StoredArrival {
    /// The transfer's sender: the zero address for a mint.
    pub received_from: Option<String>,
    /// Who sent the transaction that carried it, when the node told.
    pub received_by: Option<String>,
    pub received_tx: Option<String>,
}

/// A collection's own description, to store.
#[derive(Debug, Clone)]
pub struct StoredCollection {
    pub network: String,
    pub address: String,
    pub scheme: i64,
    pub name: String,
    pub description: String,
    pub external_link: String,
    pub image_url: String,
}

/// An NFT with its collection, as listed.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct NftRow {
    pub id: String,
    pub account_id: String,
    pub network: String,
    pub contract: String,
    pub token_id: String,
    pub scheme: i64,
    pub quantity: i64,
    pub name: String,
    pub description: String,
    pub external_link: String,
    pub image_url: String,
    pub content_url: Option<String>,
    pub content_type: i64,
    pub state: i64,
    pub collection_name: Option<String>,
    pub collection_description: Option<String>,
    pub collection_external_link: Option<String>,
    pub collection_image_url: Option<String>,
    #[sqlx(flatten)]
    pub arrival: StoredArrival,
}

impl Db {
    /// Every NFT the wallet's accounts hold, by account, contract and token id.
    pub async fn wallet_nfts(&self, wallet_id: &str) -> DbResult<Vec<NftRow>> {
        Ok(sqlx::query_as(
            "SELECT n.id, n.account_id, n.network, n.contract, n.token_id, n.scheme, n.quantity, \
                    n.name, n.description, n.external_link, n.image_url, n.content_url, \
                    n.content_type, n.state, c.name AS collection_name, \
                    c.description AS collection_description, \
                    c.external_link AS collection_external_link, \
                    c.image_url AS collection_image_url, \
                    n.received_from, n.received_by, n.received_tx \
             FROM nfts n \
             JOIN accounts a ON a.id = n.account_id \
             LEFT JOIN nft_collections c ON c.network = n.network AND c.address = n.contract \
             WHERE a.wallet_id = $1 AND n.quantity > 0 \
             ORDER BY a.position, n.contract, LENGTH(n.token_id), n.token_id",
        )
        .bind(wallet_id)
        .fetch_all(self.pool())
        .await?)
    }

    /// The wallet's rendered NFT list, if it was ever refreshed.
    pub async fn nft_listing(&self, wallet_id: &str) -> DbResult<Option<String>> {
        Ok(
            sqlx::query_scalar("SELECT body FROM nft_listings WHERE wallet_id = $1")
                .bind(wallet_id)
                .fetch_optional(self.pool())
                .await?,
        )
    }

    /// The wallet's rendered NFT list grouped by collection, if it was ever
    /// refreshed: `Some(None)` for a listing rendered before the grouped one was
    /// kept.
    pub async fn grouped_nft_listing(&self, wallet_id: &str) -> DbResult<Option<Option<String>>> {
        Ok(
            sqlx::query_scalar("SELECT grouped_body FROM nft_listings WHERE wallet_id = $1")
                .bind(wallet_id)
                .fetch_optional(self.pool())
                .await?,
        )
    }

    /// Keeps the wallet's listing in both shapes (the spec's `body`, and
    /// `grouped`), replacing what was kept.
    pub async fn store_nft_listing(
        &self,
        wallet_id: &str,
        body: &str,
        grouped: &str,
    ) -> DbResult<()> {
        sqlx::query(
            "INSERT INTO nft_listings (wallet_id, body, grouped_body, updated_at) \
             VALUES ($1, $2, $3, $4) \
             ON CONFLICT (wallet_id) DO UPDATE SET body = excluded.body, \
             grouped_body = excluded.grouped_body, updated_at = excluded.updated_at",
        )
        .bind(wallet_id)
        .bind(body)
        .bind(grouped)
        .bind(now())
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// The NFTs an account was last seen holding, as stored.
    pub async fn account_nfts(&self, account_id: &str) -> DbResult<Vec<StoredNft>> {
        Ok(sqlx::query_as(
            "SELECT network, contract, token_id, scheme, quantity, name, description, external_link, \
                    image_url, content_url, content_type, state, received_from, received_by, \
                    received_tx FROM nfts WHERE account_id = $1",
        )
        .bind(account_id)
        .fetch_all(self.pool())
        .await?)
    }

    /// The first block the account's next log scan reads.
    pub async fn nft_checkpoint(&self, account_id: &str) -> DbResult<Option<i64>> {
        Ok(
            sqlx::query_scalar("SELECT next_block FROM nft_checkpoints WHERE account_id = $1")
                .bind(account_id)
                .fetch_optional(self.pool())
                .await?,
        )
    }

    /// Stores what an account holds now and moves its checkpoint, in one transaction.
    /// NFTs whose quantity fell to zero are dropped; ids of the others stay stable.
    pub async fn store_account_nfts(
        &self,
        account_id: &str,
        nfts: &[StoredNft],
        collections: &[StoredCollection],
        next_block: Option<i64>,
    ) -> DbResult<()> {
        let mut tx = self.pool().begin().await?;
        for c in collections {
            sqlx::query(
                "INSERT INTO nft_collections (network, address, scheme, name, description, external_link, image_url) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7) \
                 ON CONFLICT (network, address) DO UPDATE SET scheme = excluded.scheme, name = excluded.name, \
                 description = excluded.description, external_link = excluded.external_link, \
                 image_url = excluded.image_url",
            )
            .bind(&c.network)
            .bind(&c.address)
            .bind(c.scheme)
            .bind(&c.name)
            .bind(&c.description)
            .bind(&c.external_link)
            .bind(&c.image_url)
            .execute(&mut *tx)
            .await?;
        }
        let updated = now();
        for n in nfts {
            sqlx::query(
                "INSERT INTO nfts (id, account_id, network, contract, token_id, scheme, quantity, name, \
                 description, external_link, image_url, content_url, content_type, updated_at, state, \
                 received_from, received_by, received_tx) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) \
                 ON CONFLICT (account_id, contract, token_id) DO UPDATE SET scheme = excluded.scheme, \
                 quantity = excluded.quantity, name = excluded.name, description = excluded.description, \
                 external_link = excluded.external_link, image_url = excluded.image_url, \
                 content_url = excluded.content_url, content_type = excluded.content_type, \
                 updated_at = excluded.updated_at, state = excluded.state, \
                 received_from = COALESCE(excluded.received_from, nfts.received_from), \
                 received_by = CASE WHEN excluded.received_from IS NULL THEN nfts.received_by \
                               ELSE excluded.received_by END, \
                 received_tx = COALESCE(excluded.received_tx, nfts.received_tx)",
            )
            .bind(new_id())
            .bind(account_id)
            .bind(&n.network)
            .bind(&n.contract)
            .bind(&n.token_id)
            .bind(n.scheme)
            .bind(n.quantity)
            .bind(&n.name)
            .bind(&n.description)
            .bind(&n.external_link)
            .bind(&n.image_url)
            .bind(&n.content_url)
            .bind(n.content_type)
            .bind(updated)
            .bind(n.state)
            .bind(&n.arrival.received_from)
            .bind(&n.arrival.received_by)
            .bind(&n.arrival.received_tx)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query("DELETE FROM nfts WHERE account_id = $1 AND quantity <= 0")
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        if let Some(next_block) = next_block {
            sqlx::query(
                "INSERT INTO nft_checkpoints (account_id, next_block) VALUES ($1, $2) \
                 ON CONFLICT (account_id) DO UPDATE SET next_block = excluded.next_block",
            )
            .bind(account_id)
            .bind(next_block)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}
