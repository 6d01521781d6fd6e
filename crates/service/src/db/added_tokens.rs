//! Tokens a person added by contract address: the facts the contract gave of
//! itself (one row per network and contract), and the token accounts that
//! were added rather than configured.

use super::wallet_reads::account_changed;
use super::{Db, DbError, DbResult, new_id};
use crate::clock::now;

/// What a token's contract said of itself when it was first added.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct AddedTokenRow {
    pub network: String,
    /// Lowercase hex.
    pub contract: String,
    pub name: String,
    pub symbol: String,
    pub decimals: i64,
}

/// What adding a token to an account did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenAdded {
    Added,
    /// The account tracks this contract already (added or configured).
    AlreadyTracked,
    /// The account has added as many tokens as it may.
    Full,
}

impl Db {
    /// The stored facts of each of `contracts` (lowercase) on `network` that
    /// someone has added; contracts never added are missing from the answer.
    pub async fn added_tokens(
        &self,
        network: &str,
        contracts: &[String],
    ) -> DbResult<Vec<AddedTokenRow>> {
        let mut found = Vec::new();
        for chunk in contracts.chunks(200) {
            let list = (0..chunk.len())
                .map(|i| format!("${}", i + 2))
                .collect::<Vec<_>>()
                .join(", ");
            let sql = format!(
                "SELECT network, contract, name, symbol, decimals FROM added_tokens \
                 WHERE network = $1 AND contract IN ({list})"
            );
            let mut query = sqlx::query_as(&sql).bind(network);
            for contract in chunk {
                query = query.bind(contract);
            }
            found.extend(query.fetch_all(self.pool()).await?);
        }
        Ok(found)
    }

    /// Adds a token to an account: its facts are stored unless someone added
    /// the contract before (the first reading stays, so everyone sees one
    /// token), and the account tracks it, unless it does already or has
    /// `max_added` added tokens; its balance starts as `balance`, just read.
    /// One transaction: the facts and the tracking
    /// are written together or not at all.
    pub async fn add_token(
        &self,
        account_id: &str,
        facts: &AddedTokenRow,
        balance: &str,
        max_added: usize,
    ) -> DbResult<TokenAdded> {
        let mut tx = self.pool().begin().await?;
        // A write first: the account's row is locked (PostgreSQL) or the
        // database's writer taken (SQLite) before anything is counted, so two
        // additions at once cannot both pass the bound.
        sqlx::query("UPDATE accounts SET balance = balance WHERE id = $1")
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        let tracked: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM token_accounts WHERE account_id = $1 AND contract = $2",
        )
        .bind(account_id)
        .bind(&facts.contract)
        .fetch_one(&mut *tx)
        .await?;
        if tracked > 0 {
            return Ok(TokenAdded::AlreadyTracked);
        }
        let (added, last): (i64, Option<i64>) = sqlx::query_as(
            "SELECT COUNT(CASE WHEN added = 1 THEN 1 END), MAX(position) FROM token_accounts \
             WHERE account_id = $1",
        )
        .bind(account_id)
        .fetch_one(&mut *tx)
        .await?;
        if usize::try_from(added).unwrap_or(usize::MAX) >= max_added {
            return Ok(TokenAdded::Full);
        }
        sqlx::query(
            "INSERT INTO added_tokens (network, contract, name, symbol, decimals, added_at) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (network, contract) DO NOTHING",
        )
        .bind(&facts.network)
        .bind(&facts.contract)
        .bind(&facts.name)
        .bind(&facts.symbol)
        .bind(facts.decimals)
        .bind(now())
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO token_accounts (id, account_id, contract, position, balance, added) \
             VALUES ($1, $2, $3, $4, $5, 1)",
        )
        .bind(new_id())
        .bind(account_id)
        .bind(&facts.contract)
        .bind(last.map_or(0, |p| p + 1))
        .bind(balance)
        .execute(&mut *tx)
        .await
        .map_err(DbError::from_write)?;
        account_changed(&mut tx, account_id).await?;
        tx.commit().await?;
        Ok(TokenAdded::Added)
    }

    /// Whether an account tracks the token at `contract` (lowercase).
    pub async fn account_tracks(&self, account_id: &str, contract: &str) -> DbResult<bool> {
        let count: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM token_accounts WHERE account_id = $1 AND contract = $2",
        )
        .bind(account_id)
        .bind(contract)
        .fetch_one(self.pool())
        .await?;
        Ok(count > 0)
    }

    /// Stops an account tracking a token it added; `false` when it had not
    /// added it (a configured token stays: the device hides it instead).
    pub async fn remove_added_token(&self, account_id: &str, contract: &str) -> DbResult<bool> {
        let mut tx = self.pool().begin().await?;
        let removed = sqlx::query(
            "DELETE FROM token_accounts WHERE account_id = $1 AND contract = $2 AND added = 1",
        )
        .bind(account_id)
        .bind(contract)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            > 0;
        if removed {
            account_changed(&mut tx, account_id).await?;
        }
        tx.commit().await?;
        Ok(removed)
    }
}
