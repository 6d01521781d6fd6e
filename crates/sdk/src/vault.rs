//! The wallet's secret on this device: a BIP-39 mnemonic made here, encrypted under
//! a key derived from the person's PIN (argon2id, then XChaCha20-Poly1305), kept in
//! the OS keychain ([`KeyVault`]). The service never sees the mnemonic, the key or
//! the PIN.

use std::sync::Arc;

use alloy::signers::local::coins_bip39::{English, Mnemonic};
use alloy::signers::local::{MnemonicBuilder, PrivateKeySigner};
use argon2::{Algorithm, Argon2, Params, Version};
use base64::Engine as _;
use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use rand::RngCore;
use satchel_api::ServiceErrorCode;
use satchel_api::rules::FIRST_ACCOUNT_PATH;
use serde::{Deserialize, Serialize};
use zeroize::{Zeroize, Zeroizing};

use crate::error::SdkError;
use crate::store::{TokenStore, load_json, save_json};

/// The keychain entry of `user_id`'s confirmed wallet key in `app_id`.
pub fn wallet_entry(app_id: &str, user_id: &str) -> String {
    format!("wallet:{app_id}:{user_id}")
}

/// The keychain entry of a wallet key made for `user_id` whose registration the
/// service has not confirmed yet.
pub fn pending_entry(app_id: &str, user_id: &str) -> String {
    format!("wallet-pending:{app_id}:{user_id}")
}

/// Where the sealed keys of this app's users are kept: per app and user, one
/// confirmed key, and at most one key made but not yet confirmed by the service.
/// A key is confirmed only once the service has the same address, so a retried
/// registration reuses the pending key and can never replace a confirmed one.
pub(crate) struct KeyVault {
    store: Arc<dyn TokenStore>,
    app_id: String,
}

impl KeyVault {
    pub(crate) fn new(store: Arc<dyn TokenStore>, app_id: &str) -> Self {
        Self {
            store,
            app_id: app_id.to_owned(),
        }
    }

    /// The confirmed sealed key of `user_id`'s wallet on this device, if any.
    pub(crate) async fn load(&self, user_id: &str) -> Result<Option<SealedMnemonic>, SdkError> {
        load_json(&self.store, &wallet_entry(&self.app_id, user_id)).await
    }

    /// The key made for `user_id` and not yet confirmed, if any.
    pub(crate) async fn load_pending(
        &self,
        user_id: &str,
    ) -> Result<Option<SealedMnemonic>, SdkError> {
        load_json(&self.store, &pending_entry(&self.app_id, user_id)).await
    }

    pub(crate) async fn save_pending(
        &self,
        user_id: &str,
        sealed: &SealedMnemonic,
    ) -> Result<(), SdkError> {
        save_json(
            &self.store,
            &pending_entry(&self.app_id, user_id),
            Some(sealed),
        )
        .await
    }

    /// The service has the pending key's address: it becomes the wallet's key.
    pub(crate) async fn confirm(
        &self,
        user_id: &str,
        sealed: &SealedMnemonic,
    ) -> Result<(), SdkError> {
        save_json(
            &self.store,
            &wallet_entry(&self.app_id, user_id),
            Some(sealed),
        )
        .await?;
        save_json::<SealedMnemonic>(&self.store, &pending_entry(&self.app_id, user_id), None).await
    }
}

/// A new wallet: its mnemonic (kept secret) and its first account's address.
pub struct NewWallet {
    mnemonic: Zeroizing<String>,
    pub address: alloy::primitives::Address,
}

impl std::fmt::Debug for NewWallet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewWallet")
            .field("address", &self.address)
            .finish_non_exhaustive()
    }
}

/// The mnemonic sealed under a PIN, as the keychain keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SealedMnemonic {
    pub version: u8,
    /// argon2id memory in KiB, iterations and lanes.
    pub m_cost: u32,
    pub t_cost: u32,
    pub p_cost: u32,
    pub salt: String,
    pub nonce: String,
    pub ciphertext: String,
    /// The first account's address, so the wallet can be named without the PIN.
    pub address: String,
}

fn vault_error(message: impl std::fmt::Display) -> SdkError {
    SdkError::unknown(message)
}

fn signer_for(phrase: &str) -> Result<PrivateKeySigner, SdkError> {
    MnemonicBuilder::<English>::default()
        .phrase(phrase)
        .derivation_path(FIRST_ACCOUNT_PATH)
        .and_then(|b| b.build())
        .map_err(|e| vault_error(format!("key derivation: {e}")))
}

impl NewWallet {
    /// Makes a 12-word mnemonic from the OS's randomness.
    pub fn generate() -> Result<Self, SdkError> {
        let mnemonic = Mnemonic::<English>::new_with_count(&mut rand::rngs::OsRng, 12)
            .map_err(|e| vault_error(format!("mnemonic: {e}")))?;
        let phrase = Zeroizing::new(mnemonic.to_phrase());
        let address = signer_for(&phrase)?.address();
        Ok(Self {
            mnemonic: phrase,
            address,
        })
    }

