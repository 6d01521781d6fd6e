//! The wallet key's protection, as the device and the service share it.
//!
//! The device derives `k = Argon2id(PIN, salt)` and sends only the proof
//! `HMAC-SHA256(k, "satchel pin proof v1")`; the service keeps a keyed hash of
//! the proof and a random per-wallet share (made by the device at register),
//! encrypted under a key from the service's configuration. The device key that
//! seals the mnemonic is `HKDF-SHA256(k || share, "satchel wallet key v1")`, so
//! neither the keychain entry alone nor the database alone opens it, and every
//! PIN guess must go through the service, which counts wrong proofs.
//!
//! Endpoints (all with the app headers and the user's bearer token):
//! - `POST /v1/wallets/challenge` → [`WalletChallenge`]: what the device signs to
//!   prove it holds a wallet's key (register, and PIN reset by recovery phrase).
//! - `GET /v1/wallets/{walletId}/pin` → [`PinStatus`].
//! - `POST /v1/wallets/{walletId}/pin/verify` [`PinProof`] → [`PinRelease`]; a wrong
//!   proof is 403 `WrongPin`, a paused one 429 `TooManyRequests`, one that needs the
//!   e-mail link 423 `PinLocked`.
//! - `PUT /v1/wallets/{walletId}/pin` [`PinChange`] → 204: a new PIN, proven by the old.
//! - `POST /v1/wallets/{walletId}/pin/reset` [`PinReset`] → 204: a new PIN and share,
//!   proven by a signature of the wallet's key (the recovery phrase).
//! - `POST /v1/wallets/{walletId}/pin/unlock-email` → 204: e-mails a link that lifts
//!   the lock after 10 wrong proofs; `GET /v1/wallets/pin/unlock?token=` is the link.
//! - `POST /v1/wallets/{walletId}/accounts` [`AddAccount`] → the wallet's accounts
//!   (operation 1's shape): the next account of the wallet's phrase, proven by a
//!   signature of its own key.
//! - `PUT /v1/wallets/{walletId}/accounts/{address}/label` [`AccountLabel`] → 204.

use serde::{Deserialize, Serialize};

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

/// Wrong proofs in a row after which the share is paused, with a growing delay.
pub const PIN_TRIES_BEFORE_PAUSE: u32 = 5;
/// Wrong proofs in a row after which only the e-mail link (or a reset with the
/// recovery phrase) lifts the lock.
pub const PIN_TRIES_BEFORE_EMAIL: u32 = 10;
/// Wrong PINs since the last right one (the e-mailed unlock does not count as
/// right) after which only the recovery phrase lets the wallet go on.
pub const PIN_TRIES_BEFORE_RECOVERY: u32 = 20;

/// The Argon2id parameters either side accepts: memory 8 MiB to 1 GiB (in KiB),
/// 1 to 10 passes, 1 to 4 lanes, a salt of 16 to 64 bytes. The device refuses
/// others from the service (a huge cost would hang it), the service from devices.
pub const PIN_SALT_BYTES: std::ops::RangeInclusive<usize> = 16..=64;
pub const PIN_M_COST_KIB: std::ops::RangeInclusive<u32> = 8 * 1024..=1024 * 1024;
pub const PIN_T_COST: std::ops::RangeInclusive<u32> = 1..=10;
pub const PIN_P_COST: std::ops::RangeInclusive<u32> = 1..=4;

/// The context strings of the derivations above, versioned.
pub const PIN_PROOF_CONTEXT: &[u8] = b"satchel pin proof v1";
pub const DEVICE_KEY_CONTEXT: &[u8] = b"satchel wallet key v1";

/// `POST /v1/wallets/challenge`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct WalletChallenge {
    pub nonce: String,
    /// The text to sign with EIP-191 `personal_sign`; it names the user and nonce.
    pub message: String,
    /// Unix seconds after which the nonce is refused.
    pub expires_at: i64,
}

