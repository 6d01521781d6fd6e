//! One JSON-RPC call passed to the node as it came, for the service's read
//! relay: what the node answers, or the error object it answered with (never a
//! transport's text, which may name the node's URL).

use serde_json::Value;

use crate::{Chain, without_urls};

/// The node's JSON-RPC error object, as a client should see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

/// Why a relayed call has no result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RelayError {
    /// The node answered with an error object (a revert, a bad parameter...).
    Node(NodeError),
    /// The node could not be reached, or answered with something that is not
    /// JSON-RPC.
    Unreachable,
}

impl Chain {
    /// Calls `method` with `params` (a JSON array) and returns the node's result.
    pub async fn relay(&self, method: &str, params: Value) -> Result<Value, RelayError> {
        use alloy::transports::RpcError;
        self.client()
            .request::<_, Value>(method.to_owned(), params)
            .await
            .map_err(|e| match e {
                RpcError::ErrorResp(payload) => RelayError::Node(NodeError {
                    code: payload.code,
                    message: without_urls(&payload.message),
                    data: payload
                        .data
                        .and_then(|raw| serde_json::from_str(raw.get()).ok()),
                }),
                _ => RelayError::Unreachable,
            })
    }
}
