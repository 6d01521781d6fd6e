//! EIP-5792's `wallet_sendCalls`: a batch of calls the person approves on one
//! page, sent one after another (Satchel's accounts are plain keys: a batch is
//! not atomic, and `wallet_getCapabilities` says so). Each call is read as an
//! `eth_sendTransaction` of the batch's account is.

use alloy::primitives::Address;
use serde_json::{Map, Value, json};

use super::permit::TokenFacts;
use super::transaction::{TransactionToSend, send_transaction};
use crate::rpc::ProviderError;

/// The most calls one batch may hold.
pub const MAX_CALLS: usize = 10;
/// The longest batch id an application may choose.
pub const MAX_ID: usize = 128;

/// EIP-5792's error codes.
pub mod codes {
    /// A capability the application marked required is not supported.
    pub const UNSUPPORTED_CAPABILITY: i64 = 5700;
    /// The chain is not the one the site is on.
    pub const UNSUPPORTED_CHAIN: i64 = 5710;
    /// A batch with this id was sent already.
    pub const DUPLICATE_ID: i64 = 5720;
    /// No batch with this id (of this site).
    pub const UNKNOWN_BUNDLE: i64 = 5730;
    /// More calls than Satchel sends in one batch.
    pub const BATCH_TOO_LARGE: i64 = 5740;
    /// The application required atomicity, which Satchel cannot give.
    pub const ATOMICITY_NOT_SUPPORTED: i64 = 5760;
}

/// A batch to send: its id and its calls, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct CallsToSend {
    pub id: String,
    pub calls: Vec<TransactionToSend>,
}

/// What `wallet_getCapabilities` answers for `chains`: no capability is
/// supported; a batch is sent call by call.
pub fn capabilities(chains: impl IntoIterator<Item = u64>) -> Value {
    let by_chain: Map<String, Value> = chains
        .into_iter()
        .map(|chain| {
            (
                format!("{chain:#x}"),
                json!({"atomic": {"status": "unsupported"}}),
            )
        })
        .collect();
    Value::Object(by_chain)
}

/// Capabilities the application asked for: refused when one is not optional.
fn check_capabilities(capabilities: Option<&Value>) -> Result<(), ProviderError> {
    let Some(capabilities) = capabilities.filter(|c| !c.is_null()) else {
        return Ok(());
    };
    let asked = capabilities
        .as_object()
        .ok_or_else(|| ProviderError::invalid_params("capabilities is an object"))?;
    match asked
        .iter()
        .find(|(_, c)| c.get("optional").and_then(Value::as_bool) != Some(true))
    {
        Some((name, _)) => Err(ProviderError::eip5792(
            codes::UNSUPPORTED_CAPABILITY,
            format!("Satchel does not support the capability {name:?}"),
        )),
        None => Ok(()),
    }
}

