//! What the wallet holds: accounts (`GET /v1/account`), balances (read from the
//! chain by `GET /v1/accountbalance/{accountId}/balance`) and NFTs (`GET /v1/nft`,
//! re-read by `GET /v1/nft/refresh`, both asked for grouped by collection), with
//! the widget's refresh cooldowns and the NFT pictures and links it may fetch or
//! open.

use std::time::Duration;

use reqwest::Method;
use satchel_api::{
    AccountBalanceInfo, AccountsResponse, ServiceAccount, ServiceErrorCode, ServiceLifeCycle,
    ServiceNft,
};

use satchel_api::rules::account_index;

use super::{Refresh, Widget};
use crate::client::Caller;
use crate::error::SdkError;
use crate::thumbnail::ThumbnailSize;
use crate::timing::Step;
use crate::widget::mapping;

/// At most this many accounts one getBalance reads from the chain (a wallet
/// has at most 20 accounts a network: `satchel_api::rules::MAX_ACCOUNTS`).
const MAX_NAMED_READS: usize = 64;

/// An account a caller names: network and address, and a token's contract (the
/// spec's `account` argument of getBalance, send and receive).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct AccountRef {
    pub network: String,
    pub address: String,
    #[serde(default)]
    pub contract: Option<String>,
    #[serde(default, rename = "isAA")]
    pub is_aa: Option<bool>,
}

impl Widget {
    /// Operation 1 as the service answers it, nothing checked yet.
    pub(super) async fn listing(
        &self,
        user_id: &str,
        wallet_id: &str,
    ) -> Result<AccountsResponse, SdkError> {
        self.login
            .authed(
                Caller::Rest,
                Method::GET,
                &format!("v1/account?userId={user_id}&walletId={wallet_id}"),
                None,
            )
            .await
    }

    /// The user's accounts as the service lists them, less any the device cannot
    /// confirm: one whose address is not one this device derived from the
    /// wallet's phrase (a service that lists another, lying or compromised,
    /// redirecting payments, is not believed; one added on another device is
    /// taken in at the next PIN), and one whose network, token contract, symbol or decimals are
    /// not as this app's network table says. How many were refused is in
    /// [`KeyStatus::refused_accounts`](super::KeyStatus), for the page to say so.
    /// Without the key on this device addresses cannot be checked (receiving
    /// then needs the key).
    pub(super) async fn accounts(&self) -> Result<AccountsResponse, SdkError> {
        let (user_id, wallet_id) = self.require_login()?;
        // The service's list and this device's key at once: a keychain read
        // (a D-Bus round of its own) is as slow as the request.
        let (mut list, sealed) = tokio::try_join!(
            async {
                let _step = Step::start("accounts: the service's list");
                self.listing(&user_id, &wallet_id).await
            },
            async {
                let _step = Step::start("accounts: the key from the keychain");
                self.vault.load(&user_id).await
            }
        )?;
        let disowned = self.state.lock().disowned.clone();
        let listed = list.accounts.len();
        let own = self.own_tokens.read(&user_id);
        // Addresses at the phrase's next indexes, which the PIN may confirm,
        // and how many entries they had.
        let mut unconfirmed: Vec<String> = Vec::new();
        let mut unconfirmed_entries = 0usize;
        list.accounts.retain(|a| {
            let accepted = || {
                own.iter().any(|t| {
                    t.network == a.network
                        && a.contract
                            .as_deref()
                            .is_some_and(|c| t.contract.eq_ignore_ascii_case(c))
                        && t.symbol == a.symbol
                        && t.decimals == a.decimals
                })
            };
            let known = self
                .networks
                .check(&a.network, a.contract.as_deref(), &a.symbol, a.decimals)
                .or_else(|e| if accepted() { Ok(()) } else { Err(e) });
            if let Err(disagreement) = &known {
                tracing::warn!(network = %a.network, "an account the service listed is not shown: {disagreement}");
            }
            let keys = sealed.as_ref().is_none_or(|s| s.holds(&a.address));
            let next = sealed.as_ref().is_some_and(|s| {
                account_index(&a.address_path).is_some_and(|i| i >= s.account_count())
            }) && !disowned.iter().any(|d| d.eq_ignore_ascii_case(&a.address));
            if !keys && next && known.is_ok() {
                if !unconfirmed.iter().any(|u| u.eq_ignore_ascii_case(&a.address)) {
                    unconfirmed.push(a.address.clone());
                }
                unconfirmed_entries += 1;
                return false;
            }
            if !keys {
                tracing::warn!(network = %a.network, "the service listed an account that is not this wallet's key's; not shown");
            }
            known.is_ok() && keys
        });
        let refused = listed - list.accounts.len() - unconfirmed_entries;
        let mut state = self.state.lock();
        state.key.refused_accounts = u32::try_from(refused).unwrap_or(u32::MAX);
        state.key.unconfirmed_accounts = u32::try_from(unconfirmed.len()).unwrap_or(u32::MAX);
        drop(state);
        Ok(list)
    }

