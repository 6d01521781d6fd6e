//! The read relay: JSON-RPC reads of a network's node on behalf of a logged-in
//! user (the desktop's provider for applications never holds node URLs or their
//! API keys). Only reads on an allow-list go through, a batch is small, a log
//! query spans at most the network's `log_window` blocks, and an answer is
//! capped; whatever a caller sends is checked before the node sees it.

use futures::StreamExt as _;
use satchel_chain::RelayError;
use serde_json::{Value, json};

use crate::state::Network;

/// The methods relayed: reads only. Anything that signs, sends, subscribes,
/// filters with state on the node, or reads the node's own accounts is not.
pub const ALLOWED: [&str; 18] = [
    "eth_blockNumber",
    "eth_call",
    "eth_chainId",
    "eth_estimateGas",
    "eth_feeHistory",
    "eth_gasPrice",
    "eth_getBalance",
    "eth_getBlockByHash",
    "eth_getBlockByNumber",
    "eth_getCode",
    "eth_getLogs",
    "eth_getStorageAt",
    "eth_getTransactionByHash",
    "eth_getTransactionCount",
    "eth_getTransactionReceipt",
    "eth_maxPriorityFeePerGas",
    "eth_simulateV1",
    "net_version",
];

/// Calls in one batch.
pub const MAX_BATCH: usize = 20;
/// Calls of one batch sent to the node at once.
const AT_ONCE: usize = 4;
/// The largest answer to one call passed on, in bytes of JSON.
pub const MAX_ANSWER_BYTES: usize = 1024 * 1024;

/// JSON-RPC 2.0 error codes used here.
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;
const UNAVAILABLE: i64 = -32603;
/// EIP-1474: the limit a request exceeded.
const LIMIT_EXCEEDED: i64 = -32005;

/// How many calls `body` holds (a batch counts each), for the per-user limit;
/// `None` when it is neither a call nor a batch of at most [`MAX_BATCH`].
pub fn calls_in(body: &Value) -> Option<usize> {
    match body {
        Value::Array(calls) if !calls.is_empty() && calls.len() <= MAX_BATCH => Some(calls.len()),
        Value::Object(_) => Some(1),
        _ => None,
    }
}

/// Answers `body`, one call or a batch, as JSON-RPC 2.0 does: one answer per
/// call, errors as error objects.
pub async fn relay(network: &Network, body: Value) -> Value {
    match body {
        Value::Array(calls) => {
            let answers: Vec<Value> = futures::stream::iter(calls)
                .map(|call| one(network, call))
                .buffered(AT_ONCE)
                .collect()
                .await;
            Value::Array(answers)
        }
        call => one(network, call).await,
    }
}

async fn one(network: &Network, call: Value) -> Value {
    let id = call.get("id").cloned().unwrap_or(Value::Null);
    let answer = match checked(network, &call) {
        Ok((method, params)) => match network.chain.relay(method, params).await {
            Ok(result) if serde_json::to_vec(&result).map_or(0, |b| b.len()) > MAX_ANSWER_BYTES => {
                Err(error(
                    LIMIT_EXCEEDED,
                    "the answer is too large; ask for less",
                ))
            }
            Ok(result) => Ok(result),
            Err(RelayError::Node(e)) => Err(match e.data {
                Some(data) => json!({"code": e.code, "message": e.message, "data": data}),
                None => json!({"code": e.code, "message": e.message}),
            }),
            Err(RelayError::Unreachable) => Err(error(
                UNAVAILABLE,
                &format!(
                    "the {} node did not answer; try again later",
                    network.config.name
                ),
            )),
        },
        Err(e) => Err(e),
    };
    match answer {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err(error) => json!({"jsonrpc": "2.0", "id": id, "error": error}),
    }
}

fn error(code: i64, message: &str) -> Value {
    json!({"code": code, "message": message})
}

/// The call's method and params when it is a well-formed call of an allowed
/// method within its bounds.
fn checked<'a>(network: &Network, call: &'a Value) -> Result<(&'a str, Value), Value> {
    let id_ok = matches!(
        call.get("id"),
        None | Some(Value::Null | Value::Number(_) | Value::String(_))
    );
    let method = call.get("method").and_then(Value::as_str);
    let (Some(method), true, Some("2.0")) =
        (method, id_ok, call.get("jsonrpc").and_then(Value::as_str))
    else {
        return Err(error(INVALID_REQUEST, "not a JSON-RPC 2.0 call"));
    };
    if !ALLOWED.contains(&method) {
        return Err(error(
            METHOD_NOT_FOUND,
            &format!("{method} is not relayed: only reads of the chain are"),
        ));
    }
    let params = match call.get("params") {
        None | Some(Value::Null) => Value::Array(Vec::new()),
        Some(params @ Value::Array(_)) => params.clone(),
        Some(_) => return Err(error(INVALID_PARAMS, "params must be an array")),
    };
    if method == "eth_getLogs" {
        check_log_range(network, &params)?;
    }
    Ok((method, params))
}

