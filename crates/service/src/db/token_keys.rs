//! The token signing keys (`token_keys`), sealed; and the move of keys from the
//! earlier clear-text table (`signing_keys`).

use super::{Db, DbResult};

/// A signing key as stored: sealed, with when it signs.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StoredTokenKey {
    pub kid: String,
    pub sealed: String,
    pub activated_at: i64,
    pub retired_at: Option<i64>,
}

impl Db {
    /// Keys that still verify at `now`: current ones, and ones retired after
    /// `now - verify_for_secs`. Newest activation first.
    pub async fn token_keys(
        &self,
        now: i64,
        verify_for_secs: i64,
    ) -> DbResult<Vec<StoredTokenKey>> {
        Ok(sqlx::query_as(
            "SELECT kid, sealed, activated_at, retired_at FROM token_keys \
             WHERE retired_at IS NULL OR retired_at > $1 \
             ORDER BY activated_at DESC, kid DESC",
        )
        .bind(now - verify_for_secs)
        .fetch_all(self.pool())
        .await?)
    }

    /// Adds a key that signs from `activated_at`; every key signing before it
    /// retires then. Two instances adding a first key at once both succeed; the
    /// newest signs.
    pub async fn add_token_key(
        &self,
        kid: &str,
        sealed: &str,
        created_at: i64,
        activated_at: i64,
    ) -> DbResult<()> {
        let mut tx = self.pool().begin().await?;
        sqlx::query(
            "UPDATE token_keys SET retired_at = $1 WHERE retired_at IS NULL AND activated_at < $1",
        )
        .bind(activated_at)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO token_keys (kid, sealed, created_at, activated_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(kid)
        .bind(sealed)
        .bind(created_at)
        .bind(activated_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The keys of the earlier clear-text table, to seal and move.
    pub async fn legacy_signing_keys(&self) -> DbResult<Vec<(String, String, i64)>> {
        Ok(
            sqlx::query_as("SELECT kid, private_pem, created_at FROM signing_keys")
                .fetch_all(self.pool())
                .await?,
        )
    }

    /// Moves one earlier key into `token_keys`, sealed, and deletes its clear copy.
    pub async fn move_legacy_key(&self, kid: &str, sealed: &str, created_at: i64) -> DbResult<()> {
        let mut tx = self.pool().begin().await?;
        sqlx::query(
            "INSERT INTO token_keys (kid, sealed, created_at, activated_at) VALUES ($1, $2, $3, $3) \
             ON CONFLICT (kid) DO NOTHING",
        )
        .bind(kid)
        .bind(sealed)
        .bind(created_at)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM signing_keys WHERE kid = $1")
            .bind(kid)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }
}
