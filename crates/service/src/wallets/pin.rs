//! Wallet keys that can be neither lost nor guessed (`satchel_api::keys`).
//!
//! The device derives `k = Argon2id(PIN, salt)` and sends only `proof = HMAC(k, ..)`
//! and a random `share`; its key is `HKDF(k || share)`. The service keeps a keyed
//! hash of the proof and the share encrypted ([`crate::crypto::sealer`]), and gives the share back
//! only for the right proof. It counts wrong proofs before it compares one, so no
//! number of parallel guesses gets more tries than the count allows: 5 wrong in a
//! row start a pause (`pin_pause_secs`, doubling with each further wrong proof),
//! 10 lock the PIN until the link the service e-mails is opened or the PIN is reset
//! with a signature of the wallet's key (from the recovery phrase).
//!
//! To the service `proof` and `share` are opaque 32-byte values.
//!
//! Here: the counting and the operations; the checks of what a request sends (PIN
//! material, backups, signatures) are in `checks.rs` beside it, and the unlock
//! link and the owner's notices by e-mail in `pin/unlock.rs`.

use alloy::primitives::Address;
use axum::http::StatusCode;
use satchel_api::{
    PIN_TRIES_BEFORE_EMAIL, PIN_TRIES_BEFORE_PAUSE, PIN_TRIES_BEFORE_RECOVERY, PinChange, PinKdf,
    PinProof, PinRelease, PinReset, PinStatus, RestErrorCode, ServiceErrorCode, WalletChallenge,
    challenge_message,
};
use subtle::ConstantTimeEq as _;

use super::checks::*;
use crate::assets::views::lower_hex;
use crate::config::Settings;
use crate::crypto::encode_base64;
use crate::crypto::{random_secret, secret_hash};
use crate::db::{CountedAttempt, NewWalletKey, PinLimits, SignedChallenge, Unlock};
use crate::error::{ApiError, ApiResult};
use crate::identity::AuthUser;
use crate::limits::{LimitKey, MailKind};
use crate::state::AppState;

/// How long a challenge nonce works.
pub const CHALLENGE_LIFETIME_SECS: i64 = 10 * 60;
/// The newest challenges of a user that are kept; older ones stop working.
pub const CHALLENGES_KEPT_PER_USER: i64 = 5;
/// How long an unlock link works.
pub const UNLOCK_LINK_LIFETIME_SECS: i64 = 24 * 60 * 60;

mod unlock;
use unlock::{Notice, tell_owner};
pub use unlock::{send_unlock_email, use_unlock_link};

/// When wrong proofs pause or lock a PIN: a pause from the 5th wrong proof in a
/// row, `pin_pause_secs` doubling with each further one, the lock at the 10th.
pub fn pin_limits(settings: &Settings) -> PinLimits {
    let first = i64::from(PIN_TRIES_BEFORE_PAUSE);
    let lock = i64::from(PIN_TRIES_BEFORE_EMAIL);
    let base = i64::try_from(settings.pin_pause_secs).unwrap_or(i64::MAX);
    PinLimits {
        pauses: (first..lock)
            .map(|failures| {
                let doublings = u32::try_from(failures - first).unwrap_or(u32::MAX);
                let factor = 1i64.checked_shl(doublings).unwrap_or(i64::MAX);
                (failures, base.saturating_mul(factor))
            })
            .collect(),
        email_lock_at: lock,
        recovery_at: i64::from(PIN_TRIES_BEFORE_RECOVERY),
    }
}

/// Wrong proofs left before the next pause, or, once pauses have begun, before
/// the lock.
pub fn tries_left(failures: i64) -> u32 {
    let pause = i64::from(PIN_TRIES_BEFORE_PAUSE);
    let lock = i64::from(PIN_TRIES_BEFORE_EMAIL);
    let left = if failures < pause {
        pause - failures
    } else {
        lock - failures
    };
    u32::try_from(left.clamp(0, lock)).unwrap_or(0)
}

fn tries(n: u32) -> String {
    match n {
        1 => "1 try".to_owned(),
        n => format!("{n} tries"),
    }
}

/// 403 `WrongPin` for a wrong proof that brought the count to `failures`.
fn wrong_pin(failures: i64, limits: &PinLimits) -> ApiError {
    let left = tries_left(failures);
    let message = if failures >= limits.email_lock_at {
        "wrong PIN; no tries left: the PIN is locked until the link we e-mail is opened \
         (POST /v1/wallets/{walletId}/pin/unlock-email), or it is reset with the recovery phrase"
            .to_owned()
    } else if let Some((_, pause)) = limits.pauses.iter().find(|(at, _)| *at == failures) {
        format!(
            "wrong PIN; {} left before the PIN locks; the next try waits {pause} s",
            tries(left)
        )
    } else {
        format!("wrong PIN; {} left before a pause", tries(left))
    };
    ApiError::new(StatusCode::FORBIDDEN, RestErrorCode::WrongPin, message)
}

