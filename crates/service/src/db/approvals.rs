//! The approvals found in each account's logs, and where its next scan starts.

use super::{Db, DbResult};

/// An approval as stored: lowercase addresses, kind 1 (allowance) or 2
/// (operator for all).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ApprovalRow {
    pub contract: String,
    pub spender: String,
    pub kind: i64,
    pub value: String,
    pub block_number: i64,
    pub tx_hash: String,
}

impl Db {
    /// Where the account's next approval scan starts (`None`: never scanned).
    pub async fn approval_scan(&self, account_id: &str) -> DbResult<Option<i64>> {
        Ok(
            sqlx::query_scalar("SELECT next_block FROM approval_scans WHERE account_id = $1")
                .bind(account_id)
                .fetch_optional(self.pool())
                .await?,
        )
    }

    /// Stores what a scan found (a zero value withdraws an approval) and where
    /// the next scan starts, in one transaction. An account keeps at most
    /// `most` approvals, and `per_contract` spenders of one contract and kind.
    /// Past `per_contract` a new one is not kept (one spam contract cannot
    /// grow the list); past `most` a new non-zero one is always kept and the
    /// oldest gives way (the caller first forgets those worth nothing on chain,
    /// [`Db::forget_approvals`]), so logs of many cheap contracts cannot keep
    /// a real approval made after them from being shown.
    pub async fn store_approvals(
        &self,
        account_id: &str,
        found: &[ApprovalRow],
        next_block: i64,
        most: usize,
        per_contract: usize,
    ) -> DbResult<()> {
        let mut tx = self.pool().begin().await?;
        // A write first: the account's row is locked (PostgreSQL) or the
        // database's writer taken (SQLite) before anything is counted, so two
        // scans at once cannot both pass the bounds.
        sqlx::query("UPDATE accounts SET balance = balance WHERE id = $1")
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        let mut kept: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM approvals WHERE account_id = $1")
                .bind(account_id)
                .fetch_one(&mut *tx)
                .await?;
        for row in found {
            if row.value == "0" {
                let gone = sqlx::query(
                    "DELETE FROM approvals WHERE account_id = $1 AND contract = $2 \
                     AND spender = $3 AND kind = $4 AND block_number <= $5",
                )
                .bind(account_id)
                .bind(&row.contract)
                .bind(&row.spender)
                .bind(row.kind)
                .bind(row.block_number)
                .execute(&mut *tx)
                .await?;
                kept -= i64::try_from(gone.rows_affected()).unwrap_or(0);
                continue;
            }
            let updated = sqlx::query(
                "UPDATE approvals SET value = $5, block_number = $6, tx_hash = $7 \
                 WHERE account_id = $1 AND contract = $2 AND spender = $3 AND kind = $4 \
                 AND block_number <= $6",
            )
            .bind(account_id)
            .bind(&row.contract)
            .bind(&row.spender)
            .bind(row.kind)
            .bind(&row.value)
            .bind(row.block_number)
            .bind(&row.tx_hash)
            .execute(&mut *tx)
            .await?;
            if updated.rows_affected() > 0 {
                continue;
            }
            let of_contract: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM approvals WHERE account_id = $1 AND contract = $2 AND kind = $3",
            )
            .bind(account_id)
            .bind(&row.contract)
            .bind(row.kind)
            .fetch_one(&mut *tx)
            .await?;
            if usize::try_from(of_contract).unwrap_or(usize::MAX) >= per_contract {
                continue;
            }
            if usize::try_from(kept).unwrap_or(usize::MAX) >= most {
                let oldest: Option<(String, String, i64)> = sqlx::query_as(
                    "SELECT contract, spender, kind FROM approvals WHERE account_id = $1 \
                     ORDER BY block_number, contract, spender LIMIT 1",
                )
                .bind(account_id)
                .fetch_optional(&mut *tx)
                .await?;
                let Some((contract, spender, kind)) = oldest else {
                    continue;
                };
                let gone = sqlx::query(
                    "DELETE FROM approvals WHERE account_id = $1 AND contract = $2 \
                     AND spender = $3 AND kind = $4",
                )
                .bind(account_id)
                .bind(&contract)
                .bind(&spender)
                .bind(kind)
                .execute(&mut *tx)
                .await?;
                kept -= i64::try_from(gone.rows_affected()).unwrap_or(0);
            }
            let inserted = sqlx::query(
                "INSERT INTO approvals (account_id, contract, spender, kind, value, block_number, tx_hash) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7) \
                 ON CONFLICT (account_id, contract, spender, kind) DO NOTHING",
            )
            .bind(account_id)
            .bind(&row.contract)
            .bind(&row.spender)
            .bind(row.kind)
            .bind(&row.value)
            .bind(row.block_number)
            .bind(&row.tx_hash)
            .execute(&mut *tx)
            .await?;
            kept += i64::try_from(inserted.rows_affected()).unwrap_or(0);
        }
        sqlx::query(
            "INSERT INTO approval_scans (account_id, next_block) VALUES ($1, $2) \
             ON CONFLICT (account_id) DO UPDATE SET next_block = excluded.next_block",
        )
        .bind(account_id)
        .bind(next_block)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Forgets the account's approvals of these (contract, spender, kind).
    pub async fn forget_approvals(
        &self,
        account_id: &str,
        keys: &[(String, String, i64)],
    ) -> DbResult<()> {
        let mut tx = self.pool().begin().await?;
        for (contract, spender, kind) in keys {
            sqlx::query(
                "DELETE FROM approvals WHERE account_id = $1 AND contract = $2 \
                 AND spender = $3 AND kind = $4",
            )
            .bind(account_id)
            .bind(contract)
            .bind(spender)
            .bind(kind)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The account's stored approvals, newest first.
    pub async fn account_approvals(&self, account_id: &str) -> DbResult<Vec<ApprovalRow>> {
        Ok(sqlx::query_as(
            "SELECT contract, spender, kind, value, block_number, tx_hash FROM approvals \
             WHERE account_id = $1 ORDER BY block_number DESC, contract, spender",
        )
        .bind(account_id)
        .fetch_all(self.pool())
        .await?)
    }
}
