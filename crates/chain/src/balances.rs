//! Native and ERC-20 balances of one address, read in a single round trip.

use alloy::eips::BlockNumberOrTag;
use alloy::primitives::{Address, Bytes, U256};
use alloy::rpc::types::TransactionRequest;
use alloy::sol;
use alloy::sol_types::{SolCall, SolConstructor, SolValue};

use crate::abi::IERC20;
use crate::{Chain, ChainError, Result, rpc_error};

/// Balances in each coin's smallest unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Balances {
    pub native: U256,
    /// One entry per token asked for, in the same order; `None` where the token's
    /// contract did not answer `balanceOf` (not a contract, or it reverted).
    pub tokens: Vec<Option<U256>>,
}

sol!(
    #[sol(rpc)]
    BalanceReader,
    "contracts/artifacts/BalanceReader.json"
);

impl Chain {
    /// Reads `owner`'s native balance and its balance of every token in `tokens`
    /// with one `eth_call`, however many tokens there are: the call runs
    /// `BalanceReader`'s constructor without deploying it. A node that refuses
    /// such a call is asked with one JSON-RPC batch instead.
    pub async fn balances(&self, owner: Address, tokens: &[Address]) -> Result<Balances> {
        match self.balances_in_one_call(owner, tokens).await {
            Ok(balances) => Ok(balances),
            Err(ChainError::Node(reason)) => {
                tracing::debug!(%reason, "deployless balance read refused; using a batch");
                self.balances_in_one_batch(owner, tokens).await
            }
            Err(e) => Err(e),
        }
    }

    async fn balances_in_one_call(&self, owner: Address, tokens: &[Address]) -> Result<Balances> {
        let args = BalanceReader::constructorCall {
            owner,
            tokens: tokens.to_vec(),
        }
        .abi_encode();
        let mut code = BalanceReader::BYTECODE.to_vec();
        code.extend_from_slice(&args);
        let call = TransactionRequest::default().input(Bytes::from(code).into());
        let out: Bytes = self
            .client()
            .request("eth_call", (call, BlockNumberOrTag::Latest))
            .await
            .map_err(rpc_error)?;
        let words = Vec::<U256>::abi_decode(&out)
            .map_err(|e| ChainError::Node(format!("balance reader answer: {e}")))?;
        if words.len() != 1 + 2 * tokens.len() {
            return Err(ChainError::Node(
                "balance reader answer has the wrong length".into(),
            ));
        }
        Ok(Balances {
            native: words[0],
            tokens: words[1..]
                .chunks_exact(2)
                .map(|pair| (pair[0] == U256::from(1)).then_some(pair[1]))
                .collect(),
        })
    }

    /// The same read as a JSON-RPC batch: one round trip, one call per token.
    pub async fn balances_in_one_batch(
        &self,
        owner: Address,
        tokens: &[Address],
    ) -> Result<Balances> {
        let latest = BlockNumberOrTag::Latest;
        let mut batch = self.client().new_batch();
        let native = batch
            .add_call::<_, U256>("eth_getBalance", &(owner, latest))
            .map_err(|e| ChainError::Node(e.to_string()))?;
        let calldata: Bytes = IERC20::balanceOfCall { owner }.abi_encode().into();
        let token_calls = tokens
            .iter()
            .map(|token| {
                let call = TransactionRequest::default()
                    .to(*token)
                    .input(calldata.clone().into());
                batch.add_call::<_, Bytes>("eth_call", &(call, latest))
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| ChainError::Node(e.to_string()))?;
        batch.send().await.map_err(rpc_error)?;

        let native = native.await.map_err(rpc_error)?;
        let mut balances = Vec::with_capacity(token_calls.len());
        for call in token_calls {
            balances.push(decode_or_none(call.await, |b| {
                IERC20::balanceOfCall::abi_decode_returns(b).ok()
            })?);
        }
        Ok(Balances {
            native,
            tokens: balances,
        })
    }
}

/// One call of a batch: a node-side error (a revert) is `None`; a transport failure
/// fails the whole read.
pub(crate) fn decode_or_none<T>(
    answer: alloy::transports::TransportResult<Bytes>,
    decode: impl FnOnce(&[u8]) -> Option<T>,
) -> Result<Option<T>> {
    match answer {
        Ok(bytes) => Ok(decode(&bytes)),
        Err(alloy::transports::RpcError::ErrorResp(_)) => Ok(None),
        Err(e) => Err(rpc_error(e)),
    }
}
