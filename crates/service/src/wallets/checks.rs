//! What a PIN request sends, checked before anything is counted or stored: the
//! PIN material (sizes and Argon2 costs within `satchel_api`'s bounds), backups,
//! and EIP-191 signatures of a challenge.

use std::ops::RangeInclusive;

use alloy::primitives::{Address, Signature};
use satchel_api::{PinSetup, challenge_message};

use crate::crypto::sealer::PinKeys;
use crate::crypto::{decode_base64, encode_base64};
use crate::db::{ChallengeRefusal, Signed, StoredKdf, StoredPin};
use crate::error::{ApiError, ApiResult};
use crate::identity::AuthUser;
use crate::state::AppState;

/// The longest backup kept, in characters of base64.
pub const MAX_BACKUP_CHARS: usize = 2048;

const SALT_BYTES: RangeInclusive<usize> = satchel_api::PIN_SALT_BYTES;
const M_COST_KIB: RangeInclusive<u32> = satchel_api::PIN_M_COST_KIB;
const T_COST: RangeInclusive<u32> = satchel_api::PIN_T_COST;
const P_COST: RangeInclusive<u32> = satchel_api::PIN_P_COST;

/// The PIN material of a request, checked.
pub struct CheckedPin {
    pub(super) kdf: StoredKdf,
    pub(super) proof: [u8; 32],
    pub(super) share: [u8; 32],
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

/// The caller's own wallet: 404 when there is no such wallet, 403 when it is
/// another user's.
pub async fn own_wallet(state: &AppState, user: &AuthUser, wallet_id: &str) -> ApiResult<()> {
    match state.db.wallet_owner(wallet_id).await? {
        None => Err(ApiError::not_found("wallet")),
        Some(owner) if owner != user.user_id => Err(ApiError::forbidden()),
        Some(_) => Ok(()),
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

#[cfg(test)]
mod tests {
    use satchel_api::PinKdf;

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
