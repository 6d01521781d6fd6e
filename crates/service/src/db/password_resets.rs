//! Password-reset links (`password_resets`): single use, stored as hashes. Using
//! one sets the new password, marks the address verified and ends every session
//! of the identity, in one transaction.

use super::identities::revoke_identity_sessions;
use super::links::{self, LinkKind};
use super::{Db, DbResult};
use crate::clock::now;

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
        let mut conn = self.pool().acquire().await?;
        let (kind, at) = (LinkKind::PasswordReset, now());
        links::issue(
            &mut conn,
            kind,
            identity_id,
            token_hash,
            None,
            at,
            lifetime_secs,
        )
        .await
    }

    /// Whether a reset link is unused and unexpired (its page shows the form);
    /// changes nothing.
    pub async fn password_reset_usable(&self, token_hash: &str) -> DbResult<bool> {
        let mut conn = self.pool().acquire().await?;
        links::usable(&mut conn, LinkKind::PasswordReset, token_hash, now()).await
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
        let claimed: Option<(String,)> =
            links::claim(&mut tx, LinkKind::PasswordReset, token_hash, at).await?;
        let Some((identity_id,)) = claimed else {
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
        links::drop_others(&mut tx, LinkKind::PasswordReset, &identity_id, token_hash).await?;
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
