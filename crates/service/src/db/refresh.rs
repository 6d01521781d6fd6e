//! Rotating refresh tokens. Only a token's SHA-256 is stored.

use super::{Db, DbResult};
use crate::now;

/// Which kind of session a refresh token renews.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefreshPurpose {
    Identity,
    Service,
}

impl RefreshPurpose {
    fn as_str(self) -> &'static str {
        match self {
            Self::Identity => "identity",
            Self::Service => "service",
        }
    }
}

/// What presenting a refresh token found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefreshUse {
    /// The token was live and is now used up; issue the next one of `family`.
    Fresh { family: String },
    /// The token was used before: someone holds a copy. Revoke `family`.
    Reused { family: String },
    /// Unknown or expired.
    Invalid,
}

impl Db {
    pub async fn insert_refresh_token(
        &self,
        purpose: RefreshPurpose,
        family: &str,
        token_hash: &str,
        lifetime_secs: i64,
    ) -> DbResult<()> {
        let issued = now();
        sqlx::query(
            "INSERT INTO refresh_tokens (token_hash, purpose, family_id, issued_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(token_hash)
        .bind(purpose.as_str())
        .bind(family)
        .bind(issued)
        .bind(issued + lifetime_secs)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Uses a refresh token once. The update is conditional, so of two requests
    /// racing with the same token only one gets `Fresh`.
    pub async fn use_refresh_token(
        &self,
        purpose: RefreshPurpose,
        token_hash: &str,
    ) -> DbResult<RefreshUse> {
        let fresh: Option<String> = sqlx::query_scalar(
            "UPDATE refresh_tokens SET used_at = $3 \
             WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3 \
             RETURNING family_id",
        )
        .bind(token_hash)
        .bind(purpose.as_str())
        .bind(now())
        .fetch_optional(self.pool())
        .await?;
        if let Some(family) = fresh {
            return Ok(RefreshUse::Fresh { family });
        }
        let used: Option<(String, Option<i64>)> = sqlx::query_as(
            "SELECT family_id, used_at FROM refresh_tokens WHERE token_hash = $1 AND purpose = $2",
        )
        .bind(token_hash)
        .bind(purpose.as_str())
        .fetch_optional(self.pool())
        .await?;
        Ok(match used {
            Some((family, Some(_))) => RefreshUse::Reused { family },
            _ => RefreshUse::Invalid,
        })
    }
}
