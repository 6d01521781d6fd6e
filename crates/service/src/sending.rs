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

use std::time::Duration;

use alloy::consensus::{Transaction as _, TxEnvelope};
use alloy::eips::eip2718::Decodable2718;
use alloy::sol_types::SolCall;
use satchel_api::{
    BroadcastRequest, FeeLevel, FeeLevels, PrepareRequest, PreparedTransaction, RestErrorCode,
    TransactionDirection, TransactionRecord, TransactionStatus,
};
use satchel_chain::{Address, B256, Bytes, FeeMarket, Refusal, SendError, U256};

use crate::auth::AuthUser;
use crate::chain_refresh::{self, network_of, parse_address};
use crate::db::{AccountRow, NewTransfer, TransactionRow};
use crate::error::{ApiError, ApiResult};
use crate::state::{AppState, Network};
use crate::views::{self, lower_hex};

alloy::sol! {
    function transfer(address to, uint256 amount) returns (bool);
}

/// The largest signed transaction accepted (a transfer is ~120 bytes).
const MAX_RAW_BYTES: usize = 16 * 1024;
/// Pending transactions whose receipts one pass reads.
const FOLLOW_BATCH: i64 = 100;
/// Log windows one activity read scans for incoming transfers, per account.
const SCAN_WINDOWS: u64 = 4;
/// A replacement's fees must beat the pending one's by this much (in 1/1000):
/// nodes want at least 10 %.
const REPLACEMENT_BUMP_PER_MILLE: u128 = 1_125;

fn would_fail(message: impl Into<String>) -> ApiError {
    ApiError::new(
        axum::http::StatusCode::BAD_REQUEST,
        RestErrorCode::TransactionWouldFail,
        message,
    )
}

/// A recipient as given: lowercase or uppercase hex, or mixed case that is its
/// EIP-55 checksum.
fn parse_recipient(text: &str) -> ApiResult<Address> {
    let hex = text.strip_prefix("0x").unwrap_or_default();
    let one_case = hex == hex.to_lowercase() || hex == hex.to_uppercase();
    let parsed = if one_case {
        text.parse().ok()
    } else {
        Address::parse_checksummed(text, None).ok()
    };
    parsed
        .filter(|_| hex.len() == 40)
        .ok_or_else(|| ApiError::bad_request("`to` is not an address, or its checksum is wrong"))
}

fn parse_amount(text: &str) -> ApiResult<U256> {
    if text.is_empty() || text.len() > 78 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::bad_request(
            "`amount` must be an integer in the smallest unit",
        ));
    }
    text.parse()
        .map_err(|_| ApiError::bad_request("`amount` is too large"))
}

/// An integer amount in whole units for a message: `1500000000000000000` at 18
/// decimals is `1.5`.
fn in_units(value: U256, decimals: u32) -> String {
    let digits = value.to_string();
    let decimals = decimals as usize;
    let padded = format!("{digits:0>width$}", width = decimals + 1);
    let (whole, fraction) = padded.split_at(padded.len() - decimals);
    let fraction = fraction.trim_end_matches('0');
    if fraction.is_empty() {
        whole.to_owned()
    } else {
        format!("{whole}.{fraction}")
    }
}

/// The caller's account `account_id`, and its network.
async fn own_account<'a>(
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

/// Slow, normal and fast caps over the market; for a replacement, each at least
/// the bump over the pending one's.
fn fee_levels(market: FeeMarket, gas_limit: u64, floor: Option<(u128, u128)>) -> FeeLevels {
    let base = market.base_fee;
    let level = |tip: u128, max_fee: u128| {
        let (max_fee, tip) = match floor {
            Some((floor_fee, floor_tip)) => {
                let bump = |v: u128| v.saturating_mul(REPLACEMENT_BUMP_PER_MILLE).div_ceil(1000);
                (max_fee.max(bump(floor_fee)), tip.max(bump(floor_tip)))
            }
            None => (max_fee, tip),
        };
        let max_fee = max_fee.max(tip);
        FeeLevel {
            max_fee_per_gas: max_fee.to_string(),
            max_priority_fee_per_gas: tip.to_string(),
            max_fee: (U256::from(max_fee) * U256::from(gas_limit)).to_string(),
        }
    };
    let tip = market.tip.max(1);
    FeeLevels {
        // Room for one block of base-fee rise (12.5 %).
        slow: level(tip, base + base / 8 + tip),
        // Room for several full blocks in a row, as most wallets leave.
        normal: level(tip * 3 / 2, 2 * base + tip * 3 / 2),
        fast: level(tip * 2, 3 * base + tip * 2),
    }
}

