//! What an owner allowed others to do with its assets, found in logs: ERC-20
//! `Approval(owner, spender, value)` and `ApprovalForAll(owner, operator,
//! approved)` of NFT contracts, the newest per contract and spender. Logs only
//! say what was allowed once; whether it still holds is read with a call.

use std::collections::{BTreeMap, HashMap};

use alloy::primitives::{Address, B256, U256};
use alloy::rpc::types::{Filter, Log};
use alloy::sol_types::SolEvent;

use crate::abi::{IERC20, IOperators};
use crate::{Chain, Result, rpc_error};

/// The most approval logs one read keeps (a spam contract can emit any number).
pub const MAX_APPROVAL_LOGS: usize = 1_000;
/// The most spenders kept per contract and kind: anyone can deploy a contract
/// that logs "approvals" naming any owner, and one such contract must not
/// crowd out the approvals the owner really gave.
pub const SPENDERS_PER_CONTRACT: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ApprovalKind {
    /// An ERC-20 allowance.
    Allowance,
    /// An operator for all of an owner's NFTs of a contract.
    Operator,
}

/// The newest approval log of one contract, spender and kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalLog {
    pub contract: Address,
    pub spender: Address,
    pub kind: ApprovalKind,
    /// The allowance, or 1/0 for an operator granted/withdrawn.
    pub value: U256,
    pub block_number: u64,
    pub tx_hash: B256,
}

impl Chain {
    /// The approvals `owner` gave in blocks `from..=to` (the caller keeps the
    /// range within what the node allows), the newest per contract, spender
    /// and kind, at most [`MAX_APPROVAL_LOGS`].
    pub async fn approvals_by(
        &self,
        owner: Address,
        from: u64,
        to: u64,
    ) -> Result<Vec<ApprovalLog>> {
        if from > to {
            return Ok(Vec::new());
        }
        let filter = Filter::new()
            .from_block(from)
            .to_block(to)
            .event_signature(vec![
                IERC20::Approval::SIGNATURE_HASH,
                IOperators::ApprovalForAll::SIGNATURE_HASH,
            ])
            .topic1(owner.into_word());
        let logs: Vec<Log> = self
            .client()
            .request("eth_getLogs", (filter,))
            .await
            .map_err(rpc_error)?;
        let mut newest: BTreeMap<(Address, Address, ApprovalKind), ApprovalLog> = BTreeMap::new();
        let mut spenders: HashMap<(Address, ApprovalKind), usize> = HashMap::new();
        for log in logs {
            let (Some(block_number), Some(tx_hash)) = (log.block_number, log.transaction_hash)
            else {
                continue;
            };
            let Some((_, spender, kind, value)) = approval_in(&log.inner) else {
                continue;
            };
            let key = (log.address(), spender, kind);
            if !newest.contains_key(&key) {
                let of_contract = spenders.entry((log.address(), kind)).or_default();
                if newest.len() >= MAX_APPROVAL_LOGS || *of_contract >= SPENDERS_PER_CONTRACT {
                    continue;
                }
                *of_contract += 1;
            }
            // Logs come in block order: a later one replaces an earlier one.
            newest.insert(
                key,
                ApprovalLog {
                    contract: log.address(),
                    spender,
                    kind,
                    value,
                    block_number,
                    tx_hash,
                },
            );
        }
        Ok(newest.into_values().collect())
    }
}

/// The approval a log records, as (owner, spender, kind, value): an ERC-20
/// `Approval` or an `ApprovalForAll` (value 1 granted, 0 withdrawn).
pub fn approval_in(log: &alloy::primitives::Log) -> Option<(Address, Address, ApprovalKind, U256)> {
    if let Ok(approval) = IERC20::Approval::decode_log(log) {
        // ERC-721's per-token Approval shares the signature with its id
        // indexed (four topics): not an allowance.
        return (log.topics().len() == 3).then_some((
            approval.owner,
            approval.spender,
            ApprovalKind::Allowance,
            approval.value,
        ));
    }
    let operator = IOperators::ApprovalForAll::decode_log(log).ok()?;
    Some((
        operator.owner,
        operator.operator,
        ApprovalKind::Operator,
        U256::from(u8::from(operator.approved)),
    ))
}
