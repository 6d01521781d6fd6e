//! Users: one person of one app, as one identity provider knows them.

use super::{Db, DbResult, new_id};
use crate::clock::now;

impl Db {
    /// The user `subject` is at `provider` for this app, created on first sight.
    pub async fn find_or_create_user(
        &self,
        app_id: &str,
        provider: &str,
        subject: &str,
        email: &str,
    ) -> DbResult<String> {
        sqlx::query(
            "INSERT INTO users (id, app_id, provider, subject, email, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (app_id, provider, subject) DO NOTHING",
        )
        .bind(new_id())
        .bind(app_id)
        .bind(provider)
        .bind(subject)
        .bind(email)
        .bind(now())
        .execute(self.pool())
        .await?;
        Ok(sqlx::query_scalar(
            "SELECT id FROM users WHERE app_id = $1 AND provider = $2 AND subject = $3",
        )
        .bind(app_id)
        .bind(provider)
        .bind(subject)
        .fetch_one(self.pool())
        .await?)
    }

    /// A user's e-mail and provider.
    pub async fn user_profile(&self, user_id: &str) -> DbResult<Option<(String, String)>> {
        Ok(
            sqlx::query_as("SELECT email, provider FROM users WHERE id = $1")
                .bind(user_id)
                .fetch_optional(self.pool())
                .await?,
        )
    }

    /// The app a user belongs to.
    pub async fn user_app(&self, user_id: &str) -> DbResult<Option<String>> {
        Ok(sqlx::query_scalar("SELECT app_id FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(self.pool())
            .await?)
    }
}
