//! EVM access for Satchel: one [`Chain`] per network's JSON-RPC node.
//!
//! Reads are batched: a wallet's native balance and every tracked token balance go to
//! the node as one JSON-RPC batch, and so do NFT ownership checks and metadata URIs.

mod abi;
mod balances;
pub mod metadata;
mod nfts;
pub mod safe_http;
mod transactions;

use std::time::Duration;

use alloy::rpc::client::{ClientBuilder, RpcClient};
use alloy::transports::http::Http;

pub use alloy::primitives::{Address, B256, Bytes, U256};
pub use balances::Balances;
pub use metadata::{MetadataFetcher, NftMetadata};
pub use nfts::{Collection, NftKind, NftRef};
pub use transactions::{FeeMarket, IncomingTransfer, LOGS_KEPT, Mined, Refusal, SendError};

/// What went wrong talking to a node.
#[derive(Debug, thiserror::Error)]
pub enum ChainError {
    /// The node could not be reached or did not answer in time.
    #[error("node unreachable: {0}")]
    Unreachable(String),
    /// The node answered with an error or with something that does not decode.
    #[error("node error: {0}")]
    Node(String),
}

pub type Result<T, E = ChainError> = std::result::Result<T, E>;

/// A connection to one network's node.
#[derive(Clone, Debug)]
pub struct Chain {
    client: RpcClient,
}

impl Chain {
    /// Connects to an HTTP JSON-RPC endpoint; every request gives up after `timeout`.
    pub fn http(url: url::Url, timeout: Duration) -> Result<Self> {
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(5)))
            .build()
            .map_err(|e| ChainError::Unreachable(e.to_string()))?;
        let is_local = url
            .host_str()
            .is_some_and(|h| h == "127.0.0.1" || h == "localhost" || h == "[::1]");
        let transport = Http::with_client(http, url);
        let client = ClientBuilder::default().transport(transport, is_local);
        Ok(Self { client })
    }

    /// The number of the newest block.
    pub async fn block_number(&self) -> Result<u64> {
        let n: alloy::primitives::U64 = self
            .client
            .request_noparams("eth_blockNumber")
            .await
            .map_err(rpc_error)?;
        Ok(n.to::<u64>())
    }

    /// The chain id the node reports.
    pub async fn chain_id(&self) -> Result<u64> {
        let n: alloy::primitives::U64 = self
            .client
            .request_noparams("eth_chainId")
            .await
            .map_err(rpc_error)?;
        Ok(n.to::<u64>())
    }

    pub(crate) fn client(&self) -> &RpcClient {
        &self.client
    }
}

/// Sorts an RPC failure into "could not reach" and "answered wrongly".
pub(crate) fn rpc_error(e: alloy::transports::TransportError) -> ChainError {
    use alloy::transports::RpcError;
    match e {
        RpcError::Transport(kind) => ChainError::Unreachable(kind.to_string()),
        other => ChainError::Node(other.to_string()),
    }
}
