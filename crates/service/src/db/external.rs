//! Logins through someone else's identity: the OAuth providers an app has
//! registered, its external-token settings, the people those know
//! (`external_identities`), and the tickets and links that register an e-mail
//! for one whose provider gave none.

use super::links::{self, LinkKind};
use super::{Db, DbError, DbResult, new_id};
use crate::clock::now;

/// An OAuth provider an app has registered (the client secret still sealed).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct OAuthProviderRow {
    pub app_id: String,
    pub provider: String,
    pub client_id: String,
    pub client_secret_sealed: String,
    pub authorize_url: String,
    pub token_url: String,
    pub issuer: String,
    pub jwks_url: String,
    pub userinfo_url: String,
    pub scopes: String,
}

/// A person as a provider (or an app's backend) knows them.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ExternalIdentityRow {
    pub id: String,
    pub app_id: String,
    pub provider: String,
    pub subject: String,
    pub email: Option<String>,
}

/// A login refused for want of an e-mail, which its token may finish.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct RegistrationTicket {
    pub identity_id: String,
    pub login_provider: String,
}

const OAUTH_COLUMNS: &str = "app_id, provider, client_id, client_secret_sealed, authorize_url, \
     token_url, issuer, jwks_url, userinfo_url, scopes";

impl Db {
    /// Registers (or replaces) an app's OAuth provider.
    pub async fn set_oauth_provider(&self, row: &OAuthProviderRow) -> DbResult<()> {
        sqlx::query(&format!(
            "INSERT INTO oauth_providers ({OAUTH_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
             ON CONFLICT (app_id, provider) DO UPDATE SET client_id = $3, \
             client_secret_sealed = $4, authorize_url = $5, token_url = $6, issuer = $7, \
             jwks_url = $8, userinfo_url = $9, scopes = $10"
        ))
        .bind(&row.app_id)
        .bind(&row.provider)
        .bind(&row.client_id)
        .bind(&row.client_secret_sealed)
        .bind(&row.authorize_url)
        .bind(&row.token_url)
        .bind(&row.issuer)
        .bind(&row.jwks_url)
        .bind(&row.userinfo_url)
        .bind(&row.scopes)
        .execute(self.pool())
        .await
        .map_err(DbError::from_write)?;
        Ok(())
    }

    pub async fn oauth_provider(
        &self,
        app_id: &str,
        provider: &str,
    ) -> DbResult<Option<OAuthProviderRow>> {
        Ok(sqlx::query_as(&format!(
            "SELECT {OAUTH_COLUMNS} FROM oauth_providers WHERE app_id = $1 AND provider = $2"
        ))
        .bind(app_id)
        .bind(provider)
        .fetch_optional(self.pool())
        .await?)
    }

    pub async fn oauth_providers(&self, app_id: &str) -> DbResult<Vec<OAuthProviderRow>> {
        Ok(sqlx::query_as(&format!(
            "SELECT {OAUTH_COLUMNS} FROM oauth_providers WHERE app_id = $1 ORDER BY provider"
        ))
        .bind(app_id)
        .fetch_all(self.pool())
        .await?)
    }

