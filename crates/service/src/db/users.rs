//! Users: one person of one app, as one identity provider knows them.

use super::{Db, DbError, DbResult, new_id, now};

impl Db {
    pub async fn create_user(
        &self,
        app_id: &str,
        provider: &str,
        subject: &str,
        email: &str,
    ) -> DbResult<String> {
        let id = new_id();
        sqlx::query(
            "INSERT INTO users (id, app_id, provider, subject, email, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&id)
        .bind(app_id)
        .bind(provider)
        .bind(subject)
        .bind(email)
        .bind(now())
        .execute(self.pool())
        .await
        .map_err(DbError::from_write)?;
        Ok(id)
    }

    /// The app a user belongs to.
    pub async fn user_app(&self, user_id: &str) -> DbResult<Option<String>> {
        Ok(sqlx::query_scalar("SELECT app_id FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(self.pool())
            .await?)
    }
}
