//! The tokens of a network: the configured ones every account tracks, and the
//! ones people add by contract address (read on chain once, then known to the
//! whole service: a contract's name, symbol and decimals are chain facts).

use std::ops::Deref;
use std::sync::Arc;

use satchel_api::AddableToken;
use satchel_chain::Address;

use crate::assets::views::{checksummed, lower_hex};
use crate::config::TokenConfig;
use crate::db::{AccountRow, AddedTokenRow, TokenAdded};
use crate::error::{ApiError, ApiResult};
use crate::state::{AppState, Network};

/// A token of a network, configured or added, with its checksummed contract.
pub enum TokenRef<'a> {
    Configured(&'a TokenConfig, &'a str),
    Added(Arc<TokenConfig>),
}

impl TokenRef<'_> {
    /// The EIP-55 checksummed contract address.
    pub fn contract(&self) -> &str {
        match self {
            Self::Configured(_, contract) => contract,
            Self::Added(token) => &token.contract,
        }
    }
}

impl Deref for TokenRef<'_> {
    type Target = TokenConfig;
    fn deref(&self) -> &TokenConfig {
        match self {
            Self::Configured(token, _) => token,
            Self::Added(token) => token,
        }
    }
}

impl Network {
    /// The token at `contract` (any case): a configured one, or one someone
    /// added that this instance has learned (see [`AppState::learn_tokens`]).
    pub fn token(&self, contract: &str) -> Option<TokenRef<'_>> {
        if let Some((token, checksummed)) = self.config.tracked_token(contract) {
            return Some(TokenRef::Configured(token, checksummed));
        }
        self.added
            .get(&contract.to_ascii_lowercase())
            .map(TokenRef::Added)
    }

    fn remember(&self, row: AddedTokenRow) {
        let token = TokenConfig {
            contract: checksummed(&row.contract),
            name: row.name,
            symbol: row.symbol,
            decimals: u32::try_from(row.decimals).unwrap_or(0),
            icon_url: String::new(),
            ids: String::new(),
            dust_below: None,
            price_feeds: Default::default(),
        };
        self.added.insert(row.contract, Arc::new(token));
    }
}

impl AppState {
    /// Reads from the database the facts of any of `contracts` this instance
    /// does not know yet (tokens another instance added), so [`Network::token`]
    /// finds them. One query, and none when all are known.
    pub async fn learn_tokens<'a>(
        &self,
        network: &Network,
        contracts: impl IntoIterator<Item = &'a str>,
    ) -> ApiResult<()> {
        let mut unknown: Vec<String> = contracts
            .into_iter()
            .filter(|c| network.token(c).is_none())
            .map(str::to_ascii_lowercase)
            .collect();
        if unknown.is_empty() {
            return Ok(());
        }
        unknown.sort();
        unknown.dedup();
        for row in self.db.added_tokens(&network.config.name, &unknown).await? {
            network.remember(row);
        }
        Ok(())
    }
}

impl AppState {
    /// Learns the added tokens among a wallet's token accounts.
    pub async fn learn_wallet_tokens(
        &self,
        accounts: &[AccountRow],
        tokens: &[crate::db::TokenRow],
    ) -> ApiResult<()> {
        for account in accounts {
            if let Some(network) = self.network(&account.network) {
                let contracts = tokens.iter().filter(|t| t.account_id == account.id);
                self.learn_tokens(network, contracts.map(|t| t.contract.as_str()))
                    .await?;
            }
        }
        Ok(())
    }

    /// Learns the added tokens that transactions moved, to show their amounts.
    pub async fn learn_moved_tokens(&self, rows: &[crate::db::TransactionRow]) -> ApiResult<()> {
        for network in self.networks.values() {
            let contracts = rows
                .iter()
                .filter(|r| r.network == network.config.name)
                .filter_map(|r| r.contract.as_deref());
            self.learn_tokens(network, contracts).await?;
        }
        Ok(())
    }
}

/// What the token at `contract` says of itself and `account`'s balance of it,
/// read now; 400 when it is not an ERC-20 token.
pub async fn read_token(
    state: &AppState,
    network: &Network,
    account: &AccountRow,
    contract: Address,
) -> ApiResult<(AddedTokenRow, AddableToken)> {
    let holder: Address = account
        .address
        .parse()
        .map_err(|_| ApiError::internal("stored address does not parse"))?;
    let lower = lower_hex(&contract);
    state.learn_tokens(network, [lower.as_str()]).await?;
    let configured = network
        .token(&lower)
        .filter(|t| matches!(t, TokenRef::Configured(..)))
        .is_some();
    let (facts, tracked) = tokio::join!(
        network.chain.token_facts(contract, holder),
        state.db.account_tracks(&account.id, &lower),
    );
    let facts = facts
        .map_err(|e| ApiError::upstream(&network.config.name, e))?
        .ok_or_else(|| ApiError::bad_request("not an ERC-20 token on this network"))?;
    // A token someone added before keeps the facts first read: everyone sees
    // one token, whatever its contract answers now.
    let known = network.token(&lower);
    let (name, symbol, decimals) = match &known {
        Some(token) => (token.name.clone(), token.symbol.clone(), token.decimals),
        None => (facts.name, facts.symbol, facts.decimals),
    };
    let row = AddedTokenRow {
        network: network.config.name.clone(),
        contract: lower,
        name: name.clone(),
        symbol: symbol.clone(),
        decimals: i64::from(decimals),
    };
    let token = AddableToken {
        contract: contract.to_checksum(None),
        network: network.config.name.clone(),
        name,
        symbol,
        decimals,
        balance: facts.balance.to_string(),
        tracked: tracked?,
        configured,
    };
    Ok((row, token))
}

/// Makes `account` track the token at `contract`.
pub async fn add_token(
    state: &AppState,
    network: &Network,
    account: &AccountRow,
    contract: Address,
) -> ApiResult<AddableToken> {
    let (row, mut token) = read_token(state, network, account, contract).await?;
    let max = state.settings.max_added_tokens_per_account;
    match state
        .db
        .add_token(&account.id, &row, &token.balance, max)
        .await?
    {
        TokenAdded::Added => {}
        TokenAdded::AlreadyTracked => {
            return Err(ApiError::new(
                axum::http::StatusCode::CONFLICT,
                satchel_api::RestErrorCode::Conflict,
                "the account tracks this token already",
            ));
        }
        TokenAdded::Full => {
            return Err(ApiError::too_many_requests(format!(
                "an account may add at most {max} tokens; remove one first"
            )));
        }
    }
    // The stored facts win: another request may have added the contract first.
    state.learn_tokens(network, [row.contract.as_str()]).await?;
    if let Some(known) = network.token(&row.contract) {
        token.name.clone_from(&known.name);
        token.symbol.clone_from(&known.symbol);
        token.decimals = known.decimals;
    }
    token.tracked = true;
    state.forget_wallet(&account.wallet_id);
    state.forget_last_refresh(&account.id);
    Ok(token)
}

/// Stops `account` tracking a token it added.
pub async fn remove_token(
    state: &AppState,
    account: &AccountRow,
    contract: Address,
) -> ApiResult<()> {
    if !state
        .db
        .remove_added_token(&account.id, &lower_hex(&contract))
        .await?
    {
        return Err(ApiError::not_found("added token"));
    }
    state.forget_wallet(&account.wallet_id);
    state.forget_last_refresh(&account.id);
    Ok(())
}
