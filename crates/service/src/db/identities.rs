//! E-mail identities (the service as identity provider), their verification links
//! and their sessions.

use super::{Db, DbError, DbResult, new_id};
use crate::now;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct IdentityRow {
    pub id: String,
    pub app_id: String,
    pub email: String,
    pub password_hash: String,
    pub verified_at: Option<i64>,
}

impl IdentityRow {
    pub fn verified(&self) -> bool {
        self.verified_at.is_some()
    }
}

const IDENTITY_COLUMNS: &str = "id, app_id, email, password_hash, verified_at";

impl Db {
    pub async fn create_email_identity(
        &self,
        app_id: &str,
        email: &str,
        password_hash: &str,
    ) -> DbResult<String> {
        let id = new_id();
        sqlx::query(
            "INSERT INTO email_identities (id, app_id, email, password_hash, created_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&id)
        .bind(app_id)
        .bind(email)
        .bind(password_hash)
        .bind(now())
        .execute(self.pool())
        .await
        .map_err(DbError::from_write)?;
        Ok(id)
    }

    /// Removes an identity that never got its verification e-mail out.
    pub async fn delete_email_identity(&self, id: &str) -> DbResult<()> {
        sqlx::query("DELETE FROM email_verifications WHERE identity_id = $1")
            .bind(id)
            .execute(self.pool())
            .await?;
        sqlx::query("DELETE FROM email_identities WHERE id = $1")
            .bind(id)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    pub async fn email_identity(&self, app_id: &str, email: &str) -> DbResult<Option<IdentityRow>> {
        Ok(sqlx::query_as(&format!(
            "SELECT {IDENTITY_COLUMNS} FROM email_identities WHERE app_id = $1 AND email = $2"
        ))
        .bind(app_id)
        .bind(email)
        .fetch_optional(self.pool())
        .await?)
    }

    pub async fn email_identity_by_id(&self, id: &str) -> DbResult<Option<IdentityRow>> {
        Ok(sqlx::query_as(&format!(
            "SELECT {IDENTITY_COLUMNS} FROM email_identities WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(self.pool())
        .await?)
    }

    /// Marks an identity's address verified without a link (operator action).
    pub async fn mark_email_verified(&self, identity_id: &str) -> DbResult<()> {
        sqlx::query(
            "UPDATE email_identities SET verified_at = $2 WHERE id = $1 AND verified_at IS NULL",
        )
        .bind(identity_id)
        .bind(now())
        .execute(self.pool())
        .await?;
        Ok(())
    }

    pub async fn create_email_verification(
        &self,
        identity_id: &str,
        token_hash: &str,
        lifetime_secs: i64,
    ) -> DbResult<()> {
        sqlx::query("INSERT INTO email_verifications (token_hash, identity_id, expires_at) VALUES ($1, $2, $3)")
            .bind(token_hash)
            .bind(identity_id)
            .bind(now() + lifetime_secs)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Uses a verification link: marks its identity verified when the link is
    /// unused and unexpired. Returns whether it was.
    pub async fn use_email_verification(&self, token_hash: &str) -> DbResult<bool> {
        let mut tx = self.pool().begin().await?;
        let identity: Option<String> = sqlx::query_scalar(
            "UPDATE email_verifications SET used_at = $2 \
             WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING identity_id",
        )
        .bind(token_hash)
        .bind(now())
        .fetch_optional(&mut *tx)
        .await?;
        let Some(identity) = identity else {
            return Ok(false);
        };
        sqlx::query(
            "UPDATE email_identities SET verified_at = $2 WHERE id = $1 AND verified_at IS NULL",
        )
        .bind(&identity)
        .bind(now())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    pub async fn create_identity_session(&self, identity_id: &str) -> DbResult<String> {
        let id = new_id();
        sqlx::query(
            "INSERT INTO identity_sessions (id, identity_id, created_at) VALUES ($1, $2, $3)",
        )
        .bind(&id)
        .bind(identity_id)
        .bind(now())
        .execute(self.pool())
        .await?;
        Ok(id)
    }

    /// The identity of a live identity session.
    pub async fn identity_session(&self, session_id: &str) -> DbResult<Option<String>> {
        Ok(sqlx::query_scalar(
            "SELECT identity_id FROM identity_sessions WHERE id = $1 AND revoked_at IS NULL",
        )
        .bind(session_id)
        .fetch_optional(self.pool())
        .await?)
    }

    pub async fn revoke_identity_session(&self, session_id: &str) -> DbResult<()> {
        sqlx::query(
            "UPDATE identity_sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL",
        )
        .bind(session_id)
        .bind(now())
        .execute(self.pool())
        .await?;
        Ok(())
    }
}
