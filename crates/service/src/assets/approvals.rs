//! The approvals an account gave (ERC-20 allowances, NFT operators), found in
//! its logs a few windows at a time from a cursor, like Activity's incoming
//! transfers; the device checks each with a call before showing it.

use satchel_api::{ApprovalKind, ApprovalRecord, ApprovalsResponse};
use satchel_chain::ApprovalKind as Found;

use crate::assets::refresh::parse_address;
use crate::assets::views::{checksummed, lower_hex};
use crate::db::{AccountRow, ApprovalRow};
use crate::error::{ApiError, ApiResult};
use crate::state::{AppState, Network};

/// Log windows one request reads; a longer history continues on the next.
const SCAN_WINDOWS: u64 = 10;
/// The most approvals kept per account.
pub const MAX_APPROVALS: usize = 500;

/// Whether storing `rows` would pass [`MAX_APPROVALS`].
async fn crowded(state: &AppState, account: &AccountRow, rows: &[ApprovalRow]) -> ApiResult<bool> {
    let new = rows.iter().filter(|r| r.value != "0").count();
    if new == 0 {
        return Ok(false);
    }
    let kept = state.db.account_approvals(&account.id).await?.len();
    Ok(kept + new > MAX_APPROVALS)
}

/// Forgets the account's stored approvals that are worth nothing on chain
/// now (withdrawn since, or logged by a contract that is no token), so they
/// give way before real ones do.
async fn forget_worthless(
    state: &AppState,
    network: &Network,
    account: &AccountRow,
    owner: satchel_chain::Address,
) -> ApiResult<()> {
    let stored: Vec<_> = state
        .db
        .account_approvals(&account.id)
        .await?
        .into_iter()
        .filter_map(|row| {
            let kind = if row.kind == 2 {
                Found::Operator
            } else {
                Found::Allowance
            };
            let key = (
                parse_address(&row.contract).ok()?,
                parse_address(&row.spender).ok()?,
                kind,
            );
            Some((row, key))
        })
        .collect();
    let keys: Vec<_> = stored.iter().map(|(_, key)| *key).collect();
    let now = network
        .chain
        .approvals_now(owner, &keys)
        .await
        .map_err(|e| ApiError::upstream(&network.config.name, e))?;
    let worthless: Vec<(String, String, i64)> = stored
        .into_iter()
        .zip(now)
        .filter(|(_, value)| value.is_zero())
        .map(|((row, _), _)| (row.contract, row.spender, row.kind))
        .collect();
    state.db.forget_approvals(&account.id, &worthless).await?;
    Ok(())
}

/// Reads the account's logs on from its cursor, stores what they say, and
/// lists the approvals found so far.
pub async fn approvals(
    state: &AppState,
    network: &Network,
    account: &AccountRow,
) -> ApiResult<ApprovalsResponse> {
    let upstream = |e| ApiError::upstream(&network.config.name, e);
    let owner = parse_address(&account.address)?;
    let latest = network.chain.block_number().await.map_err(upstream)?;
    let window = network.config.log_window.max(1);
    let mut next = match state.db.approval_scan(&account.id).await? {
        Some(next) => u64::try_from(next).unwrap_or(0),
        None => network.config.nft_start_block,
    };
    // Whether the approvals worth nothing on chain were forgotten this read.
    let mut made_room = false;
    for _ in 0..SCAN_WINDOWS {
        if next > latest {
            break;
        }
        let last = latest.min(next.saturating_add(window - 1));
        let found = network
            .chain
            .approvals_by(owner, next, last)
            .await
            .map_err(upstream)?;
        let rows: Vec<ApprovalRow> = found
            .into_iter()
            .map(|log| ApprovalRow {
                contract: lower_hex(&log.contract),
                spender: lower_hex(&log.spender),
                kind: match log.kind {
                    Found::Allowance => 1,
                    Found::Operator => 2,
                },
                value: log.value.to_string(),
                block_number: i64::try_from(log.block_number).unwrap_or(i64::MAX),
                tx_hash: format!("{:#x}", log.tx_hash),
            })
            .collect();
        next = last + 1;
        if !made_room && crowded(state, account, &rows).await? {
            forget_worthless(state, network, account, owner).await?;
            made_room = true;
        }
        state
            .db
            .store_approvals(
                &account.id,
                &rows,
                i64::try_from(next).unwrap_or(i64::MAX),
                MAX_APPROVALS,
                satchel_chain::SPENDERS_PER_CONTRACT,
            )
            .await?;
    }
    let approvals = state
        .db
        .account_approvals(&account.id)
        .await?
        .into_iter()
        .map(|row| ApprovalRecord {
            contract: checksummed(&row.contract),
            spender: checksummed(&row.spender),
            kind: if row.kind == 2 {
                ApprovalKind::Operator
            } else {
                ApprovalKind::Allowance
            },
            value: row.value,
            block_number: u64::try_from(row.block_number).unwrap_or(0),
            tx_hash: row.tx_hash,
        })
        .collect();
    Ok(ApprovalsResponse {
        approvals,
        scanned_to: next.saturating_sub(1),
        complete: next > latest,
    })
}
