//! The wallet's further accounts: the phrase's next address
//! (`m/44'/60'/0'/0/i`), derived here with the PIN and proven to the service by
//! a signature of its own key, then kept in the sealed entry beside the first,
//! so the device shows and signs only for addresses it derived itself; and the
//! accounts' names.

use alloy::primitives::Address;
use reqwest::Method;
use satchel_api::rules::{MAX_ACCOUNTS, account_label};
use satchel_api::{AccountLabel, AccountsResponse, AddAccount};
use serde::Serialize;

use super::Widget;
use super::send::invalid;
use crate::client::Caller;
use crate::error::{SdkError, blocking};
use crate::vault::{Phrase, SealedMnemonic};

/// One of the wallet's accounts, as the switcher lists it: the same address on
/// every network.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct WalletAccount {
    /// Checksummed.
    pub address: String,
    /// The name the person gave it (the service keeps it).
    pub label: String,
    /// Its index in the wallet's path, `m/44'/60'/0'/0/index`.
    pub index: u32,
}

impl Widget {
    /// The wallet's accounts as the service lists them: (address, path) of each
    /// coin entry. Nothing here is believed until the phrase derives it.
    pub(super) async fn listed_paths(
        &self,
        user_id: &str,
        wallet_id: &str,
    ) -> Result<Vec<(String, String)>, SdkError> {
        let list = self.listing(user_id, wallet_id).await?;
        Ok(list
            .accounts
            .into_iter()
            .filter(|a| a.contract.is_none())
            .map(|a| (a.address, a.address_path))
            .collect())
    }

    /// With the phrase open: takes in the accounts the service lists that this
    /// device has not derived yet (added on another device), when the last
    /// listing found some at the phrase's next indexes. Kept in the keychain
    /// when any was new.
    pub(super) async fn learn_accounts(
        &self,
        user_id: &str,
        sealed: SealedMnemonic,
        phrase: &Phrase,
    ) -> Result<SealedMnemonic, SdkError> {
        if self.state.lock().key.unconfirmed_accounts == 0 {
            return Ok(sealed);
        }
        let (_, wallet_id) = self.user_and_wallet()?;
        let listed = self.listed_paths(user_id, &wallet_id).await?;
        let mut learned = sealed.clone();
        let new = learned.learn(phrase, &listed)?;
        // What the phrase did not make is a stranger's: refused from now on.
        let disowned: Vec<String> = listed
            .iter()
            .filter(|(address, _)| !learned.holds(address))
            .map(|(address, _)| address.clone())
            .collect();
        {
            let mut state = self.state.lock();
            state.disowned = disowned;
            state.key.unconfirmed_accounts = 0;
        }
        if new {
            self.vault.save(user_id, &learned).await?;
            return Ok(learned);
        }
        Ok(sealed)
    }

    /// The wallet's accounts this device holds the key of, first to last, with
    /// their names.
    pub async fn wallet_accounts(&self) -> Result<Vec<WalletAccount>, SdkError> {
        let (user_id, _) = self.require_login()?;
        let listed = self.accounts().await?;
        let sealed = self.vault.load(&user_id).await?;
        let mut accounts: Vec<WalletAccount> = Vec::new();
        for account in listed.accounts.iter().filter(|a| a.contract.is_none()) {
            let Some(index) = sealed.as_ref().and_then(|s| s.index_of(&account.address)) else {
                continue;
            };
            if accounts.iter().any(|a| a.index == index) {
                continue;
            }
            let address: Address = account
                .address
                .parse()
                .map_err(|_| SdkError::unknown("the service listed a malformed address"))?;
            accounts.push(WalletAccount {
                address: address.to_checksum(None),
                label: account_label(&account.label)
                    .unwrap_or_else(|_| format!("Account {}", index + 1)),
                index,
            });
        }
        accounts.sort_by_key(|a| a.index);
        Ok(accounts)
    }

    /// Adds the wallet's next account, named `label`: derived here with the
    /// PIN, proven to the service by its key's signature, and kept on this
    /// device. The wallet's accounts after it.
    pub async fn add_account(
        &self,
        pin: &str,
        label: &str,
    ) -> Result<Vec<WalletAccount>, SdkError> {
        let (user_id, wallet_id) = self.require_login()?;
        let _changing = self.accounts_changing();
        let label = account_label(label).map_err(invalid)?;
        let (_, sealed, phrase) = self.open_phrase(pin).await?;
        let listed = self.listed_paths(&user_id, &wallet_id).await?;
        let (mut sealed, signer) = blocking(move || {
            let mut sealed = sealed;
            sealed.learn(&phrase, &listed)?;
            let distinct = {
                let mut addresses: Vec<String> =
                    listed.iter().map(|(a, _)| a.to_lowercase()).collect();
                addresses.sort();
                addresses.dedup();
                addresses.len()
            };
            if distinct > sealed.account_count() as usize {
                return Err(invalid(
                    "the service lists an account this wallet's phrase does not make: no account is added",
                ));
            }
            let index = sealed.account_count();
            if index >= MAX_ACCOUNTS {
                return Err(invalid(format!("a wallet keeps at most {MAX_ACCOUNTS} accounts")));
            }
            Ok((sealed, phrase.signer_at(index)?))
        })
        .await?;
        let index = sealed.account_count();
        let (nonce, signature) = self.prove_key(&signer).await?;
        let body = AddAccount {
            address: signer.address().to_checksum(None),
            address_path: satchel_api::rules::account_path(index),
            nonce,
            signature,
            label,
        };
        drop(signer);
        let _: AccountsResponse = self
            .login
            .authed(
                Caller::Rest,
                Method::POST,
                &format!("v1/wallets/{wallet_id}/accounts"),
                Some(&body),
            )
            .await?;
        sealed.more.push(body.address);
        self.vault.save(&user_id, &sealed).await?;
        self.wallet_accounts().await
    }

    /// Opens the phrase with the PIN to take in the accounts added on another
    /// device; the wallet's accounts after.
    pub async fn confirm_accounts(&self, pin: &str) -> Result<Vec<WalletAccount>, SdkError> {
        let _changing = self.accounts_changing();
        // The listing first: it counts what waits to be confirmed.
        self.accounts().await?;
        self.open_phrase(pin).await?;
        self.wallet_accounts().await
    }

    /// Names one of the wallet's accounts.
    pub async fn rename_account(&self, address: Address, label: &str) -> Result<(), SdkError> {
        let (_, wallet_id) = self.require_login()?;
        let _changing = self.accounts_changing();
        let label = account_label(label).map_err(invalid)?;
        self.login
            .authed::<()>(
                Caller::Rest,
                Method::PUT,
                &format!(
                    "v1/wallets/{wallet_id}/accounts/{}/label",
                    address.to_checksum(None)
                ),
                Some(&AccountLabel { label }),
            )
            .await
    }
}
