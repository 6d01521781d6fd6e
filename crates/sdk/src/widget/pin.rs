//! What the PIN opens, proven to the service (which counts wrong proofs): the key
//! to sign, the recovery phrase, a new PIN; and restoring the wallet on a device
//! without its key, from the phrase or from the backup the service keeps.

use alloy::primitives::Address;
use alloy::signers::local::PrivateKeySigner;
use reqwest::Method;
use satchel_api::rules::is_pin;
use satchel_api::{
    PinChange, PinProof, PinRelease, PinReset, PinStatus, ServiceErrorCode, ServiceUser,
};

use super::Widget;
use super::keys::{KeyState, check_new_pin, stale_key, wrong_pin_form};
use crate::client::Caller;
use crate::error::{SdkError, blocking};
use crate::timing::Step;
use crate::vault::{Phrase, PinKey, SealedMnemonic, new_share};

impl Widget {
    /// The wallet's PIN state at the service: tries left, pause, lock, backup.
    pub async fn pin_status(&self) -> Result<PinStatus, SdkError> {
        self.require_initialized()?;
        let (_, wallet_id) = self.user_and_wallet()?;
        self.wallet_pin(&wallet_id).await
    }

    /// `GET /v1/wallets/{walletId}/pin`.
    pub(super) async fn wallet_pin(&self, wallet_id: &str) -> Result<PinStatus, SdkError> {
        self.login
            .authed(
                Caller::Rest,
                Method::GET,
                &format!("v1/wallets/{wallet_id}/pin"),
                None,
            )
            .await
    }

    /// Proves the PIN to the service: the share (and backup) it releases, and the
    /// PIN key. Wrong PINs are counted there.
    async fn release(
        &self,
        pin: &str,
        kdf: &satchel_api::PinKdf,
        backup: bool,
    ) -> Result<(PinKey, PinRelease), SdkError> {
        if !is_pin(pin) {
            return Err(wrong_pin_form());
        }
        let (_, wallet_id) = self.user_and_wallet()?;
        let (pin, kdf) = (pin.to_owned(), kdf.clone());
        let pin_key = {
            let _argon2 = Step::start("argon2");
            blocking(move || PinKey::derive(&pin, &kdf)).await?
        };
        let proof = PinProof {
            proof: pin_key.proof(),
            backup,
        };
        let _share = Step::start("service share");
        let release = self
            .login
            .authed(
                Caller::Rest,
                Method::POST,
                &format!("v1/wallets/{wallet_id}/pin/verify"),
                Some(&proof),
            )
            .await?;
        Ok((pin_key, release))
    }

    /// The key on this device, checked to be the wallet's.
    async fn own_key(&self) -> Result<(String, SealedMnemonic), SdkError> {
        self.require_login()?;
        let (user_id, _) = self.user_and_wallet()?;
        match (self.key_status().state, self.vault.load(&user_id).await?) {
            (KeyState::OnDevice, Some(sealed)) => Ok((user_id, sealed)),
            _ => Err(SdkError::service(
                ServiceErrorCode::InvalidLoginSession,
                "this wallet's key is not on this device",
            )),
        }
    }

    /// The wallet's key on this device as the service's current PIN opens it;
    /// refused, and marked stale, when the PIN was changed elsewhere.
    async fn fresh_key(&self) -> Result<(String, SealedMnemonic), SdkError> {
        let (user_id, sealed) = self.own_key().await?;
        let (_, wallet_id) = self.user_and_wallet()?;
        match self.current_sealing(&user_id, &wallet_id, sealed).await? {
            Some(sealed) => Ok((user_id, sealed)),
            None => {
                self.state.lock().key.state = KeyState::Stale;
                Err(stale_key())
            }
        }
    }

    /// Opens the wallet's phrase with the PIN (and the service's share).
    pub(super) async fn open_phrase(
        &self,
        pin: &str,
    ) -> Result<(String, SealedMnemonic, Phrase), SdkError> {
        let (user_id, sealed) = {
            let _check = Step::start("key check");
            self.fresh_key().await?
        };
        let (pin_key, release) = self.release(pin, &sealed.kdf, false).await?;
        let _open = Step::start("open the phrase");
        let opened = sealed.clone();
        let phrase = blocking(move || opened.open(&pin_key, &release.share)).await?;
        let sealed = self.learn_accounts(&user_id, sealed, &phrase).await?;
        Ok((user_id, sealed, phrase))
    }