/// `POST /v1/transactions/prepare`.
pub async fn prepare(
    state: &AppState,
    user: &AuthUser,
    request: &PrepareRequest,
) -> ApiResult<PreparedTransaction> {
    let (account, network) = own_account(state, user, &request.account_id).await?;
    let from = parse_address(&account.address)?;
    let to = parse_recipient(&request.to)?;
    let amount = parse_amount(&request.amount)?;
    let token = match &request.contract {
        None => None,
        Some(contract) => {
            let config = views::find_token(&network.config, contract)
                .ok_or_else(|| ApiError::bad_request("not a token of this network"))?;
            Some((
                parse_recipient(contract)?,
                config.decimals,
                config.symbol.clone(),
            ))
        }
    };
    let (tx_to, value, input) = match &token {
        None => (to, amount, Bytes::new()),
        Some((contract, _, _)) => (
            *contract,
            U256::ZERO,
            Bytes::from(transferCall { to, amount }.abi_encode()),
        ),
    };
    let replaced = match &request.replaces {
        None => None,
        Some(hash) => Some(pending_of(state, user, &account, hash).await?),
    };

    let chain = &network.chain;
    let tokens: Vec<Address> = token.iter().map(|(c, _, _)| *c).collect();
    let (nonce, market, gas, balances, recipient_code) = tokio::join!(
        chain.next_nonce(from),
        chain.fee_market(),
        chain.estimate_gas(from, tx_to, value, input.clone()),
        chain.balances(from, &tokens),
        chain.has_code(to),
    );
    let upstream = |e| ApiError::upstream(&network.config.name, e);
    let balances = balances.map_err(upstream)?;
    let market = market.map_err(upstream)?;
    let token_balance = balances.tokens.first().copied().flatten();
    if let Some((_, decimals, symbol)) = &token
        && !amount.is_zero()
        && token_balance.is_none_or(|b| b < amount)
    {
        return Err(would_fail(format!(
            "not enough {symbol}: sending {} but the account has {}",
            in_units(amount, *decimals),
            in_units(token_balance.unwrap_or_default(), *decimals)
        )));
    }
    let gas_limit = match gas {
        Ok(gas) if input.is_empty() && gas == 21_000 => gas,
        // Room for state that changes before it is mined.
        Ok(gas) => gas.saturating_mul(6) / 5,
        Err(SendError::Refused(Refusal::Reverted(reason) | Refusal::Refused(reason))) => {
            if !amount.is_zero() {
                return Err(would_fail(format!("the transfer would fail: {reason}")));
            }
            // A fee quote for Max (nothing sent yet): a plain transfer's gas.
            if input.is_empty() { 21_000 } else { 100_000 }
        }
        Err(SendError::Chain(e)) => return Err(upstream(e)),
    };
    let floor = replaced.as_ref().map(|r| {
        let cap = |v: &Option<String>| v.as_deref().and_then(|v| v.parse().ok()).unwrap_or(0);
        (cap(&r.max_fee_per_gas), cap(&r.max_priority_fee_per_gas))
    });
    let fees = fee_levels(market, gas_limit, floor);
    let slowest: U256 = fees.slow.max_fee.parse().unwrap_or(U256::MAX);
    if !amount.is_zero() && balances.native < value.saturating_add(slowest) {
        return Err(would_fail(format!(
            "not enough {} for the amount and the fee: up to {} needed, the account has {}",
            network.config.symbol,
            in_units(value.saturating_add(slowest), network.config.decimals),
            in_units(balances.native, network.config.decimals)
        )));
    }
    let nonce = match &replaced {
        Some(r) => r.nonce.unwrap_or_default() as u64,
        None => {
            let node = nonce.map_err(upstream)?;
            let here = state
                .db
                .highest_pending_nonce(&account.id)
                .await?
                .map_or(0, |n| n as u64 + 1);
            node.max(here)
        }
    };
    Ok(PreparedTransaction {
        chain_id: network.config.chain_id,
        nonce,
        from: views::checksummed(&account.address),
        to: tx_to.to_checksum(None),
        value: value.to_string(),
        data: format!("0x{}", alloy::hex::encode(&input)),
        gas_limit,
        base_fee_per_gas: market.base_fee.to_string(),
        fees,
        coin_balance: balances.native.to_string(),
        token_balance: token
            .as_ref()
            .map(|_| token_balance.unwrap_or_default().to_string()),
        recipient_is_contract: recipient_code.map_err(upstream)?,
    })
}

