//! Tokens added by contract address (beyond the spec): read on chain, tracked
//! per account within a bound, listed by operations 1 and 2, removable; and
//! never for another user's account.

use alloy::primitives::U256;
use reqwest::Method;
use satchel_tests::{Backend, Stack, User};
use serde_json::Value;

use crate::{assert_error, first_account_id};

async fn call(
    stack: &Stack,
    method: Method,
    path: &str,
    user: &User,
) -> (reqwest::StatusCode, Value) {
    let request = stack
        .http
        .request(method, stack.url(path))
        .header("X-API-KEY", &stack.app_key)
        .header("X-API-DOMAIN", &stack.domain)
        .header("X-SDK-TYPE", "desktop_rest_api")
        .bearer_auth(&user.token);
    satchel_tests::send(request).await
}

/// The entries of operation 1 for `contract`.
async fn listed(stack: &Stack, user: &User, contract: &str) -> Vec<Value> {
    let (status, body) = stack
        .get(&format!("/v1/account?{}", user.wallet_query()), &user.token)
        .await;
    assert_eq!(status, 200, "{body}");
    body["accounts"]
        .as_array()
        .expect("accounts")
        .iter()
        .filter(|a| a["contract"] == contract)
        .cloned()
        .collect()
}

pub async fn a_token_added_by_address_is_listed_with_its_exact_balance(backend: Backend) {
    let stack = Stack::start(backend).await;
    let ada = stack.user("ada@example.com").await;
    let eve = stack.user("eve@example.com").await;
    let account_id = first_account_id(&stack, &ada).await;
    let supply = U256::from(10u64).pow(U256::from(21));
    let fresh = stack
        .demo
        .deploy_token("Fresh Coin", "FRSH", 9, supply)
        .await
        .expect("a fresh token");
    let held = U256::from(123_456_789_012_345u64);
    stack
        .demo
        .send_token(fresh, ada.address(), held)
        .await
        .expect("FRSH sent");
    let contract = fresh.to_checksum(None);
    let path = format!("/v1/account/{account_id}/tokens/{contract}");

    // Read, not stored.
    let (status, body) = call(&stack, Method::GET, &path, &ada).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        serde_json::json!({
            "contract": contract, "network": "anvil", "name": "Fresh Coin",
            "symbol": "FRSH", "decimals": 9, "balance": "123456789012345",
            "tracked": false, "configured": false,
        })
    );
    assert!(listed(&stack, &ada, &contract).await.is_empty());

    // Another user can neither read through, add to nor remove from Ada's account.
    for method in [Method::GET, Method::PUT, Method::DELETE] {
        let (status, body) = call(&stack, method, &path, &eve).await;
        assert_error(status, &body, 403, "Forbidden");
    }
    assert!(listed(&stack, &ada, &contract).await.is_empty());

    // Added: operations 1 and 2 list it with the exact balance.
    let (status, body) = call(&stack, Method::PUT, &path, &ada).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["tracked"], true);
    // Listed at once with the balance just read, before any refresh.
    let entries = listed(&stack, &ada, &contract).await;
    assert_eq!(entries[0]["balance"], "123456789012345", "{entries:?}");
    let (status, body) = stack
        .get(
            &format!("/v1/accountbalance/{account_id}/balance"),
            &ada.token,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let token = body["tokens"]
        .as_array()
        .expect("tokens")
        .iter()
        .find(|t| t["contract"] == contract.as_str())
        .cloned()
        .expect("the added token in operation 2");
    assert_eq!(
        token,
        serde_json::json!({"balance": "123456789012345", "decimals": 9, "symbol": "FRSH", "contract": contract})
    );
    let entries = listed(&stack, &ada, &contract).await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(entries[0]["balance"], "123456789012345");
    assert_eq!(entries[0]["symbol"], "FRSH");
    assert_eq!(entries[0]["decimals"], 9);
    assert_eq!(entries[0]["name"], "Fresh Coin");

    // Twice is a conflict; a configured token is there already.
    let (status, body) = call(&stack, Method::PUT, &path, &ada).await;
    assert_error(status, &body, 409, "Conflict");
    let demo = stack.demo.token18.to_checksum(None);
    let demo_path = format!("/v1/account/{account_id}/tokens/{demo}");
    let (status, body) = call(&stack, Method::GET, &demo_path, &ada).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (body["configured"].clone(), body["tracked"].clone()),
        (Value::Bool(true), Value::Bool(true))
    );
    let (status, body) = call(&stack, Method::PUT, &demo_path, &ada).await;
    assert_error(status, &body, 409, "Conflict");

    // Not a token: an NFT contract (no decimals) and an address without code.
    for other in [stack.demo.pals, eve.address()] {
        let path = format!(
            "/v1/account/{account_id}/tokens/{}",
            other.to_checksum(None)
        );
        let (status, body) = call(&stack, Method::PUT, &path, &ada).await;
        assert_error(status, &body, 400, "InvalidParameters");
    }
    let (status, body) = call(
        &stack,
        Method::GET,
        &format!("/v1/account/{account_id}/tokens/0x12"),
        &ada,
    )
    .await;
    assert_error(status, &body, 400, "InvalidParameters");

    // Removed: gone from operation 1; a configured token cannot be removed.
    let (status, body) = call(&stack, Method::DELETE, &demo_path, &ada).await;
    assert_error(status, &body, 404, "NotFound");
    let (status, _) = call(&stack, Method::DELETE, &path, &ada).await;
    assert_eq!(status, 204);
    assert!(listed(&stack, &ada, &contract).await.is_empty());
    let (status, body) = call(&stack, Method::DELETE, &path, &ada).await;
    assert_error(status, &body, 404, "NotFound");
}

pub async fn an_account_adds_a_bounded_number_of_tokens(backend: Backend) {
    let stack = Stack::start_with(backend, |s| s.max_added_tokens_per_account = 2).await;
    let ada = stack.user("ada@example.com").await;
    let account_id = first_account_id(&stack, &ada).await;
    let mut contracts = Vec::new();
    for n in 0..3 {
        let token = stack
            .demo
            .deploy_token(&format!("Coin {n}"), &format!("C{n}"), 18, U256::from(1u64))
            .await
            .expect("a token");
        contracts.push(token.to_checksum(None));
    }
    for contract in &contracts[..2] {
        let path = format!("/v1/account/{account_id}/tokens/{contract}");
        let (status, body) = call(&stack, Method::PUT, &path, &ada).await;
        assert_eq!(status, 200, "{body}");
    }
    let third = format!("/v1/account/{account_id}/tokens/{}", contracts[2]);
    let (status, body) = call(&stack, Method::PUT, &third, &ada).await;
    assert_error(status, &body, 429, "TooManyRequests");
    assert!(listed(&stack, &ada, &contracts[2]).await.is_empty());
    // Removing one makes room again.
    let first = format!("/v1/account/{account_id}/tokens/{}", contracts[0]);
    let (status, _) = call(&stack, Method::DELETE, &first, &ada).await;
    assert_eq!(status, 204);
    let (status, body) = call(&stack, Method::PUT, &third, &ada).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(listed(&stack, &ada, &contracts[2]).await.len(), 1);
}
