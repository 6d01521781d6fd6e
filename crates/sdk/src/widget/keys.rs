//! The wallet's key on this device: made at register, sealed under the PIN and the
//! service's share, kept in the keychain, and checked against the wallet on every
//! start. What the PIN opens (signing, the phrase, a PIN change) and restoring on a
//! new device are in `pin.rs`.
//!
//! Registration is idempotent: the key made for a user stays pending in the
//! keychain until the service has its address, a retry reuses it, and a failed
//! answer is settled by asking the service which address the wallet has. The key
//! of a wallet is checked against the wallet's address on every start.

use alloy::signers::SignerSync as _;
use alloy::signers::local::PrivateKeySigner;
use reqwest::Method;
use satchel_api::rules::{FIRST_ACCOUNT_PATH, is_common_pin, is_pin};
use satchel_api::{
    LoginStatus, RegisterRequest, ServiceErrorCode, ServiceLifeCycle, ServiceUser, WalletChallenge,
    challenge_message,
};
use serde::Serialize;

use super::Widget;
use crate::client::Caller;
use crate::error::{SdkError, blocking};
use crate::vault::{PendingWallet, Phrase, PinKey, SealedMnemonic, new_share};

/// Whether this device holds the key of the logged-in user's wallet.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum KeyState {
    /// No one is logged in, or the user has no wallet yet.
    #[default]
    NoWallet,
    /// The wallet's key is on this device.
    OnDevice,
    /// The wallet exists; its key is not on this device.
    Missing,
    /// The key on this device is not the wallet's: the wallet is not shown and
    /// the key is never used to sign.
    Mismatch,
    /// The key on this device was sealed under an earlier PIN (changed, or the
    /// wallet restored, on another device): it no longer opens, and no PIN is
    /// tried with it (each would count as wrong).
    Stale,
}

/// The key's state and whether the person confirmed the recovery phrase.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct KeyStatus {
    pub state: KeyState,
    pub phrase_confirmed: bool,
    /// Accounts the service listed whose address is not this key's: not shown,
    /// not received into, not sent from (the page says so when there are any).
    pub refused_accounts: u32,
    /// Further accounts the service lists at the phrase's next indexes that
    /// this device has not derived yet (added on another device): not shown
    /// until the PIN opens the phrase and it makes them.
    pub unconfirmed_accounts: u32,
}

pub(super) fn stale_key() -> SdkError {
    SdkError::service(
        ServiceErrorCode::InvalidLoginSession,
        "the PIN was changed on another device: this device's copy of the key no longer opens; restore the wallet here",
    )
}

pub(super) fn wrong_pin_form() -> SdkError {
    SdkError::service(
        ServiceErrorCode::InvalidParameters,
        "the PIN must be 6 digits",
    )
}

/// A new PIN: 6 digits, and none of those anyone guesses first.
pub(super) fn check_new_pin(pin: &str) -> Result<(), SdkError> {
    if !is_pin(pin) {
        return Err(wrong_pin_form());
    }
    if is_common_pin(pin) {
        return Err(SdkError::service(
            ServiceErrorCode::InvalidParameters,
            "that PIN is among the first anyone would guess (a digit repeated, a run like \
             123456, a repeated pair); choose another",
        ));
    }
    Ok(())
}

impl Widget {
    /// Whether this device holds the logged-in user's wallet key, and whether the
    /// person confirmed the recovery phrase.
    pub fn key_status(&self) -> KeyStatus {
        self.state.lock().key
    }

    /// Checks the key on this device against `user`'s wallet and says whether it
    /// may be used: the wallet's address (a pending key that is the wallet's is
    /// confirmed now, one that is not is dropped), and the PIN the service has.
    pub(super) async fn check_key(&self, user: &ServiceUser) -> Result<KeyStatus, SdkError> {
        let none = KeyStatus::default();
        if user.user_status.login_status == LoginStatus::RegisterRequired {
            return Ok(none);
        }
        let (Some(info), Some(wallet_id)) = (&user.user_info, &user.wallet_id) else {
            return Ok(none);
        };
        let user_id = &info.user_id;
        // The wallet's address, the key on this device and the PIN the service
        // has, read at once: this check is on the way from start to balances.
        let (address, on_device, pin) = tokio::join!(
            self.wallet_address(user_id, wallet_id),
            self.vault.load(user_id),
            self.wallet_pin(wallet_id),
        );
        let address = address?;
        let sealed = match on_device? {
            Some(sealed) => Some(sealed),
            // A registration whose answer never came (and the app closed): the
            // service has the wallet; if it is the pending key's, that is its key.
            None => match self.vault.load_pending(user_id).await? {
                Some(pending) if address.as_deref().is_some_and(|a| pending.sealed.is_for(a)) => {
                    self.vault.confirm(user_id, &pending.sealed).await?;
                    Some(pending.sealed)
                }
                Some(_) => {
                    self.vault.drop_pending(user_id).await?;
                    None
                }
                None => None,
            },
        };
        let Some(sealed) = sealed else {
            return Ok(KeyStatus {
                state: KeyState::Missing,
                ..none
            });
        };
        if address.as_deref().is_some_and(|a| !sealed.is_for(a)) {
            return Ok(KeyStatus {
                state: KeyState::Mismatch,
                ..none
            });
        }
        let phrase_confirmed = sealed.phrase_confirmed;
        let state = match self.sealing_for(user_id, pin, sealed).await? {
            Some(_) => KeyState::OnDevice,
            None => KeyState::Stale,
        };
        Ok(KeyStatus {
            state,
            phrase_confirmed,
            ..none
        })
    }

