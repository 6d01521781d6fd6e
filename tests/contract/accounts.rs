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

/// Operation 1 keeps the body it rendered with the wallet; a change drops it,
/// and a rendering read before a change is never kept after it.
pub async fn a_kept_account_list_goes_with_a_change_and_is_never_kept_from_before_it(
    backend: Backend,
) {
    use satchel_service::db::WalletFound;
    let stack = Stack::start(backend).await;
    let db = &stack.service.state.db;
    let by = &stack.service.state.accounts_rendered_by;
    let ada = stack.user("ada@example.com").await;
    let session = |token: &str| -> String {
        let claims: serde_json::Value =
            serde_json::from_slice(&base64_url(token.split('.').nth(1).expect("claims")))
                .expect("claims JSON");
        claims["sid"].as_str().expect("sid").to_owned()
    };
    let sid = session(&ada.token);
    let found = |rendered_by: String| {
        let (wallet, sid, user) = (ada.wallet_id.clone(), sid.clone(), ada.user_id.clone());
        async move {
            let (live, found) = db
                .wallet_for_session(&wallet, &sid, &user, &rendered_by)
                .await
                .expect("read");
            assert!(live, "the session is live");
            found.expect("the wallet")
        }
    };

    // Not read yet: rows to render. Read once: its body is kept.
    assert!(matches!(found(by.to_string()).await, WalletFound::Rows(_)));
    let (status, first) = stack
        .get(&format!("/v1/account?{}", ada.wallet_query()), &ada.token)
        .await;
    assert_eq!(status, 200, "{first}");
    // Written back after the answer, in a batch.
    stack.service.state.kept_bodies.flush().await;
    let WalletFound::Kept { body, .. } = found(by.to_string()).await else {
        panic!("the body is kept after a read");
    };
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&body).expect("JSON"),
        first
    );
    // Another set-up (another version or other networks) renders its own.
    let WalletFound::Rows(before) = found("another set-up".to_owned()).await else {
        panic!("a body kept by another set-up is not served");
    };

    // A change after that read: a rendering of what was read before it is
    // refused, and the kept body is gone.
    db.rename_account(&ada.wallet_id, &before.accounts[0].address, "Rent")
        .await
        .expect("renamed");
    let stale = satchel_service::db::KeptBody {
        wallet_id: ada.wallet_id.clone(),
        version: before.version,
        body: "stale".to_owned(),
    };
    db.keep_accounts_bodies(by, &[stale])
        .await
        .expect("asked to keep");
    let WalletFound::Rows(after) = found(by.to_string()).await else {
        panic!("nothing kept from before the change");
    };
    assert!(after.version > before.version);
    assert_eq!(after.accounts[0].label, "Rent");
    // The next read (the service forgot its own copy when it was not the
    // one that changed it: ask after its read cache) renders the change.
    stack.service.state.forget_wallet(&ada.wallet_id);
    let (_, renamed) = stack
        .get(&format!("/v1/account?{}", ada.wallet_query()), &ada.token)
        .await;
    assert_eq!(renamed["accounts"][0]["label"], "Rent", "{renamed}");
    stack.service.state.kept_bodies.flush().await;
    assert!(matches!(
        found(by.to_string()).await,
        WalletFound::Kept { .. }
    ));
}

fn base64_url(text: &str) -> Vec<u8> {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(text)
        .expect("base64url")
}
