//! Apps: who may call the service, from which domains.

use super::{Db, DbError, DbResult, new_id, now};

/// The app an API key belongs to, and whether the domain is one of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppMatch {
    pub app_id: String,
    pub domain_allowed: bool,
}

impl Db {
    /// Creates an app with its key's hash and its allowed domains, atomically.
    pub async fn create_app(
        &self,
        name: &str,
        key_hash: &str,
        domains: &[String],
    ) -> DbResult<String> {
        let id = new_id();
        let mut tx = self.pool().begin().await?;
        sqlx::query("INSERT INTO apps (id, name, key_hash, created_at) VALUES ($1, $2, $3, $4)")
            .bind(&id)
            .bind(name)
            .bind(key_hash)
            .bind(now())
            .execute(&mut *tx)
            .await
            .map_err(DbError::from_write)?;
        for domain in domains {
            sqlx::query("INSERT INTO app_domains (app_id, domain) VALUES ($1, $2)")
                .bind(&id)
                .bind(domain)
                .execute(&mut *tx)
                .await
                .map_err(DbError::from_write)?;
        }
        tx.commit().await?;
        Ok(id)
    }

    /// Finds the app whose key hashes to `key_hash` and checks `domain` against it.
    pub async fn app_for_key(&self, key_hash: &str, domain: &str) -> DbResult<Option<AppMatch>> {
        let row: Option<(String, Option<String>)> = sqlx::query_as(
            "SELECT a.id, d.domain FROM apps a \
             LEFT JOIN app_domains d ON d.app_id = a.id AND d.domain = $2 \
             WHERE a.key_hash = $1",
        )
        .bind(key_hash)
        .bind(domain)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(|(app_id, matched)| AppMatch {
            app_id,
            domain_allowed: matched.is_some(),
        }))
    }
}
