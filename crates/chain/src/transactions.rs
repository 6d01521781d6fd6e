//! What sending needs from a node: the next nonce, EIP-1559 fees, a gas estimate
//! that also simulates the transfer (a revert comes back with its reason), the
//! broadcast of signed bytes, receipts, and incoming ERC-20 transfers in logs.

use alloy::eips::BlockNumberOrTag;
use alloy::primitives::{Address, B256, Bytes, U64, U256};
use alloy::rpc::types::{Block, FeeHistory, Filter, Log, TransactionReceipt, TransactionRequest};
use alloy::sol_types::SolEvent;

use crate::abi::IERC20;
use crate::{Chain, ChainError, Result, rpc_error};

/// The most transfer logs taken from one query (a flood of spam transfers to an
/// address cannot make the service hold more).
pub const LOGS_KEPT: usize = 500;

/// The fee market now, in wei: the latest base fee, and the tips recent blocks
/// paid, low, middle and high ([`Tips`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeeMarket {
    pub base_fee: u128,
    pub tips: Tips,
}

/// The priority fees recent blocks' transactions paid: over the last
/// [`TIP_HISTORY_BLOCKS`] blocks, the median of each block's 10th, 50th and 90th
/// percentile. Tips are read from what was paid rather than multiplied from the
/// node's suggestion: a node that suggests what recent blocks paid (anvil,
/// geth's oracle on a quiet chain) would otherwise see each quote's raised tip
/// come back raised again, and tips grow without end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tips {
    pub low: u128,
    pub middle: u128,
    pub high: u128,
}

/// How many recent blocks' tips [`Tips`] are read from.
pub const TIP_HISTORY_BLOCKS: u64 = 5;
const TIP_PERCENTILES: [f64; 3] = [10.0, 50.0, 90.0];

impl Tips {
    /// From `eth_feeHistory`'s rewards (one row per block, one entry per
    /// percentile); empty blocks are left out, and with none left the node's
    /// suggestion is all three. Never below 1 wei; rows beyond the asked count
    /// or short of entries (a hostile node) are ignored.
    pub fn from_history(rewards: &[Vec<u128>], suggested: u128) -> Tips {
        let paid: Vec<&Vec<u128>> = rewards
            .iter()
            .take(TIP_HISTORY_BLOCKS as usize)
            .filter(|row| row.len() == TIP_PERCENTILES.len() && row.iter().any(|&t| t > 0))
            .collect();
        let median = |i: usize| {
            let mut column: Vec<u128> = paid.iter().map(|row| row[i]).collect();
            column.sort_unstable();
            column
                .get(column.len() / 2)
                .copied()
                .unwrap_or(suggested)
                .max(1)
        };
        Tips {
            low: median(0),
            middle: median(1),
            high: median(2),
        }
    }
}

/// Why a transaction would not go through.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The simulation reverted; the contract's reason when it gave one.
    #[error("{0}")]
    Reverted(String),
    /// The node refused a signed transaction (nonce, fee, balance); its message.
    #[error("{0}")]
    Refused(String),
}

/// Either the node could not answer or it says the transaction cannot go.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    #[error(transparent)]
    Refused(#[from] Refusal),
    #[error(transparent)]
    Chain(#[from] ChainError),
}

/// A mined transaction's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mined {
    pub success: bool,
    pub block_number: u64,
    /// Gas used × effective gas price, in wei.
    pub fee: u128,
}

/// An ERC-20 `Transfer` to a watched address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IncomingTransfer {
    pub token: Address,
    pub from: Address,
    pub value: U256,
    pub tx_hash: B256,
    pub log_index: u64,
    pub block_number: u64,
}

impl Chain {
    /// The nonce the account's next transaction needs, counting the node's
    /// pending ones.
    pub async fn next_nonce(&self, address: Address) -> Result<u64> {
        let n: U64 = self
            .client()
            .request(
                "eth_getTransactionCount",
                (address, BlockNumberOrTag::Pending),
            )
            .await
            .map_err(rpc_error)?;
        Ok(n.to())
    }

    /// How many of the account's transactions are in blocks.
    pub async fn mined_nonce(&self, address: Address) -> Result<u64> {
        let n: U64 = self
            .client()
            .request(
                "eth_getTransactionCount",
                (address, BlockNumberOrTag::Latest),
            )
            .await
            .map_err(rpc_error)?;
        Ok(n.to())
    }

    /// Whether `address` has code (a contract).
    pub async fn has_code(&self, address: Address) -> Result<bool> {
        let code: Bytes = self
            .client()
            .request("eth_getCode", (address, BlockNumberOrTag::Latest))
            .await
            .map_err(rpc_error)?;
        Ok(!code.is_empty())
    }

