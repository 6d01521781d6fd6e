//! The JSON-RPC 2.0 envelope and the provider's error codes (EIP-1193 for the
//! wallet's own refusals, EIP-1474 for the protocol's).

use serde::Serialize;
use serde_json::{Value, json};

/// The most requests one batch may hold.
pub const MAX_BATCH: usize = 20;

/// A refusal as the caller reads it: `{code, message}`, and `data` where there
/// is more: for the widget's methods (`satchel_*`) `{code}`, the spec's error
/// code; for a call the contract reverted (code 3), the revert bytes, so a
/// dapp's library decodes the contract's own error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ProviderError {
    pub code: i64,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

/// The most revert data passed on (hex characters): a contract's custom error
/// with its arguments fits many times over.
pub const MAX_REVERT_DATA: usize = 16 * 1024;

impl ProviderError {
    fn new(code: i64, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }
    /// A widget method's refusal: 4001 when the person cancelled, else -32000
    /// (a server error, EIP-1474's "invalid input" range), with the spec's code.
    pub fn widget(code: impl Into<String>, message: impl Into<String>) -> Self {
        let code = code.into();
        let rpc_code = if code == "UserCancelled" {
            4001
        } else {
            -32000
        };
        Self {
            data: Some(json!({ "code": code })),
            ..Self::new(rpc_code, message)
        }
    }
    /// 4001: the person rejected the request.
    pub fn rejected() -> Self {
        Self::new(4001, "the person rejected the request")
    }
    /// 4100: the origin is not connected (or not allowed this method).
    pub fn unauthorized() -> Self {
        Self::new(
            4100,
            "this site or program is not connected to Satchel: ask with eth_requestAccounts",
        )
    }
    /// 4100, saying why: the origin has not been allowed this method.
    pub fn not_allowed(message: impl Into<String>) -> Self {
        Self::new(4100, message)
    }
    /// 4200: a method Satchel does not do.
    pub fn unsupported(message: impl Into<String>) -> Self {
        Self::new(4200, message)
    }
    /// 4900: Satchel is not connected to any network (nobody is logged in).
    pub fn disconnected() -> Self {
        Self::new(4900, "Satchel is not connected: nobody is logged in")
    }
    /// 4901: not connected to the requested chain.
    pub fn chain_disconnected(message: impl Into<String>) -> Self {
        Self::new(4901, message)
    }
    /// 4902: a chain Satchel does not serve.
    pub fn unknown_chain(message: impl Into<String>) -> Self {
        Self::new(4902, message)
    }
    /// -32002: a request of this kind from this origin already waits.
    pub fn pending() -> Self {
        Self::new(
            -32002,
            "a request of this kind from this origin is already waiting for the person",
        )
    }
    /// -32700: the body is not JSON.
    pub fn parse_error() -> Self {
        Self::new(-32700, "the request is not valid JSON")
    }
    /// -32600: not a JSON-RPC 2.0 request.
    pub fn invalid_request(message: impl Into<String>) -> Self {
        Self::new(-32600, message)
    }
    /// -32601: no such method.
    pub fn method_not_found(method: &str) -> Self {
        // Bounded: a method name comes from the caller.
        let shown: String = method.chars().take(64).collect();
        Self::new(-32601, format!("the method {shown:?} does not exist"))
    }
    /// 3: the call reverted (EIP-1474, as nodes answer it), with the revert
    /// bytes when they are hex of a reasonable size; otherwise without them.
    pub fn reverted(message: impl Into<String>, data: Option<&Value>) -> Self {
        let data = data
            .and_then(Value::as_str)
            .filter(|d| {
                d.len() <= MAX_REVERT_DATA
                    && d.strip_prefix("0x").is_some_and(|h| {
                        h.len() % 2 == 0 && h.bytes().all(|b| b.is_ascii_hexdigit())
                    })
            })
            .map(|d| Value::String(d.to_owned()));
        Self {
            data,
            ..Self::new(3, message)
        }
    }
    /// One of EIP-5792's codes (5700-5760), for a batch of calls.
    pub fn eip5792(code: i64, message: impl Into<String>) -> Self {
        Self::new(code, message)
    }
    /// -32005: a bound was reached (EIP-1474's "limit exceeded").
    pub fn limit_exceeded(message: impl Into<String>) -> Self {
        Self::new(-32005, message)
    }
    /// -32601, saying what to do instead: a method Satchel knows and does not serve.
    pub fn not_served(message: impl Into<String>) -> Self {
        Self::new(-32601, message)
    }
    /// -32602: the method's parameters are wrong.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(-32602, message)
    }
    /// -32603: something failed inside Satchel or the node.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(-32603, message)
    }
}

/// One request of a call: its id (echoed as sent), method and parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub id: Value,
    pub method: String,
    pub params: Value,
}

/// What the body asked for: one request or a batch, each already checked as an
/// envelope (a malformed one is its error, answered in its place).
#[derive(Debug)]
pub enum Call {
    Single(Result<Request, (Value, ProviderError)>),
    Batch(Vec<Result<Request, (Value, ProviderError)>>),
}

