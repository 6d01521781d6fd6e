//! Apps: who may call the service, from which domains.

use super::{Db, DbError, DbResult, new_id};
use crate::clock::now;

/// An app and what it allows.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct AppRow {
    pub id: String,
    pub name: String,
    /// Comma-separated provider names.
    pub providers: String,
    /// 1 when e-mail users must verify their address before logging in.
    pub email_verification: i64,
    /// Comma-separated e-mail domains sign-up is limited to; empty for any.
    pub email_domains: String,
    /// External tokens: the SEC1 public key (hex) `sign` is checked with, and the
    /// issuer, audience and JWKS of the backend's id tokens; empty when unset.
    pub login_public_key: String,
    pub token_issuer: String,
    pub token_audience: String,
    pub token_jwks_url: String,
}

impl AppRow {
    pub fn providers(&self) -> Vec<satchel_api::Provider> {
        split_list(&self.providers)
            .filter_map(satchel_api::Provider::parse)
            .collect()
    }

    pub fn email_domains(&self) -> Vec<String> {
        split_list(&self.email_domains).map(str::to_owned).collect()
    }

    pub fn requires_email_verification(&self) -> bool {
        self.email_verification != 0
    }
}

fn split_list(list: &str) -> impl Iterator<Item = &str> {
    list.split(',').map(str::trim).filter(|s| !s.is_empty())
}

/// The one domain under which an app may be called with an empty `X-API-DOMAIN`.
const LOCALHOST: &str = "localhost";
const LOOPBACK_ADDRESS: &str = "127.0.0.1";

/// `localhost` and `127.0.0.1` name the same loopback host.
pub fn is_loopback_host(host: &str) -> bool {
    host == LOCALHOST || host == LOOPBACK_ADDRESS
}

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

    /// Registers one more domain for an app (a web page's host, a desktop
    /// application's bundle identifier).
    pub async fn add_app_domain(&self, app_id: &str, domain: &str) -> DbResult<()> {
        sqlx::query("INSERT INTO app_domains (app_id, domain) VALUES ($1, $2)")
            .bind(app_id)
            .bind(domain)
            .execute(self.pool())
            .await
            .map_err(DbError::from_write)?;
        Ok(())
    }

    /// Sets what an app allows.
    pub async fn set_app_policy(
        &self,
        app_id: &str,
        providers: &[satchel_api::Provider],
        email_verification: bool,
        email_domains: &[String],
    ) -> DbResult<()> {
        let providers: Vec<&str> = providers.iter().map(|p| p.as_str()).collect();
        sqlx::query("UPDATE apps SET providers = $2, email_verification = $3, email_domains = $4 WHERE id = $1")
            .bind(app_id)
            .bind(providers.join(","))
            .bind(i64::from(email_verification))
            .bind(email_domains.join(","))
            .execute(self.pool())
            .await?;
        Ok(())
    }

    pub async fn app(&self, app_id: &str) -> DbResult<Option<AppRow>> {
        Ok(sqlx::query_as(
            "SELECT id, name, providers, email_verification, email_domains, login_public_key, \
             token_issuer, token_audience, token_jwks_url FROM apps WHERE id = $1",
        )
        .bind(app_id)
        .fetch_optional(self.pool())
        .await?)
    }

    /// Finds the app whose key hashes to `key_hash` and checks `domain` against it.
    /// An empty `domain` is what a web client on `localhost` sends (Wepin's
    /// `@wepin/fetch-js` blanks any domain containing "localhost"): it is allowed
    /// only for an app whose registered domains are [`LOCALHOST`] alone, and is
    /// then that domain.
    pub async fn app_for_key(&self, key_hash: &str, domain: &str) -> DbResult<Option<AppMatch>> {
        if domain.is_empty() {
            return self.localhost_app_for_key(key_hash).await;
        }
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

    /// Whether some app registered `domain`, in any case, and loopback under
    /// either name (a web page's origin is let read the service's answers
    /// only then: `http/cors.rs`).
    pub async fn domain_registered(&self, domain: &str) -> DbResult<bool> {
        let names: &[&str] = if is_loopback_host(domain) {
            &[LOCALHOST, LOOPBACK_ADDRESS]
        } else {
            &[domain]
        };
        for name in names {
            let row: Option<(i32,)> =
                sqlx::query_as("SELECT 1 FROM app_domains WHERE lower(domain) = lower($1) LIMIT 1")
                    .bind(*name)
                    .fetch_optional(self.pool())
                    .await?;
            if row.is_some() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The app whose key hashes to `key_hash`, allowed when every domain it
    /// registered is [`LOCALHOST`] (and it registered one).
    async fn localhost_app_for_key(&self, key_hash: &str) -> DbResult<Option<AppMatch>> {
        let rows: Vec<(String, Option<String>)> = sqlx::query_as(
            "SELECT a.id, d.domain FROM apps a \
             LEFT JOIN app_domains d ON d.app_id = a.id \
             WHERE a.key_hash = $1",
        )
        .bind(key_hash)
        .fetch_all(self.pool())
        .await?;
        let Some((app_id, _)) = rows.first() else {
            return Ok(None);
        };
        Ok(Some(AppMatch {
            app_id: app_id.clone(),
            domain_allowed: rows
                .iter()
                .all(|(_, domain)| domain.as_deref() == Some(LOCALHOST)),
        }))
    }
}