    /// The sealing of the key that the service's current PIN opens: `sealed`, or
    /// the new PIN's sealing kept from a PIN change whose answer was lost (it
    /// becomes the key now); `None` when neither is (the PIN was changed
    /// elsewhere). A wallet the service keeps no PIN for is taken as it is.
    pub(super) async fn current_sealing(
        &self,
        user_id: &str,
        wallet_id: &str,
        sealed: SealedMnemonic,
    ) -> Result<Option<SealedMnemonic>, SdkError> {
        let pin = self.wallet_pin(wallet_id).await;
        self.sealing_for(user_id, pin, sealed).await
    }

    /// [`Self::current_sealing`] with the service's PIN status already read.
    async fn sealing_for(
        &self,
        user_id: &str,
        pin: Result<crate::api::PinStatus, SdkError>,
        sealed: SealedMnemonic,
    ) -> Result<Option<SealedMnemonic>, SdkError> {
        let status = match pin {
            Ok(status) => status,
            Err(e) if e.code == crate::ErrorCode::Sdk(crate::SdkErrorCode::NotFound) => {
                return Ok(Some(sealed));
            }
            Err(e) => return Err(e),
        };
        if status.kdf == sealed.kdf {
            return Ok(Some(sealed));
        }
        match self.vault.load_next(user_id).await? {
            Some(next) if next.kdf == status.kdf && next.address == sealed.address => {
                self.vault.promote_next(user_id, &next).await?;
                Ok(Some(next))
            }
            _ => Ok(None),
        }
    }

    /// The address of a wallet's accounts (every network shares it).
    pub(super) async fn wallet_address(
        &self,
        user_id: &str,
        wallet_id: &str,
    ) -> Result<Option<String>, SdkError> {
        let accounts = self.listing(user_id, wallet_id).await?;
        Ok(accounts.accounts.into_iter().next().map(|a| a.address))
    }

    /// The logged-in user's id, and wallet id if there is one.
    fn user_ids(&self) -> Result<(String, Option<String>), SdkError> {
        let user = self.current_user().ok_or_else(SdkError::not_logged_in)?;
        let info = user.user_info.ok_or_else(SdkError::not_logged_in)?;
        Ok((info.user_id, user.wallet_id))
    }

    /// The logged-in user's id and wallet id, whatever the key's state.
    pub(super) fn user_and_wallet(&self) -> Result<(String, String), SdkError> {
        let user = self.current_user().ok_or_else(SdkError::not_logged_in)?;
        match (user.user_info, user.wallet_id) {
            (Some(info), Some(wallet)) => Ok((info.user_id, wallet)),
            _ => Err(SdkError::not_logged_in()),
        }
    }

    /// A nonce to sign, and the signature of its message by `signer` (EIP-191).
    /// The message is built here from the user and nonce: the wallet's key never
    /// signs a text the service chose.
    pub(super) async fn prove_key(
        &self,
        signer: &PrivateKeySigner,
    ) -> Result<(String, String), SdkError> {
        let (user_id, _) = self.user_ids()?;
        let challenge: WalletChallenge = self
            .login
            .authed(Caller::Rest, Method::POST, "v1/wallets/challenge", None)
            .await?;
        let message = challenge_message(&user_id, &challenge.nonce);
        let plain_nonce = !challenge.nonce.is_empty()
            && challenge.nonce.len() <= 128
            && challenge
                .nonce
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !plain_nonce || challenge.message != message {
            return Err(SdkError::service(
                ServiceErrorCode::ApiRequestError,
                "the service asked to sign an unexpected message",
            ));
        }
        let signature = signer
            .sign_message_sync(message.as_bytes())
            .map_err(SdkError::unknown)?;
        Ok((
            challenge.nonce,
            format!("0x{}", hex::encode(signature.as_bytes())),
        ))
    }

