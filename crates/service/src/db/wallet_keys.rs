//! What the service keeps of wallets' PINs (`wallet_keys`). The challenges a
//! device signs are in `challenges.rs`, the e-mail links that lift a PIN lock in
//! `pin_unlocks.rs`.
//!
//! Wrong PIN proofs are counted by one conditional `UPDATE ... RETURNING` that
//! also sets the pause or the lock the count reaches, before the proof is
//! compared: of any number of guesses racing, only those the row still allowed
//! are compared at all.

use std::fmt::Write as _;

use super::challenges::{Signed, SignedChallenge};
use super::wallets::insert_wallet;
use super::{Db, DbResult, NewAccount};
use crate::clock::now;

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
    /// Wrong proofs since the last right one or reset (an unlock link keeps it).
    pub wrong_total: i64,
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
    /// The count of wrong proofs since the last right one from which only the
    /// recovery phrase lets the wallet go on.
    pub recovery_at: i64,
}

impl Db {
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
        let mut tx = match self.begin_signed(challenge).await? {
            Ok(tx) => tx,
            Err(outcome) => return Ok(outcome),
        };
        insert_wallet(&mut tx, wallet_id, challenge.user_id, accounts).await?;
        put_key(&mut tx, wallet_id, key, "").await?;
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
        let mut tx = match self.begin_signed(challenge).await? {
            Ok(tx) => tx,
            Err(outcome) => return Ok(outcome),
        };
        put_key(
            &mut tx,
            wallet_id,
            key,
            " ON CONFLICT (wallet_id) DO UPDATE SET address = excluded.address, \
             salt = excluded.salt, m_cost = excluded.m_cost, t_cost = excluded.t_cost, \
             p_cost = excluded.p_cost, proof_hash = excluded.proof_hash, \
             share_sealed = excluded.share_sealed, backup = excluded.backup, \
             failures = 0, locked_until = 0, email_locked = 0, wrong_total = 0, \
             updated_at = excluded.updated_at",
        )
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
             email_locked, wrong_total FROM wallet_keys WHERE wallet_id = $1",
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
                let _ = write!(pause, " WHEN {failures} THEN ${}", 5 + i);
            }
            pause.push_str(" ELSE locked_until END");
        }
        let sql = format!(
            "UPDATE wallet_keys SET failures = failures + 1, locked_until = {pause}, \
             email_locked = CASE WHEN failures + 1 >= $3 OR wrong_total + 1 >= $4 THEN 1 \
             ELSE email_locked END, wrong_total = wrong_total + 1, updated_at = $2 \
             WHERE wallet_id = $1 AND email_locked = 0 AND locked_until <= $2 \
             RETURNING failures, proof_hash, share_sealed, backup"
        );
        let mut query = sqlx::query_as(&sql)
            .bind(wallet_id)
            .bind(at)
            .bind(limits.email_lock_at)
            .bind(limits.recovery_at);
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
             wrong_total = CASE WHEN failures > $2 THEN failures - $2 ELSE 0 END, \
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

/// Writes a wallet's key material; `on_conflict` says what happens to a row the
/// wallet has already (nothing added: the insert fails).
async fn put_key(
    conn: &mut sqlx::AnyConnection,
    wallet_id: &str,
    key: &NewWalletKey,
    on_conflict: &str,
) -> DbResult<()> {
    let sql = format!(
        "INSERT INTO wallet_keys (wallet_id, address, salt, m_cost, t_cost, p_cost, \
         proof_hash, share_sealed, backup, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10){on_conflict}"
    );
    sqlx::query(&sql)
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
        .execute(&mut *conn)
        .await?;
    Ok(())
}
