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
