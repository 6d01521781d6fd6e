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

/// What `body` costs against the per-user limit: each call its [`weight`]
/// (a batch the sum); `None` when it is neither a call nor a batch of at most
/// [`MAX_BATCH`].
pub fn cost_of(body: &Value) -> Option<usize> {
    match body {
        Value::Array(calls) if !calls.is_empty() && calls.len() <= MAX_BATCH => {
            Some(calls.iter().map(weight).sum())
        }
        Value::Object(_) => Some(weight(body)),
        _ => None,
    }
}

/// How many plain reads a call is worth: a gas estimate runs the call many
/// times over (a binary search, each run up to the node's gas cap), a
/// simulation runs each of its calls, a log query reads a window of blocks.
fn weight(call: &Value) -> usize {
    match call.get("method").and_then(Value::as_str) {
        Some("eth_estimateGas") => ESTIMATE_WEIGHT,
        Some("eth_simulateV1") => {
            SIMULATED_CALL_WEIGHT
                * simulated_calls(call.get("params").unwrap_or(&Value::Null)).max(1)
        }
        Some("eth_getLogs") => 2,
        _ => 1,
    }
}

/// A gas estimate's weight: the node runs the call up to ~25 times.
const ESTIMATE_WEIGHT: usize = 10;
/// Each call of a simulation.
const SIMULATED_CALL_WEIGHT: usize = 2;
/// The most calls one simulation may hold (across its blocks).
pub const MAX_SIMULATED_CALLS: usize = 16;

/// How many calls an `eth_simulateV1`'s params hold, across its blocks.
fn simulated_calls(params: &Value) -> usize {
    params
        .get(0)
        .and_then(|p| p.get("blockStateCalls"))
        .and_then(Value::as_array)
        .map_or(0, |blocks| {
            blocks
                .iter()
                .map(|b| b.get("calls").and_then(Value::as_array).map_or(0, Vec::len))
                .sum()
        })
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
    match method {
        "eth_getLogs" => check_log_range(network, &params)?,
        "eth_call" | "eth_estimateGas" => check_no_overrides(&params)?,
        "eth_simulateV1" => check_simulation(&params)?,
        _ => {}
    }
    Ok((method, params))
}

/// `eth_call` and `eth_estimateGas` run on the chain as it is: a state or
/// block override (their third and fourth params) could plant code that runs
/// the node to its gas cap on every run of an estimate.
fn check_no_overrides(params: &Value) -> Result<(), Value> {
    let overridden = params
        .as_array()
        .is_some_and(|p| p.iter().skip(2).any(|o| !o.is_null()));
    if overridden {
        return Err(error(
            INVALID_PARAMS,
            "state and block overrides are not relayed",
        ));
    }
    Ok(())
}

/// A simulation holds at most [`MAX_SIMULATED_CALLS`] calls and no state
/// overrides (block overrides, its time and number, are allowed).
fn check_simulation(params: &Value) -> Result<(), Value> {
    let blocks = params
        .get(0)
        .and_then(|p| p.get("blockStateCalls"))
        .and_then(Value::as_array)
        .ok_or_else(|| error(INVALID_PARAMS, "eth_simulateV1 takes blockStateCalls"))?;
    if blocks
        .iter()
        .any(|b| b.get("stateOverrides").is_some_and(|o| !o.is_null()))
    {
        return Err(error(INVALID_PARAMS, "state overrides are not relayed"));
    }
    if simulated_calls(params) > MAX_SIMULATED_CALLS {
        return Err(error(
            LIMIT_EXCEEDED,
            &format!("a simulation holds at most {MAX_SIMULATED_CALLS} calls"),
        ));
    }
    Ok(())
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
        assert_eq!(cost_of(&json!([{}, {}])), Some(2));
        assert_eq!(cost_of(&Value::Array(vec![json!({}); MAX_BATCH + 1])), None);
        assert_eq!(cost_of(&json!([])), None);
        assert_eq!(cost_of(&json!("eth_blockNumber")), None);
    }

    #[test]
    fn overrides_are_refused_and_costly_calls_weigh_more() {
        let network = network();
        let call = |method: &str, params: Value| {
            checked(
                &network,
                &json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}),
            )
            .map(|(m, _)| m.to_owned())
        };
        let loop_code =
            json!({"0x00000000000000000000000000000000000000aa": {"code": "0x5b600056"}});
        let tx = json!({"to": "0x00000000000000000000000000000000000000aa"});
        // An endless loop planted by a state override, as an estimate or a call.
        for method in ["eth_estimateGas", "eth_call"] {
            let refused = call(method, json!([tx, "latest", loop_code])).expect_err("refused");
            assert_eq!(refused["code"], INVALID_PARAMS, "{method}");
            assert!(call(method, json!([tx, "latest"])).is_ok(), "{method}");
            assert!(
                call(method, json!([tx, "latest", null])).is_ok(),
                "{method}"
            );
        }
        let simulation = |blocks: Value| {
            call(
                "eth_simulateV1",
                json!([{"blockStateCalls": blocks}, "latest"]),
            )
        };
        let refused =
            simulation(json!([{"stateOverrides": loop_code, "calls": [tx]}])).expect_err("refused");
        assert_eq!(refused["code"], INVALID_PARAMS);
        assert!(simulation(json!([{"calls": [tx, tx]}])).is_ok());
        let crowded = vec![json!({"calls": vec![tx.clone(); 9]}); 2];
        assert_eq!(
            simulation(json!(crowded)).expect_err("too many")["code"],
            LIMIT_EXCEEDED
        );

        let named = |method: &str, params: Value| json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        assert_eq!(cost_of(&named("eth_blockNumber", json!([]))), Some(1));
        assert_eq!(
            cost_of(&named("eth_estimateGas", json!([tx]))),
            Some(ESTIMATE_WEIGHT)
        );
        assert_eq!(
            cost_of(&named(
                "eth_simulateV1",
                json!([{"blockStateCalls": [{"calls": [tx, tx, tx]}]}])
            )),
            Some(3 * SIMULATED_CALL_WEIGHT)
        );
        // A batch of twenty estimates counts as two hundred reads.
        let batch = Value::Array(vec![named("eth_estimateGas", json!([tx])); MAX_BATCH]);
        assert_eq!(cost_of(&batch), Some(MAX_BATCH * ESTIMATE_WEIGHT));
    }
}
