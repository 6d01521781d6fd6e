//! Sessions: one login of one user; access tokens name the session they belong to,
//! so revoking the session ends every token issued for it.

use super::{Db, DbResult, new_id, now};

impl Db {
    pub async fn create_session(&self, user_id: &str, lifetime_secs: i64) -> DbResult<String> {
        let id = new_id();
        let created = now();
        sqlx::query(
            "INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(&id)
        .bind(user_id)
        .bind(created)
        .bind(created + lifetime_secs)
        .execute(self.pool())
        .await?;
        Ok(id)
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