    /// The user's accounts (getAccounts), optionally only on some networks. Every
    /// Satchel account is an EOA (`isAA: false`), so `with_eoa` changes nothing.
    pub async fn get_accounts(
        &self,
        networks: Option<&[String]>,
        _with_eoa: bool,
    ) -> Result<Vec<ServiceAccount>, SdkError> {
        let accounts = self.accounts().await?;
        Ok(accounts
            .accounts
            .iter()
            .filter(|a| mapping::network_selected(networks, &a.network))
            .map(mapping::service_account)
            .collect())
    }

    /// Reads every account's balances as stored (what [`get_balance`] gives)
    /// now, for the next `get_balance` of all of them within
    /// [`BALANCES_AHEAD_FOR`](super::balances_ahead::BALANCES_AHEAD_FOR): an app calls it as it starts, so the wallet page's
    /// first ask does not wait on the service and the keychain while the
    /// window loads. Does nothing unless someone is logged in with their
    /// wallet's key here.
    ///
    /// [`get_balance`]: Self::get_balance
    pub async fn read_balances_ahead(&self) -> Result<(), SdkError> {
        if self.get_status() != ServiceLifeCycle::Login {
            return Ok(());
        }
        let (user_id, _) = self.require_login()?;
        let _reading = self.reading_ahead.lock().await;
        let _step = Step::start("start: balances read ahead");
        let start = self.state.lock().balances_ahead.start_read();
        let balances = self.read_balances().await?;
        self.state
            .lock()
            .balances_ahead
            .keep(start, user_id, balances);
        Ok(())
    }

    /// Balances (getBalance), scaled to decimal strings: all accounts as last
    /// read, or only those named, read from the chain now (and only the tokens
    /// named, when an account is named with its `contract`).
    pub async fn get_balance(
        &self,
        accounts: Option<&[AccountRef]>,
    ) -> Result<Vec<AccountBalanceInfo>, SdkError> {
        let (user_id, _) = self.require_login()?;
        if accounts.is_none() {
            // A read ahead under way ends first (at once when none is).
            drop(self.reading_ahead.lock().await);
        }
        let ahead = self.state.lock().balances_ahead.take(&user_id);
        if let Some(ahead) = ahead
            && accounts.is_none()
        {
            return Ok(ahead);
        }
        let Some(wanted) = accounts else {
            return self.read_balances().await;
        };
        // Accounts named by an application are read from the chain now (REST
        // operation 2, as the spec's getBalance of an account is): a wallet
        // just made, or paid since, is not shown as it was last refreshed.
        let _changing = self.accounts_changing();
        let list = self.accounts().await?;
        let mut read = Vec::new();
        for account in list.accounts.iter().filter(|a| a.contract.is_none()) {
            let named = wanted.iter().any(|w| {
                w.network.eq_ignore_ascii_case(&account.network)
                    && w.address.eq_ignore_ascii_case(&account.address)
            });
            if named && !read.contains(&account.account_id) && read.len() < MAX_NAMED_READS {
                let path = format!("v1/accountbalance/{}/balance", account.account_id);
                // A read refused (the service's refresh limit, a node that is
                // down) leaves the balance as last read, not the call failed.
                if let Err(e) = self
                    .login
                    .authed::<serde_json::Value>(Caller::Rest, Method::GET, &path, None)
                    .await
                {
                    tracing::info!(code = ?e.code, "balance not read from the chain; as last read");
                }
                read.push(account.account_id.clone());
            }
        }
        let balances = self.read_balances().await?;
        // Each account named once with its coin and every token; an account named
        // with a `contract` (RN) gets that token only, unless it is also named
        // without one.
        Ok(balances
            .into_iter()
            .filter_map(|mut b| {
                let named: Vec<&AccountRef> = wanted
                    .iter()
                    .filter(|w| {
                        w.network.eq_ignore_ascii_case(&b.network)
                            && w.address.eq_ignore_ascii_case(&b.address)
                    })
                    .collect();
                if named.is_empty() {
                    return None;
                }
                if named.iter().all(|w| w.contract.is_some()) {
                    b.tokens.retain(|t| {
                        named.iter().any(|w| {
                            w.contract
                                .as_deref()
                                .is_some_and(|c| c.eq_ignore_ascii_case(&t.contract))
                        })
                    });
                }
                Some(b)
            })
            .collect())
    }

