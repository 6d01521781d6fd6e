//! E-mail identities (the service as identity provider), their verification links
//! and their sessions.

use super::links::{self, LinkKind};
use super::{Db, DbError, DbResult, new_id};
use crate::clock::now;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct IdentityRow {
    pub id: String,
    pub app_id: String,
    pub email: String,
    pub password_hash: String,
    pub verified_at: Option<i64>,
    /// When it was signed up (or last replaced by a new sign-up).
    pub created_at: i64,
    /// How many service users it is (0 or 1): an identity that is someone's user
    /// is never replaced or expired.
    pub user_count: i64,
}

impl IdentityRow {
    pub fn verified(&self) -> bool {
        self.verified_at.is_some()
    }

    /// Whether a service user (and so maybe a wallet) belongs to it.
    pub fn has_user(&self) -> bool {
        self.user_count > 0
    }
}

/// The users table's `provider` of e-mail identities (their `subject` is the
/// identity's id).
const EMAIL_PROVIDER: &str = "email";

const IDENTITY_COLUMNS: &str = "id, app_id, email, password_hash, verified_at, created_at, \
     (SELECT COUNT(*) FROM users u WHERE u.app_id = email_identities.app_id \
      AND u.provider = 'email' AND u.subject = email_identities.id) AS user_count";

/// An identity that nobody has proven the address of and that no user is.
const UNCLAIMED: &str = "verified_at IS NULL AND NOT EXISTS (SELECT 1 FROM users u \
     WHERE u.app_id = email_identities.app_id AND u.provider = 'email' \
     AND u.subject = email_identities.id)";

/// Ends every identity session of an identity and every service session of its
/// user, inside the caller's transaction; the service sessions' ids, for the
/// caches.
pub(super) async fn revoke_identity_sessions(
    conn: &mut sqlx::AnyConnection,
    identity_id: &str,
    app_id: &str,
    at: i64,
) -> DbResult<Vec<String>> {
    sqlx::query(
        "UPDATE identity_sessions SET revoked_at = $2 WHERE identity_id = $1 AND revoked_at IS NULL",
    )
    .bind(identity_id)
    .bind(at)
    .execute(&mut *conn)
    .await?;
    Ok(sqlx::query_scalar(
        "UPDATE sessions SET revoked_at = $2 WHERE revoked_at IS NULL AND user_id IN \
         (SELECT id FROM users WHERE app_id = $3 AND provider = $4 AND subject = $1) RETURNING id",
    )
    .bind(identity_id)
    .bind(at)
    .bind(app_id)
    .bind(EMAIL_PROVIDER)
    .fetch_all(&mut *conn)
    .await?)
}

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

    /// Gives an unclaimed identity (unverified, no user) to a new sign-up: the new
    /// password, a new sign-up time, and none of the old links or sessions. The
    /// links go first, so a verification racing this either finishes before (and
    /// this replaces nothing) or finds its link gone. Returns whether it replaced.
    pub async fn replace_unclaimed_identity(
        &self,
        identity_id: &str,
        password_hash: &str,
    ) -> DbResult<bool> {
        let at = now();
        let mut tx = self.pool().begin().await?;
        for table in ["email_verifications", "password_resets"] {
            sqlx::query(&format!("DELETE FROM {table} WHERE identity_id = $1"))
                .bind(identity_id)
                .execute(&mut *tx)
                .await?;
        }
        let replaced = sqlx::query(&format!(
            "UPDATE email_identities SET password_hash = $2, created_at = $3 \
             WHERE id = $1 AND {UNCLAIMED}"
        ))
        .bind(identity_id)
        .bind(password_hash)
        .bind(at)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        if !replaced {
            tx.rollback().await?;
            return Ok(false);
        }
        sqlx::query(
            "UPDATE identity_sessions SET revoked_at = $2 WHERE identity_id = $1 AND revoked_at IS NULL",
        )
        .bind(identity_id)
        .bind(at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Deletes an unclaimed identity (unverified, no user) signed up at or before
    /// `created_by`: an expired one. Returns whether it did.
    pub async fn delete_unclaimed_identity(
        &self,
        identity_id: &str,
        created_by: i64,
    ) -> DbResult<bool> {
        let mut tx = self.pool().begin().await?;
        let deleted = sqlx::query(&format!(
            "DELETE FROM email_identities WHERE id = $1 AND created_at <= $2 AND {UNCLAIMED}"
        ))
        .bind(identity_id)
        .bind(created_by)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        if deleted {
            // The foreign keys cascade; said here too, for a connection without them.
            for table in [
                "email_verifications",
                "password_resets",
                "identity_sessions",
            ] {
                sqlx::query(&format!("DELETE FROM {table} WHERE identity_id = $1"))
                    .bind(identity_id)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        tx.commit().await?;
        Ok(deleted)
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

    /// Stores a verification link's token hash; the identity's used and
    /// expired links go.
    pub async fn create_email_verification(
        &self,
        identity_id: &str,
        token_hash: &str,
        lifetime_secs: i64,
    ) -> DbResult<()> {
        let mut conn = self.pool().acquire().await?;
        let (kind, at) = (LinkKind::EmailVerification, now());
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

    /// Uses a verification link: marks its identity verified when the link is
    /// unused and unexpired. Returns whether it was.
    pub async fn use_email_verification(&self, token_hash: &str) -> DbResult<bool> {
        let at = now();
        let mut tx = self.pool().begin().await?;
        let claimed: Option<(String,)> =
            links::claim(&mut tx, LinkKind::EmailVerification, token_hash, at).await?;
        let Some((identity,)) = claimed else {
            return Ok(false);
        };
        sqlx::query(
            "UPDATE email_identities SET verified_at = $2 WHERE id = $1 AND verified_at IS NULL",
        )
        .bind(&identity)
        .bind(at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Opens an identity session of an identity (e-mail or external);
    /// `login_provider` is the provider its id tokens carry.
    pub async fn create_identity_session(
        &self,
        identity_id: &str,
        login_provider: &str,
    ) -> DbResult<String> {
        let id = new_id();
        sqlx::query(
            "INSERT INTO identity_sessions (id, identity_id, created_at, login_provider) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(&id)
        .bind(identity_id)
        .bind(now())
        .bind(login_provider)
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

    /// The provider an identity session's id tokens carry.
    pub async fn identity_session_provider(&self, session_id: &str) -> DbResult<Option<String>> {
        Ok(
            sqlx::query_scalar("SELECT login_provider FROM identity_sessions WHERE id = $1")
                .bind(session_id)
                .fetch_optional(self.pool())
                .await?,
        )
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
