//! Wallet keys that can be neither lost nor guessed (`satchel_api::keys`).
//!
//! The device derives `k = Argon2id(PIN, salt)` and sends only `proof = HMAC(k, ..)`
//! and a random `share`; its key is `HKDF(k || share)`. The service keeps a keyed
//! hash of the proof and the share encrypted ([`secret`]), and gives the share back
//! only for the right proof. It counts wrong proofs before it compares one, so no
//! number of parallel guesses gets more tries than the count allows: 5 wrong in a
//! row start a pause (`pin_pause_secs`, doubling with each further wrong proof),
//! 10 lock the PIN until the link the service e-mails is opened or the PIN is reset
//! with a signature of the wallet's key (from the recovery phrase).
//!
//! To the service `proof` and `share` are opaque 32-byte values.
//!
//! Over 400 lines, with its unit tests: the five PIN operations share the input checks, the counting and the share sealing, kept together so each rule is read once.

pub mod secret;

use std::ops::RangeInclusive;

use alloy::primitives::{Address, Signature};
use axum::http::StatusCode;
use base64::Engine as _;
use satchel_api::{
    PIN_TRIES_BEFORE_EMAIL, PIN_TRIES_BEFORE_PAUSE, PinChange, PinKdf, PinProof, PinRelease,
    PinReset, PinSetup, PinStatus, RestErrorCode, ServiceErrorCode, WalletChallenge,
    challenge_message,
};
use subtle::ConstantTimeEq as _;

pub use secret::PinKeys;

use crate::auth::AuthUser;
use crate::config::Settings;
use crate::db::{
    ChallengeRefusal, CountedAttempt, NewWalletKey, PinLimits, Signed, SignedChallenge, StoredKdf,
    StoredPin,
};
use crate::error::{ApiError, ApiResult};
use crate::identity::passwords::{random_secret, secret_hash};
use crate::refresh_limits::RefreshKey;
use crate::state::AppState;
use crate::views::lower_hex;

/// How long a challenge nonce works.
pub const CHALLENGE_LIFETIME_SECS: i64 = 10 * 60;
/// The newest challenges of a user that are kept; older ones stop working.
pub const CHALLENGES_KEPT_PER_USER: i64 = 5;
/// How long an unlock link works.
pub const UNLOCK_LINK_LIFETIME_SECS: i64 = 24 * 60 * 60;
/// The longest backup kept, in characters of base64.
pub const MAX_BACKUP_CHARS: usize = 2048;

const SALT_BYTES: RangeInclusive<usize> = satchel_api::PIN_SALT_BYTES;
const M_COST_KIB: RangeInclusive<u32> = satchel_api::PIN_M_COST_KIB;
const T_COST: RangeInclusive<u32> = satchel_api::PIN_T_COST;
const P_COST: RangeInclusive<u32> = satchel_api::PIN_P_COST;

/// Standard base64, with or without padding.
pub(crate) fn decode_base64(text: &str) -> Option<Vec<u8>> {
    const LENIENT: base64::engine::GeneralPurpose = base64::engine::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
    );
    LENIENT.decode(text).ok()
}

fn encode_base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The PIN material of a request, checked.
pub struct CheckedPin {
    kdf: StoredKdf,
    proof: [u8; 32],
    share: [u8; 32],
}

impl CheckedPin {
    /// What is stored of it for `wallet_id`: the proof's keyed hash, the share sealed.
    pub fn stored(&self, keys: &PinKeys, wallet_id: &str) -> StoredPin {
        StoredPin {
            kdf: self.kdf.clone(),
            proof_hash: keys.proof_hash(&self.proof),
            share_sealed: keys.seal_share(wallet_id, &self.share),
        }
    }
}

/// Checks a [`PinSetup`] (`field` names it in messages): salt of 16 to 64 bytes,
/// costs in range, proof and share of 32 bytes. Anything else is a 400.
pub fn check_pin(setup: &PinSetup, field: &str) -> ApiResult<CheckedPin> {
    let kdf = &setup.kdf;
    let salt = decode_base64(&kdf.salt)
        .filter(|salt| SALT_BYTES.contains(&salt.len()))
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "{field}.kdf.salt must be base64 of {} to {} bytes",
                SALT_BYTES.start(),
                SALT_BYTES.end()
            ))
        })?;
    let in_range = |value: u32, range: RangeInclusive<u32>, name: &str| {
        if range.contains(&value) {
            Ok(i64::from(value))
        } else {
            Err(ApiError::bad_request(format!(
                "{field}.kdf.{name} must be from {} to {}",
                range.start(),
                range.end()
            )))
        }
    };
    let kdf = StoredKdf {
        salt: encode_base64(&salt),
        m_cost: in_range(kdf.m_cost, M_COST_KIB, "mCost (KiB)")?,
        t_cost: in_range(kdf.t_cost, T_COST, "tCost")?,
        p_cost: in_range(kdf.p_cost, P_COST, "pCost")?,
    };
    Ok(CheckedPin {
        kdf,
        proof: check_bytes32(&setup.proof, &format!("{field}.proof"))?,
        share: check_bytes32(&setup.share, &format!("{field}.share"))?,
    })
}

