//! Operation 2: `GET /v1/accountbalance/{accountId}/balance`.

use alloy::primitives::{U256, utils::parse_units};
use satchel_tests::{Backend, Stack};

use crate::{assert_error, first_account_id};

pub async fn a_real_transfer_shows_up_after_a_balance_refresh(backend: Backend) {
    let stack = Stack::start(backend).await;
    let user = stack.user("ada@example.com").await;
    let account_id = first_account_id(&stack, &user).await;

    let (status, body) = stack
        .get(
            &format!("/v1/accountbalance/{account_id}/balance"),
            &user.token,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["balance"], "0");
    // Read before the change: what operation 1 keeps of it must not outlive it.
    let (status, body) = stack
        .get(&format!("/v1/account?{}", user.wallet_query()), &user.token)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["accounts"][0]["balance"], "0");

    let ether: U256 = parse_units("1.5", 18).expect("units").into();
    let demo: U256 = parse_units("1250.000000000000000001", 18)
        .expect("units")
        .into();
    let dollars: U256 = parse_units("420.25", 6).expect("units").into();
    stack
        .demo
        .send_ether(user.address(), ether)
        .await
        .expect("ether sent");
    stack
        .demo
        .send_token(stack.demo.token18, user.address(), demo)
        .await
        .expect("DEMO sent");
    stack
        .demo
        .send_token(stack.demo.dollar6, user.address(), dollars)
        .await
        .expect("DUSD sent");

    let (status, body) = stack
        .get(
            &format!("/v1/accountbalance/{account_id}/balance"),
            &user.token,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        serde_json::json!({
            "balance": "1500000000000000000",
            "decimals": 18,
            "symbol": "ETH",
            "tokens": [
                {"balance": "1250000000000000000001", "decimals": 18, "symbol": "DEMO",
                 "contract": stack.demo.token18.to_checksum(None)},
                {"balance": "420250000", "decimals": 6, "symbol": "DUSD",
                 "contract": stack.demo.dollar6.to_checksum(None)},
            ]
        })
    );

    // The refresh was stored: operation 1 now lists the same balances.
    let (_, body) = stack
        .get(&format!("/v1/account?{}", user.wallet_query()), &user.token)
        .await;
    let balances: Vec<_> = body["accounts"]
        .as_array()
        .expect("accounts")
        .iter()
        .map(|a| a["balance"].as_str().expect("balance").to_owned())
        .collect();
    assert_eq!(
        balances,
        ["1500000000000000000", "1250000000000000000001", "420250000"]
    );
}

pub async fn an_unknown_account_is_a_404(backend: Backend) {
    let stack = Stack::start(backend).await;
    let user = stack.user("ada@example.com").await;
    let (status, body) = stack
        .get(
            "/v1/accountbalance/00000000-0000-0000-0000-000000000000/balance",
            &user.token,
        )
        .await;
    assert_error(status, &body, 404, "NotFound");
}

pub async fn refreshing_too_often_is_a_429(backend: Backend) {
    let stack = Stack::start_with(backend, |s| s.refresh_per_minute = 2).await;
    let user = stack.user("ada@example.com").await;
    let account_id = first_account_id(&stack, &user).await;
    let eve = stack.user("eve@example.com").await;
    let path = format!("/v1/accountbalance/{account_id}/balance");
    for n in 0..2 {
        let (status, body) = stack.get(&path, &user.token).await;
        assert_eq!(status, 200, "{body}");
        // Another user, once the account's node read is remembered: refused,
        // and spending none of the owner's allowance.
        if n == 0 {
            for _ in 0..3 {
                let (status, body) = stack.get(&path, &eve.token).await;
                assert_error(status, &body, 403, "Forbidden");
            }
        }
    }
    let (status, body) = stack.get(&path, &user.token).await;
    assert_error(status, &body, 429, "TooManyRequests");
    // Reading what is stored is never limited.
    let (status, _) = stack
        .get(&format!("/v1/account?{}", user.wallet_query()), &user.token)
        .await;
    assert_eq!(status, 200);
}

