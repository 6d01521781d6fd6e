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
    // Eight calls a minute: six were counted (the log query weighs two),
    // two more go, the next waits.
    let two = Value::Array(vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"});
        2
    ]);
    let (status, body) = rpc(&stack, &ada.token, "anvil", two).await;
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
    // A state override that plants an endless loop is refused before the node
    // runs it; a gas estimate weighs ten reads, past Bob's eight a minute.
    let looping = json!({"0x00000000000000000000000000000000000000aa": {"code": "0x5b600056"}});
    let call = json!({"to": "0x00000000000000000000000000000000000000aa"});
    let (status, body) = rpc(
        &stack,
        &bob.token,
        "anvil",
        json!({"jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": [call, "latest", looping]}),
    )
    .await;
    assert_eq!(
        (status.as_u16(), body["error"]["code"].clone()),
        (200, json!(-32602)),
        "{body}"
    );
    let (status, body) = rpc(
        &stack,
        &bob.token,
        "anvil",
        json!({"jsonrpc": "2.0", "id": 1, "method": "eth_estimateGas", "params": [call]}),
    )
    .await;
    assert_eq!(status, 429, "{body}");
}

async fn head(
    stack: &Stack,
    token: &str,
    network: &str,
    after: Option<u64>,
) -> (reqwest::StatusCode, Value) {
    let after = after.map(|n| format!("?after={n}")).unwrap_or_default();
    let request = stack
        .http
        .get(stack.url(&format!("/v1/rpc/{network}/head{after}")))
        .header("X-API-KEY", &stack.app_key)
        .header("X-API-DOMAIN", &stack.domain)
        .header("X-SDK-TYPE", "desktop_rest_api")
        .bearer_auth(token);
    send(request).await
}

fn number_of(header: &Value) -> u64 {
    let number = header["number"].as_str().expect("a block number");
    u64::from_str_radix(number.trim_start_matches("0x"), 16).expect("hex")
}

pub async fn a_waiting_client_is_told_the_next_block_as_it_comes(backend: Backend) {
    let stack = Stack::start_with(backend, |s| s.rpc_calls_per_minute = 6).await;
    let ada = stack.user("ada@example.com").await;

    // Without `after`: the newest block at once, a header as the node has it.
    let (status, newest) = head(&stack, &ada.token, "anvil", None).await;
    assert_eq!(status, 200, "{newest}");
    let node = anvil(&stack, "eth_getBlockByNumber", json!(["latest", false])).await;
    assert_eq!(newest["hash"], node["hash"]);
    assert!(newest.get("transactions").is_none(), "a header: {newest}");
    let known = number_of(&newest);

    // Waiting past the newest block: answered with the next one once mined
    // (the chain mines only on demand, so nothing else can answer it). Mined
    // before or after the service first reads the node, the block is news to
    // the waiter either way.
    let (waited, _) = tokio::join!(
        head(&stack, &ada.token, "anvil", Some(known)),
        anvil(&stack, "evm_mine", json!([])),
    );
    let (status, next) = waited;
    assert_eq!(status, 200, "{next}");
    assert_eq!(number_of(&next), known + 1);
    let mined = anvil(&stack, "eth_getBlockByNumber", json!(["latest", false])).await;
    assert_eq!(next["hash"], mined["hash"]);

    // A number the chain has not reached holds nothing: answered at once with
    // the newest.
    let (status, now) = head(&stack, &ada.token, "anvil", Some(known + 1_000)).await;
    assert_eq!(status, 200, "{now}");
    assert_eq!(number_of(&now), known + 1);

    // Refused as the relay refuses: no session, another network (neither
    // counted). Each ask is one of the user's relayed calls: six a minute,
    // three made above.
    let (status, _) = head(&stack, "garbled", "anvil", None).await;
    assert_eq!(status, 401);
    let (status, _) = head(&stack, &ada.token, "mainnet", None).await;
    assert_eq!(status, 404);
    for _ in 0..3 {
        let (status, body) = head(&stack, &ada.token, "anvil", Some(0)).await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = head(&stack, &ada.token, "anvil", Some(0)).await;
    assert_eq!(status, 429, "{body}");
}