/// A proof or share: base64 of exactly 32 bytes, else a 400 naming `field`.
pub fn check_bytes32(text: &str, field: &str) -> ApiResult<[u8; 32]> {
    decode_base64(text)
        .and_then(|bytes| <[u8; 32]>::try_from(bytes.as_slice()).ok())
        .ok_or_else(|| ApiError::bad_request(format!("{field} must be base64 of 32 bytes")))
}

/// A backup: base64 of at most [`MAX_BACKUP_CHARS`] characters, kept as sent.
pub fn check_backup(backup: Option<String>) -> ApiResult<Option<String>> {
    match backup {
        Some(text)
            if text.is_empty()
                || text.len() > MAX_BACKUP_CHARS
                || decode_base64(&text).is_none() =>
        {
            Err(ApiError::bad_request(format!(
                "backup must be base64 of at most {MAX_BACKUP_CHARS} characters"
            )))
        }
        other => Ok(other),
    }
}

/// An EIP-191 signature: 65 bytes `r || s || v` as (0x-)hex.
pub fn parse_signature(text: &str) -> ApiResult<Signature> {
    text.parse()
        .map_err(|_| ApiError::bad_request("signature must be 65 bytes r || s || v as 0x-hex"))
}

/// Whether `signature` is `address`'s `personal_sign` of the challenge `nonce`
/// gave `user_id`.
pub fn signed_by(signature: &Signature, user_id: &str, nonce: &str, address: &Address) -> bool {
    signature
        .recover_address_from_msg(challenge_message(user_id, nonce))
        .is_ok_and(|signer| signer == *address)
}

/// A signed request's outcome as the client reads it: a refused nonce or a wrong
/// signer is a 400 saying which.
pub fn signed_outcome(outcome: Signed, address: &Address) -> ApiResult<()> {
    let message = match outcome {
        Signed::Done => return Ok(()),
        Signed::NonceRefused(ChallengeRefusal::Unknown) => {
            "nonce: not a challenge this user asked for (POST /v1/wallets/challenge)".to_owned()
        }
        Signed::NonceRefused(ChallengeRefusal::Used) => {
            "nonce: this challenge was used already; ask for a new one".to_owned()
        }
        Signed::NonceRefused(ChallengeRefusal::Expired) => {
            "nonce: this challenge has expired; ask for a new one".to_owned()
        }
        Signed::WrongSigner => format!(
            "signature: not the key of {}'s signature of the challenge; the nonce is used up",
            address.to_checksum(None)
        ),
    };
    Err(ApiError::bad_request(message))
}

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
    ApiError::new(
        StatusCode::LOCKED,
        RestErrorCode::PinLocked,
        "too many wrong PINs: the PIN is locked until the link we e-mail is opened \
         (POST /v1/wallets/{walletId}/pin/unlock-email), or it is reset with the recovery phrase",
    )
}

/// 429 `TooManyRequests` during a pause.
fn paused(secs: i64) -> ApiError {
    ApiError::too_many_requests(format!(
        "too many wrong PINs; try again in {} s",
        secs.max(1)
    ))
}

fn no_pin() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        RestErrorCode::NotFound,
        "this wallet has no PIN at the service",
    )
}

/// 403 unless the wallet is the caller's; 404 when there is no such wallet.
async fn own_wallet(state: &AppState, user: &AuthUser, wallet_id: &str) -> ApiResult<()> {
    match state.db.wallet_owner(wallet_id).await? {
        None => Err(ApiError::not_found("wallet")),
        Some(owner) if owner != user.user_id => Err(ApiError::forbidden()),
        Some(_) => Ok(()),
    }
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
            .count_pin_attempt(wallet_id, crate::now(), &limits)
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
        if row.email_locked != 0 {
            return Err(pin_locked());
        }
        let wait = row.locked_until - crate::now();
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
    let expires_at = crate::now() + CHALLENGE_LIFETIME_SECS;
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
            u64::try_from(row.locked_until - crate::now()).unwrap_or(0)
        },
        email_required,
        has_backup: row.backup.is_some(),
    })
}