    /// The latest base fee and the tips recent blocks paid.
    pub async fn fee_market(&self) -> Result<FeeMarket> {
        let mut batch = self.client().new_batch();
        let block = batch
            .add_call::<_, Option<Block>>(
                "eth_getBlockByNumber",
                &(BlockNumberOrTag::Latest, false),
            )
            .map_err(|e| ChainError::Node(e.to_string()))?;
        let tip = batch
            .add_call::<_, U256>("eth_maxPriorityFeePerGas", &())
            .map_err(|e| ChainError::Node(e.to_string()))?;
        let history = batch
            .add_call::<_, FeeHistory>(
                "eth_feeHistory",
                &(
                    U64::from(TIP_HISTORY_BLOCKS),
                    BlockNumberOrTag::Latest,
                    TIP_PERCENTILES,
                ),
            )
            .map_err(|e| ChainError::Node(e.to_string()))?;
        batch.send().await.map_err(rpc_error)?;
        let block = block
            .await
            .map_err(rpc_error)?
            .ok_or_else(|| ChainError::Node("the node has no latest block".into()))?;
        let base_fee = block
            .header
            .base_fee_per_gas
            .ok_or_else(|| ChainError::Node("the network has no EIP-1559 base fee".into()))?;
        // A node without the method gets the common 1 gwei tip; one without
        // fee history, that for every speed.
        let suggested = tip
            .await
            .map_or(1_000_000_000, |t| t.saturating_to::<u128>());
        let rewards = history
            .await
            .ok()
            .and_then(|h| h.reward)
            .unwrap_or_default();
        Ok(FeeMarket {
            base_fee: u128::from(base_fee),
            tips: Tips::from_history(&rewards, suggested),
        })
    }

    /// Simulates the call (a deployment of `input` when `to` is `None`) and
    /// estimates its gas: a revert is [`Refusal::Reverted`] with the
    /// contract's reason.
    pub async fn estimate_gas(
        &self,
        from: Address,
        to: Option<Address>,
        value: U256,
        input: Bytes,
    ) -> std::result::Result<u64, SendError> {
        let call = TransactionRequest::default()
            .from(from)
            .value(value)
            .input(input.into());
        let call = match to {
            Some(to) => call.to(to),
            None => call.create(),
        };
        let answer: std::result::Result<U64, _> = self
            .client()
            .request("eth_estimateGas", (call, BlockNumberOrTag::Pending))
            .await;
        match answer {
            Ok(gas) => Ok(gas.to()),
            Err(alloy::transports::RpcError::ErrorResp(payload)) => {
                // The `Error(string)` in the data when there is one, else the message.
                let reason = payload
                    .as_revert_data()
                    .and_then(|data| alloy::sol_types::decode_revert_reason(data.as_ref()));
                Err(
                    Refusal::Reverted(bounded(reason.as_deref().unwrap_or(&payload.message)))
                        .into(),
                )
            }
            Err(e) => Err(rpc_error(e).into()),
        }
    }

    /// Hands signed EIP-2718 bytes to the node; its refusal is
    /// [`Refusal::Refused`] with the node's message.
    pub async fn send_raw(&self, raw: &[u8]) -> std::result::Result<B256, SendError> {
        let answer: std::result::Result<B256, _> = self
            .client()
            .request("eth_sendRawTransaction", (Bytes::copy_from_slice(raw),))
            .await;
        match answer {
            Ok(hash) => Ok(hash),
            Err(alloy::transports::RpcError::ErrorResp(payload)) => {
                Err(Refusal::Refused(bounded(&payload.message)).into())
            }
            Err(e) => Err(rpc_error(e).into()),
        }
    }

    /// Whether the node has the transaction at all (pending or mined).
    pub async fn is_known(&self, hash: B256) -> Result<bool> {
        let found: Option<serde_json::Value> = self
            .client()
            .request("eth_getTransactionByHash", (hash,))
            .await
            .map_err(rpc_error)?;
        Ok(found.is_some_and(|t| !t.is_null()))
    }

    /// The outcome of a transaction, or `None` while it is not in a block.
    pub async fn mined(&self, hash: B256) -> Result<Option<Mined>> {
        let receipt: Option<TransactionReceipt> = self
            .client()
            .request("eth_getTransactionReceipt", (hash,))
            .await
            .map_err(rpc_error)?;
        Ok(receipt.map(|r| Mined {
            success: r.status(),
            block_number: r.block_number.unwrap_or_default(),
            fee: u128::from(r.gas_used).saturating_mul(r.effective_gas_price),
        }))
    }