/// What a refresh keeps of an account is checked by the next against its
/// wallet's version: a token added or removed on another instance (written to
/// the database, unknown here) is read, with every balance in its place, and a
/// balance another instance stored is the one compared with the node's.
pub async fn a_token_added_or_removed_elsewhere_is_read_on_the_next_refresh(backend: Backend) {
    let stack = Stack::start(backend).await;
    let ada = stack.user("ada@example.com").await;
    let account_id = first_account_id(&stack, &ada).await;
    let state = &stack.service.state;
    let path = format!("/v1/accountbalance/{account_id}/balance");
    let demo: U256 = parse_units("7", 18).expect("units").into();
    stack
        .demo
        .send_token(stack.demo.token18, ada.address(), demo)
        .await
        .expect("DEMO sent");
    let fresh = stack
        .demo
        .deploy_token(
            "Fresh Coin",
            "FRSH",
            9,
            U256::from(10u64).pow(U256::from(21)),
        )
        .await
        .expect("a fresh token");
    stack
        .demo
        .send_token(fresh, ada.address(), U256::from(55_000u64))
        .await
        .expect("FRSH sent");
    let balances = |body: &serde_json::Value| -> Vec<(String, String)> {
        body["tokens"]
            .as_array()
            .expect("tokens")
            .iter()
            .map(|t| (t["symbol"].to_string(), t["balance"].to_string()))
            .collect()
    };
    let refresh = || async {
        let (status, body) = stack.get(&path, &ada.token).await;
        assert_eq!(status, 200, "{body}");
        body
    };
    let before = refresh().await;
    let configured = [
        (
            r#""DEMO""#.to_owned(),
            r#""7000000000000000000""#.to_owned(),
        ),
        (r#""DUSD""#.to_owned(), r#""0""#.to_owned()),
    ];
    assert_eq!(balances(&before), configured);
    let last = state.last_refresh(&account_id).expect("kept");
    assert_eq!(last.read.contracts.len(), 2);

    // Another instance adds FRSH to the account.
    let row = satchel_service::db::AddedTokenRow {
        network: "anvil".into(),
        contract: format!("{fresh:#x}"),
        name: "Fresh Coin".into(),
        symbol: "FRSH".into(),
        decimals: 9,
    };
    let added = state
        .db
        .add_token(&account_id, &row, "0", 10)
        .await
        .expect("added");
    assert_eq!(added, satchel_service::db::TokenAdded::Added);
    let after = refresh().await;
    let mut with_fresh = configured.to_vec();
    with_fresh.push((r#""FRSH""#.to_owned(), r#""55000""#.to_owned()));
    assert_eq!(balances(&after), with_fresh, "{after}");
    let last = state.last_refresh(&account_id).expect("kept");
    assert_eq!(last.read.contracts.len(), 3);
    // The guess is right now: the same answer.
    assert_eq!(balances(&refresh().await), with_fresh);

    // And removes it again.
    assert!(
        state
            .db
            .remove_added_token(&account_id, &row.contract)
            .await
            .expect("removed")
    );
    assert_eq!(balances(&refresh().await), configured);

    // Another instance stores a balance the node no longer has (an older read):
    // the next refresh compares the node's with it and stores the node's.
    let demo_contract = format!("{:#x}", stack.demo.token18);
    state
        .db
        .store_balances(&account_id, "0", &[(demo_contract, "1".into())])
        .await
        .expect("stored");
    assert_eq!(balances(&refresh().await), configured);
    let (status, body) = stack
        .get(&format!("/v1/account?{}", ada.wallet_query()), &ada.token)
        .await;
    assert_eq!(status, 200, "{body}");
    let listed: Vec<_> = body["accounts"]
        .as_array()
        .expect("accounts")
        .iter()
        .map(|a| a["balance"].as_str().expect("balance").to_owned())
        .collect();
    assert_eq!(listed, ["0", "7000000000000000000", "0"], "{body}");
}
