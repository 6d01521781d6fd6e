//! What an owner allowed others to do with its assets, found in logs: ERC-20
//! `Approval(owner, spender, value)` and `ApprovalForAll(owner, operator,
//! approved)` of NFT contracts, the newest per contract and spender. Logs only
//! say what was allowed once; whether it still holds is read with a call.

use std::collections::{BTreeMap, HashMap};

use alloy::eips::BlockNumberOrTag;
use alloy::primitives::{Address, B256, Bytes, U256};
use alloy::rpc::types::{Filter, Log, TransactionRequest};
use alloy::sol_types::{SolCall, SolEvent};

use crate::abi::{IERC20, IOperators};
use crate::balances::decode_or_none;
use crate::{Chain, ChainError, Result, rpc_error};

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

/// How many approvals one batch reads.
const CHECKS_PER_BATCH: usize = 100;

impl Chain {
    /// What each approval of `owner` is worth now: the allowance, or 1/0 for an
    /// operator; a call that fails or answers nonsense (not a real token) is 0.
    /// Read in batches of [`CHECKS_PER_BATCH`].
    pub async fn approvals_now(
        &self,
        owner: Address,
        approvals: &[(Address, Address, ApprovalKind)],
    ) -> Result<Vec<U256>> {
        let latest = BlockNumberOrTag::Latest;
        let mut values = Vec::with_capacity(approvals.len());
        for chunk in approvals.chunks(CHECKS_PER_BATCH) {
            let mut batch = self.client().new_batch();
            let calls = chunk
                .iter()
                .map(|&(contract, spender, kind)| {
                    let input: Bytes = match kind {
                        ApprovalKind::Allowance => {
                            IERC20::allowanceCall { owner, spender }.abi_encode()
                        }
                        ApprovalKind::Operator => IOperators::isApprovedForAllCall {
                            owner,
                            operator: spender,
                        }
                        .abi_encode(),
                    }
                    .into();
                    let call = TransactionRequest::default()
                        .to(contract)
                        .input(input.into());
                    batch.add_call::<_, Bytes>("eth_call", &(call, latest))
                })
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(|e| ChainError::Node(e.to_string()))?;
            batch.send().await.map_err(rpc_error)?;
            for (call, &(_, _, kind)) in calls.into_iter().zip(chunk) {
                let value = decode_or_none(call.await, |bytes| match kind {
                    ApprovalKind::Allowance => {
                        IERC20::allowanceCall::abi_decode_returns(bytes).ok()
                    }
                    ApprovalKind::Operator => {
                        IOperators::isApprovedForAllCall::abi_decode_returns(bytes)
                            .ok()
                            .map(|approved| U256::from(u8::from(approved)))
                    }
                })?;
                values.push(value.unwrap_or_default());
            }
        }
        Ok(values)
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
