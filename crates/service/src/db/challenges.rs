//! The challenges a device signs to prove it holds a wallet's key
//! (`wallet_challenges`): single use, short-lived, a few per user.

use super::{Db, DbResult, new_id};
use crate::clock::now;

/// Why a challenge nonce was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChallengeRefusal {
    /// No such nonce, or another user's.
    Unknown,
    Used,
    Expired,
}

/// A signed request's nonce, and whether its signature is by the right key.
#[derive(Debug, Clone, Copy)]
pub struct SignedChallenge<'a> {
    pub user_id: &'a str,
    pub nonce: &'a str,
    pub signer_ok: bool,
}

/// What a signed request (register, PIN reset) came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signed {
    Done,
    /// Nothing changed.
    NonceRefused(ChallengeRefusal),
    /// The nonce is used up; nothing else changed.
    WrongSigner,
}

impl Db {
    /// Stores a new challenge nonce of `user_id`. Expired nonces are deleted, and
    /// of the user's, only the newest `keep` (this one included) are kept.
    pub async fn create_challenge(
        &self,
        user_id: &str,
        nonce: &str,
        expires_at: i64,
        keep: i64,
    ) -> DbResult<()> {
        let mut tx = self.pool().begin().await?;
        sqlx::query("DELETE FROM wallet_challenges WHERE expires_at <= $1")
            .bind(now())
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "DELETE FROM wallet_challenges WHERE user_id = $1 AND nonce NOT IN \
             (SELECT nonce FROM wallet_challenges WHERE user_id = $1 \
              ORDER BY issued_id DESC LIMIT $2)",
        )
        .bind(user_id)
        .bind((keep - 1).max(0))
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO wallet_challenges (nonce, user_id, issued_id, expires_at) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(nonce)
        .bind(user_id)
        .bind(new_id())
        .bind(expires_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Opens the transaction of a signed request (register, PIN reset): the
    /// challenge's nonce used up in it. A refused nonce changes nothing; a wrong
    /// signer uses the nonce up and nothing else.
    pub(super) async fn begin_signed(
        &self,
        challenge: SignedChallenge<'_>,
    ) -> DbResult<Result<sqlx::Transaction<'static, sqlx::Any>, Signed>> {
        let mut tx = self.pool().begin().await?;
        if let Err(refusal) = use_challenge(&mut tx, challenge).await? {
            return Ok(Err(Signed::NonceRefused(refusal)));
        }
        if !challenge.signer_ok {
            tx.commit().await?;
            return Ok(Err(Signed::WrongSigner));
        }
        Ok(Ok(tx))
    }
}

/// Uses up `challenge`'s nonce on `conn` when it is the user's, unused and
/// unexpired; otherwise says why not (another user's nonce is "unknown").
async fn use_challenge(
    conn: &mut sqlx::AnyConnection,
    challenge: SignedChallenge<'_>,
) -> DbResult<Result<(), ChallengeRefusal>> {
    let at = now();
    let used: Option<String> = sqlx::query_scalar(
        "UPDATE wallet_challenges SET used_at = $3 \
         WHERE nonce = $1 AND user_id = $2 AND used_at IS NULL AND expires_at > $3 \
         RETURNING nonce",
    )
    .bind(challenge.nonce)
    .bind(challenge.user_id)
    .bind(at)
    .fetch_optional(&mut *conn)
    .await?;
    if used.is_some() {
        return Ok(Ok(()));
    }
    let found: Option<(String, Option<i64>)> =
        sqlx::query_as("SELECT user_id, used_at FROM wallet_challenges WHERE nonce = $1")
            .bind(challenge.nonce)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(Err(match found {
        Some((owner, _)) if owner != challenge.user_id => ChallengeRefusal::Unknown,
        None => ChallengeRefusal::Unknown,
        Some((_, Some(_))) => ChallengeRefusal::Used,
        Some((_, None)) => ChallengeRefusal::Expired,
    }))
}