    /// Unlocks the key of `account` with the PIN, to sign on this device: one of
    /// the accounts this device derived from the wallet's phrase, checked to
    /// make that address; any other is refused.
    pub async fn unlock(&self, pin: &str, account: Address) -> Result<PrivateKeySigner, SdkError> {
        let (_, sealed, phrase) = self.open_phrase(pin).await?;
        let not_held = || {
            SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "this is not an account of this wallet's key",
            )
        };
        let index = sealed
            .index_of(&account.to_checksum(None))
            .ok_or_else(not_held)?;
        let signer = {
            let _derive = Step::start("derive the account key");
            blocking(move || phrase.signer_at(index)).await?
        };
        if signer.address() != account {
            return Err(not_held());
        }
        Ok(signer)
    }

    /// The recovery phrase's words, behind the PIN.
    pub async fn show_recovery_phrase(&self, pin: &str) -> Result<Vec<String>, SdkError> {
        let (_, _, phrase) = self.open_phrase(pin).await?;
        Ok(phrase.words())
    }

    /// `account`'s private key (0x and 64 hex digits), behind the PIN, for the
    /// person to import into another wallet.
    pub async fn export_private_key(
        &self,
        pin: &str,
        account: Address,
    ) -> Result<String, SdkError> {
        let signer = self.unlock(pin, account).await?;
        // The bytes are wiped once written out as the text the page shows.
        let key = zeroize::Zeroizing::new(signer.to_bytes().0);
        Ok(format!("0x{}", hex::encode(*key)))
    }

    /// The person confirmed they wrote the phrase down: no more reminders.
    pub async fn confirm_recovery_phrase(&self) -> Result<(), SdkError> {
        let (user_id, mut sealed) = self.own_key().await?;
        sealed.phrase_confirmed = true;
        self.vault.save(&user_id, &sealed).await?;
        self.state.lock().key.phrase_confirmed = true;
        Ok(())
    }

    /// A new PIN, proven by the old one (`PUT /v1/wallets/{walletId}/pin`): the same
    /// share, the key sealed again here, and the kept backup replaced.
    pub async fn change_pin(&self, old_pin: &str, new_pin: &str) -> Result<(), SdkError> {
        check_new_pin(new_pin)?;
        let (user_id, sealed) = self.fresh_key().await?;
        let (_, wallet_id) = self.user_and_wallet()?;
        let kept_backup = self.pin_status().await?.has_backup;
        let (old_key, release) = self.release(old_pin, &sealed.kdf, false).await?;
        let (new_pin, kdf, opened) = (new_pin.to_owned(), self.kdf, sealed.clone());
        let (change, resealed) = blocking(move || {
            let phrase = opened.open(&old_key, &release.share)?;
            let new_key = PinKey::new_pin(&new_pin, kdf)?;
            let mut resealed = phrase.seal(&new_key, &release.share)?;
            resealed.phrase_confirmed = opened.phrase_confirmed;
            resealed.more.clone_from(&opened.more);
            let change = PinChange {
                proof: old_key.proof(),
                pin: new_key.setup(&release.share),
                backup: kept_backup.then(|| resealed.backup()).transpose()?,
            };
            Ok((change, resealed))
        })
        .await?;
        // Kept before the service hears of the new PIN: if its answer is lost, the
        // next use finds the service's PIN is this one and takes it.
        self.vault.save_next(&user_id, Some(&resealed)).await?;
        let changed = self
            .login
            .authed::<()>(
                Caller::Rest,
                Method::PUT,
                &format!("v1/wallets/{wallet_id}/pin"),
                Some(&change),
            )
            .await;
        match changed {
            Ok(()) => self.vault.promote_next(&user_id, &resealed).await,
            Err(e) => {
                // Refused for sure (not lost on the way): the new sealing is void.
                let maybe_applied = e.is(ServiceErrorCode::NotConnectedInternet)
                    || e.is(ServiceErrorCode::ApiRequestError)
                    || e.is(ServiceErrorCode::UnknownError);
                if !maybe_applied {
                    self.vault.save_next(&user_id, None).await?;
                }
                Err(e)
            }
        }
    }

    /// Restores the wallet on this device from its recovery phrase, with a new PIN
    /// (`POST /v1/wallets/{walletId}/pin/reset`, proven by the phrase's key). A
    /// phrase that is not this wallet's is refused and nothing is stored.
    pub async fn restore_from_phrase(
        &self,
        phrase: &str,
        new_pin: &str,
    ) -> Result<ServiceUser, SdkError> {
        self.require_restore()?;
        check_new_pin(new_pin)?;
        let (user_id, wallet_id) = self.user_and_wallet()?;
        let typed = phrase.to_owned();
        let phrase = blocking(move || Phrase::parse(&typed)).await?;
        let address = self.wallet_address(&user_id, &wallet_id).await?;
        if !address.is_some_and(|a| a.eq_ignore_ascii_case(&phrase.address.to_checksum(None))) {
            return Err(SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "this recovery phrase is not this wallet's",
            ));
        }
        let keep_backup = match self.pin_status().await {
            Ok(status) => status.has_backup,
            Err(e) if e.code == crate::ErrorCode::Sdk(crate::SdkErrorCode::NotFound) => false,
            Err(e) => return Err(e),
        };
        let signer = phrase.signer()?;
        let (nonce, signature) = self.prove_key(&signer).await?;
        drop(signer);
        let listed = self.listed_paths(&user_id, &wallet_id).await?;
        let (new_pin, kdf) = (new_pin.to_owned(), self.kdf);
        let (reset, mut sealed) = blocking(move || {
            let pin_key = PinKey::new_pin(&new_pin, kdf)?;
            let share = new_share();
            let mut sealed = phrase.seal(&pin_key, &share)?;
            sealed.learn(&phrase, &listed)?;
            let reset = PinReset {
                nonce,
                signature,
                pin: pin_key.setup(&share),
                backup: keep_backup.then(|| sealed.backup()).transpose()?,
            };
            Ok((reset, sealed))
        })
        .await?;
        self.login
            .authed::<()>(
                Caller::Rest,
                Method::POST,
                &format!("v1/wallets/{wallet_id}/pin/reset"),
                Some(&reset),
            )
            .await?;
        // They typed the phrase: they have it written down.
        sealed.phrase_confirmed = true;
        self.vault.save(&user_id, &sealed).await?;
        self.readopt().await
    }

    /// Restores the wallet on this device from the backup the service keeps,
    /// opened with the PIN (counted like every PIN proof).
    pub async fn restore_from_backup(&self, pin: &str) -> Result<ServiceUser, SdkError> {
        self.require_restore()?;
        let (user_id, wallet_id) = self.user_and_wallet()?;
        let status = self.pin_status().await?;
        let (pin_key, release) = self.release(pin, &status.kdf, true).await?;
        let backup = release.backup.clone().ok_or_else(|| {
            SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "the service keeps no backup of this wallet",
            )
        })?;
        let address = self
            .wallet_address(&user_id, &wallet_id)
            .await?
            .ok_or_else(|| SdkError::unknown("the wallet has no account"))?;
        let listed = self.listed_paths(&user_id, &wallet_id).await?;
        let sealed = blocking(move || {
            let mut sealed = SealedMnemonic::from_backup(&backup, status.kdf, &address)?;
            let phrase = sealed.open(&pin_key, &release.share)?;
            sealed.learn(&phrase, &listed)?;
            Ok(sealed)
        })
        .await?;
        self.vault.save(&user_id, &sealed).await?;
        self.readopt().await
    }

    /// Asks the service to e-mail the link that lifts the lock after too many
    /// wrong PINs.
    pub async fn send_pin_unlock_email(&self) -> Result<(), SdkError> {
        self.require_initialized()?;
        let (_, wallet_id) = self.user_and_wallet()?;
        self.login
            .authed::<()>(
                Caller::Rest,
                Method::POST,
                &format!("v1/wallets/{wallet_id}/pin/unlock-email"),
                None,
            )
            .await
    }

    /// Restoring is for a logged-in user whose wallet's key is not (or not
    /// rightly) on this device.
    fn require_restore(&self) -> Result<(), SdkError> {
        self.require_initialized()?;
        match self.key_status().state {
            KeyState::Missing | KeyState::Mismatch | KeyState::Stale => Ok(()),
            _ => Err(SdkError::service(
                ServiceErrorCode::InvalidLoginSession,
                "there is no wallet to restore: its key is on this device already, or there is no wallet",
            )),
        }
    }

    /// Reads the user again and moves to their state (after a restore).
    async fn readopt(&self) -> Result<ServiceUser, SdkError> {
        let user = self.login.get_current_service_user().await?;
        self.adopt(user).await?;
        self.current_user().ok_or_else(SdkError::not_logged_in)
    }
}
