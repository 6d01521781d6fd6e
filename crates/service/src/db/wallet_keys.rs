//! What the service keeps of wallets' PINs (`wallet_keys`), the challenges a
//! device signs to prove it holds a wallet's key (`wallet_challenges`), and the
//! e-mail links that lift a PIN lock (`pin_unlocks`).
//!
//! Wrong PIN proofs are counted by one conditional `UPDATE ... RETURNING` that
//! also sets the pause or the lock the count reaches, before the proof is
//! compared: of any number of guesses racing, only those the row still allowed
//! are compared at all.
//!
//! Over 400 lines: the SQL of the three tables the PIN protocol needs, each statement written once for both engines.

use std::fmt::Write as _;

use super::wallets::insert_wallet;
use super::{Db, DbResult, NewAccount, new_id};
use crate::now;

/// How the device derives `k` from the PIN: the Argon2id salt and costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredKdf {
    /// base64.
    pub salt: String,
    /// KiB.
    pub m_cost: i64,
    pub t_cost: i64,
    pub p_cost: i64,
}

/// A PIN as stored: its KDF, the proof's keyed hash and the sealed share.
#[derive(Clone)]
pub struct StoredPin {
    pub kdf: StoredKdf,
    /// HMAC-SHA256(pepper, proof), hex.
    pub proof_hash: String,
    /// base64(nonce || ciphertext).
    pub share_sealed: String,
}

impl std::fmt::Debug for StoredPin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredPin")
            .field("kdf", &self.kdf)
            .finish_non_exhaustive()
    }
}

/// A wallet's key material to store: the address that signed, the PIN, the backup.
#[derive(Debug, Clone)]
pub struct NewWalletKey {
    /// Lowercase hex.
    pub address: String,
    pub pin: StoredPin,
    pub backup: Option<String>,
}

/// A wallet's PIN row, without the proof hash and the sealed share.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WalletKeyRow {
    pub address: String,
    pub salt: String,
    pub m_cost: i64,
    pub t_cost: i64,
    pub p_cost: i64,
    pub backup: Option<String>,
    pub failures: i64,
    pub locked_until: i64,
    pub email_locked: i64,
}

/// A proof attempt the row allowed and counted: the count it reached, and what to
/// compare the proof with and release when it is right.
#[derive(sqlx::FromRow)]
pub struct CountedAttempt {
    pub failures: i64,
    pub proof_hash: String,
    pub share_sealed: String,
    pub backup: Option<String>,
}

