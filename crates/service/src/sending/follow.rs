//! Following sent transactions to the block: receipts read every
//! `receipt_poll_ms`, a mined one settling the others with its nonce as
//! replaced, and the balances it changed read again. One the node no longer
//! has, whose nonce is unused, is settled as dropped after `pending_expiry_secs`.

use std::time::Duration;

use satchel_chain::B256;

use crate::assets::balances;
use crate::assets::refresh::parse_address;
use crate::db::TransactionRow;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

/// Pending transactions whose receipts one pass reads.
const FOLLOW_BATCH: i64 = 100;
/// The shortest time a stopped instance's transactions wait before another
/// instance's follower takes them over (ten passes, at least this).
const FOLLOW_LEASE_MIN_SECS: u64 = 30;

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
                None => {
                    let expiry =
                        i64::try_from(state.settings.pending_expiry_secs).unwrap_or(i64::MAX);
                    let expired = crate::clock::now().saturating_sub(row.created_at) >= expiry;
                    if expired && !network.chain.is_known(hash).await.map_err(upstream)? {
                        state.db.settle_dropped(row).await?;
                    }
                    return Ok(());
                }
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
        let Ok(Some(found)) = state.db.account_with_tokens(&id).await else {
            continue;
        };
        let account = &found.account;
        if let Err(e) = balances::refresh_balance(state, account, &found.tokens).await {
            tracing::debug!(account = %account.id, error = %e.message, "balance not refreshed");
        }
        state.forget_wallet(&account.wallet_id);
    }
}

/// Follows pending transactions every `receipt_poll_ms` until the service stops.
pub async fn follow_forever(state: AppState) {
    let period = Duration::from_millis(state.settings.receipt_poll_ms.max(100));
    // What this instance reads is its own to follow; another instance takes a
    // transaction over only when this one has not read it for a lease's time.
    let me = crate::db::new_id();
    let lease_secs = i64::try_from(
        period
            .as_secs()
            .saturating_mul(10)
            .max(FOLLOW_LEASE_MIN_SECS),
    )
    .unwrap_or(i64::MAX);
    let mut ticks = tokio::time::interval(period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        match state
            .db
            .pending_transactions(FOLLOW_BATCH, crate::clock::now(), lease_secs, &me)
            .await
        {
            Ok(rows) => follow(&state, rows).await,
            Err(e) => tracing::warn!(error = %e, "pending transactions not read"),
        }
    }
}