/// Reads a body: `Err` is the one answer for the whole body (not JSON, an empty
/// or oversized batch).
pub fn parse(body: &[u8]) -> Result<Call, ProviderError> {
    let value: Value = serde_json::from_slice(body).map_err(|_| ProviderError::parse_error())?;
    match value {
        Value::Array(items) if items.is_empty() => {
            Err(ProviderError::invalid_request("an empty batch"))
        }
        Value::Array(items) if items.len() > MAX_BATCH => Err(ProviderError::invalid_request(
            format!("a batch holds at most {MAX_BATCH} requests"),
        )),
        Value::Array(items) => Ok(Call::Batch(items.into_iter().map(request).collect())),
        single => Ok(Call::Single(request(single))),
    }
}

fn request(value: Value) -> Result<Request, (Value, ProviderError)> {
    let id = value.get("id").cloned().unwrap_or(Value::Null);
    let invalid = |why: &str| (id.clone(), ProviderError::invalid_request(why));
    let Value::Object(object) = &value else {
        return Err(invalid("a request is a JSON object"));
    };
    if object.get("jsonrpc") != Some(&Value::from("2.0")) {
        return Err(invalid("jsonrpc must be \"2.0\""));
    }
    if !matches!(id, Value::Null | Value::Number(_) | Value::String(_)) {
        return Err(invalid("id must be a number, a string or null"));
    }
    let Some(method) = object.get("method").and_then(Value::as_str) else {
        return Err(invalid("method must be a string"));
    };
    let params = object
        .get("params")
        .cloned()
        .unwrap_or(Value::Array(Vec::new()));
    if !matches!(params, Value::Array(_) | Value::Object(_)) {
        return Err(invalid("params must be an array or an object"));
    }
    Ok(Request {
        id: id.clone(),
        method: method.to_owned(),
        params,
    })
}

/// The answer to one request.
pub fn answer(id: Value, outcome: Result<Value, ProviderError>) -> Value {
    match outcome {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err(error) => json!({"jsonrpc": "2.0", "id": id, "error": error}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_revert_keeps_its_bytes_when_they_are_hex_of_a_sane_size() {
        let custom_error =
            json!("0x5c427cd9000000000000000000000000000000000000000000000000000000000000002a");
        let reverted = ProviderError::reverted("execution reverted", Some(&custom_error));
        assert_eq!(reverted.code, 3);
        assert_eq!(reverted.data, Some(custom_error));
        for dropped in [
            json!("not hex"),
            json!("0xabc"),
            json!(7),
            json!(format!("0x{}", "ab".repeat(MAX_REVERT_DATA))),
        ] {
            assert_eq!(
                ProviderError::reverted("reverted", Some(&dropped)).data,
                None,
                "{dropped}"
            );
        }
    }

    fn code(outcome: Result<Request, (Value, ProviderError)>) -> i64 {
        outcome.expect_err("refused").1.code
    }

    #[test]
    fn a_request_is_a_json_rpc_2_object_with_a_method() {
        let Ok(Call::Single(Ok(request))) =
            parse(br#"{"jsonrpc":"2.0","id":7,"method":"eth_chainId"}"#)
        else {
            panic!("a request")
        };
        assert_eq!(request.id, json!(7));
        assert_eq!(request.params, json!([]), "no params: none");
        for bad in [
            r#"{"id":1,"method":"eth_chainId"}"#,
            r#"{"jsonrpc":"1.0","id":1,"method":"eth_chainId"}"#,
            r#"{"jsonrpc":"2.0","id":{},"method":"eth_chainId"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":3}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"eth_call","params":"x"}"#,
            r#"3"#,
        ] {
            let Ok(Call::Single(outcome)) = parse(bad.as_bytes()) else {
                panic!("{bad}: one answer")
            };
            assert_eq!(code(outcome), -32600, "{bad}");
        }
    }

    #[test]
    fn a_body_that_is_not_json_or_an_empty_or_huge_batch_is_one_error() {
        assert_eq!(parse(b"{not json").expect_err("parse").code, -32700);
        assert_eq!(parse(b"[]").expect_err("empty").code, -32600);
        let huge = format!(
            "[{}]",
            vec![r#"{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}"#; MAX_BATCH + 1].join(",")
        );
        assert_eq!(parse(huge.as_bytes()).expect_err("huge").code, -32600);
        let Ok(Call::Batch(items)) =
            parse(br#"[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}, 5]"#)
        else {
            panic!("a batch")
        };
        assert!(items[0].is_ok());
        assert_eq!(items[1].as_ref().expect_err("not an object").1.code, -32600);
    }

    #[test]
    fn an_unknown_methods_name_is_bounded_in_its_error() {
        let long = "x".repeat(10_000);
        assert!(ProviderError::method_not_found(&long).message.len() < 100);
    }
}