/// 423 `PinLocked`: only the e-mail link or a reset lifts the lock.
fn pin_locked() -> ApiError {
    pin_locked_because(
        "too many wrong PINs: the PIN is locked until the link we e-mail is opened \
         (POST /v1/wallets/{walletId}/pin/unlock-email), or it is reset with the recovery phrase",
    )
}

/// 423 `PinLocked` past [`PIN_TRIES_BEFORE_RECOVERY`]: no e-mail lifts it.
fn recovery_required() -> ApiError {
    pin_locked_because(
        "too many wrong PINs since the last right one: only the recovery phrase can set a new \
         PIN now (POST /v1/wallets/{walletId}/pin/reset)",
    )
}

fn pin_locked_because(message: &str) -> ApiError {
    ApiError::new(StatusCode::LOCKED, RestErrorCode::PinLocked, message)
}

/// 429 `TooManyRequests` during a pause.
fn paused(secs: i64) -> ApiError {
    ApiError::rate_limited(
        "too many wrong PINs",
        std::time::Duration::from_secs(secs.max(1).unsigned_abs()),
    )
}

fn no_pin() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        RestErrorCode::NotFound,
        "this wallet has no PIN at the service",
    )
}

/// Counts a proof, then compares it. A right proof takes back the count (and
/// clears the pause); a wrong one is 403 `WrongPin`. During a pause every proof
/// is 429 and under the lock 423, uncounted and uncompared.
async fn take_proof(
    state: &AppState,
    wallet_id: &str,
    proof: &[u8; 32],
) -> ApiResult<CountedAttempt> {
    let limits = pin_limits(&state.settings);
    // A pause can end between the refused count and the read that says why: then
    // the count is tried again.
    for _ in 0..3 {
        if let Some(attempt) = state
            .db
            .count_pin_attempt(wallet_id, crate::clock::now(), &limits)
            .await?
        {
            if !state.pin_keys.proof_matches(proof, &attempt.proof_hash) {
                return Err(wrong_pin(attempt.failures, &limits));
            }
            state
                .db
                .settle_right_proof(wallet_id, attempt.failures, &limits)
                .await?;
            return Ok(attempt);
        }
        let row = state.db.wallet_key(wallet_id).await?.ok_or_else(no_pin)?;
        if row.wrong_total >= limits.recovery_at {
            return Err(recovery_required());
        }
        if row.email_locked != 0 {
            return Err(pin_locked());
        }
        let wait = row.locked_until - crate::clock::now();
        if wait > 0 {
            return Err(paused(wait));
        }
    }
    Err(paused(1))
}

fn open_share(state: &AppState, wallet_id: &str, attempt: &CountedAttempt) -> ApiResult<[u8; 32]> {
    state
        .pin_keys
        .open_share(wallet_id, &attempt.share_sealed)
        .map_err(ApiError::internal)
}

/// `POST /v1/wallets/challenge`: a new nonce for `user_id` and the text to sign.
pub async fn challenge(state: &AppState, user_id: &str) -> ApiResult<WalletChallenge> {
    let nonce = random_secret();
    let expires_at = crate::clock::now() + CHALLENGE_LIFETIME_SECS;
    state
        .db
        .create_challenge(user_id, &nonce, expires_at, CHALLENGES_KEPT_PER_USER)
        .await?;
    Ok(WalletChallenge {
        message: challenge_message(user_id, &nonce),
        nonce,
        expires_at,
    })
}

/// `GET /v1/wallets/{walletId}/pin`.
pub async fn status(state: &AppState, user: &AuthUser, wallet_id: &str) -> ApiResult<PinStatus> {
    own_wallet(state, user, wallet_id).await?;
    let row = state.db.wallet_key(wallet_id).await?.ok_or_else(no_pin)?;
    let email_required = row.email_locked != 0;
    let cost = |value: i64| u32::try_from(value).unwrap_or_default();
    Ok(PinStatus {
        kdf: PinKdf {
            salt: row.salt,
            m_cost: cost(row.m_cost),
            t_cost: cost(row.t_cost),
            p_cost: cost(row.p_cost),
        },
        tries_left: if email_required {
            0
        } else {
            tries_left(row.failures)
        },
        locked_for_secs: if email_required {
            0
        } else {
            u64::try_from(row.locked_until - crate::clock::now()).unwrap_or(0)
        },
        email_required,
        has_backup: row.backup.is_some(),
    })
}

