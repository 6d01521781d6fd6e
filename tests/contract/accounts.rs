//! Operation 1: `GET /v1/account`.

use satchel_tests::{Backend, Stack};

use crate::assert_error;

pub async fn accounts_list_native_then_token_entries_field_by_field(backend: Backend) {
    let stack = Stack::start(backend).await;
    let user = stack.user("ada@example.com").await;
    let (status, body) = stack
        .get(&format!("/v1/account?{}", user.wallet_query()), &user.token)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["walletId"], user.wallet_id.as_str());
    let accounts = body["accounts"].as_array().expect("accounts");
    assert_eq!(
        accounts.len(),
        3,
        "ether plus the two tracked tokens: {body}"
    );
    let address = user.address().to_checksum(None);

    let native = accounts[0].as_object().expect("object");
    let mut keys: Vec<_> = native.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "accountId",
            "address",
            "addressPath",
            "balance",
            "coinId",
            "decimals",
            "iconUrl",
            "ids",
            "label",
            "name",
            "network",
            "symbol"
        ],
        "a native entry has coinId and no accountTokenId or contract"
    );
    assert_eq!(native["address"], address.as_str());
    assert_eq!(native["addressPath"], "m/44'/60'/0'/0/0");
    assert_eq!(native["label"], "Account 1");
    assert_eq!(native["balance"], "0");
    assert_eq!(native["coinId"], 60);
    assert_eq!(native["name"], "Ether");
    assert_eq!(native["network"], "anvil");
    assert_eq!(native["symbol"], "ETH");
    assert_eq!(native["decimals"], 18);
    assert_eq!(native["ids"], "ethereum");
    assert!(
        native["iconUrl"]
            .as_str()
            .is_some_and(|u| u.starts_with("https://"))
    );

    let expected_tokens = [
        ("DEMO", "Demo Token", 18, stack.demo.token18),
        ("DUSD", "Demo Dollar", 6, stack.demo.dollar6),
    ];
    for (entry, (symbol, name, decimals, contract)) in accounts[1..].iter().zip(expected_tokens) {
        let token = entry.as_object().expect("object");
        let mut keys: Vec<_> = token.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "accountId",
                "accountTokenId",
                "address",
                "addressPath",
                "balance",
                "contract",
                "decimals",
                "iconUrl",
                "ids",
                "label",
                "name",
                "network",
                "symbol"
            ],
            "a token entry has accountTokenId and contract and no coinId"
        );
        assert_eq!(
            token["accountId"], native["accountId"],
            "repeats its account's id"
        );
        assert_eq!(
            token["address"], native["address"],
            "repeats its account's address"
        );
        assert_ne!(token["accountTokenId"], native["accountId"]);
        assert_eq!(token["symbol"], symbol);
        assert_eq!(token["name"], name);
        assert_eq!(token["decimals"], decimals);
        assert_eq!(token["contract"], contract.to_checksum(None).as_str());
        assert_eq!(token["balance"], "0");
        assert_eq!(token["network"], "anvil");
    }

    // The same body decodes into the shared wire type, and every entry keeps the rule.
    let typed: satchel_api::AccountsResponse = serde_json::from_value(body).expect("the wire type");
    assert!(typed.accounts.iter().all(|a| a.kind().is_some()));
}

pub async fn missing_query_parameters_are_a_400_with_the_error_body(backend: Backend) {
    let stack = Stack::start(backend).await;
    let user = stack.user("ada@example.com").await;
    for path in [
        "/v1/account".to_owned(),
        format!("/v1/account?userId={}", user.user_id),
        format!("/v1/nft?walletId={}", user.wallet_id),
        "/v1/nft/refresh".to_owned(),
    ] {
        let (status, body) = stack.get(&path, &user.token).await;
        assert_error(status, &body, 400, "InvalidParameters");
    }
}

pub async fn an_unknown_wallet_is_a_404(backend: Backend) {
    let stack = Stack::start(backend).await;
    let user = stack.user("ada@example.com").await;
    for op in ["account", "nft", "nft/refresh"] {
        let (status, body) = stack
            .get(
                &format!("/v1/{op}?userId={}&walletId=no-such-wallet", user.user_id),
                &user.token,
            )
            .await;
        assert_error(status, &body, 404, "NotFound");
    }
}
