//! Prices (beyond the spec): each coin and token's Chainlink feed read on
//! chain, exactly, in the currency asked for; a moved feed read again after the
//! cache time; a feed answering what no working feed does left out.

use satchel_tests::{Backend, Stack};

use crate::assert_error;

/// The price `GET /v1/prices` gives an asset (`None`: the coin), if any.
async fn price_of(
    stack: &Stack,
    token: &str,
    currency: &str,
    contract: Option<String>,
) -> Option<String> {
    let (status, body) = stack
        .get(&format!("/v1/prices?currency={currency}"), token)
        .await;
    assert_eq!(status, 200, "{body}");
    body["prices"]
        .as_array()
        .expect("a list")
        .iter()
        .find(|p| p.get("contract").and_then(|c| c.as_str()) == contract.as_deref())
        .map(|p| p["price"].as_str().expect("a decimal string").to_owned())
}

/// Asks again until `check` holds of the prices (by contract; `None`: the
/// coin): a feed's new answer shows once the service's cache time (1 s here)
/// has passed. Patient: on a loaded machine a read of the feeds may time out
/// (the network then has no prices that time) a few times in a row.
async fn prices_become(
    stack: &Stack,
    token: &str,
    check: impl Fn(&dyn Fn(Option<&str>) -> Option<String>) -> bool,
) {
    let mut last = serde_json::Value::Null;
    for _ in 0..600 {
        let (status, body) = stack.get("/v1/prices?currency=usd", token).await;
        assert_eq!(status, 200, "{body}");
        let price = |contract: Option<&str>| {
            body["prices"]
                .as_array()?
                .iter()
                .find(|p| p.get("contract").and_then(|c| c.as_str()) == contract)
                .and_then(|p| p["price"].as_str().map(str::to_owned))
        };
        if check(&price) {
            return;
        }
        last = body;
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // What the chain says now, beside what the service answered.
    let on_chain = stack.demo.price("ETH", "usd").await;
    panic!(
        "the prices never changed as expected; last: {last}; ETH/usd on the chain: {on_chain:?}"
    );
}

pub async fn prices_come_from_the_feeds_exactly_and_follow_them(backend: Backend) {
    let stack = Stack::start_with(backend, |s| s.price_cache_secs = 1).await;
    let ada = stack.user("ada@example.com").await;
    let demo = &stack.demo;
    let token18 = Some(demo.token18.to_checksum(None));

    // Dollars by default: the coin (no `contract`) and both tokens, exactly.
    let (status, body) = stack.get("/v1/prices", &ada.token).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["currency"], "usd");
    assert_eq!(body["currencies"], serde_json::json!(["eur", "usd"]));
    assert_eq!(body["staleAfterSecs"], 86_400);
    let prices = body["prices"].as_array().expect("a list");
    assert_eq!(prices.len(), 3, "{body}");
    let coin = &prices[0];
    assert_eq!(coin["network"], "anvil");
    assert!(
        coin.get("contract").is_none(),
        "the coin has no contract: {coin}"
    );
    assert_eq!(coin["price"], "3000");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("a clock")
        .as_secs();
    let updated = coin["updatedAt"].as_u64().expect("a time");
    assert!(updated <= now + 60 && updated > now - 3600, "{coin}");
    assert_eq!(
        price_of(&stack, &ada.token, "usd", token18)
            .await
            .as_deref(),
        Some("1.25")
    );
    assert_eq!(
        price_of(
            &stack,
            &ada.token,
            "usd",
            Some(demo.dollar6.to_checksum(None))
        )
        .await
        .as_deref(),
        Some("1")
    );
    assert_eq!(
        price_of(&stack, &ada.token, "eur", None).await.as_deref(),
        Some("2760")
    );
    // A currency no feed is in: nothing, and nothing asked of the node.
    let (status, body) = stack.get("/v1/prices?currency=jpy", &ada.token).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["prices"], serde_json::json!([]));

    // Not a currency code, no user: refused.
    for bad in ["USD", "us", "usdd", "u%20d", "%C3%BCsd"] {
        let (status, body) = stack
            .get(&format!("/v1/prices?currency={bad}"), &ada.token)
            .await;
        assert_error(status, &body, 400, "InvalidParameters");
    }
    let (status, body) = satchel_tests::send(stack.app_request("/v1/prices")).await;
    assert_eq!(status, 401, "{body}");

    // The feed moves on chain: the new price, exactly, once the cache time passed.
    demo.set_price("ETH", "usd", "3012.56789012")
        .await
        .expect("moved");
    prices_become(&stack, &ada.token, |price| {
        price(None).as_deref() == Some("3012.56789012")
    })
    .await;

    // A feed answering zero is not a price: the token is left out, the rest stay.
    demo.set_price("DEMO", "usd", "0").await.expect("moved");
    let demo_token = demo.token18.to_checksum(None);
    prices_become(&stack, &ada.token, |price| {
        price(Some(&demo_token)).is_none() && price(None).as_deref() == Some("3012.56789012")
    })
    .await;
}
