//! The wallets' transactions (`transactions`): sent ones from broadcast to block,
//! received token transfers from logs; and how far the logs were read
//! (`transfer_scans`).

use super::{Db, DbResult, new_id};
use crate::clock::now;

/// A transaction as stored. Addresses and hashes are lowercase hex; amounts are
/// integer strings in the smallest unit.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct TransactionRow {
    pub wallet_id: String,
    pub account_id: String,
    pub network: String,
    pub tx_hash: String,
    pub direction: String,
    pub status: String,
    pub counterparty: String,
    pub contract: Option<String>,
    pub amount: String,
    pub nonce: Option<i64>,
    pub gas_limit: Option<i64>,
    pub max_fee_per_gas: Option<String>,
    pub max_priority_fee_per_gas: Option<String>,
    pub fee: Option<String>,
    pub block_number: Option<i64>,
    pub replaced_by: Option<String>,
    pub created_at: i64,
}

const COLUMNS: &str = "wallet_id, account_id, network, tx_hash, direction, status, \
     counterparty, contract, amount, nonce, gas_limit, max_fee_per_gas, \
     max_priority_fee_per_gas, fee, block_number, replaced_by, created_at";

/// A received token transfer to store.
#[derive(Debug, Clone)]
pub struct NewTransfer {
    pub tx_hash: String,
    pub log_index: i64,
    pub from: String,
    pub contract: String,
    pub amount: String,
    pub block_number: i64,
}

/// The most rows a wallet's activity lists.
pub const ACTIVITY_LIMIT: i64 = 100;

