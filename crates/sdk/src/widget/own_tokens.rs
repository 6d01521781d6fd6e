//! Tokens the person added by contract address. The service reads what the
//! contract says of itself; the person sees it and accepts it; this device
//! keeps what they accepted (`added-tokens/<user id>.json`), and from then on
//! believes the service's listing of that token only as it was accepted, as it
//! believes the configured tokens only as the app's network table names them.

use alloy::primitives::Address;
use reqwest::Method;
use satchel_api::{AddableToken, ServiceErrorCode};
use serde::{Deserialize, Serialize};

use super::Widget;
use crate::client::Caller;
use crate::error::SdkError;
use crate::widget::user_files::UserFiles;

/// The most tokens one person adds on this device.
pub const MAX_OWN_TOKENS: usize = 200;

/// A token the person accepted: its network, contract and the facts they saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OwnToken {
    pub network: String,
    /// EIP-55.
    pub contract: String,
    pub name: String,
    pub symbol: String,
    pub decimals: u32,
}

impl OwnToken {
    fn is(&self, network: &str, contract: &str) -> bool {
        self.network == network && self.contract.eq_ignore_ascii_case(contract)
    }
}

pub(crate) type OwnTokens = UserFiles<Vec<OwnToken>>;

fn invalid(message: impl Into<String>) -> SdkError {
    SdkError::service(ServiceErrorCode::InvalidParameters, message)
}

impl Widget {
    /// The tokens the person added on this device.
    pub fn own_tokens(&self) -> Result<Vec<OwnToken>, SdkError> {
        let (user_id, _) = self.require_login()?;
        let mut tokens = self.own_tokens.read(&user_id);
        tokens.truncate(MAX_OWN_TOKENS);
        Ok(tokens)
    }

    /// The symbol and decimals of a coin or token this device believes: the
    /// app's network table, then the tokens the person accepted.
    pub fn known_asset(&self, network: &str, contract: Option<&str>) -> Option<(String, u32)> {
        if let Some((symbol, decimals)) = self.networks.asset(network, contract) {
            return Some((symbol.to_owned(), decimals));
        }
        let contract = contract?;
        let (user_id, _) = self.require_login().ok()?;
        self.own_tokens
            .read(&user_id)
            .into_iter()
            .find(|t| t.is(network, contract))
            .map(|t| (t.symbol, t.decimals))
    }

    /// The service's path for a token of `account` (the first when none) on
    /// `network`.
    async fn token_path(
        &self,
        network: &str,
        contract: &str,
        account: Option<Address>,
    ) -> Result<(String, Address), SdkError> {
        if self.networks.network(network).is_none() {
            return Err(invalid(format!(
                "{network} is not one of this app's networks"
            )));
        }
        let contract: Address = crate::widget::send::check_address(contract)?;
        let accounts = self.accounts().await?;
        let account = accounts
            .accounts
            .iter()
            .find(|a| {
                a.network == network
                    && a.contract.is_none()
                    && account.is_none_or(|only| a.address.parse() == Ok(only))
            })
            .ok_or_else(|| invalid(format!("no such account on {network}")))?;
        Ok((
            format!(
                "v1/account/{}/tokens/{}",
                account.account_id,
                contract.to_checksum(None)
            ),
            contract,
        ))
    }

    /// What the token at `contract` on `network` says of itself, and the
    /// account's balance of it, for the person to look at before adding it.
    pub async fn preview_token(
        &self,
        network: &str,
        contract: &str,
        account: Option<Address>,
    ) -> Result<AddableToken, SdkError> {
        let (path, _) = self.token_path(network, contract, account).await?;
        let mut token: AddableToken = self
            .login
            .authed(Caller::Rest, Method::GET, &path, None)
            .await?;
        // The device's own view: a token of the app's table, or one accepted here.
        token.configured = self
            .networks
            .asset(network, Some(&token.contract))
            .is_some();
        // Tracked by the service (added on another device) is not listed here
        // until the person accepts it on this one.
        token.tracked = self
            .own_tokens()?
            .iter()
            .any(|t| t.is(network, &token.contract));
        Ok(token)
    }

    /// Adds the token the person looked at: `symbol` and `decimals` are what
    /// their page showed, and the service's answer must be the same, or
    /// nothing is kept here.
    pub async fn add_token(
        &self,
        network: &str,
        contract: &str,
        symbol: &str,
        decimals: u32,
        account: Option<Address>,
    ) -> Result<AddableToken, SdkError> {
        let (user_id, _) = self.require_login()?;
        let _changing = self.accounts_changing();
        let (path, address) = self.token_path(network, contract, account).await?;
        if self
            .networks
            .asset(network, Some(&address.to_string()))
            .is_some()
        {
            return Err(invalid("this token is one of the app's own already"));
        }
        let mut own = self.own_tokens()?;
        if own.len() >= MAX_OWN_TOKENS {
            return Err(invalid(format!(
                "at most {MAX_OWN_TOKENS} tokens are added"
            )));
        }
        // Tracked by the service already (added on another device): kept here too.
        let read: AddableToken = self
            .login
            .authed(Caller::Rest, Method::GET, &path, None)
            .await?;
        let token: AddableToken = if read.tracked {
            read
        } else {
            self.login
                .authed(Caller::Rest, Method::PUT, &path, None)
                .await?
        };
        if token.symbol != symbol || token.decimals != decimals || token.network != network {
            return Err(invalid(format!(
                "the service now says {} with {} decimals, not what was shown; nothing was added",
                token.symbol, token.decimals
            )));
        }
        own.retain(|t| !t.is(network, &token.contract));
        own.push(OwnToken {
            network: network.to_owned(),
            contract: token.contract.clone(),
            name: token.name.clone(),
            symbol: token.symbol.clone(),
            decimals: token.decimals,
        });
        self.own_tokens.write(&user_id, own)?;
        Ok(AddableToken {
            tracked: true,
            ..token
        })
    }

    /// Removes a token the person added, here and from the service's listing.
    pub async fn remove_token(
        &self,
        network: &str,
        contract: &str,
        account: Option<Address>,
    ) -> Result<Vec<OwnToken>, SdkError> {
        let (user_id, _) = self.require_login()?;
        let _changing = self.accounts_changing();
        let (path, address) = self.token_path(network, contract, account).await?;
        match self
            .login
            .authed::<()>(Caller::Rest, Method::DELETE, &path, None)
            .await
        {
            // Removed already (on another device) is removed.
            Ok(()) => {}
            Err(e)
                if e.code == crate::error::ErrorCode::Sdk(crate::error::SdkErrorCode::NotFound) => {
            }
            Err(e) => return Err(e),
        }
        let mut own = self.own_tokens()?;
        own.retain(|t| !t.is(network, &address.to_string()));
        self.own_tokens.write(&user_id, own)
    }
}