    /// How long until `what` may be refreshed again; zero when it may now.
    pub fn refresh_wait(&self, what: Refresh) -> Duration {
        self.state.lock().cooldowns.wait(what)
    }

    /// Marks a change of the accounts, their tokens or their balances until
    /// the guard is dropped: balances read ahead that overlap it are not
    /// answered.
    pub(super) fn accounts_changing(&self) -> AccountsChanging<'_> {
        self.state.lock().balances_ahead.change_started();
        AccountsChanging(self)
    }

    /// Every account's balances as stored, scaled.
    async fn read_balances(&self) -> Result<Vec<AccountBalanceInfo>, SdkError> {
        let list = self.accounts().await?;
        mapping::balances(&list.accounts)
    }

    /// Reads every account's balances from the chain now and returns them all;
    /// refused within a minute of the last refresh.
    pub async fn refresh_balances(&self) -> Result<Vec<AccountBalanceInfo>, SdkError> {
        self.require_login()?;
        self.state.lock().cooldowns.start(Refresh::Balances)?;
        let _changing = self.accounts_changing();
        let list = self.accounts().await?;
        for account in list.accounts.iter().filter(|a| a.contract.is_none()) {
            let path = format!("v1/accountbalance/{}/balance", account.account_id);
            self.login
                .authed::<serde_json::Value>(Caller::Rest, Method::GET, &path, None)
                .await?;
        }
        self.read_balances().await
    }

    /// The user's NFTs (getNFTs); `refresh` re-reads them from the chain, refused
    /// within a minute of the last refresh.
    pub async fn get_nfts(
        &self,
        refresh: bool,
        networks: Option<&[String]>,
    ) -> Result<Vec<ServiceNft>, SdkError> {
        let judged = self.judged_nfts(refresh, networks).await?;
        Ok(judged
            .nfts
            .iter()
            .map(|n| judged.service_nft(n, &self.pictures))
            .collect())
    }

    /// The external link of one of the user's NFTs, as listed by
    /// [`get_nfts`](Self::get_nfts), checked to be an http(s) address the system
    /// browser may open; any other is refused.
    pub fn nft_link(&self, link: &str) -> Result<url::Url, SdkError> {
        self.require_login()?;
        let refused = || {
            SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "not the link of one of your NFTs",
            )
        };
        if !self.state.lock().allowed.has_link(link) {
            return Err(refused());
        }
        let url: url::Url = link.parse().map_err(|_| refused())?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(refused());
        }
        Ok(url)
    }

    /// A PNG thumbnail of the picture of one of the user's NFTs, as listed by
    /// [`get_nfts`](Self::get_nfts); any other URL is refused.
    pub async fn nft_thumbnail(
        &self,
        image_url: &str,
        size: ThumbnailSize,
    ) -> Result<Vec<u8>, SdkError> {
        self.require_login()?;
        if !self.pictures.has(image_url) {
            return Err(SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "not the picture of one of your NFTs",
            ));
        }
        self.thumbnail_of_allowed(image_url, size).await
    }

    /// The thumbnail of a picture already found allowed (by its URL or its
    /// handle: [`nft_thumbnail_by_handle`](Self::nft_thumbnail_by_handle)).
    pub(super) async fn thumbnail_of_allowed(
        &self,
        image_url: &str,
        size: ThumbnailSize,
    ) -> Result<Vec<u8>, SdkError> {
        let thumbnails = self.thumbnails.get().ok_or_else(|| {
            SdkError::service(ServiceErrorCode::NotInitialized, "no thumbnail folder")
        })?;
        thumbnails
            .png(image_url, size)
            .await
            .map_err(|e| SdkError::service(ServiceErrorCode::ApiRequestError, e.to_string()))
    }
}

/// A change of the accounts under way ([`Widget::accounts_changing`]).
pub(super) struct AccountsChanging<'a>(&'a Widget);

impl Drop for AccountsChanging<'_> {
    fn drop(&mut self) {
        self.0.state.lock().balances_ahead.change_ended();
    }
}