    /// Sets the public key `sign` is checked with, and the issuer, audience and
    /// keys of the id tokens the app's backend issues.
    pub async fn set_external_token(
        &self,
        app_id: &str,
        public_key: &str,
        issuer: &str,
        audience: &str,
        jwks_url: &str,
    ) -> DbResult<()> {
        sqlx::query(
            "UPDATE apps SET login_public_key = $2, token_issuer = $3, token_audience = $4, \
             token_jwks_url = $5 WHERE id = $1",
        )
        .bind(app_id)
        .bind(public_key)
        .bind(issuer)
        .bind(audience)
        .bind(jwks_url)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// The person `subject` is at `provider` for this app, made on first sight.
    /// A verified e-mail the provider gives is kept when the identity has none.
    pub async fn find_or_create_external_identity(
        &self,
        app_id: &str,
        provider: &str,
        subject: &str,
        email: Option<&str>,
    ) -> DbResult<ExternalIdentityRow> {
        sqlx::query(
            "INSERT INTO external_identities (id, app_id, provider, subject, email, created_at) \
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
        if let Some(email) = email {
            sqlx::query(
                "UPDATE external_identities SET email = $4 \
                 WHERE app_id = $1 AND provider = $2 AND subject = $3 AND email IS NULL",
            )
            .bind(app_id)
            .bind(provider)
            .bind(subject)
            .bind(email)
            .execute(self.pool())
            .await?;
        }
        Ok(sqlx::query_as(
            "SELECT id, app_id, provider, subject, email FROM external_identities \
             WHERE app_id = $1 AND provider = $2 AND subject = $3",
        )
        .bind(app_id)
        .bind(provider)
        .bind(subject)
        .fetch_one(self.pool())
        .await?)
    }

    pub async fn external_identity_by_id(&self, id: &str) -> DbResult<Option<ExternalIdentityRow>> {
        Ok(sqlx::query_as(
            "SELECT id, app_id, provider, subject, email FROM external_identities WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(self.pool())
        .await?)
    }

    /// Remembers a token a login was refused for (its hash), for `lifetime_secs`.
    pub async fn insert_registration_ticket(
        &self,
        token_hash: &str,
        identity_id: &str,
        login_provider: &str,
        lifetime_secs: i64,
    ) -> DbResult<()> {
        let at = now();
        // Expired tickets go when new ones come: the table stays the size of the
        // last hour's refusals.
        sqlx::query("DELETE FROM email_registration_tickets WHERE expires_at <= $1")
            .bind(at)
            .execute(self.pool())
            .await?;
        sqlx::query(
            "INSERT INTO email_registration_tickets (token_hash, identity_id, login_provider, expires_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (token_hash) DO UPDATE SET expires_at = $4",
        )
        .bind(token_hash)
        .bind(identity_id)
        .bind(login_provider)
        .bind(at + lifetime_secs)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// The live ticket of a token's hash.
    pub async fn registration_ticket(
        &self,
        token_hash: &str,
    ) -> DbResult<Option<RegistrationTicket>> {
        Ok(sqlx::query_as(
            "SELECT identity_id, login_provider FROM email_registration_tickets \
             WHERE token_hash = $1 AND expires_at > $2",
        )
        .bind(token_hash)
        .bind(now())
        .fetch_optional(self.pool())
        .await?)
    }

    /// Uses up a ticket (its login is done).
    pub async fn delete_registration_ticket(&self, token_hash: &str) -> DbResult<()> {
        sqlx::query("DELETE FROM email_registration_tickets WHERE token_hash = $1")
            .bind(token_hash)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Stores a registration link's token hash with the address it sets; the
    /// identity's used and expired links go.
    pub async fn create_email_registration(
        &self,
        token_hash: &str,
        identity_id: &str,
        email: &str,
        lifetime_secs: i64,
    ) -> DbResult<()> {
        let mut conn = self.pool().acquire().await?;
        let (kind, at) = (LinkKind::EmailRegistration, now());
        links::issue(
            &mut conn,
            kind,
            identity_id,
            token_hash,
            Some(email),
            at,
            lifetime_secs,
        )
        .await
    }

    /// Uses a registration link: gives its identity the e-mail when the link is
    /// unused and unexpired and the identity has none yet (an identity's e-mail,
    /// once set, is not replaced by a link). Returns whether it did.
    pub async fn use_email_registration(&self, token_hash: &str) -> DbResult<bool> {
        let at = now();
        let mut tx = self.pool().begin().await?;
        let claimed: Option<(String, String)> =
            links::claim(&mut tx, LinkKind::EmailRegistration, token_hash, at).await?;
        let Some((identity, email)) = claimed else {
            return Ok(false);
        };
        let set = sqlx::query(
            "UPDATE external_identities SET email = $2 WHERE id = $1 AND email IS NULL",
        )
        .bind(&identity)
        .bind(&email)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        tx.commit().await?;
        Ok(set)
    }
}
