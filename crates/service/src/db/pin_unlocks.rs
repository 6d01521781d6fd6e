//! The e-mail links that lift a PIN lock (`pin_unlocks`): single use, stored as
//! hashes.

use super::{Db, DbResult};
use crate::now;

impl Db {
    /// Stores an unlock link's token hash; the wallet's used and expired links go.
    pub async fn create_pin_unlock(
        &self,
        wallet_id: &str,
        token_hash: &str,
        lifetime_secs: i64,
    ) -> DbResult<()> {
        let at = now();
        let mut tx = self.pool().begin().await?;
        sqlx::query(
            "DELETE FROM pin_unlocks WHERE wallet_id = $1 AND (used_at IS NOT NULL OR expires_at <= $2)",
        )
        .bind(wallet_id)
        .bind(at)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO pin_unlocks (token_hash, wallet_id, expires_at) VALUES ($1, $2, $3)",
        )
        .bind(token_hash)
        .bind(wallet_id)
        .bind(at + lifetime_secs)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Uses an unlock link: clears its wallet's wrong proofs, pause and lock when
    /// the link is unused and unexpired (the wallet's other links stop working).
    /// Returns whether it was.
    pub async fn use_pin_unlock(&self, token_hash: &str) -> DbResult<bool> {
        let at = now();
        let mut tx = self.pool().begin().await?;
        let wallet: Option<String> = sqlx::query_scalar(
            "UPDATE pin_unlocks SET used_at = $2 \
             WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING wallet_id",
        )
        .bind(token_hash)
        .bind(at)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(wallet) = wallet else {
            return Ok(false);
        };
        sqlx::query(
            "UPDATE wallet_keys SET failures = 0, locked_until = 0, email_locked = 0, \
             updated_at = $2 WHERE wallet_id = $1",
        )
        .bind(&wallet)
        .bind(at)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM pin_unlocks WHERE wallet_id = $1 AND token_hash <> $2")
            .bind(&wallet)
            .bind(token_hash)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }
}
