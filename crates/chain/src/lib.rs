//! EVM access for Satchel: one [`Chain`] per network's JSON-RPC node.
//!
//! Reads are batched: a wallet's native balance and every tracked token balance go to
//! the node as one JSON-RPC batch, and so do NFT ownership checks and metadata URIs.

mod abi;
mod approvals;
mod balances;
pub mod ens;
pub mod metadata;
pub mod networks;
mod nfts;
mod prices;
mod relay;
pub mod safe_http;
pub mod simulate;
mod tokens;
mod transactions;
mod transport;
pub mod units;

use std::time::Duration;

use alloy::rpc::client::{ClientBuilder, RpcClient};

pub use alloy::primitives::{Address, B256, Bytes, U256};
pub use approvals::{ApprovalKind, ApprovalLog, MAX_APPROVAL_LOGS, SPENDERS_PER_CONTRACT};
pub use balances::Balances;
pub use metadata::{MetadataFetcher, NftMetadata};
pub use nfts::{Collection, NftArrival, NftKind, NftRef};
pub use prices::{FeedAnswer, MAX_FEEDS};
pub use relay::{NodeError, RelayError};
pub use tokens::{TokenFacts, shown_text};
pub use transactions::{
    FeeMarket, IncomingTransfer, IncomingTransfers, LOGS_KEPT, Mined, Refusal, SendError, Tips,
};
pub use transport::MAX_NODE_ANSWER;

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
        let transport = transport::BoundedHttp::new(http, url, transport::MAX_NODE_ANSWER);
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

/// Sorts an RPC failure into "could not reach" and "answered wrongly". URLs are
/// taken out of the text: a node's URL often carries an API key, and these
/// errors end up in logs.
pub(crate) fn rpc_error(e: alloy::transports::TransportError) -> ChainError {
    use alloy::transports::RpcError;
    match e {
        RpcError::Transport(kind) => ChainError::Unreachable(without_urls(&kind.to_string())),
        other => ChainError::Node(without_urls(&other.to_string())),
    }
}

/// `text` with every `http(s)://…` or `ws(s)://…` in it replaced by `<url>`.
pub fn without_urls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = ["http://", "https://", "ws://", "wss://"]
        .iter()
        .filter_map(|scheme| rest.find(scheme))
        .min()
    {
        out.push_str(&rest[..at]);
        out.push_str("<url>");
        let tail = &rest[at..];
        let end = tail
            .find(|c: char| c.is_whitespace() || matches!(c, ')' | '"' | '\'' | '>' | ','))
            .unwrap_or(tail.len());
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_urls_and_their_keys_never_reach_an_error_text() {
        let text = "error sending request for url (https://eth.example.com/v2/SECRETKEY?apikey=SECRET2): connection refused";
        let clean = without_urls(text);
        assert!(!clean.contains("SECRET"), "{clean}");
        assert_eq!(
            clean,
            "error sending request for url (<url>): connection refused"
        );
        assert_eq!(without_urls("no url here"), "no url here");
        assert_eq!(
            without_urls("a http://x.y/z b wss://k c"),
            "a <url> b <url> c"
        );
    }

    #[tokio::test]
    async fn a_node_that_is_down_is_reported_without_its_url() {
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
            l.local_addr().expect("addr").port()
        };
        let url = format!("http://127.0.0.1:{port}/v3/SECRETKEY?key=SECRET2");
        let chain = Chain::http(url.parse().expect("url"), Duration::from_secs(2)).expect("chain");
        let e = chain.block_number().await.expect_err("nothing listens");
        assert!(!e.to_string().contains("SECRET"), "{e}");
    }
}
