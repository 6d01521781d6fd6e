//! The read relay (`POST /v1/rpc/{network}`): a logged-in user reads the chain
//! through the service; nothing that writes, signs or reads the node's own
//! accounts goes through, and every bound holds.

use serde_json::{Value, json};

use satchel_tests::{Backend, Stack, send};

async fn rpc(
    stack: &Stack,
    token: &str,
    network: &str,
    body: Value,
) -> (reqwest::StatusCode, Value) {
    let request = stack
        .http
        .post(stack.url(&format!("/v1/rpc/{network}")))
        .header("X-API-KEY", &stack.app_key)
        .header("X-API-DOMAIN", &stack.domain)
        .header("X-SDK-TYPE", "desktop_rest_api")
        .bearer_auth(token)
        .json(&body);
    send(request).await
}

async fn anvil(stack: &Stack, method: &str, params: Value) -> Value {
    let answer: Value = stack
        .http
        .post(stack.anvil.url.clone())
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}))
        .send()
        .await
        .expect("anvil")
        .json()
        .await
        .expect("json");
    answer["result"].clone()
}

pub async fn a_user_reads_the_chain_through_the_relay_and_nothing_else(backend: Backend) {
    let stack = Stack::start_with(backend, |s| s.rpc_calls_per_minute = 8).await;
    let ada = stack.user("ada@example.com").await;
    stack.demo.fund(ada.address()).await.expect("funded");

    // One call, and a batch: the node's own answers.
    let (status, body) = rpc(
        &stack,
        &ada.token,
        "anvil",
        json!({"jsonrpc": "2.0", "id": 7, "method": "eth_getBalance", "params": [ada.address(), "latest"]}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["id"], 7);
    assert_eq!(
        body["result"],
        anvil(&stack, "eth_getBalance", json!([ada.address(), "latest"])).await
    );
    let (status, body) = rpc(
        &stack,
        &ada.token,
        "anvil",
        json!([
            {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"},
            {"jsonrpc": "2.0", "id": 2, "method": "eth_sendRawTransaction", "params": ["0x02"]},
            {"jsonrpc": "2.0", "id": 3, "method": "eth_getLogs", "params": [{"fromBlock": "0x0", "toBlock": "latest"}]},
        ]),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body[0]["result"],
        anvil(&stack, "eth_chainId", json!([])).await
    );
    assert_eq!(body[1]["error"]["code"], -32601, "nothing is sent: {body}");
    assert_eq!(
        body[2]["error"]["code"], -32005,
        "the log range is bounded: {body}"
    );
    // A revert is the node's error object, passed on.
    let (_, body) = rpc(
        &stack,
        &ada.token,
        "anvil",
        json!({"jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": [
            {"to": stack.demo.token18, "data": "0xdeadbeef"}, "latest"]}),
    )
    .await;
    assert!(body["error"]["code"].is_i64(), "{body}");

    // No session, another network, a batch too large: refused as such.
    let (status, _) = rpc(
        &stack,
        "garbled",
        "anvil",
        json!({"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}),
    )
    .await;
    assert_eq!(status, 401);
    let (status, _) = rpc(
        &stack,
        &ada.token,
        "mainnet",
        json!({"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}),
    )
    .await;
    assert_eq!(status, 404);
    let big = Value::Array(vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"});
        21
    ]);
    let (status, _) = rpc(&stack, &ada.token, "anvil", big).await;
    assert_eq!(status, 400);
    // Eight calls a minute: five were made, three more go, the next waits.
    let three = Value::Array(vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"});
        3
    ]);
    let (status, body) = rpc(&stack, &ada.token, "anvil", three).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = rpc(
        &stack,
        &ada.token,
        "anvil",
        json!({"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}),
    )
    .await;
    assert_eq!(status, 429, "{body}");
    // Another user has an allowance of their own.
    let bob = stack.user("bob@example.com").await;
    let (status, _) = rpc(
        &stack,
        &bob.token,
        "anvil",
        json!({"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}),
    )
    .await;
    assert_eq!(status, 200);
}