/// `POST /v1/wallets/{walletId}/pin/verify`: the share (and backup) for the right
/// proof.
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
    Ok(PinRelease {
        share: encode_base64(&share),
        backup: attempt.backup,
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

/// `POST /v1/wallets/{walletId}/pin/unlock-email`: e-mails the user a link that
/// lifts the lock. Only while locked.
pub async fn send_unlock_email(
    state: &AppState,
    user: &AuthUser,
    wallet_id: &str,
) -> ApiResult<()> {
    own_wallet(state, user, wallet_id).await?;
    let row = state.db.wallet_key(wallet_id).await?.ok_or_else(no_pin)?;
    if row.email_locked == 0 {
        return Err(ApiError::bad_request(
            "the PIN is not locked; only a locked PIN is unlocked by e-mail",
        ));
    }
    state
        .refresh_limits
        .check(RefreshKey::PinUnlockEmail { wallet_id })
        .map_err(|wait| {
            ApiError::too_many_requests(format!(
                "wait {} s before asking again",
                wait.as_secs().max(1)
            ))
        })?;
    let (email, _) = state
        .db
        .user_profile(&user.user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("user"))?;
    if email.is_empty() {
        return Err(ApiError::bad_request(
            "this user has no e-mail address; reset the PIN with the recovery phrase",
        ));
    }
    let app_name = state
        .db
        .app(&user.app_id)
        .await?
        .map_or_else(|| "Satchel".to_owned(), |app| app.name);
    let token = random_secret();
    state
        .db
        .create_pin_unlock(wallet_id, &secret_hash(&token), UNLOCK_LINK_LIFETIME_SECS)
        .await?;
    let mut link = state
        .settings
        .public_url
        .join("v1/wallets/pin/unlock")
        .map_err(ApiError::internal)?;
    link.query_pairs_mut().append_pair("token", &token);
    state
        .mailer
        .send_pin_unlock(&email, &app_name, link.as_str())
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::BAD_GATEWAY,
                ServiceErrorCode::FailedSendEmail,
                "the unlock e-mail could not be sent; try again later",
            )
            .with_cause(format_args!("unlock e-mail not sent: {e}"))
        })
}

/// `GET /v1/wallets/pin/unlock?token=`: whether the link lifted a lock.
pub async fn use_unlock_link(state: &AppState, token: &str) -> ApiResult<bool> {
    Ok(state.db.use_pin_unlock(&secret_hash(token)).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(salt: &[u8], m_cost: u32, proof: &[u8], share: &[u8]) -> PinSetup {
        PinSetup {
            kdf: PinKdf {
                salt: encode_base64(salt),
                m_cost,
                t_cost: 3,
                p_cost: 1,
            },
            proof: encode_base64(proof),
            share: encode_base64(share),
        }
    }

    #[test]
    fn pin_material_is_checked_field_by_field() {
        assert!(check_pin(&setup(&[1; 16], 19_456, &[2; 32], &[3; 32]), "pin").is_ok());
        let refused = |s: PinSetup| check_pin(&s, "pin").err().map(|e| e.message);
        assert!(
            refused(setup(&[1; 15], 19_456, &[2; 32], &[3; 32]))
                .is_some_and(|m| m.contains("pin.kdf.salt"))
        );
        assert!(refused(setup(&[1; 65], 19_456, &[2; 32], &[3; 32])).is_some());
        assert!(
            refused(setup(&[1; 16], 8191, &[2; 32], &[3; 32])).is_some_and(|m| m.contains("mCost"))
        );
        assert!(refused(setup(&[1; 16], 1024 * 1024 + 1, &[2; 32], &[3; 32])).is_some());
        assert!(
            refused(setup(&[1; 16], 8192, &[2; 31], &[3; 32]))
                .is_some_and(|m| m.contains("pin.proof"))
        );
        assert!(
            refused(setup(&[1; 16], 8192, &[2; 32], &[3; 33]))
                .is_some_and(|m| m.contains("pin.share"))
        );
        let mut bad = setup(&[1; 16], 8192, &[2; 32], &[3; 32]);
        bad.kdf.t_cost = 11;
        assert!(refused(bad.clone()).is_some_and(|m| m.contains("tCost")));
        bad.kdf.t_cost = 1;
        bad.kdf.p_cost = 0;
        assert!(refused(bad.clone()).is_some_and(|m| m.contains("pCost")));
        bad.kdf.p_cost = 4;
        bad.proof = "not base64!".into();
        assert!(refused(bad).is_some());
    }

    #[test]
    fn backups_are_short_base64() {
        assert_eq!(check_backup(None).ok(), Some(None));
        assert!(check_backup(Some(encode_base64(&[1; 100]))).is_ok());
        assert!(check_backup(Some("A".repeat(MAX_BACKUP_CHARS + 4))).is_err());
        assert!(check_backup(Some(String::new())).is_err());
        assert!(check_backup(Some("***".into())).is_err());
    }

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

    #[test]
    fn a_signature_is_checked_against_the_challenge_and_address() {
        use alloy::signers::SignerSync as _;
        use alloy::signers::local::PrivateKeySigner;
        let signer = PrivateKeySigner::random();
        let signed = signer
            .sign_message_sync(challenge_message("u1", "n1").as_bytes())
            .expect("signed");
        let text = format!("0x{}", hex::encode(signed.as_bytes()));
        let signature = parse_signature(&text).expect("parses");
        assert!(signed_by(&signature, "u1", "n1", &signer.address()));
        assert!(!signed_by(&signature, "u2", "n1", &signer.address()));
        assert!(!signed_by(&signature, "u1", "n2", &signer.address()));
        let other = PrivateKeySigner::random().address();
        assert!(!signed_by(&signature, "u1", "n1", &other));
        assert!(parse_signature("0x1234").is_err());
    }
}
