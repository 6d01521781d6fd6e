//! Sending, the service's half: it prepares a transfer (nonce, EIP-1559 fees, gas
//! from an estimate that also simulates it), broadcasts transfers the device
//! signed from the caller's own account, and follows them to the block. It never
//! sees a key.
//!
//! Nonces: the next one is the node's pending count or one past the account's
//! highest pending transaction here, whichever is higher, so two sends in a row
//! both mine even when the node has not seen the first yet. A transfer that
//! reuses a pending one's nonce with higher fees replaces it (speed up, cancel).
//!
//! Following: a task reads the receipts of pending transactions every
//! `receipt_poll_ms` (and a read of a wallet's activity reads its own at once).
//! A mined one settles the others with its nonce as replaced, and the balances
//! of its account, and of the recipient's when this service has it, are read
//! again, outside the refresh limit.
//!
//! Here: what the parts share (the caller's own account, a transfer's call, a
//! stored transaction as the REST interface shows it); [`prepare`], [`broadcast`],
//! [`activity`] and [`follow`] are the parts.

mod activity;
mod broadcast;
mod follow;
mod prepare;

pub use activity::{activity, transaction};
pub use broadcast::broadcast;
pub use follow::follow_forever;
pub(crate) use prepare::checked_address;
pub use prepare::{prepare, prepare_call};

use satchel_api::{RestErrorCode, TransactionDirection, TransactionRecord, TransactionStatus};

use crate::assets::refresh::network_of;
use crate::assets::views;
use crate::db::{AccountRow, TransactionRow};
use crate::error::{ApiError, ApiResult};
use crate::identity::AuthUser;
use crate::state::{AppState, Network};

alloy::sol! {
    function transfer(address to, uint256 amount) returns (bool);
}

pub(super) fn would_fail(message: impl Into<String>) -> ApiError {
    ApiError::new(
        axum::http::StatusCode::BAD_REQUEST,
        RestErrorCode::TransactionWouldFail,
        message,
    )
}

/// The caller's account `account_id`, and its network.
pub(crate) async fn own_account<'a>(
    state: &'a AppState,
    user: &AuthUser,
    account_id: &str,
) -> ApiResult<(AccountRow, &'a Network)> {
    let (account, owner) = state
        .db
        .account_with_owner(account_id)
        .await?
        .ok_or_else(|| ApiError::not_found("account"))?;
    if owner != user.user_id {
        return Err(ApiError::forbidden());
    }
    let network = network_of(state, &account)?;
    Ok((account, network))
}

/// A stored transaction as the REST interface shows it.
pub(super) fn record(state: &AppState, row: TransactionRow) -> TransactionRecord {
    let network = state.network(&row.network);
    let config = network.map(|n| &n.config);
    let token = row
        .contract
        .as_deref()
        .and_then(|c| network.and_then(|n| n.token(c)));
    let (symbol, decimals) = match (token.as_deref(), config) {
        (Some(token), _) => (token.symbol.clone(), token.decimals),
        (None, Some(network)) if row.contract.is_none() => {
            (network.symbol.clone(), network.decimals)
        }
        _ => (String::new(), 0),
    };
    TransactionRecord {
        tx_hash: row.tx_hash,
        account_id: row.account_id,
        network: row.network,
        direction: if row.direction == "received" {
            TransactionDirection::Received
        } else {
            TransactionDirection::Sent
        },
        status: match row.status.as_str() {
            "mined" => TransactionStatus::Mined,
            "failed" => TransactionStatus::Failed,
            "replaced" => TransactionStatus::Replaced,
            "dropped" => TransactionStatus::Dropped,
            _ => TransactionStatus::Pending,
        },
        counterparty: views::checksummed(&row.counterparty),
        contract: row.contract.as_deref().map(views::checksummed),
        symbol,
        decimals,
        amount: row.amount,
        nonce: row.nonce.map(|n| n as u64),
        gas_limit: row.gas_limit.map(|g| g as u64),
        max_fee_per_gas: row.max_fee_per_gas,
        max_priority_fee_per_gas: row.max_priority_fee_per_gas,
        fee: row.fee,
        block_number: row.block_number.map(|b| b as u64),
        created_at: row.created_at,
        replaced_by: row.replaced_by,
    }
}