/// `POST /v1/wallets/{walletId}/pin/verify`: the share for the right proof, and
/// the kept backup when asked for (a restore), which the owner is told of.
pub async fn verify(
    state: &AppState,
    user: &AuthUser,
    wallet_id: &str,
    body: &PinProof,
) -> ApiResult<PinRelease> {
    let proof = check_bytes32(&body.proof, "proof")?;
    own_wallet(state, user, wallet_id).await?;
    let attempt = take_proof(state, wallet_id, &proof).await?;
    let share = open_share(state, wallet_id, &attempt)?;
    let backup = attempt.backup.filter(|_| body.backup);
    if backup.is_some()
        && let Err(e) = tell_owner(state, wallet_id, Notice::Restored).await
    {
        tracing::warn!(status = e.status.as_u16(), "restore notice not sent: {e}");
    }
    Ok(PinRelease {
        share: encode_base64(&share),
        backup,
    })
}

/// `PUT /v1/wallets/{walletId}/pin`: a new PIN, proven by the old one's proof
/// (counted like a verify). The share stays, so `pin.share` must be the current
/// one; the backup is replaced when one is given.
pub async fn change(
    state: &AppState,
    user: &AuthUser,
    wallet_id: &str,
    body: PinChange,
) -> ApiResult<()> {
    let proof = check_bytes32(&body.proof, "proof")?;
    let pin = check_pin(&body.pin, "pin")?;
    let backup = check_backup(body.backup)?;
    own_wallet(state, user, wallet_id).await?;
    let attempt = take_proof(state, wallet_id, &proof).await?;
    let share = open_share(state, wallet_id, &attempt)?;
    if !bool::from(share.ct_eq(&pin.share)) {
        return Err(ApiError::bad_request(
            "pin.share must be the wallet's current share: a PIN change keeps it",
        ));
    }
    let changed = state
        .db
        .change_pin(
            wallet_id,
            &pin.kdf,
            &state.pin_keys.proof_hash(&pin.proof),
            &attempt.proof_hash,
            backup.as_deref(),
        )
        .await?;
    if !changed {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            RestErrorCode::Conflict,
            "the PIN was changed or reset meanwhile; try again",
        ));
    }
    Ok(())
}

/// `POST /v1/wallets/{walletId}/pin/reset`: a new PIN and share (and backup, or
/// none), proven by the wallet's key signing a challenge. Lifts any pause or lock.
pub async fn reset(
    state: &AppState,
    user: &AuthUser,
    wallet_id: &str,
    body: PinReset,
) -> ApiResult<()> {
    let pin = check_pin(&body.pin, "pin")?;
    let backup = check_backup(body.backup)?;
    let signature = parse_signature(&body.signature)?;
    own_wallet(state, user, wallet_id).await?;
    let address: Address = state
        .db
        .wallet_address(wallet_id)
        .await?
        .ok_or_else(|| ApiError::not_found("wallet address"))?
        .parse()
        .map_err(ApiError::internal)?;
    let signer_ok = signed_by(&signature, &user.user_id, &body.nonce, &address);
    let key = NewWalletKey {
        address: lower_hex(&address),
        pin: pin.stored(&state.pin_keys, wallet_id),
        backup,
    };
    let challenge = SignedChallenge {
        user_id: &user.user_id,
        nonce: &body.nonce,
        signer_ok,
    };
    let outcome = state.db.reset_pin(wallet_id, challenge, &key).await?;
    signed_outcome(outcome, &address)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_double_from_the_fifth_wrong_proof_and_the_tenth_locks() {
        let settings = Settings::default();
        let limits = pin_limits(&settings);
        assert_eq!(
            limits.pauses,
            vec![(5, 30), (6, 60), (7, 120), (8, 240), (9, 480)]
        );
        assert_eq!(limits.email_lock_at, 10);
        let counts: Vec<u32> = (0..=11).map(tries_left).collect();
        assert_eq!(counts, vec![5, 4, 3, 2, 1, 5, 4, 3, 2, 1, 0, 0]);
        assert!(wrong_pin(3, &limits).message.contains("2 tries left"));
        assert!(wrong_pin(4, &limits).message.contains("1 try left"));
        assert!(wrong_pin(6, &limits).message.contains("waits 60 s"));
        assert!(wrong_pin(10, &limits).message.contains("locked"));
        let huge = Settings {
            pin_pause_secs: u64::MAX,
            ..Settings::default()
        };
        assert_eq!(pin_limits(&huge).pauses[4].1, i64::MAX);
    }
}
