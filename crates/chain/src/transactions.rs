//! What sending needs from a node: the next nonce, EIP-1559 fees, a gas estimate
//! that also simulates the transfer (a revert comes back with its reason), the
//! broadcast of signed bytes, receipts, and incoming ERC-20 transfers in logs.

use alloy::eips::BlockNumberOrTag;
use alloy::primitives::{Address, B256, Bytes, U64, U256};
use alloy::rpc::types::{Block, Filter, Log, TransactionReceipt, TransactionRequest};
use alloy::sol_types::SolEvent;

use crate::abi::IERC20;
use crate::{Chain, ChainError, Result, rpc_error};

/// The most transfer logs taken from one query (a flood of spam transfers to an
/// address cannot make the service hold more).
pub const LOGS_KEPT: usize = 500;

/// The fee market now: the latest base fee and the node's suggested tip, in wei.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeeMarket {
    pub base_fee: u128,
    pub tip: u128,
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

    /// The latest base fee and the node's suggested priority fee.
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
        batch.send().await.map_err(rpc_error)?;
        let block = block
            .await
            .map_err(rpc_error)?
            .ok_or_else(|| ChainError::Node("the node has no latest block".into()))?;
        let base_fee = block
            .header
            .base_fee_per_gas
            .ok_or_else(|| ChainError::Node("the network has no EIP-1559 base fee".into()))?;
        // A node without the method gets the common 1 gwei tip.
        let tip = tip
            .await
            .map_or(1_000_000_000, |t| t.saturating_to::<u128>());
        Ok(FeeMarket {
            base_fee: u128::from(base_fee),
            tip,
        })
    }

    /// Simulates the call and estimates its gas: a revert is
    /// [`Refusal::Reverted`] with the contract's reason.
    pub async fn estimate_gas(
        &self,
        from: Address,
        to: Address,
        value: U256,
        input: Bytes,
    ) -> std::result::Result<u64, SendError> {
        let call = TransactionRequest::default()
            .from(from)
            .to(to)
            .value(value)
            .input(input.into());
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
    /// `from_block..=to_block` (at most [`LOGS_KEPT`] transfers taken; the caller
    /// keeps the range within what the node allows).
    pub async fn incoming_transfers(
        &self,
        tokens: &[Address],
        to: Address,
        from_block: u64,
        to_block: u64,
    ) -> Result<Vec<IncomingTransfer>> {
        if tokens.is_empty() || from_block > to_block {
            return Ok(Vec::new());
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
        Ok(logs
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
            .take(LOGS_KEPT)
            .collect())
    }
}

/// A node's text as the service passes it on: one line, at most 200 characters.
fn bounded(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).take(200).collect()
}
