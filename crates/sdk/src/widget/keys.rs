//! The wallet's key on this device: made at register, sealed under the PIN and
//! kept in the keychain; unlocked with the PIN to sign.

use alloy::signers::local::PrivateKeySigner;
use reqwest::Method;
use satchel_api::rules::{FIRST_ACCOUNT_PATH, is_pin};
use satchel_api::{LoginStatus, RegisterRequest, ServiceErrorCode, ServiceLifeCycle, ServiceUser};

use super::Widget;
use crate::client::Caller;
use crate::error::{SdkError, blocking};
use crate::vault::{NewWallet, SealedMnemonic};

impl Widget {
    /// The sealed key of `user`'s wallet on this device, if there is one.
    pub(super) async fn sealed_key(
        &self,
        user: &ServiceUser,
    ) -> Result<Option<SealedMnemonic>, SdkError> {
        match &user.user_info {
            Some(info) => self.vault.load(&info.user_id).await,
            None => Ok(None),
        }
    }

    /// Creates the wallet: a mnemonic made here, sealed under `pin` and kept in the
    /// keychain; the service gets only the address and its path (`POST
    /// /v1/wallets`). Only in `login_before_register`.
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
        let (pin, kdf) = (pin.to_owned(), self.kdf);
        let (address, sealed) = blocking(move || {
            let wallet = NewWallet::generate()?;
            let sealed = wallet.seal(&pin, kdf)?;
            Ok((wallet.address, sealed))
        })
        .await?;
        // The key is kept before the service hears of the address, so a wallet the
        // service knows always has its key on this device.
        self.vault.save(&user_id, &sealed).await?;
        let request = RegisterRequest {
            address: address.to_checksum(None),
            address_path: FIRST_ACCOUNT_PATH.to_owned(),
        };
        let registered: ServiceUser = self
            .login
            .authed(Caller::Rest, Method::POST, "v1/wallets", Some(&request))
            .await?;
        self.adopt(Some(registered)).await?;
        self.current_user().ok_or_else(SdkError::not_logged_in)
    }

    /// Unlocks the wallet key with the PIN, to sign on this device.
    pub async fn unlock(&self, pin: &str) -> Result<PrivateKeySigner, SdkError> {
        self.require_login()?;
        let user = self.current_user().ok_or_else(SdkError::not_logged_in)?;
        let sealed = self.sealed_key(&user).await?.ok_or_else(|| {
            SdkError::service(
                ServiceErrorCode::InvalidLoginSession,
                "this wallet's key is not on this device",
            )
        })?;
        let pin = pin.to_owned();
        blocking(move || sealed.unseal(&pin)).await
    }
}
