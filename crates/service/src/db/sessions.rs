//! Sessions: one login of one user; access tokens name the session they belong to,
//! so revoking the session ends every token issued for it.

use super::{Db, DbResult, new_id};
use crate::clock::now;

impl Db {
    /// Opens a session; `identity_session` is the identity login it came from.
    pub async fn create_session(
        &self,
        user_id: &str,
        identity_session: Option<&str>,
        lifetime_secs: i64,
    ) -> DbResult<String> {
        let id = new_id();
        let created = now();
        sqlx::query(
            "INSERT INTO sessions (id, user_id, created_at, expires_at, identity_session_id) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&id)
        .bind(user_id)
        .bind(created)
        .bind(created + lifetime_secs)
        .bind(identity_session)
        .execute(self.pool())
        .await?;
        Ok(id)
    }

    /// A live session's user and the identity session it came from.
    pub async fn live_session(
        &self,
        session_id: &str,
    ) -> DbResult<Option<(String, Option<String>)>> {
        Ok(sqlx::query_as(
            "SELECT user_id, identity_session_id FROM sessions \
             WHERE id = $1 AND revoked_at IS NULL AND expires_at > $2",
        )
        .bind(session_id)
        .bind(now())
        .fetch_optional(self.pool())
        .await?)
    }

    /// Moves a live session's end to `lifetime_secs` from now.
    pub async fn extend_session(&self, session_id: &str, lifetime_secs: i64) -> DbResult<()> {
        sqlx::query("UPDATE sessions SET expires_at = $2 WHERE id = $1 AND revoked_at IS NULL")
            .bind(session_id)
            .bind(now() + lifetime_secs)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Whether the session exists for this user, is not revoked and has not expired.
    pub async fn session_active(&self, session_id: &str, user_id: &str) -> DbResult<bool> {
        let found: Option<i64> = sqlx::query_scalar(
            "SELECT expires_at FROM sessions WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL",
        )
        .bind(session_id)
        .bind(user_id)
        .fetch_optional(self.pool())
        .await?;
        Ok(found.is_some_and(|expires| expires > now()))
    }

    /// The identity of a live identity session: not revoked, and renewed (or
    /// made) within the last `idle_secs`.
    pub async fn live_identity_session(
        &self,
        session_id: &str,
        idle_secs: i64,
    ) -> DbResult<Option<String>> {
        Ok(sqlx::query_scalar(
            "SELECT identity_id FROM identity_sessions \
             WHERE id = $1 AND revoked_at IS NULL AND COALESCE(last_used_at, created_at) > $2",
        )
        .bind(session_id)
        .bind(now() - idle_secs)
        .fetch_optional(self.pool())
        .await?)
    }

    /// An identity session renewed its tokens now.
    pub async fn touch_identity_session(&self, session_id: &str) -> DbResult<()> {
        sqlx::query("UPDATE identity_sessions SET last_used_at = $2 WHERE id = $1")
            .bind(session_id)
            .bind(now())
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Ends an identity session and every service session made from it, in one
    /// transaction; the service sessions' ids, for the caches.
    pub async fn revoke_identity_family(&self, identity_session: &str) -> DbResult<Vec<String>> {
        let at = now();
        let mut tx = self.pool().begin().await?;
        sqlx::query(
            "UPDATE identity_sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL",
        )
        .bind(identity_session)
        .bind(at)
        .execute(&mut *tx)
        .await?;
        let ended: Vec<String> = sqlx::query_scalar(
            "UPDATE sessions SET revoked_at = $2 \
             WHERE identity_session_id = $1 AND revoked_at IS NULL RETURNING id",
        )
        .bind(identity_session)
        .bind(at)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(ended)
    }

    /// The identity session a service session came from, revoked or not.
    pub async fn parent_identity_session(&self, session_id: &str) -> DbResult<Option<String>> {
        Ok(sqlx::query_scalar::<_, Option<String>>(
            "SELECT identity_session_id FROM sessions WHERE id = $1",
        )
        .bind(session_id)
        .fetch_optional(self.pool())
        .await?
        .flatten())
    }

    /// Revokes a session; revoking one twice is harmless.
    pub async fn revoke_session(&self, session_id: &str) -> DbResult<()> {
        sqlx::query("UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL")
            .bind(session_id)
            .bind(now())
            .execute(self.pool())
            .await?;
        Ok(())
    }
}