/// `POST /v1/wallets/{walletId}/accounts`: the wallet's next account. Its path
/// must be the next index (`m/44'/60'/0'/0/i`, `i` the number of accounts the
/// wallet has), and the signature of a challenge by its address's key proves
/// the device derived it.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AddAccount {
    /// The EVM address (20 bytes as hex, `0x` optional).
    #[cfg_attr(feature = "openapi", schema(pattern = "^(0[xX])?[0-9a-fA-F]{40}$"))]
    pub address: String,
    /// `m/44'/60'/0'/0/i`, the wallet's next index.
    #[cfg_attr(
        feature = "openapi",
        schema(pattern = "^m/44'/60'/0'/0/(0|[1-9][0-9]{0,9})$")
    )]
    pub address_path: String,
    /// The nonce of a `POST /v1/wallets/challenge` answer, used once.
    pub nonce: String,
    /// EIP-191 `personal_sign` of the challenge's `message` by `address`'s key.
    #[cfg_attr(
        feature = "openapi",
        schema(
            pattern = r"^(0[xX])?[0-9a-fA-F]{128}(0[01]|1[bBcC]|2[3-9a-fA-F]|[3-9a-fA-F][0-9a-fA-F])$"
        )
    )]
    pub signature: String,
    /// The account's name, 1 to 32 characters.
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 32))]
    pub label: String,
}

impl std::fmt::Debug for AddAccount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AddAccount")
            .field("address", &self.address)
            .field("address_path", &self.address_path)
            .field("label", &self.label)
            .finish_non_exhaustive()
    }
}

/// `PUT /v1/wallets/{walletId}/accounts/{address}/label`: an account's new name,
/// on every network.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AccountLabel {
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 32))]
    pub label: String,
}

/// The Argon2id parameters and salt of a wallet's PIN (salt as base64).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PinKdf {
    /// 16 to 64 bytes, as standard base64 (padding optional).
    #[cfg_attr(
        feature = "openapi",
        schema(
            pattern = r"^(([A-Za-z0-9+/]{4}){5}([A-Za-z0-9+/][AQgw](==?)?|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=?)|([A-Za-z0-9+/]{4}){6,20}([A-Za-z0-9+/][AQgw](==?)?|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=?)?|([A-Za-z0-9+/]{4}){21}([A-Za-z0-9+/][AQgw](==?)?)?)$"
        )
    )]
    pub salt: String,
    /// Memory in KiB, iterations, lanes.
    #[serde(deserialize_with = "whole_u32")]
    #[cfg_attr(feature = "openapi", schema(minimum = 8192, maximum = 1048576))]
    pub m_cost: u32,
    #[serde(deserialize_with = "whole_u32")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 10))]
    pub t_cost: u32,
    #[serde(deserialize_with = "whole_u32")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 4))]
    pub p_cost: u32,
}

/// A `u32` as JSON Schema's `integer` has it: `6` or `6.0`, which are the same
/// number (the OpenAPI document says `integer`, and a client may well write a
/// whole number with a fraction).
fn whole_u32<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    struct Whole;
    impl serde::de::Visitor<'_> for Whole {
        type Value = u32;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an integer from 0 to 4294967295")
        }

        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<u32, E> {
            u32::try_from(v)
                .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
        }

        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<u32, E> {
            u32::try_from(v).map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
        }

        fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<u32, E> {
            if v.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&v) {
                Ok(v as u32)
            } else {
                Err(E::invalid_value(serde::de::Unexpected::Float(v), &self))
            }
        }
    }
    deserializer.deserialize_any(Whole)
}

/// What the service keeps of a PIN: how to derive `k`, the proof, and the share
/// (both 32 bytes as base64).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PinSetup {
    pub kdf: PinKdf,
    #[cfg_attr(
        feature = "openapi",
        schema(pattern = r"^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=?$")
    )]
    pub proof: String,
    #[cfg_attr(
        feature = "openapi",
        schema(pattern = r"^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=?$")
    )]
    pub share: String,
}