    /// ERC-20 transfers to `to` from the contracts `tokens` in blocks
    /// `from_block..=to_block` (the caller keeps the range within what the node
    /// allows). At most [`LOGS_KEPT`] transfers are taken, and never part of a
    /// block: when there were more, the answer holds whole blocks only and says
    /// from which block to read on.
    pub async fn incoming_transfers(
        &self,
        tokens: &[Address],
        to: Address,
        from_block: u64,
        to_block: u64,
    ) -> Result<IncomingTransfers> {
        if tokens.is_empty() || from_block > to_block {
            return Ok(IncomingTransfers::default());
        }
        let filter = Filter::new()
            .address(tokens.to_vec())
            .event_signature(IERC20::Transfer::SIGNATURE_HASH)
            .topic2(to.into_word())
            .from_block(from_block)
            .to_block(to_block);
        let logs: Vec<Log> = self
            .client()
            .request("eth_getLogs", (filter,))
            .await
            .map_err(rpc_error)?;
        let mut transfers: Vec<IncomingTransfer> = logs
            .into_iter()
            .filter_map(|log| {
                let decoded = IERC20::Transfer::decode_log(&log.inner).ok()?;
                Some(IncomingTransfer {
                    token: log.address(),
                    from: decoded.from,
                    value: decoded.value,
                    tx_hash: log.transaction_hash?,
                    log_index: log.log_index?,
                    block_number: log.block_number?,
                })
            })
            .collect();
        let resume_from = keep_whole_blocks(&mut transfers, LOGS_KEPT);
        Ok(IncomingTransfers {
            transfers,
            resume_from,
        })
    }
}

/// Incoming transfers of a range of blocks, and where the range was cut short.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IncomingTransfers {
    pub transfers: Vec<IncomingTransfer>,
    /// When there were more than could be taken: the first block not read (or
    /// not read whole), where the next read starts.
    pub resume_from: Option<u64>,
}

/// Cuts `transfers` (in block order) to at most `most`, dropping whole blocks
/// only; returns the first block dropped, if any was. A single block with more
/// than `most` keeps `most` of them (there is no smaller step to resume from).
fn keep_whole_blocks(transfers: &mut Vec<IncomingTransfer>, most: usize) -> Option<u64> {
    transfers.sort_by_key(|t| (t.block_number, t.log_index));
    if transfers.len() <= most {
        return None;
    }
    let cut_block = transfers[most].block_number;
    let first_of_block = transfers.partition_point(|t| t.block_number < cut_block);
    if first_of_block == 0 {
        transfers.truncate(most);
        return Some(cut_block + 1);
    }
    transfers.truncate(first_of_block);
    Some(cut_block)
}

/// A node's text as the service passes it on: one line, at most 200 characters.
fn bounded(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).take(200).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(block: u64, log_index: u64) -> IncomingTransfer {
        IncomingTransfer {
            token: Address::ZERO,
            from: Address::ZERO,
            value: U256::from(1),
            tx_hash: B256::ZERO,
            log_index,
            block_number: block,
        }
    }

    #[test]
    fn tips_are_what_recent_blocks_paid_not_a_multiple_that_compounds() {
        const GWEI: u128 = 1_000_000_000;
        // A quiet chain: each block holds one transaction, all percentiles alike.
        let quiet = vec![vec![2 * GWEI; 3]; 5];
        let tips = Tips::from_history(&quiet, 9 * GWEI);
        assert_eq!(
            (tips.low, tips.middle, tips.high),
            (2 * GWEI, 2 * GWEI, 2 * GWEI)
        );
        // A transaction paying the high tip leaves the next quote where it was.
        let mut after = quiet[1..].to_vec();
        after.push(vec![tips.high; 3]);
        assert_eq!(Tips::from_history(&after, 9 * GWEI), tips);

        // A busy chain: the median block's percentiles; empty blocks left out.
        let busy = vec![vec![1, 2, 3], vec![0, 0, 0], vec![2, 4, 8], vec![3, 5, 90]];
        let tips = Tips::from_history(&busy, GWEI);
        assert_eq!((tips.low, tips.middle, tips.high), (2, 4, 8));

        // No history, or only malformed rows: the node's suggestion, at least 1 wei.
        assert_eq!(Tips::from_history(&[], GWEI).middle, GWEI);
        assert_eq!(Tips::from_history(&[vec![5]], 0).high, 1);
        // Rows past the asked count are not read (a hostile node's flood).
        let mut flood = vec![vec![GWEI; 3]; 5];
        flood.extend(vec![vec![1000 * GWEI; 3]; 1000]);
        assert_eq!(Tips::from_history(&flood, 0).high, GWEI);
    }

    #[test]
    fn a_cut_keeps_whole_blocks_and_says_where_to_resume() {
        let mut all = vec![at(12, 0), at(10, 1), at(10, 0), at(11, 0), at(11, 1)];
        assert_eq!(keep_whole_blocks(&mut all.clone(), 5), None);
        // Three fit, but block 11 has two: only block 10 is kept, 11 is read again.
        assert_eq!(keep_whole_blocks(&mut all, 3), Some(11));
        assert_eq!(all, vec![at(10, 0), at(10, 1)]);
        // One block larger than the cut: as many as fit, then the next block.
        let mut crowded = vec![at(7, 0), at(7, 1), at(7, 2), at(8, 0)];
        assert_eq!(keep_whole_blocks(&mut crowded, 2), Some(8));
        assert_eq!(crowded.len(), 2);
    }
}
