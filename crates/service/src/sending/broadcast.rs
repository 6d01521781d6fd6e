//! `broadcast`: a transaction the device signed, checked to be the caller's
//! own account's and for its network, sent to the node and kept, pending.

use alloy::consensus::{Transaction as _, TxEnvelope};
use alloy::eips::eip2718::Decodable2718;
use alloy::sol_types::SolCall;
use satchel_api::{BroadcastRequest, RestErrorCode, TransactionRecord};
use satchel_chain::{Address, Refusal, SendError, U256};

use super::{own_account, record, transferCall, would_fail};
use crate::assets::views::lower_hex;
use crate::db::TransactionRow;
use crate::error::{ApiError, ApiResult};
use crate::identity::AuthUser;
use crate::state::{AppState, Network};

/// The largest signed transaction accepted (a transfer is ~120 bytes).
const MAX_RAW_BYTES: usize = 16 * 1024;

/// What a signed transaction sends, as Activity lists it: (counterparty, token
/// contract, amount). A token transfer of one of the network's tokens is its
/// recipient and amount; any other call is the contract called and the coin
/// sent with it; a deployment, the contract it makes (at the address its
/// sender and nonce give) and the coin sent to it.
fn describe(
    network: &Network,
    signer: Address,
    tx: &TxEnvelope,
) -> (Address, Option<Address>, U256) {
    let Some(to) = tx.to() else {
        return (signer.create(tx.nonce()), None, tx.value());
    };
    let token_transfer = transferCall::abi_decode(tx.input())
        .ok()
        .filter(|_| tx.value().is_zero())
        .filter(|_| network.token(&lower_hex(&to)).is_some());
    match token_transfer {
        Some(call) => (call.to, Some(to), call.amount),
        None => (to, None, tx.value()),
    }
}

/// `POST /v1/transactions`: checks a signed transfer is the caller's own
/// account's, for its network, and a coin or token transfer; broadcasts it and
/// keeps it, pending.
pub async fn broadcast(
    state: &AppState,
    user: &AuthUser,
    request: &BroadcastRequest,
) -> ApiResult<TransactionRecord> {
    let (account, network) = own_account(state, user, &request.account_id).await?;

    let hex = request.raw.strip_prefix("0x").unwrap_or(&request.raw);
    if hex.len() > 2 * MAX_RAW_BYTES {
        return Err(ApiError::bad_request("the signed transaction is too large"));
    }
    let raw =
        alloy::hex::decode(hex).map_err(|_| ApiError::bad_request("`raw` is not hexadecimal"))?;
    let tx = TxEnvelope::decode_2718(&mut raw.as_slice())
        .map_err(|_| ApiError::bad_request("`raw` is not a signed transaction"))?;
    let TxEnvelope::Eip1559(signed) = &tx else {
        return Err(ApiError::bad_request(
            "only EIP-1559 transactions are broadcast",
        ));
    };
    let signer = signed
        .signature()
        .recover_address_from_prehash(&signed.signature_hash())
        .map_err(|_| ApiError::bad_request("the signature does not recover"))?;
    if lower_hex(&signer) != account.address {
        return Err(ApiError::new(
            axum::http::StatusCode::FORBIDDEN,
            RestErrorCode::Forbidden,
            "the transaction is signed by another key than this account's",
        ));
    }
    if tx.chain_id() != Some(network.config.chain_id) {
        return Err(ApiError::bad_request(
            "the transaction is for another network than the account's",
        ));
    }
    if let Some(to) = tx.to() {
        state
            .learn_tokens(network, [lower_hex(&to).as_str()])
            .await?;
    }
    let (counterparty, contract, amount) = describe(network, signer, &tx);
    check_pending_room(state, &account.id, tx.nonce()).await?;
    let hash = *tx.tx_hash();
    match network.chain.send_raw(&raw).await {
        Ok(sent) if sent == hash => {}
        Ok(other) => {
            return Err(ApiError::upstream(
                &network.config.name,
                format!("the node named the transaction {other}, not {hash}"),
            ));
        }
        // The same bytes again (a retry after a lost answer) are fine.
        Err(SendError::Refused(Refusal::Refused(reason)))
            if reason.contains("already known") || reason.contains("already imported") => {}
        Err(SendError::Refused(refusal)) => {
            return Err(would_fail(format!(
                "the node refused the transaction: {refusal}"
            )));
        }
        Err(SendError::Chain(e)) => return Err(ApiError::upstream(&network.config.name, e)),
    }
    let max_fee = u128::from(tx.gas_limit()).saturating_mul(tx.max_fee_per_gas());
    let row = TransactionRow {
        wallet_id: account.wallet_id.clone(),
        account_id: account.id.clone(),
        network: account.network.clone(),
        tx_hash: format!("{hash:#x}"),
        direction: "sent".into(),
        status: "pending".into(),
        counterparty: lower_hex(&counterparty),
        contract: contract.as_ref().map(lower_hex),
        amount: amount.to_string(),
        nonce: Some(tx.nonce() as i64),
        gas_limit: Some(tx.gas_limit() as i64),
        max_fee_per_gas: Some(tx.max_fee_per_gas().to_string()),
        max_priority_fee_per_gas: tx.max_priority_fee_per_gas().map(|t| t.to_string()),
        fee: Some(max_fee.to_string()),
        block_number: None,
        replaced_by: None,
        created_at: crate::clock::now(),
    };
    state.db.insert_sent(&row).await?;
    Ok(record(state, row))
}

/// Refuses a transaction with a new nonce while the account has
/// `max_pending_per_account` waiting; a replacement (a pending one's nonce)
/// always goes, so a stuck account can speed up or cancel.
async fn check_pending_room(state: &AppState, account_id: &str, nonce: u64) -> ApiResult<()> {
    let pending = state.db.pending_count(account_id).await?;
    if pending < i64::from(state.settings.max_pending_per_account) {
        return Ok(());
    }
    let highest = state.db.highest_pending_nonce(account_id).await?;
    if highest.is_some_and(|highest| nonce as i64 <= highest) {
        return Ok(());
    }
    Err(ApiError::too_many_requests(format!(
        "this account has {pending} transactions waiting to be mined; send again once some \
         are, or speed one up"
    )))
}