/// `GET /v1/wallets/{walletId}/pin`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PinStatus {
    #[cfg_attr(feature = "ts", ts(skip))]
    pub kdf: PinKdf,
    /// Wrong proofs left before the next pause (or, after the pauses, the lock).
    pub tries_left: u32,
    /// Seconds until the next proof is taken; 0 when it is taken now.
    pub locked_for_secs: u64,
    /// Only the e-mail link (or a reset with the recovery phrase) lifts the lock.
    pub email_required: bool,
    /// The service keeps an encrypted backup of the mnemonic.
    pub has_backup: bool,
}

/// `POST /v1/wallets/{walletId}/pin/verify`.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PinProof {
    /// 32 bytes as standard base64 (padding optional).
    #[cfg_attr(
        feature = "openapi",
        schema(pattern = r"^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=?$")
    )]
    pub proof: String,
    /// Release the kept backup too: a restore on a device without the key. The
    /// wallet's owner is e-mailed each time it is released.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub backup: bool,
}

/// The share (and the backup, when asked for and kept), released after a right
/// proof.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PinRelease {
    pub share: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backup: Option<String>,
}

/// `PUT /v1/wallets/{walletId}/pin`: the old PIN's proof, the new PIN. The share
/// stays; `backup` replaces the kept backup (sealed under the new device key).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PinChange {
    #[cfg_attr(
        feature = "openapi",
        schema(pattern = r"^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=?$")
    )]
    pub proof: String,
    pub pin: PinSetup,
    /// Standard base64, at most 2048 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "openapi",
        schema(
            max_length = 2048,
            pattern = r"^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{4}|[A-Za-z0-9+/][AQgw](==?)?|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=?)$"
        )
    )]
    pub backup: Option<String>,
}

/// `POST /v1/wallets/{walletId}/pin/reset`: a new PIN and share for a person who
/// proves with the wallet's key (from the recovery phrase) that the wallet is theirs.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PinReset {
    pub nonce: String,
    /// 65 bytes `r || s || v` as hex (`0x` optional).
    #[cfg_attr(
        feature = "openapi",
        schema(
            pattern = r"^(0[xX])?[0-9a-fA-F]{128}(0[01]|1[bBcC]|2[3-9a-fA-F]|[3-9a-fA-F][0-9a-fA-F])$"
        )
    )]
    pub signature: String,
    pub pin: PinSetup,
    /// Standard base64, at most 2048 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "openapi",
        schema(
            max_length = 2048,
            pattern = r"^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{4}|[A-Za-z0-9+/][AQgw](==?)?|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=?)$"
        )
    )]
    pub backup: Option<String>,
}

/// Secrets never print.
macro_rules! redacted {
    ($($ty:ident),*) => {$(
        impl std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(concat!(stringify!($ty), " { <redacted> }"))
            }
        }
    )*};
}
redacted!(PinSetup, PinProof, PinRelease, PinChange, PinReset);

/// The text a device signs to prove it holds a wallet's key for `user_id`.
pub fn challenge_message(user_id: &str, nonce: &str) -> String {
    format!("Satchel: I hold this wallet's key.\nuser: {user_id}\nnonce: {nonce}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kdf_costs_are_integers_written_either_way() {
        let kdf = |costs: &str| {
            serde_json::from_str::<PinKdf>(&format!(
                r#"{{"salt": "AAAAAAAAAAAAAAAAAAAAAA", {costs}}}"#
            ))
        };
        let read = kdf(r#""mCost": 19456, "tCost": 2.0, "pCost": 1"#).expect("whole numbers");
        assert_eq!((read.m_cost, read.t_cost, read.p_cost), (19_456, 2, 1));
        for refused in [
            r#""mCost": 19456, "tCost": 2.5, "pCost": 1"#,
            r#""mCost": -1, "tCost": 2, "pCost": 1"#,
            r#""mCost": 4294967296, "tCost": 2, "pCost": 1"#,
            r#""mCost": "19456", "tCost": 2, "pCost": 1"#,
        ] {
            assert!(kdf(refused).is_err(), "{refused}");
        }
    }
}