/// The caller's pending transaction `hash` of `account`, to replace.
async fn pending_of(
    state: &AppState,
    user: &AuthUser,
    account: &AccountRow,
    hash: &str,
) -> ApiResult<TransactionRow> {
    let (row, owner) = state
        .db
        .sent_transaction(&hash.to_lowercase())
        .await?
        .ok_or_else(|| ApiError::not_found("transaction"))?;
    if owner != user.user_id || row.account_id != account.id {
        return Err(ApiError::forbidden());
    }
    if row.status != "pending" {
        return Err(would_fail("that transaction is no longer pending"));
    }
    Ok(row)
}

/// What a signed transfer sends: (counterparty, token contract, amount).
fn describe(network: &Network, tx: &TxEnvelope) -> ApiResult<(Address, Option<Address>, U256)> {
    let to = tx
        .to()
        .ok_or_else(|| ApiError::bad_request("only transfers are broadcast, not deployments"))?;
    if tx.input().is_empty() {
        return Ok((to, None, tx.value()));
    }
    let call = transferCall::abi_decode(tx.input())
        .ok()
        .filter(|_| tx.value().is_zero())
        .filter(|_| views::find_token(&network.config, &lower_hex(&to)).is_some())
        .ok_or_else(|| {
            ApiError::bad_request(
                "only coin transfers and token transfers of this network's tokens are broadcast",
            )
        })?;
    Ok((call.to, Some(to), call.amount))
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
    let (counterparty, contract, amount) = describe(network, &tx)?;
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
        created_at: crate::now(),
    };
    state.db.insert_sent(&row).await?;
    Ok(record(state, row))
}

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
    let mut scanned = false;
    for account in &accounts {
        let contracts: Vec<Address> = tokens
            .iter()
            .filter(|t| t.account_id == account.id)
            .filter(|t| {
                state
                    .network(&account.network)
                    .is_some_and(|n| views::find_token(&n.config, &t.contract).is_some())
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
        let transfers = network
            .chain
            .incoming_transfers(tokens, owner, next, last)
            .await
            .map_err(upstream)?;
        found |= !transfers.is_empty();
        let transfers: Vec<NewTransfer> = transfers
            .into_iter()
            .map(|t| NewTransfer {
                tx_hash: format!("{:#x}", t.tx_hash),
                log_index: t.log_index as i64,
                from: lower_hex(&t.from),
                contract: lower_hex(&t.token),
                amount: t.value.to_string(),
                block_number: t.block_number as i64,
            })
            .collect();
        state
            .db
            .store_transfers(
                &account.wallet_id,
                &account.id,
                &account.network,
                &transfers,
                (last + 1) as i64,
            )
            .await?;
        next = last + 1;
    }
    Ok(found)
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
    if row.status != "pending" {
        return Ok(record(state, row));
    }
    follow(state, vec![row.clone()]).await;
    let (row, _) = found(state).await?.unwrap_or((row, owner));
    Ok(record(state, row))
}

/// Reads the receipts of pending transactions and settles those that were mined
/// or replaced. Failures are logged; the next pass tries again.
pub async fn follow(state: &AppState, rows: Vec<TransactionRow>) {
    for row in rows {
        if let Err(e) = follow_one(state, &row).await {
            tracing::debug!(tx = %row.tx_hash, error = %e.message, "receipt not read");
        }
    }
}

async fn follow_one(state: &AppState, row: &TransactionRow) -> ApiResult<()> {
    let network = state
        .network(&row.network)
        .ok_or_else(|| ApiError::internal(format!("network {} is gone", row.network)))?;
    let upstream = |e| ApiError::upstream(&network.config.name, e);
    let hash: B256 = row
        .tx_hash
        .parse()
        .map_err(|_| ApiError::internal("stored hash does not parse"))?;
    let mined = match network.chain.mined(hash).await.map_err(upstream)? {
        Some(mined) => mined,
        None => {
            let Some((account, _)) = state.db.account_with_owner(&row.account_id).await? else {
                return Ok(());
            };
            let used = network
                .chain
                .mined_nonce(parse_address(&account.address)?)
                .await
                .map_err(upstream)?;
            let nonce = row.nonce.unwrap_or(i64::MAX) as u64;
            // Its nonce is used: by it (mined since the first read) or another.
            match network.chain.mined(hash).await.map_err(upstream)? {
                Some(mined) => mined,
                None if used > nonce => {
                    state.db.settle_replaced(row).await?;
                    return Ok(());
                }
                None => return Ok(()),
            }
        }
    };
    let moved = state
        .db
        .settle_mined(
            row,
            mined.success,
            mined.block_number as i64,
            &mined.fee.to_string(),
        )
        .await?;
    if moved {
        refresh_after_mined(state, row).await;
    }
    Ok(())
}

/// The balances a mined transfer changed: its account's, and the recipient's when
/// this service keeps it. Outside the refresh limit.
async fn refresh_after_mined(state: &AppState, row: &TransactionRow) {
    let mut accounts = vec![row.account_id.clone()];
    if let Ok(recipients) = state.db.accounts_at(&row.network, &row.counterparty).await {
        accounts.extend(recipients.into_iter().map(|account| account.id));
    }
    for id in accounts {
        let Ok(Some((account, _, tokens))) = state.db.account_with_tokens(&id).await else {
            continue;
        };
        if let Err(e) = chain_refresh::refresh_balance(state, &account, &tokens).await {
            tracing::debug!(account = %account.id, error = %e.message, "balance not refreshed");
        }
        state.forget_wallet(&account.wallet_id);
    }
}

/// Follows pending transactions every `receipt_poll_ms` until the service stops.
pub async fn follow_forever(state: AppState) {
    let period = Duration::from_millis(state.settings.receipt_poll_ms.max(100));
    let mut ticks = tokio::time::interval(period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        match state.db.pending_transactions(FOLLOW_BATCH).await {
            Ok(rows) => follow(&state, rows).await,
            Err(e) => tracing::warn!(error = %e, "pending transactions not read"),
        }
    }
}

/// A stored transaction as the REST interface shows it.
fn record(state: &AppState, row: TransactionRow) -> TransactionRecord {
    let config = state.network(&row.network).map(|n| &n.config);
    let token = row
        .contract
        .as_deref()
        .and_then(|c| config.and_then(|n| views::find_token(n, c)));
    let (symbol, decimals) = match (token, config) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fee_levels_rise_from_slow_to_fast_and_replacements_beat_the_pending_fees() {
        let market = FeeMarket {
            base_fee: 1_000_000_000,
            tip: 1_000_000_000,
        };
        let caps = |l: &FeeLevel| -> (u128, u128) {
            (
                l.max_fee_per_gas.parse().expect("fee"),
                l.max_priority_fee_per_gas.parse().expect("tip"),
            )
        };
        let levels = fee_levels(market, 21_000, None);
        let (slow, normal, fast) = (caps(&levels.slow), caps(&levels.normal), caps(&levels.fast));
        assert!(slow.0 < normal.0 && normal.0 < fast.0);
        assert!(
            slow.0 >= market.base_fee + slow.1,
            "covers the base fee and tip"
        );
        assert_eq!(levels.slow.max_fee, (slow.0 * 21_000).to_string());

        let pending = (fast.0 * 4, fast.1 * 4);
        let bumped = fee_levels(market, 21_000, Some(pending));
        for level in [&bumped.slow, &bumped.normal, &bumped.fast] {
            let (fee, tip) = caps(level);
            assert!(fee * 1000 >= pending.0 * 1_125 && tip * 1000 >= pending.1 * 1_125);
        }
    }

    #[test]
    fn recipients_need_a_valid_checksum_when_mixed_case() {
        assert!(parse_recipient("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266").is_ok());
        assert!(parse_recipient("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266").is_ok());
        assert!(parse_recipient("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92267").is_err());
        assert!(parse_recipient("0xf39fd6").is_err());
        assert!(parse_recipient("f39fd6e51aad88f6f4ce6ab8827279cfffb92266").is_err());
    }

    #[test]
    fn amounts_are_integers_in_the_smallest_unit() {
        assert_eq!(parse_amount("100").expect("ok"), U256::from(100));
        for bad in ["", "1.5", "-1", "1e18", " 1", &"9".repeat(79)] {
            assert!(parse_amount(bad).is_err(), "{bad:?}");
        }
        assert_eq!(in_units(U256::from(1_500_000u64), 6), "1.5");
        assert_eq!(in_units(U256::ZERO, 18), "0");
    }
}
