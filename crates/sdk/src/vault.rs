//! The wallet's secret on this device: a BIP-39 mnemonic made here (or restored
//! from its phrase), sealed with XChaCha20-Poly1305 under a device key, kept in the
//! OS keychain (`crate::keychain`).
//!
//! The device key needs the PIN and the wallet's share, which the service releases
//! only after a PIN proof it counts (`satchel_api::keys`): `k = Argon2id(PIN,
//! salt)`, proof `HMAC(k, ..)`, device key `HKDF(k || share)`. A copy of the
//! keychain entry alone cannot be opened by trying PINs offline. The service never
//! sees the mnemonic, the PIN, `k` or the device key.

use alloy::signers::local::coins_bip39::{English, Mnemonic};
use alloy::signers::local::{MnemonicBuilder, PrivateKeySigner};
use argon2::{Algorithm, Argon2, Params, Version};
use base64::Engine as _;
use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use hmac::{Hmac, Mac};
use rand::RngCore;
use satchel_api::rules::{MAX_ACCOUNTS, account_path};
use satchel_api::{DEVICE_KEY_CONTEXT, PIN_PROOF_CONTEXT, PinKdf, PinSetup, ServiceErrorCode};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use zeroize::Zeroizing;

use crate::error::SdkError;

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

fn damaged() -> SdkError {
    SdkError::unknown("the stored wallet is damaged")
}

fn decode(text: &str) -> Result<Vec<u8>, SdkError> {
    B64.decode(text).map_err(|_| damaged())
}

fn random<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes
}

/// The signer of a phrase's account `index` (`m/44'/60'/0'/0/index`).
fn signer_at(phrase: &str, index: u32) -> Result<PrivateKeySigner, SdkError> {
    MnemonicBuilder::<English>::default()
        .phrase(phrase)
        .derivation_path(account_path(index))
        .and_then(|b| b.build())
        .map_err(|e| SdkError::unknown(format!("key derivation: {e}")))
}

/// How hard the PIN key is to derive. `Interactive` is what the app uses; `Test`
/// keeps tests fast.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KdfStrength {
    Interactive,
    Test,
}

impl KdfStrength {
    /// New parameters with a fresh salt.
    fn fresh(self) -> PinKdf {
        let (m_cost, t_cost, p_cost) = match self {
            Self::Interactive => (64 * 1024, 3, 1),
            Self::Test => (8 * 1024, 1, 1),
        };
        PinKdf {
            salt: B64.encode(random::<16>()),
            m_cost,
            t_cost,
            p_cost,
        }
    }
}

/// `k = Argon2id(PIN, salt)`: what a PIN proves and, with the share, unlocks.
/// Slow on purpose, so derive it off the async runtime.
pub struct PinKey {
    kdf: PinKdf,
    k: Zeroizing<[u8; 32]>,
}

impl std::fmt::Debug for PinKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PinKey { <redacted> }")
    }
}

impl PinKey {
    pub fn derive(pin: &str, kdf: &PinKdf) -> Result<Self, SdkError> {
        let salt = decode(&kdf.salt)?;
        // Parameters can come from the service (restore): a hostile one must not
        // make the device allocate or loop without bound.
        if !satchel_api::PIN_SALT_BYTES.contains(&salt.len())
            || !satchel_api::PIN_M_COST_KIB.contains(&kdf.m_cost)
            || !satchel_api::PIN_T_COST.contains(&kdf.t_cost)
            || !satchel_api::PIN_P_COST.contains(&kdf.p_cost)
        {
            return Err(SdkError::service(
                ServiceErrorCode::ApiRequestError,
                "the PIN's key parameters are out of range",
            ));
        }
        let params = Params::new(kdf.m_cost, kdf.t_cost, kdf.p_cost, Some(32))
            .map_err(|e| SdkError::unknown(format!("kdf: {e}")))?;
        let mut k = Zeroizing::new([0u8; 32]);
        Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
            .hash_password_into(pin.as_bytes(), &salt, &mut *k)
            .map_err(|e| SdkError::unknown(format!("kdf: {e}")))?;
        Ok(Self {
            kdf: kdf.clone(),
            k,
        })
    }

    /// A key for a new PIN, with fresh parameters.
    pub fn new_pin(pin: &str, strength: KdfStrength) -> Result<Self, SdkError> {
        Self::derive(pin, &strength.fresh())
    }

