//! Rotating refresh tokens. Only a token's SHA-256 is stored.

use super::{Db, DbResult};
use crate::clock::now;

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

    /// Rotates a refresh token in one transaction: uses `token_hash` up and stores
    /// `next_hash` (derived from the token, so always the same for it) as the
    /// next of its family. The update is conditional, so of two requests racing
    /// with the same token only one stores the next; a token used less than
    /// `grace_secs` ago whose next is still unused is taken again (its answer may
    /// have been lost on the way) and answered with that same next, so a retry
    /// neither looks like theft nor makes a second live token. Once the next was
    /// used, the old token presented again is a reuse.
    pub async fn rotate_refresh_token(
        &self,
        purpose: RefreshPurpose,
        token_hash: &str,
        next_hash: &str,
        lifetime_secs: i64,
        grace_secs: i64,
    ) -> DbResult<RefreshUse> {
        let at = now();
        let mut tx = self.pool().begin().await?;
        let fresh: Option<String> = sqlx::query_scalar(
            "UPDATE refresh_tokens SET used_at = $3 \
             WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3 \
             RETURNING family_id",
        )
        .bind(token_hash)
        .bind(purpose.as_str())
        .bind(at)
        .fetch_optional(&mut *tx)
        .await?;
        let found = match fresh {
            Some(family) => {
                sqlx::query(
                    "INSERT INTO refresh_tokens (token_hash, purpose, family_id, issued_at, expires_at) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(next_hash)
                .bind(purpose.as_str())
                .bind(&family)
                .bind(at)
                .bind(at + lifetime_secs)
                .execute(&mut *tx)
                .await?;
                RefreshUse::Fresh { family }
            }
            None => {
                let used: Option<(String, Option<i64>)> = sqlx::query_as(
                    "SELECT family_id, used_at FROM refresh_tokens \
                     WHERE token_hash = $1 AND purpose = $2",
                )
                .bind(token_hash)
                .bind(purpose.as_str())
                .fetch_optional(&mut *tx)
                .await?;
                let next_unused: Option<String> = sqlx::query_scalar(
                    "SELECT family_id FROM refresh_tokens \
                     WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL",
                )
                .bind(next_hash)
                .bind(purpose.as_str())
                .fetch_optional(&mut *tx)
                .await?;
                match used {
                    Some((family, Some(used_at)))
                        if at - used_at < grace_secs && next_unused.is_some() =>
                    {
                        RefreshUse::Fresh { family }
                    }
                    Some((family, Some(_))) => RefreshUse::Reused { family },
                    _ => RefreshUse::Invalid,
                }
            }
        };
        tx.commit().await?;
        Ok(found)
    }
}
