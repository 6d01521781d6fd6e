//! The wallet's key on this device: made at register, sealed under the PIN and
//! kept in the keychain; unlocked with the PIN to sign.
//!
//! Registration is idempotent: the key made for a user stays pending in the
//! keychain until the service has its address, a retry reuses it, and a failed
//! answer is settled by asking the service which address the wallet has. The key
//! of a wallet is checked against the wallet's address on every start.

use alloy::signers::local::PrivateKeySigner;
use reqwest::Method;
use satchel_api::rules::{FIRST_ACCOUNT_PATH, is_pin};
use satchel_api::{
    AccountsResponse, LoginStatus, RegisterRequest, ServiceErrorCode, ServiceLifeCycle, ServiceUser,
};
use serde::Serialize;

use super::Widget;
use crate::client::Caller;
use crate::error::{SdkError, blocking};
use crate::vault::{NewWallet, SealedMnemonic};

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
}

impl Widget {
    /// Whether this device holds the logged-in user's wallet key.
    pub fn key_state(&self) -> KeyState {
        self.state.lock().key_state
    }

    /// Checks the key on this device against `user`'s wallet (one read of the
    /// wallet's accounts) and says whether it may be used.
    pub(super) async fn check_key(&self, user: &ServiceUser) -> Result<KeyState, SdkError> {
        if user.user_status.login_status == LoginStatus::RegisterRequired {
            return Ok(KeyState::NoWallet);
        }
        let (Some(info), Some(wallet_id)) = (&user.user_info, &user.wallet_id) else {
            return Ok(KeyState::NoWallet);
        };
        let Some(sealed) = self.vault.load(&info.user_id).await? else {
            return Ok(KeyState::Missing);
        };
        Ok(match self.wallet_address(&info.user_id, wallet_id).await? {
            Some(address) if !sealed.is_for(&address) => KeyState::Mismatch,
            _ => KeyState::OnDevice,
        })
    }

    /// The address of a wallet's accounts (every network shares it).
    async fn wallet_address(
        &self,
        user_id: &str,
        wallet_id: &str,
    ) -> Result<Option<String>, SdkError> {
        let accounts: AccountsResponse = self
            .login
            .authed(
                Caller::Rest,
                Method::GET,
                &format!("v1/account?userId={user_id}&walletId={wallet_id}"),
                None,
            )
            .await?;
        Ok(accounts.accounts.into_iter().next().map(|a| a.address))
    }

    /// Creates the wallet: a mnemonic made here, sealed under `pin` and kept in the
    /// keychain; the service gets only the address and its path (`POST
    /// /v1/wallets`). Only in `login_before_register`. A retry after a failure
    /// uses the same key, and the same PIN opens it.
    pub async fn register(&self, pin: &str) -> Result<ServiceUser, SdkError> {
        self.require_initialized()?;
        if self.get_status() != ServiceLifeCycle::LoginBeforeRegister {
            return Err(SdkError::service(
                ServiceErrorCode::InvalidLoginSession,
                "register is available only after a login that asks for it",
            ));
        }
        if !is_pin(pin) {
            return Err(SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "the PIN must be 6 digits",
            ));
        }
        let user = self.current_user().ok_or_else(SdkError::not_logged_in)?;
        if user.user_status.login_status == LoginStatus::PinRequired {
            return Err(SdkError::service(
                ServiceErrorCode::InvalidLoginSession,
                "this wallet's key is on another device; restoring it here is not available yet",
            ));
        }
        let user_id = user
            .user_info
            .as_ref()
            .map(|info| info.user_id.clone())
            .ok_or_else(SdkError::not_logged_in)?;
        let sealed = self.pending_or_new_key(&user_id, pin).await?;
        let request = RegisterRequest {
            address: sealed.address.clone(),
            address_path: FIRST_ACCOUNT_PATH.to_owned(),
        };
        let registered = match self
            .login
            .authed::<ServiceUser>(Caller::Rest, Method::POST, "v1/wallets", Some(&request))
            .await
        {
            Ok(registered) => registered,
            // The wallet may exist although the answer said otherwise (lost on the
            // way, or a 409 for the first try's wallet): the service decides.
            Err(e) => self.settle_registration(&sealed, e).await?,
        };
        self.vault.confirm(&user_id, &sealed).await?;
        self.adopt(Some(registered)).await?;
        self.current_user().ok_or_else(SdkError::not_logged_in)
    }

    /// The key waiting to be registered (opened with `pin` to check it is the
    /// person's), or a new one, kept as pending before the service hears of it.
    async fn pending_or_new_key(
        &self,
        user_id: &str,
        pin: &str,
    ) -> Result<SealedMnemonic, SdkError> {
        let pin = pin.to_owned();
        if let Some(pending) = self.vault.load_pending(user_id).await? {
            let check = pending.clone();
            blocking(move || check.unseal(&pin).map(drop))
                .await
                .map_err(|e| {
                    if e.is(ServiceErrorCode::InvalidParameters) {
                        SdkError::service(
                            ServiceErrorCode::InvalidParameters,
                            "a wallet made a moment ago is waiting to be registered: use the PIN you chose then",
                        )
                    } else {
                        e
                    }
                })?;
            return Ok(pending);
        }
        let kdf = self.kdf;
        let sealed = blocking(move || NewWallet::generate()?.seal(&pin, kdf)).await?;
        self.vault.save_pending(user_id, &sealed).await?;
        Ok(sealed)
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

    /// Unlocks the wallet key with the PIN, to sign on this device. Only a key
    /// checked to be the wallet's.
    pub async fn unlock(&self, pin: &str) -> Result<PrivateKeySigner, SdkError> {
        self.require_login()?;
        let user = self.current_user().ok_or_else(SdkError::not_logged_in)?;
        let user_id = user
            .user_info
            .map(|info| info.user_id)
            .ok_or_else(SdkError::not_logged_in)?;
        let sealed = match (self.key_state(), self.vault.load(&user_id).await?) {
            (KeyState::OnDevice, Some(sealed)) => sealed,
            _ => {
                return Err(SdkError::service(
                    ServiceErrorCode::InvalidLoginSession,
                    "this wallet's key is not on this device",
                ));
            }
        };
        let pin = pin.to_owned();
        blocking(move || sealed.unseal(&pin)).await
    }
}