impl Db {
    /// Stores a transaction the service broadcast, pending. Broadcasting the same
    /// bytes again changes nothing.
    pub async fn insert_sent(&self, row: &TransactionRow) -> DbResult<()> {
        sqlx::query(&format!(
            "INSERT INTO transactions (id, log_index, {COLUMNS}) VALUES \
             ($1, -1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) \
             ON CONFLICT (account_id, tx_hash, log_index) DO UPDATE SET status = 'pending', \
             created_at = excluded.created_at WHERE transactions.status = 'dropped'"
        ))
        .bind(new_id())
        .bind(&row.wallet_id)
        .bind(&row.account_id)
        .bind(&row.network)
        .bind(&row.tx_hash)
        .bind(&row.direction)
        .bind(&row.status)
        .bind(&row.counterparty)
        .bind(&row.contract)
        .bind(&row.amount)
        .bind(row.nonce)
        .bind(row.gas_limit)
        .bind(&row.max_fee_per_gas)
        .bind(&row.max_priority_fee_per_gas)
        .bind(&row.fee)
        .bind(row.block_number)
        .bind(&row.replaced_by)
        .bind(row.created_at)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Stores received transfers of an account (each once) and moves its log
    /// cursor to `next_block`, in one transaction.
    pub async fn store_transfers(
        &self,
        wallet_id: &str,
        account_id: &str,
        network: &str,
        transfers: &[NewTransfer],
        next_block: i64,
    ) -> DbResult<()> {
        let at = now();
        let mut tx = self.pool().begin().await?;
        for t in transfers {
            sqlx::query(&format!(
                "INSERT INTO transactions (id, log_index, {COLUMNS}) VALUES \
                 ($1, $2, $3, $4, $5, $6, 'received', 'mined', $7, $8, $9, NULL, NULL, NULL, \
                 NULL, NULL, $10, NULL, $11) \
                 ON CONFLICT (account_id, tx_hash, log_index) DO NOTHING"
            ))
            .bind(new_id())
            .bind(t.log_index)
            .bind(wallet_id)
            .bind(account_id)
            .bind(network)
            .bind(&t.tx_hash)
            .bind(&t.from)
            .bind(&t.contract)
            .bind(&t.amount)
            .bind(t.block_number)
            .bind(at)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query(
            "INSERT INTO transfer_scans (account_id, next_block) VALUES ($1, $2) \
             ON CONFLICT (account_id) DO UPDATE SET next_block = excluded.next_block",
        )
        .bind(account_id)
        .bind(next_block)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The next block to read for an account's incoming transfers.
    pub async fn transfer_scan(&self, account_id: &str) -> DbResult<Option<i64>> {
        Ok(
            sqlx::query_scalar("SELECT next_block FROM transfer_scans WHERE account_id = $1")
                .bind(account_id)
                .fetch_optional(self.pool())
                .await?,
        )
    }

    /// A wallet's activity, newest first, at most [`ACTIVITY_LIMIT`].
    pub async fn wallet_transactions(&self, wallet_id: &str) -> DbResult<Vec<TransactionRow>> {
        Ok(sqlx::query_as(&format!(
            "SELECT {COLUMNS} FROM transactions WHERE wallet_id = $1 \
             ORDER BY created_at DESC, id DESC LIMIT {ACTIVITY_LIMIT}"
        ))
        .bind(wallet_id)
        .fetch_all(self.pool())
        .await?)
    }

    /// A sent transaction by hash, with the user who owns its wallet.
    pub async fn sent_transaction(
        &self,
        tx_hash: &str,
    ) -> DbResult<Option<(TransactionRow, String)>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            #[sqlx(flatten)]
            tx: TransactionRow,
            user_id: String,
        }
        let row: Option<Row> = sqlx::query_as(&format!(
            "SELECT {}, w.user_id FROM transactions t JOIN wallets w ON w.id = t.wallet_id \
             WHERE t.tx_hash = $1 AND t.direction = 'sent' LIMIT 1",
            COLUMNS
                .split(", ")
                .map(|c| format!("t.{}", c.trim()))
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .bind(tx_hash)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(|r| (r.tx, r.user_id)))
    }

    /// Claims up to `limit` pending transactions for one pass of `claimant`'s
    /// receipt follower, those read least recently first, and marks them read
    /// `at` by it: its own and unclaimed ones, and those whose claimant has not
    /// read them for `lease_secs` (it stopped). So each is followed by one
    /// instance at a time, however long a pass takes. One statement, so two
    /// instances claiming at once never take the same row (on PostgreSQL the
    /// rows another is claiming are skipped; SQLite has one writer). The claim
    /// is materialized: inlined into the update, PostgreSQL may run its `LIMIT`
    /// more than once.
    pub async fn pending_transactions(
        &self,
        limit: i64,
        at: i64,
        lease_secs: i64,
        claimant: &str,
    ) -> DbResult<Vec<TransactionRow>> {
        let skip_claimed = if self.is_shared() {
            " FOR UPDATE SKIP LOCKED"
        } else {
            ""
        };
        let mut rows: Vec<TransactionRow> = sqlx::query_as(&format!(
            "WITH claimed AS MATERIALIZED ( \
               SELECT id FROM transactions \
               WHERE log_index = -1 AND status = 'pending' \
                 AND (claimed_by IS NULL OR claimed_by = $4 OR checked_at <= $3) \
               ORDER BY checked_at, created_at, id LIMIT $1{skip_claimed}) \
             UPDATE transactions SET checked_at = $2, claimed_by = $4 \
             WHERE id IN (SELECT id FROM claimed) \
               AND (claimed_by IS NULL OR claimed_by = $4 OR checked_at <= $3) \
             RETURNING {COLUMNS}"
        ))
        .bind(limit)
        .bind(at)
        .bind(at.saturating_sub(lease_secs))
        .bind(claimant)
        .fetch_all(self.pool())
        .await?;
        rows.sort_by_key(|r| r.created_at);
        Ok(rows)
    }

    /// How many of an account's sent transactions are pending.
    pub async fn pending_count(&self, account_id: &str) -> DbResult<i64> {
        Ok(sqlx::query_scalar(
            "SELECT COUNT(*) FROM transactions \
             WHERE account_id = $1 AND direction = 'sent' AND status = 'pending'",
        )
        .bind(account_id)
        .fetch_one(self.pool())
        .await?)
    }

    /// The highest nonce among an account's pending transactions.
    pub async fn highest_pending_nonce(&self, account_id: &str) -> DbResult<Option<i64>> {
        Ok(sqlx::query_scalar(
            "SELECT MAX(nonce) FROM transactions \
             WHERE account_id = $1 AND direction = 'sent' AND status = 'pending'",
        )
        .bind(account_id)
        .fetch_one(self.pool())
        .await?)
    }

    /// A pending transaction is in a block: its status, block and fee; the
    /// account's other pending ones with its nonce were replaced by it. Returns
    /// whether this call moved it (another instance may have first).
    pub async fn settle_mined(
        &self,
        row: &TransactionRow,
        success: bool,
        block_number: i64,
        fee: &str,
    ) -> DbResult<bool> {
        let mut tx = self.pool().begin().await?;
        let moved = sqlx::query(
            "UPDATE transactions SET status = $3, block_number = $4, fee = $5 \
             WHERE account_id = $1 AND tx_hash = $2 AND log_index = -1 AND status = 'pending'",
        )
        .bind(&row.account_id)
        .bind(&row.tx_hash)
        .bind(if success { "mined" } else { "failed" })
        .bind(block_number)
        .bind(fee)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            > 0;
        // The others with its nonce: still pending, or already settled as
        // replaced by a pass that saw the nonce used before it saw this one
        // mined (the follower takes rows in any order), which learn by whom.
        sqlx::query(
            "UPDATE transactions SET status = 'replaced', replaced_by = $3 \
             WHERE account_id = $1 AND nonce = $2 AND direction = 'sent' \
             AND (status = 'pending' OR (status = 'replaced' AND replaced_by IS NULL)) \
             AND tx_hash <> $3",
        )
        .bind(&row.account_id)
        .bind(row.nonce)
        .bind(&row.tx_hash)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(moved)
    }

    /// A pending transaction whose nonce was used by one the service did not see.
    pub async fn settle_replaced(&self, row: &TransactionRow) -> DbResult<()> {
        self.settle_unmined(row, "replaced").await
    }

    /// A pending transaction the node no longer has, past its expiry.
    pub async fn settle_dropped(&self, row: &TransactionRow) -> DbResult<()> {
        self.settle_unmined(row, "dropped").await
    }

    async fn settle_unmined(&self, row: &TransactionRow, status: &str) -> DbResult<()> {
        sqlx::query(
            "UPDATE transactions SET status = $3 \
             WHERE account_id = $1 AND tx_hash = $2 AND log_index = -1 AND status = 'pending'",
        )
        .bind(&row.account_id)
        .bind(&row.tx_hash)
        .bind(status)
        .execute(self.pool())
        .await?;
        Ok(())
    }
}