    /// The proof the service checks: `HMAC-SHA256(k, PIN_PROOF_CONTEXT)`, base64.
    pub fn proof(&self) -> String {
        #[allow(clippy::expect_used)] // HMAC takes keys of any length
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&*self.k).expect("any key length");
        mac.update(PIN_PROOF_CONTEXT);
        B64.encode(mac.finalize().into_bytes())
    }

    /// The device key: `HKDF-SHA256(k || share, DEVICE_KEY_CONTEXT)`.
    fn device_key(&self, share: &[u8]) -> Result<Zeroizing<[u8; 32]>, SdkError> {
        if share.len() != 32 {
            return Err(SdkError::service(
                ServiceErrorCode::ApiRequestError,
                "the service sent a share of the wrong size",
            ));
        }
        let mut ikm = Zeroizing::new([0u8; 64]);
        ikm[..32].copy_from_slice(&*self.k);
        ikm[32..].copy_from_slice(share);
        let mut key = Zeroizing::new([0u8; 32]);
        hkdf::Hkdf::<Sha256>::new(None, &*ikm)
            .expand(DEVICE_KEY_CONTEXT, &mut *key)
            .map_err(|_| SdkError::unknown("key derivation"))?;
        Ok(key)
    }

    /// What the service keeps for this PIN with `share` (base64 of 32 bytes).
    pub fn setup(&self, share: &str) -> PinSetup {
        PinSetup {
            kdf: self.kdf.clone(),
            proof: self.proof(),
            share: share.to_owned(),
        }
    }
}

/// A 32-byte share for a new wallet or PIN reset, base64.
pub fn new_share() -> String {
    B64.encode(random::<32>())
}

/// A mnemonic held in memory (zeroed when dropped) and its first account.
pub struct Phrase {
    words: Zeroizing<String>,
    pub address: alloy::primitives::Address,
}

impl std::fmt::Debug for Phrase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Phrase")
            .field("address", &self.address)
            .finish_non_exhaustive()
    }
}

impl Phrase {
    /// A new 12-word mnemonic from the OS's randomness.
    pub fn generate() -> Result<Self, SdkError> {
        let mnemonic = Mnemonic::<English>::new_with_count(&mut rand::rngs::OsRng, 12)
            .map_err(|e| SdkError::unknown(format!("mnemonic: {e}")))?;
        Self::parse(&mnemonic.to_phrase())
    }

    /// A phrase a person typed: words of the BIP-39 English list with a valid
    /// checksum, any spacing or case. Anything else is `InvalidParameters`.
    pub fn parse(text: &str) -> Result<Self, SdkError> {
        let words = Zeroizing::new(
            text.split_whitespace()
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
                .join(" "),
        );
        Mnemonic::<English>::new_from_phrase(&words).map_err(|_| {
            SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "that is not a valid recovery phrase: check each word and their order",
            )
        })?;
        let address = signer_at(&words, 0)?.address();
        Ok(Self { words, address })
    }

    /// The first account's signer.
    pub fn signer(&self) -> Result<PrivateKeySigner, SdkError> {
        self.signer_at(0)
    }

    /// The signer of account `index` (0 is the first).
    pub fn signer_at(&self, index: u32) -> Result<PrivateKeySigner, SdkError> {
        signer_at(&self.words, index)
    }

    /// The words, for the person to write down.
    pub fn words(&self) -> Vec<String> {
        self.words.split(' ').map(str::to_owned).collect()
    }

    /// Seals the phrase under the device key of `pin_key` and `share`.
    pub fn seal(&self, pin_key: &PinKey, share: &str) -> Result<SealedMnemonic, SdkError> {
        let key = pin_key.device_key(&decode(share)?)?;
        let nonce = random::<24>();
        let ciphertext = XChaCha20Poly1305::new((&*key).into())
            .encrypt(&XNonce::from(nonce), self.words.as_bytes())
            .map_err(|_| SdkError::unknown("encryption failed"))?;
        Ok(SealedMnemonic {
            version: 2,
            kdf: pin_key.kdf.clone(),
            nonce: B64.encode(nonce),
            ciphertext: B64.encode(ciphertext),
            address: self.address.to_checksum(None),
            phrase_confirmed: false,
            more: Vec::new(),
        })
    }
}

/// The mnemonic sealed under the device key, as the keychain keeps it. The
/// service's backup is the same sealing ([`SealedMnemonic::backup`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SealedMnemonic {
    pub version: u8,
    pub kdf: PinKdf,
    pub nonce: String,
    pub ciphertext: String,
    /// The first account's address, so the wallet can be named without the PIN.
    pub address: String,
    /// The person confirmed they wrote the recovery phrase down.
    #[serde(default)]
    pub phrase_confirmed: bool,
    /// The further accounts' addresses, as this device derived them from the
    /// phrase: index 1 onwards, in order. What the device shows and signs for
    /// beyond the first account, whatever the service lists.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more: Vec<String>,
}

