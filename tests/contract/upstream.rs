//! A node that fails, and the routes around the four operations.

use satchel_tests::{Backend, Stack, send};

use crate::{assert_error, first_account_id};

pub async fn a_node_that_is_down_is_a_502_and_the_rest_keeps_serving(backend: Backend) {
    let mut stack = Stack::start(backend).await;
    let user = stack.user("ada@example.com").await;
    let account_id = first_account_id(&stack, &user).await;
    stack.anvil.stop().await.expect("anvil stopped");

    let (status, body) = stack
        .get(
            &format!("/v1/accountbalance/{account_id}/balance"),
            &user.token,
        )
        .await;
    assert_error(status, &body, 502, "UpstreamUnavailable");
    let (status, body) = stack
        .get(
            &format!("/v1/nft/refresh?{}", user.wallet_query()),
            &user.token,
        )
        .await;
    assert_error(status, &body, 502, "UpstreamUnavailable");

    let (status, body) = stack
        .get(&format!("/v1/account?{}", user.wallet_query()), &user.token)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["accounts"].as_array().map(Vec::len), Some(3));
    let (status, body) = stack
        .get(&format!("/v1/nft?{}", user.wallet_query()), &user.token)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["nfts"], serde_json::json!([]));
}

pub async fn the_openapi_document_and_unknown_routes(backend: Backend) {
    let stack = Stack::start(backend).await;
    let (status, doc) = send(stack.http.get(stack.url("/v1/openapi.json"))).await;
    assert_eq!(status, 200);
    for path in [
        "/v1/account",
        "/v1/accountbalance/{accountId}/balance",
        "/v1/nft",
        "/v1/nft/refresh",
    ] {
        assert!(
            doc["paths"][path]["get"].is_object(),
            "{path} is documented"
        );
    }
    assert!(doc["components"]["schemas"]["Account"].is_object());

    let (status, body) = send(stack.app_request("/v1/nothing-here")).await;
    assert_error(status, &body, 404, "NotFound");
    let (status, body) = send(stack.http.post(stack.url("/v1/account"))).await;
    assert_error(status, &body, 405, "NotFound");
}