    /// Creates the wallet: a mnemonic made here, sealed under the PIN and a new
    /// share, kept in the keychain; the service gets the address, a signature
    /// proving the key, the PIN proof and share, and (if `backup`) the sealed
    /// mnemonic (`POST /v1/wallets`). Only in `login_before_register`. A retry
    /// after a failure uses the same key, and the same PIN opens it.
    pub async fn register(&self, pin: &str, backup: bool) -> Result<ServiceUser, SdkError> {
        self.require_initialized()?;
        if self.get_status() != ServiceLifeCycle::LoginBeforeRegister {
            return Err(SdkError::service(
                ServiceErrorCode::InvalidLoginSession,
                "register is available only after a login that asks for it",
            ));
        }
        check_new_pin(pin)?;
        let user = self.current_user().ok_or_else(SdkError::not_logged_in)?;
        if user.user_status.login_status == LoginStatus::PinRequired {
            return Err(SdkError::service(
                ServiceErrorCode::InvalidLoginSession,
                "this account has a wallet already: restore it with its recovery phrase",
            ));
        }
        let user_id = user
            .user_info
            .as_ref()
            .map(|info| info.user_id.clone())
            .ok_or_else(SdkError::not_logged_in)?;
        let (pending, signer) = self.pending_or_new_wallet(&user_id, pin, backup).await?;
        let (nonce, signature) = self.prove_key(&signer).await?;
        drop(signer);
        let request = RegisterRequest {
            address: pending.sealed.address.clone(),
            address_path: FIRST_ACCOUNT_PATH.to_owned(),
            nonce,
            signature,
            pin: pending.setup.clone(),
            backup: pending.backup.clone(),
        };
        let registered = match self
            .login
            .authed::<ServiceUser>(Caller::Rest, Method::POST, "v1/wallets", Some(&request))
            .await
        {
            Ok(registered) => registered,
            // The wallet may exist although the answer said otherwise (lost on the
            // way, or a 409 for the first try's wallet): the service decides.
            Err(e) => self.settle_registration(&pending.sealed, e).await?,
        };
        self.vault.confirm(&user_id, &pending.sealed).await?;
        self.adopt(Some(registered)).await?;
        self.current_user().ok_or_else(SdkError::not_logged_in)
    }

    /// The wallet waiting to be registered (its PIN checked), or a new one, kept as
    /// pending before the service hears of it; with the key's signer.
    async fn pending_or_new_wallet(
        &self,
        user_id: &str,
        pin: &str,
        backup: bool,
    ) -> Result<(PendingWallet, PrivateKeySigner), SdkError> {
        let pin = pin.to_owned();
        if let Some(pending) = self.vault.load_pending(user_id).await? {
            return blocking(move || {
                let pin_key = PinKey::derive(&pin, &pending.sealed.kdf)?;
                if !pending.is_pin(&pin_key) {
                    return Err(SdkError::service(
                        ServiceErrorCode::InvalidParameters,
                        "a wallet made a moment ago is waiting to be registered: use the PIN you chose then",
                    ));
                }
                let signer = pending.sealed.open(&pin_key, &pending.setup.share)?.signer()?;
                Ok((pending, signer))
            })
            .await;
        }
        let kdf = self.kdf;
        let (pending, signer) = blocking(move || {
            let phrase = Phrase::generate()?;
            let pin_key = PinKey::new_pin(&pin, kdf)?;
            let share = new_share();
            let sealed = phrase.seal(&pin_key, &share)?;
            let backup = backup.then(|| sealed.backup()).transpose()?;
            let pending = PendingWallet {
                setup: pin_key.setup(&share),
                sealed,
                backup,
            };
            Ok((pending, phrase.signer()?))
        })
        .await?;
        self.vault.save_pending(user_id, &pending).await?;
        Ok((pending, signer))
    }

    /// After a failed `POST /v1/wallets`: the user as the service now has it when
    /// its wallet is the pending key's; `failure` when it has no wallet (the
    /// pending key stays for a retry); a mismatch error when the wallet is
    /// another key's.
    async fn settle_registration(
        &self,
        sealed: &SealedMnemonic,
        failure: SdkError,
    ) -> Result<ServiceUser, SdkError> {
        let Ok(Some(user)) = self.login.get_current_service_user().await else {
            return Err(failure);
        };
        let (Some(info), Some(wallet_id)) = (&user.user_info, &user.wallet_id) else {
            return Err(failure);
        };
        match self.wallet_address(&info.user_id, wallet_id).await? {
            Some(address) if sealed.is_for(&address) => Ok(user),
            Some(_) => Err(SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "this account's wallet was made with another key; restore it with its recovery phrase",
            )),
            None => Err(failure),
        }
    }
}
