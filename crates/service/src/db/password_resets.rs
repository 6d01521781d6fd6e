//! Password-reset links (`password_resets`): single use, stored as hashes. Using
//! one sets the new password, marks the address verified and ends every session
//! of the identity, in one transaction.

use super::identities::revoke_identity_sessions;
use super::{Db, DbResult};
use crate::now;

/// What a used reset link changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PasswordReset {
    pub identity_id: String,
    pub app_id: String,
    pub email: String,
    /// The service sessions that were ended, for the caches.
    pub ended_sessions: Vec<String>,
}

impl Db {
    /// Stores a reset link's token hash; the identity's used and expired links go.
    pub async fn create_password_reset(
        &self,
        identity_id: &str,
        token_hash: &str,
        lifetime_secs: i64,
    ) -> DbResult<()> {
        let at = now();
        let mut tx = self.pool().begin().await?;
        sqlx::query(
            "DELETE FROM password_resets WHERE identity_id = $1 \
             AND (used_at IS NOT NULL OR expires_at <= $2)",
        )
        .bind(identity_id)
        .bind(at)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO password_resets (token_hash, identity_id, expires_at) VALUES ($1, $2, $3)",
        )
        .bind(token_hash)
        .bind(identity_id)
        .bind(at + lifetime_secs)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Whether a reset link is unused and unexpired (its page shows the form);
    /// changes nothing.
    pub async fn password_reset_usable(&self, token_hash: &str) -> DbResult<bool> {
        let found: Option<String> = sqlx::query_scalar(
            "SELECT identity_id FROM password_resets \
             WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
        )
        .bind(token_hash)
        .bind(now())
        .fetch_optional(self.pool())
        .await?;
        Ok(found.is_some())
    }

    /// Uses a reset link when it is unused and unexpired: the identity gets
    /// `password_hash` and a verified address, its other reset and verification
    /// links stop working, and every identity and service session of it ends.
    /// `None` when the link does not work.
    pub async fn use_password_reset(
        &self,
        token_hash: &str,
        password_hash: &str,
    ) -> DbResult<Option<PasswordReset>> {
        let at = now();
        let mut tx = self.pool().begin().await?;
        let identity: Option<String> = sqlx::query_scalar(
            "UPDATE password_resets SET used_at = $2 \
             WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING identity_id",
        )
        .bind(token_hash)
        .bind(at)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(identity_id) = identity else {
            return Ok(None);
        };
        let changed: Option<(String, String)> = sqlx::query_as(
            "UPDATE email_identities SET password_hash = $2, verified_at = COALESCE(verified_at, $3) \
             WHERE id = $1 RETURNING app_id, email",
        )
        .bind(&identity_id)
        .bind(password_hash)
        .bind(at)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((app_id, email)) = changed else {
            tx.rollback().await?;
            return Ok(None);
        };
        sqlx::query("DELETE FROM password_resets WHERE identity_id = $1 AND token_hash <> $2")
            .bind(&identity_id)
            .bind(token_hash)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM email_verifications WHERE identity_id = $1")
            .bind(&identity_id)
            .execute(&mut *tx)
            .await?;
        let ended_sessions = revoke_identity_sessions(&mut tx, &identity_id, &app_id, at).await?;
        tx.commit().await?;
        Ok(Some(PasswordReset {
            identity_id,
            app_id,
            email,
            ended_sessions,
        }))
    }
}