    /// Seals the mnemonic under `pin`. Slow on purpose (argon2id), so run it off
    /// the async runtime.
    pub fn seal(&self, pin: &str, strength: KdfStrength) -> Result<SealedMnemonic, SdkError> {
        let (m_cost, t_cost, p_cost) = strength.params();
        let mut salt = [0u8; 16];
        let mut nonce = [0u8; 24];
        rand::rngs::OsRng.fill_bytes(&mut salt);
        rand::rngs::OsRng.fill_bytes(&mut nonce);
        let key = derive_key(pin, &salt, m_cost, t_cost, p_cost)?;
        let cipher = XChaCha20Poly1305::new((&*key).into());
        let ciphertext = cipher
            .encrypt(&XNonce::from(nonce), self.mnemonic.as_bytes())
            .map_err(|_| vault_error("encryption failed"))?;
        let b64 = base64::engine::general_purpose::STANDARD;
        Ok(SealedMnemonic {
            version: 1,
            m_cost,
            t_cost,
            p_cost,
            salt: b64.encode(salt),
            nonce: b64.encode(nonce),
            ciphertext: b64.encode(ciphertext),
            address: self.address.to_checksum(None),
        })
    }
}

/// How hard the PIN key is to derive. `Interactive` is what the app uses; `Test`
/// keeps unit tests fast.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KdfStrength {
    Interactive,
    Test,
}

impl KdfStrength {
    fn params(self) -> (u32, u32, u32) {
        match self {
            Self::Interactive => (64 * 1024, 3, 1),
            Self::Test => (1024, 1, 1),
        }
    }
}

fn derive_key(
    pin: &str,
    salt: &[u8],
    m: u32,
    t: u32,
    p: u32,
) -> Result<Zeroizing<[u8; 32]>, SdkError> {
    let params = Params::new(m, t, p, Some(32)).map_err(|e| vault_error(format!("kdf: {e}")))?;
    let mut key = Zeroizing::new([0u8; 32]);
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
        .hash_password_into(pin.as_bytes(), salt, &mut *key)
        .map_err(|e| vault_error(format!("kdf: {e}")))?;
    Ok(key)
}

impl SealedMnemonic {
    /// Whether this key's first account is `address` (any letter case).
    pub fn is_for(&self, address: &str) -> bool {
        self.address.eq_ignore_ascii_case(address)
    }

    /// Opens the mnemonic with `pin` and derives the first account's signer. A
    /// wrong PIN is `InvalidParameters`.
    pub fn unseal(&self, pin: &str) -> Result<PrivateKeySigner, SdkError> {
        let b64 = base64::engine::general_purpose::STANDARD;
        let decode = |s: &str| {
            b64.decode(s)
                .map_err(|_| vault_error("the stored wallet is damaged"))
        };
        let (salt, nonce, ciphertext) = (
            decode(&self.salt)?,
            decode(&self.nonce)?,
            decode(&self.ciphertext)?,
        );
        let nonce: [u8; 24] = nonce
            .as_slice()
            .try_into()
            .map_err(|_| vault_error("the stored wallet is damaged"))?;
        let key = derive_key(pin, &salt, self.m_cost, self.t_cost, self.p_cost)?;
        let cipher = XChaCha20Poly1305::new((&*key).into());
        let mut phrase = cipher
            .decrypt(&XNonce::from(nonce), ciphertext.as_slice())
            .map_err(|_| {
                SdkError::service(ServiceErrorCode::InvalidParameters, "the PIN is wrong")
            })?;
        let signer = std::str::from_utf8(&phrase)
            .map_err(|_| vault_error("the stored wallet is damaged"))
            .and_then(signer_for);
        phrase.zeroize();
        signer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_mnemonic_opens_with_its_pin_only() {
        let wallet = NewWallet::generate().expect("wallet");
        assert_eq!(wallet.mnemonic.split(' ').count(), 12);
        let sealed = wallet.seal("123456", KdfStrength::Test).expect("sealed");
        assert_eq!(
            sealed.unseal("123456").expect("opens").address(),
            wallet.address
        );
        let wrong = sealed.unseal("654321").expect_err("wrong PIN");
        assert!(wrong.is(ServiceErrorCode::InvalidParameters));
    }

    #[test]
    fn the_well_known_test_mnemonic_derives_the_well_known_address() {
        let signer = signer_for("test test test test test test test test test test test junk")
            .expect("signer");
        assert_eq!(
            signer.address().to_checksum(None),
            "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
        );
    }

    #[test]
    fn new_wallets_do_not_print_their_mnemonic() {
        let wallet = NewWallet::generate().expect("wallet");
        let first_word = wallet
            .mnemonic
            .split(' ')
            .next()
            .unwrap_or_default()
            .to_owned();
        assert!(!format!("{wallet:?}").contains(&format!("\"{first_word}")));
    }
}