/// A log query names its blocks by number (or one block by hash), and spans at
/// most the network's `log_window` blocks.
fn check_log_range(network: &Network, params: &Value) -> Result<(), Value> {
    let filter = params
        .get(0)
        .filter(|f| f.is_object())
        .ok_or_else(|| error(INVALID_PARAMS, "eth_getLogs takes a filter object"))?;
    if filter.get("blockHash").is_some() {
        return Ok(());
    }
    let block = |name: &str| {
        filter
            .get(name)
            .and_then(Value::as_str)
            .and_then(|hex| hex.strip_prefix("0x"))
            .and_then(|hex| u64::from_str_radix(hex, 16).ok())
    };
    let window = network.config.log_window.max(1);
    match (block("fromBlock"), block("toBlock")) {
        (Some(from), Some(to)) if from <= to && to - from < window => Ok(()),
        _ => Err(error(
            LIMIT_EXCEEDED,
            &format!(
                "eth_getLogs needs fromBlock and toBlock as numbers at most {window} blocks \
                 apart (or a blockHash)"
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn network() -> Network {
        let config: crate::config::NetworkConfig = toml::from_str(
            "name = \"anvil\"\nchain_id = 31337\nrpc_url = \"http://127.0.0.1:9/\"\n\
             coin_id = 1\ncoin_name = \"Ether\"\nsymbol = \"ETH\"\nlog_window = 1000\nnft_start_block = 0",
        )
        .expect("a network");
        Network {
            chain: satchel_chain::Chain::http(
                config.rpc_url.clone(),
                std::time::Duration::from_secs(1),
            )
            .expect("a client"),
            config,
            added: Default::default(),
            prices: std::sync::Arc::new(crate::state::PriceCache::new(std::time::Duration::ZERO)),
            heads: Default::default(),
        }
    }

    #[test]
    fn only_well_formed_calls_of_allowed_reads_go_to_the_node() {
        let network = network();
        let call = |v: Value| checked(&network, &v).map(|(m, _)| m.to_owned());
        assert_eq!(
            call(json!({"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"})),
            Ok("eth_blockNumber".into())
        );
        // What dapps read besides: a block by its hash, a contract's storage.
        for read in ["eth_getBlockByHash", "eth_getStorageAt"] {
            assert_eq!(
                call(json!({"jsonrpc": "2.0", "id": 1, "method": read, "params": []})),
                Ok(read.to_owned())
            );
        }
        for (bad, code) in [
            (
                json!({"jsonrpc": "2.0", "id": 1, "method": "eth_sendRawTransaction", "params": ["0x"]}),
                METHOD_NOT_FOUND,
            ),
            (
                json!({"jsonrpc": "2.0", "id": 1, "method": "eth_sign", "params": []}),
                METHOD_NOT_FOUND,
            ),
            (
                json!({"jsonrpc": "2.0", "id": 1, "method": "eth_accounts"}),
                METHOD_NOT_FOUND,
            ),
            (
                json!({"jsonrpc": "1.0", "id": 1, "method": "eth_blockNumber"}),
                INVALID_REQUEST,
            ),
            (
                json!({"jsonrpc": "2.0", "id": [1], "method": "eth_blockNumber"}),
                INVALID_REQUEST,
            ),
            (
                json!({"jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": {"to": "0x"}}),
                INVALID_PARAMS,
            ),
            (
                json!({"jsonrpc": "2.0", "id": 1, "method": "eth_getLogs", "params": [{"fromBlock": "0x0", "toBlock": "latest"}]}),
                LIMIT_EXCEEDED,
            ),
            (
                json!({"jsonrpc": "2.0", "id": 1, "method": "eth_getLogs", "params": [{"fromBlock": "0x0", "toBlock": "0x3e8"}]}),
                LIMIT_EXCEEDED,
            ),
        ] {
            let refused = call(bad.clone()).expect_err("refused");
            assert_eq!(refused["code"], code, "{bad}");
        }
        assert!(
            call(json!({"jsonrpc": "2.0", "id": 1, "method": "eth_getLogs", "params": [{"fromBlock": "0x0", "toBlock": "0x3e7"}]}))
                .is_ok()
        );
        assert_eq!(calls_in(&json!([{}, {}])), Some(2));
        assert_eq!(
            calls_in(&Value::Array(vec![json!({}); MAX_BATCH + 1])),
            None
        );
        assert_eq!(calls_in(&json!([])), None);
        assert_eq!(calls_in(&json!("eth_blockNumber")), None);
    }
}
