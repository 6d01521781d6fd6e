//! A wallet's activity: its sent transactions (receipts read while pending) and
//! the token transfers it received, scanned from logs a few windows at a time.

use satchel_api::TransactionRecord;
use satchel_chain::{Address, U256};

use super::follow::follow;
use super::record;
use crate::assets::refresh::{network_of, parse_address};
use crate::assets::views::lower_hex;
use crate::db::{AccountRow, NewTransfer};
use crate::error::{ApiError, ApiResult};
use crate::identity::AuthUser;
use crate::state::{AppState, Network};

/// Log windows one activity read scans for incoming transfers, per account.
const SCAN_WINDOWS: u64 = 4;

/// `GET /v1/transactions?userId=&walletId=` after the ownership check: the
/// wallet's pending receipts read and its incoming transfers scanned first.
pub async fn activity(state: &AppState, wallet_id: &str) -> ApiResult<Vec<TransactionRecord>> {
    let rows = state.db.wallet_transactions(wallet_id).await?;
    let pending: Vec<_> = rows
        .iter()
        .filter(|r| r.status == "pending")
        .take(16)
        .cloned()
        .collect();
    let followed = !pending.is_empty();
    follow(state, pending).await;
    let (accounts, tokens) = state.db.wallet_accounts(wallet_id).await?;
    state.learn_wallet_tokens(&accounts, &tokens).await?;
    let mut scanned = false;
    for account in &accounts {
        let contracts: Vec<Address> = tokens
            .iter()
            .filter(|t| t.account_id == account.id)
            .filter(|t| {
                state
                    .network(&account.network)
                    .is_some_and(|n| n.token(&t.contract).is_some())
            })
            .filter_map(|t| t.contract.parse().ok())
            .collect();
        match scan_incoming(state, account, &contracts).await {
            Ok(found) => scanned |= found,
            Err(e) => {
                tracing::warn!(account = %account.id, error = %e, "incoming transfers not read")
            }
        }
    }
    let rows = if followed || scanned {
        state.db.wallet_transactions(wallet_id).await?
    } else {
        rows
    };
    state.learn_moved_tokens(&rows).await?;
    Ok(rows.into_iter().map(|row| record(state, row)).collect())
}

/// Reads an account's incoming token transfers since the last read (at most
/// [`SCAN_WINDOWS`] log windows); returns whether any were found.
async fn scan_incoming(
    state: &AppState,
    account: &AccountRow,
    tokens: &[Address],
) -> ApiResult<bool> {
    if tokens.is_empty() {
        return Ok(false);
    }
    let network = network_of(state, account)?;
    let upstream = |e| ApiError::upstream(&network.config.name, e);
    let latest = network.chain.block_number().await.map_err(upstream)?;
    let window = network.config.log_window.max(1);
    let mut next = match state.db.transfer_scan(&account.id).await? {
        Some(next) => next as u64,
        // A new account: its recent history only.
        None => latest
            .saturating_sub(SCAN_WINDOWS * window)
            .max(network.config.nft_start_block),
    };
    let owner = parse_address(&account.address)?;
    let mut found = false;
    for _ in 0..SCAN_WINDOWS {
        if next > latest {
            break;
        }
        let last = latest.min(next + window - 1);
        let read = network
            .chain
            .incoming_transfers(tokens, owner, next, last)
            .await
            .map_err(upstream)?;
        // A window cut short is read on from where it was cut, never skipped.
        let read_to = read
            .resume_from
            .map_or(last, |resume| resume.saturating_sub(1));
        let transfers: Vec<NewTransfer> = read
            .transfers
            .into_iter()
            .filter(|t| !is_dust(network, &t.token, t.value))
            .map(|t| NewTransfer {
                tx_hash: format!("{:#x}", t.tx_hash),
                log_index: t.log_index as i64,
                from: lower_hex(&t.from),
                contract: lower_hex(&t.token),
                amount: t.value.to_string(),
                block_number: t.block_number as i64,
            })
            .collect();
        found |= !transfers.is_empty();
        state
            .db
            .store_transfers(
                &account.wallet_id,
                &account.id,
                &account.network,
                &transfers,
                (read_to + 1) as i64,
            )
            .await?;
        next = read_to + 1;
    }
    Ok(found)
}

/// A transfer too small to be anything but noise: zero, or under the token's
/// `dust_below` (by default a millionth of a whole token). Such transfers are
/// how address poisoning puts a look-alike sender into a wallet's history, so
/// Activity does not keep them.
fn is_dust(network: &Network, token: &Address, value: U256) -> bool {
    let Some(token) = network.token(&lower_hex(token)) else {
        return true;
    };
    value.is_zero() || value < token.dust_below()
}

/// `GET /v1/transactions/{txHash}`: one of the caller's sent transactions, its
/// receipt read again while pending.
pub async fn transaction(
    state: &AppState,
    user: &AuthUser,
    hash: &str,
) -> ApiResult<TransactionRecord> {
    let hash = hash.to_lowercase();
    let found = |state: &AppState| {
        let hash = hash.clone();
        let state = state.clone();
        async move { state.db.sent_transaction(&hash).await }
    };
    let (row, owner) = found(state)
        .await?
        .ok_or_else(|| ApiError::not_found("transaction"))?;
    if owner != user.user_id {
        return Err(ApiError::forbidden());
    }
    state.learn_moved_tokens(std::slice::from_ref(&row)).await?;
    if row.status != "pending" {
        return Ok(record(state, row));
    }
    follow(state, vec![row.clone()]).await;
    let (row, _) = found(state).await?.unwrap_or((row, owner));
    Ok(record(state, row))
}