impl SealedMnemonic {
    /// Whether this key's first account is `address` (any letter case).
    pub fn is_for(&self, address: &str) -> bool {
        self.address.eq_ignore_ascii_case(address)
    }

    /// The index of `address` among the accounts this device derived (0 for
    /// the first), if it is one of them.
    pub fn index_of(&self, address: &str) -> Option<u32> {
        if self.is_for(address) {
            return Some(0);
        }
        let at = self
            .more
            .iter()
            .position(|a| a.eq_ignore_ascii_case(address))?;
        u32::try_from(at + 1).ok()
    }

    /// Whether `address` is one of the accounts this device derived.
    pub fn holds(&self, address: &str) -> bool {
        self.index_of(address).is_some()
    }

    /// The number of accounts this device derived.
    pub fn account_count(&self) -> u32 {
        u32::try_from(self.more.len() + 1).unwrap_or(u32::MAX)
    }

    /// Takes in the accounts of `listed` (address and path, as the service
    /// lists them) that the phrase derives at their path's index, in index
    /// order, stopping at the first index it cannot confirm; whether any was
    /// new. A listed address the phrase does not make is never taken.
    pub fn learn(
        &mut self,
        phrase: &Phrase,
        listed: &[(String, String)],
    ) -> Result<bool, SdkError> {
        let mut learned = false;
        loop {
            let next = self.account_count();
            if next >= MAX_ACCOUNTS {
                return Ok(learned);
            }
            let path = account_path(next);
            let Some((address, _)) = listed.iter().find(|(_, p)| *p == path) else {
                return Ok(learned);
            };
            let derived = phrase.signer_at(next)?.address();
            if !derived.to_checksum(None).eq_ignore_ascii_case(address) {
                return Ok(learned);
            }
            self.more.push(derived.to_checksum(None));
            learned = true;
        }
    }

    /// The backup the service keeps: nonce and ciphertext, base64.
    pub fn backup(&self) -> Result<String, SdkError> {
        let mut bytes = decode(&self.nonce)?;
        bytes.extend(decode(&self.ciphertext)?);
        Ok(B64.encode(bytes))
    }

    /// The sealing a backup holds, for the wallet at `address`.
    pub fn from_backup(backup: &str, kdf: PinKdf, address: &str) -> Result<Self, SdkError> {
        let bytes = decode(backup)?;
        if bytes.len() <= 24 {
            return Err(damaged());
        }
        let (nonce, ciphertext) = bytes.split_at(24);
        Ok(Self {
            version: 2,
            kdf,
            nonce: B64.encode(nonce),
            ciphertext: B64.encode(ciphertext),
            address: address.to_owned(),
            phrase_confirmed: false,
            more: Vec::new(),
        })
    }

    /// Opens the phrase with the PIN key and the share the service released. A
    /// phrase that is not this entry's address is refused.
    pub fn open(&self, pin_key: &PinKey, share: &str) -> Result<Phrase, SdkError> {
        let key = pin_key.device_key(&decode(share)?)?;
        let nonce: [u8; 24] = decode(&self.nonce)?.try_into().map_err(|_| damaged())?;
        let words = Zeroizing::new(
            XChaCha20Poly1305::new((&*key).into())
                .decrypt(&XNonce::from(nonce), decode(&self.ciphertext)?.as_slice())
                .map_err(|_| damaged())?,
        );
        let phrase = Phrase::parse(std::str::from_utf8(&words).map_err(|_| damaged())?)?;
        if !self.is_for(&phrase.address.to_checksum(None)) {
            return Err(damaged());
        }
        Ok(phrase)
    }
}

/// A wallet made at register and not yet confirmed by the service: its sealed key
/// and what the service is to keep (sent again on a retry). Until confirmed, the
/// keychain holds the share too; confirmation removes this entry.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingWallet {
    pub sealed: SealedMnemonic,
    pub setup: PinSetup,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backup: Option<String>,
}

impl std::fmt::Debug for PendingWallet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PendingWallet")
            .field("address", &self.sealed.address)
            .finish_non_exhaustive()
    }
}

impl PendingWallet {
    /// Whether `pin_key` is the PIN this wallet was made with (constant time).
    pub fn is_pin(&self, pin_key: &PinKey) -> bool {
        use subtle::ConstantTimeEq as _;
        pin_key
            .proof()
            .as_bytes()
            .ct_eq(self.setup.proof.as_bytes())
            .into()
    }
}

#[cfg(test)]
mod tests;
