//! Operation 2 (`GET /v1/accountbalance/{accountId}/balance`): an account's native
//! and token balances read from its node in one call, stored and returned.
//!
//! The node read needs the account's address and the contracts it tracks, which
//! live in the database. What the last refresh read there is kept per account
//! with its wallet's `accounts_version` ([`LastRefresh`]), so a later refresh
//! starts the node read at once and, beside it, asks the database only that
//! version (one small row by key): the request costs about the node's read,
//! not the node's read after the account's rows. When the version moved (a
//! balance stored, a token added or removed, on any instance) the rows are read
//! again, and the node too when they ask for another read.

use std::sync::Arc;

use satchel_api::BalanceResponse;
use satchel_chain::Balances;

use crate::assets::refresh::{network_of, parse_address};
use crate::assets::tokens::TokenRef;
use crate::assets::views;
use crate::db::{AccountRow, TokenRow};
use crate::error::{ApiError, ApiResult};
use crate::limits::LimitKey;
use crate::state::{AppState, BalanceRead, LastRefresh, Network};

/// An account's rows made ready for the node: its network, and the token rows
/// the network knows with their token (rows of tokens it does not know are
/// left out, as from every answer).
struct Planned<'a> {
    network: &'a Network,
    read: BalanceRead,
    tracked: Vec<(&'a TokenRow, TokenRef<'a>)>,
}

async fn plan<'a>(
    state: &'a AppState,
    account: &AccountRow,
    tokens: &'a [TokenRow],
) -> ApiResult<Planned<'a>> {
    let network = network_of(state, account)?;
    let known = || {
        tokens
            .iter()
            .filter_map(|row| Some((row, network.token(&row.contract)?)))
            .collect::<Vec<_>>()
    };
    let mut tracked = known();
    if tracked.len() < tokens.len() {
        // Tokens added on another instance are learned (one query), then
        // looked up again.
        state
            .learn_tokens(network, tokens.iter().map(|row| row.contract.as_str()))
            .await?;
        tracked = known();
    }
    let contracts = tracked
        .iter()
        .map(|(row, _)| parse_address(&row.contract))
        .collect::<ApiResult<Vec<_>>>()?;
    Ok(Planned {
        network,
        read: BalanceRead {
            holder: parse_address(&account.address)?,
            contracts,
        },
        tracked,
    })
}

async fn read_node(network: &Network, read: &BalanceRead) -> ApiResult<Balances> {
    network
        .chain
        .balances(read.holder, &read.contracts)
        .await
        .map_err(|e| ApiError::upstream(&network.config.name, e))
}

/// Refreshes `account`'s balances from its rows as just read (the receipt
/// follower's refresh after a mined transfer; outside the refresh limit).
pub async fn refresh_balance(
    state: &AppState,
    account: &AccountRow,
    tokens: &[TokenRow],
) -> ApiResult<BalanceResponse> {
    let planned = plan(state, account, tokens).await?;
    let balances = read_node(planned.network, &planned.read).await?;
    store_and_answer(state, account, &planned, balances).await
}

/// Operation 2 for `user_id`: 404 for no such account, 403 for another user's,
/// 429 when it was refreshed too often (counted only for its owner).
pub async fn refresh_account_balance(
    state: &AppState,
    user_id: &str,
    account_id: &str,
) -> ApiResult<BalanceResponse> {
    let take_limit = || async {
        state
            .limits
            .take(LimitKey::Balance { account_id })
            .await
            .map_err(|wait| ApiError::rate_limited("balance refreshed too often", wait))
    };
    let last = state
        .last_refresh(account_id)
        .filter(|last| last.found.owner == user_id);
    let last = last
        .as_ref()
        .and_then(|last| Some((state.network(&last.found.account.network)?, last)));
    let (found, early) = match last {
        // The owner is known: the limit is taken, then the node is read while
        // the database says whether the rows it was read for are still the
        // account's.
        Some((network, last)) => {
            take_limit().await?;
            let (version, early) = tokio::join!(
                state.db.account_version(account_id),
                read_node(network, &last.read)
            );
            let found = match version? {
                None => None,
                Some(version) if version == last.found.version => Some(last.found.clone()),
                Some(_) => state
                    .db
                    .account_with_tokens(account_id)
                    .await?
                    .map(Arc::new),
            };
            (found, Some(early))
        }
        None => (
            state
                .db
                .account_with_tokens(account_id)
                .await?
                .map(Arc::new),
            None,
        ),
    };
    let found = found.ok_or_else(|| ApiError::not_found("account"))?;
    if found.owner != user_id {
        return Err(ApiError::forbidden());
    }
    if early.is_none() {
        take_limit().await?;
    }
    let planned = plan(state, &found.account, &found.tokens).await?;
    let read_before = last.map(|(_, last)| &last.read);
    if last.is_none_or(|(_, last)| !Arc::ptr_eq(&last.found, &found)) {
        state.keep_last_refresh(
            account_id,
            LastRefresh {
                found: found.clone(),
                read: planned.read.clone(),
            },
        );
    }
    let balances = match early {
        Some(early) if read_before == Some(&planned.read) => early?,
        _ => read_node(planned.network, &planned.read).await?,
    };
    store_and_answer(state, &found.account, &planned, balances).await
}

/// Stores what changed (nothing when nothing did) and answers in the spec's shape.
async fn store_and_answer(
    state: &AppState,
    account: &AccountRow,
    planned: &Planned<'_>,
    balances: Balances,
) -> ApiResult<BalanceResponse> {
    let network = planned.network;
    let mut changed = Vec::new();
    let mut tokens = Vec::with_capacity(planned.tracked.len());
    for ((row, token), balance) in planned.tracked.iter().zip(balances.tokens) {
        let mut balance_now = row.balance.clone();
        match balance {
            Some(balance) => {
                let balance = balance.to_string();
                if balance != row.balance {
                    changed.push((row.contract.clone(), balance.clone()));
                    balance_now = balance;
                }
            }
            None => tracing::warn!(
                network = %network.config.name,
                contract = %row.contract,
                "token did not answer balanceOf; keeping the last known balance"
            ),
        }
        tokens.push(views::token_balance(token, token.contract(), balance_now));
    }
    let native = balances.native.to_string();
    // Nothing changed, nothing to write (and the wallet's view stays right).
    if native != account.balance || !changed.is_empty() {
        state
            .db
            .store_balances(&account.id, &native, &changed)
            .await?;
        state.forget_wallet(&account.wallet_id);
    }
    Ok(BalanceResponse {
        balance: native,
        decimals: network.config.decimals,
        symbol: network.config.symbol.clone(),
        tokens,
    })
}