/// Reads `wallet_sendCalls`' `[{version, id?, from?, chainId, atomicRequired,
/// calls, capabilities?}]` for `network` (chain `chain_id`); `accounts` are the
/// addresses the origin sees. A batch without an id gets a new one.
pub fn send_calls(
    params: &Value,
    accounts: &[Address],
    network: &str,
    chain_id: u64,
    token: impl Fn(Address) -> Option<TokenFacts>,
) -> Result<CallsToSend, ProviderError> {
    let batch = params
        .get(0)
        .and_then(Value::as_object)
        .ok_or_else(|| ProviderError::invalid_params("expected [{version, chainId, calls, …}]"))?;
    let chain = batch
        .get("chainId")
        .and_then(Value::as_str)
        .and_then(|c| c.strip_prefix("0x"))
        .and_then(|digits| u64::from_str_radix(digits, 16).ok())
        .ok_or_else(|| ProviderError::invalid_params("chainId is a 0x-hex number"))?;
    if chain != chain_id {
        return Err(ProviderError::eip5792(
            codes::UNSUPPORTED_CHAIN,
            format!("this batch is for chain {chain}, but this site is on chain {chain_id}"),
        ));
    }
    if batch.get("atomicRequired").and_then(Value::as_bool) == Some(true) {
        return Err(ProviderError::eip5792(
            codes::ATOMICITY_NOT_SUPPORTED,
            "Satchel sends a batch call by call: it cannot make it atomic",
        ));
    }
    check_capabilities(batch.get("capabilities"))?;
    let id = match batch.get("id") {
        None | Some(Value::Null) => format!("0x{:064x}", rand::random::<u128>()),
        Some(Value::String(id)) if !id.is_empty() && id.len() <= MAX_ID => id.clone(),
        Some(_) => {
            return Err(ProviderError::invalid_params(format!(
                "id is text of at most {MAX_ID} characters"
            )));
        }
    };
    let from = match batch.get("from").filter(|f| !f.is_null()) {
        Some(from) => super::account_param(Some(from), accounts)?,
        None => *accounts.first().ok_or_else(ProviderError::unauthorized)?,
    };
    let calls = batch
        .get("calls")
        .and_then(Value::as_array)
        .filter(|calls| !calls.is_empty())
        .ok_or_else(|| ProviderError::invalid_params("calls is a list of at least one call"))?;
    if calls.len() > MAX_CALLS {
        return Err(ProviderError::eip5792(
            codes::BATCH_TOO_LARGE,
            format!("Satchel sends at most {MAX_CALLS} calls in one batch"),
        ));
    }
    let calls = calls
        .iter()
        .map(|call| {
            let call = call
                .as_object()
                .ok_or_else(|| ProviderError::invalid_params("each call is an object"))?;
            check_capabilities(call.get("capabilities"))?;
            let mut tx = Map::new();
            tx.insert("from".into(), json!(from.to_checksum(None)));
            for field in ["to", "data", "value"] {
                if let Some(value) = call.get(field) {
                    tx.insert(field.into(), value.clone());
                }
            }
            let tx = send_transaction(&json!([tx]), accounts, network, chain_id, &token)?;
            // Each call of a batch is prepared before the first is sent, so a
            // deployment after the first could not be shown the address it
            // will have: a deployment is sent on its own.
            if tx.to.is_create() {
                return Err(ProviderError::invalid_params(
                    "a batch's calls each have a `to`: send a deployment on its own (eth_sendTransaction)",
                ));
            }
            Ok(tx)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(CallsToSend { id, calls })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FROM: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const OTHER: &str = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

    fn read(batch: Value) -> Result<CallsToSend, ProviderError> {
        let from: Address = FROM.parse().expect("address");
        send_calls(&json!([batch]), &[from], "anvil", 31337, |_| None)
    }

    fn code(outcome: Result<CallsToSend, ProviderError>) -> i64 {
        outcome.expect_err("refused").code
    }

    #[test]
    fn a_batch_is_its_calls_from_the_account_in_order() {
        let batch = read(json!({
            "version": "2.0.0", "chainId": "0x7a69", "atomicRequired": false,
            "calls": [{"to": OTHER, "value": "0x1"}, {"to": OTHER, "data": "0x1234"}],
            "capabilities": {"paymasterService": {"url": "https://pay.example", "optional": true}}
        }))
        .expect("read");
        assert_eq!(batch.calls.len(), 2);
        assert_eq!(
            batch.calls[0].from,
            FROM.parse::<Address>().expect("address")
        );
        assert_eq!(batch.calls[1].review.data, "0x1234");
        assert!(batch.id.starts_with("0x"));
        let named = read(
            json!({"chainId": "0x7a69", "id": "mine", "calls": [{"to": OTHER, "value": "0x1"}]}),
        )
        .expect("read");
        assert_eq!(named.id, "mine");
    }

    #[test]
    fn what_satchel_cannot_do_is_refused_with_eip_5792s_codes() {
        let call = json!([{"to": OTHER, "value": "0x1"}]);
        assert_eq!(
            code(read(json!({"chainId": "0x1", "calls": call}))),
            codes::UNSUPPORTED_CHAIN
        );
        assert_eq!(
            code(read(
                json!({"chainId": "0x7a69", "atomicRequired": true, "calls": call})
            )),
            codes::ATOMICITY_NOT_SUPPORTED
        );
        assert_eq!(
            code(read(
                json!({"chainId": "0x7a69", "calls": call, "capabilities": {"paymasterService": {}}})
            )),
            codes::UNSUPPORTED_CAPABILITY
        );
        let many: Vec<Value> = (0..=MAX_CALLS)
            .map(|_| json!({"to": OTHER, "value": "0x1"}))
            .collect();
        assert_eq!(
            code(read(json!({"chainId": "0x7a69", "calls": many}))),
            codes::BATCH_TOO_LARGE
        );
        assert_eq!(
            code(read(json!({"chainId": "0x7a69", "calls": []}))),
            -32602
        );
        // A deployment goes on its own, where its page can name its address.
        let deploy = json!([{"to": OTHER, "value": "0x1"}, {"data": "0x6080604052"}]);
        let refused = read(json!({"chainId": "0x7a69", "calls": deploy})).expect_err("refused");
        assert_eq!(refused.code, -32602);
        assert!(
            refused.message.contains("on its own"),
            "{}",
            refused.message
        );
        assert_eq!(
            code(read(
                json!({"chainId": "0x7a69", "from": OTHER, "calls": call})
            )),
            4100,
            "an account the site does not see"
        );
        assert_eq!(
            code(read(
                json!({"chainId": "0x7a69", "id": "x".repeat(MAX_ID + 1), "calls": call})
            )),
            -32602
        );
    }

    #[test]
    fn capabilities_say_a_batch_is_not_atomic() {
        assert_eq!(
            capabilities([31337, 1]),
            json!({"0x7a69": {"atomic": {"status": "unsupported"}}, "0x1": {"atomic": {"status": "unsupported"}}})
        );
    }
}