/// When counted proofs pause or lock a PIN.
#[derive(Debug, Clone)]
pub struct PinLimits {
    /// (failures reached, pause in seconds) for each count that starts a pause.
    pub pauses: Vec<(i64, i64)>,
    /// The count from which the PIN waits for the e-mail link.
    pub email_lock_at: i64,
}

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

    /// Creates a wallet with its accounts and its key material, using up the
    /// challenge's nonce, in one transaction. A wrong signer uses up the nonce and
    /// creates nothing; a user with a wallet already is a
    /// [`DbError::Conflict`](super::DbError::Conflict) and changes nothing.
    pub async fn register_wallet(
        &self,
        wallet_id: &str,
        accounts: &[NewAccount],
        challenge: SignedChallenge<'_>,
        key: &NewWalletKey,
    ) -> DbResult<Signed> {
        let mut tx = self.pool().begin().await?;
        if let Err(refusal) = use_challenge(&mut tx, challenge).await? {
            return Ok(Signed::NonceRefused(refusal));
        }
        if !challenge.signer_ok {
            tx.commit().await?;
            return Ok(Signed::WrongSigner);
        }
        insert_wallet(&mut tx, wallet_id, challenge.user_id, accounts).await?;
        sqlx::query(
            "INSERT INTO wallet_keys (wallet_id, address, salt, m_cost, t_cost, p_cost, \
             proof_hash, share_sealed, backup, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(wallet_id)
        .bind(&key.address)
        .bind(&key.pin.kdf.salt)
        .bind(key.pin.kdf.m_cost)
        .bind(key.pin.kdf.t_cost)
        .bind(key.pin.kdf.p_cost)
        .bind(&key.pin.proof_hash)
        .bind(&key.pin.share_sealed)
        .bind(key.backup.as_deref())
        .bind(now())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Signed::Done)
    }

    /// Replaces a wallet's PIN and share (and backup: `None` clears it), lifting
    /// any pause or lock, using up the challenge's nonce, in one transaction. A
    /// wallet without key material gets it. A wrong signer uses up the nonce and
    /// changes nothing else.
    pub async fn reset_pin(
        &self,
        wallet_id: &str,
        challenge: SignedChallenge<'_>,
        key: &NewWalletKey,
    ) -> DbResult<Signed> {
        let mut tx = self.pool().begin().await?;
        if let Err(refusal) = use_challenge(&mut tx, challenge).await? {
            return Ok(Signed::NonceRefused(refusal));
        }
        if !challenge.signer_ok {
            tx.commit().await?;
            return Ok(Signed::WrongSigner);
        }
        sqlx::query(
            "INSERT INTO wallet_keys (wallet_id, address, salt, m_cost, t_cost, p_cost, \
             proof_hash, share_sealed, backup, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
             ON CONFLICT (wallet_id) DO UPDATE SET address = excluded.address, \
             salt = excluded.salt, m_cost = excluded.m_cost, t_cost = excluded.t_cost, \
             p_cost = excluded.p_cost, proof_hash = excluded.proof_hash, \
             share_sealed = excluded.share_sealed, backup = excluded.backup, \
             failures = 0, locked_until = 0, email_locked = 0, updated_at = excluded.updated_at",
        )
        .bind(wallet_id)
        .bind(&key.address)
        .bind(&key.pin.kdf.salt)
        .bind(key.pin.kdf.m_cost)
        .bind(key.pin.kdf.t_cost)
        .bind(key.pin.kdf.p_cost)
        .bind(&key.pin.proof_hash)
        .bind(&key.pin.share_sealed)
        .bind(key.backup.as_deref())
        .bind(now())
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM pin_unlocks WHERE wallet_id = $1")
            .bind(wallet_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Signed::Done)
    }

    /// A wallet's PIN row, if it has key material.
    pub async fn wallet_key(&self, wallet_id: &str) -> DbResult<Option<WalletKeyRow>> {
        Ok(sqlx::query_as(
            "SELECT address, salt, m_cost, t_cost, p_cost, backup, failures, locked_until, \
             email_locked FROM wallet_keys WHERE wallet_id = $1",
        )
        .bind(wallet_id)
        .fetch_optional(self.pool())
        .await?)
    }

    /// The address a wallet's key signs with: the registered one, or (for a wallet
    /// made without key material) its accounts'.
    pub async fn wallet_address(&self, wallet_id: &str) -> DbResult<Option<String>> {
        let registered: Option<String> =
            sqlx::query_scalar("SELECT address FROM wallet_keys WHERE wallet_id = $1")
                .bind(wallet_id)
                .fetch_optional(self.pool())
                .await?;
        if registered.is_some() {
            return Ok(registered);
        }
        Ok(sqlx::query_scalar(
            "SELECT address FROM accounts WHERE wallet_id = $1 ORDER BY position LIMIT 1",
        )
        .bind(wallet_id)
        .fetch_optional(self.pool())
        .await?)
    }

    /// Counts one proof attempt, as if it were wrong, and sets the pause or lock
    /// that count reaches, in one statement. `None` when the PIN is paused or
    /// locked (or has no row): nothing was counted and nothing may be compared.
    pub async fn count_pin_attempt(
        &self,
        wallet_id: &str,
        at: i64,
        limits: &PinLimits,
    ) -> DbResult<Option<CountedAttempt>> {
        let mut pause = String::from("locked_until");
        if !limits.pauses.is_empty() {
            pause = String::from("CASE failures + 1");
            for (i, (failures, _)) in limits.pauses.iter().enumerate() {
                let _ = write!(pause, " WHEN {failures} THEN ${}", 4 + i);
            }
            pause.push_str(" ELSE locked_until END");
        }
        let sql = format!(
            "UPDATE wallet_keys SET failures = failures + 1, locked_until = {pause}, \
             email_locked = CASE WHEN failures + 1 >= $3 THEN 1 ELSE email_locked END, \
             updated_at = $2 \
             WHERE wallet_id = $1 AND email_locked = 0 AND locked_until <= $2 \
             RETURNING failures, proof_hash, share_sealed, backup"
        );
        let mut query = sqlx::query_as(&sql)
            .bind(wallet_id)
            .bind(at)
            .bind(limits.email_lock_at);
        for (_, secs) in &limits.pauses {
            query = query.bind(pause_end(at, *secs));
        }
        Ok(query.fetch_optional(self.pool()).await?)
    }

    /// A counted attempt was right: takes back its count and those before it
    /// (wrong proofs counted meanwhile by other requests stay), with the pause or
    /// lock they had set.
    pub async fn settle_right_proof(
        &self,
        wallet_id: &str,
        counted: i64,
        limits: &PinLimits,
    ) -> DbResult<()> {
        let pause_from = limits
            .pauses
            .first()
            .map_or(limits.email_lock_at, |(failures, _)| *failures);
        sqlx::query(
            "UPDATE wallet_keys SET \
             failures = CASE WHEN failures > $2 THEN failures - $2 ELSE 0 END, \
             locked_until = CASE WHEN failures - $2 >= $3 THEN locked_until ELSE 0 END, \
             email_locked = CASE WHEN failures - $2 >= $4 THEN email_locked ELSE 0 END, \
             updated_at = $5 WHERE wallet_id = $1",
        )
        .bind(wallet_id)
        .bind(counted)
        .bind(pause_from)
        .bind(limits.email_lock_at)
        .bind(now())
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// A new PIN for the same share; the backup is replaced when one is given.
    pub async fn change_pin(
        &self,
        wallet_id: &str,
        kdf: &StoredKdf,
        proof_hash: &str,
        proven_hash: &str,
        backup: Option<&str>,
    ) -> DbResult<bool> {
        let set_backup = if backup.is_some() {
            ", backup = $9"
        } else {
            ""
        };
        // Only while the PIN is still the one just proven: a change or reset that
        // raced this one wins, and this one is refused (no mixed PIN and share).
        let sql = format!(
            "UPDATE wallet_keys SET salt = $2, m_cost = $3, t_cost = $4, p_cost = $5, \
             proof_hash = $6, updated_at = $7{set_backup} WHERE wallet_id = $1 AND proof_hash = $8"
        );
        let mut query = sqlx::query(&sql)
            .bind(wallet_id)
            .bind(&kdf.salt)
            .bind(kdf.m_cost)
            .bind(kdf.t_cost)
            .bind(kdf.p_cost)
            .bind(proof_hash)
            .bind(now())
            .bind(proven_hash);
        if let Some(backup) = backup {
            query = query.bind(backup);
        }
        Ok(query.execute(self.pool()).await?.rows_affected() == 1)
    }

    /// Stores an unlock link's token hash; the wallet's used and expired links go.
    pub async fn create_pin_unlock(
        &self,
        wallet_id: &str,
        token_hash: &str,
        lifetime_secs: i64,
    ) -> DbResult<()> {
        let at = now();
        let mut tx = self.pool().begin().await?;
        sqlx::query(
            "DELETE FROM pin_unlocks WHERE wallet_id = $1 AND (used_at IS NOT NULL OR expires_at <= $2)",
        )
        .bind(wallet_id)
        .bind(at)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO pin_unlocks (token_hash, wallet_id, expires_at) VALUES ($1, $2, $3)",
        )
        .bind(token_hash)
        .bind(wallet_id)
        .bind(at + lifetime_secs)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Uses an unlock link: clears its wallet's wrong proofs, pause and lock when
    /// the link is unused and unexpired (the wallet's other links stop working).
    /// Returns whether it was.
    pub async fn use_pin_unlock(&self, token_hash: &str) -> DbResult<bool> {
        let at = now();
        let mut tx = self.pool().begin().await?;
        let wallet: Option<String> = sqlx::query_scalar(
            "UPDATE pin_unlocks SET used_at = $2 \
             WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING wallet_id",
        )
        .bind(token_hash)
        .bind(at)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(wallet) = wallet else {
            return Ok(false);
        };
        sqlx::query(
            "UPDATE wallet_keys SET failures = 0, locked_until = 0, email_locked = 0, \
             updated_at = $2 WHERE wallet_id = $1",
        )
        .bind(&wallet)
        .bind(at)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM pin_unlocks WHERE wallet_id = $1 AND token_hash <> $2")
            .bind(&wallet)
            .bind(token_hash)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }
}

/// When a pause of `secs` started in the whole second `at` ends. Times are whole
/// seconds, so the pause ends a second later than `at + secs`: it lasts at least
/// `secs`, however late in its second it began. A pause of 0 is none.
fn pause_end(at: i64, secs: i64) -> i64 {
    if secs > 0 {
        at.saturating_add(secs).saturating_add(1)
    } else {
        at
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
