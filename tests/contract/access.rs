//! Who may call: the app headers, the bearer token, and whose ids may be asked for.

use satchel_service::admin;
use satchel_tests::{Backend, Stack, send};

use crate::{assert_error, first_account_id, operations};

pub async fn every_operation_refuses_missing_or_wrong_app_headers(backend: Backend) {
    let stack = Stack::start(backend).await;
    let user = stack.user("ada@example.com").await;
    let account_id = first_account_id(&stack, &user).await;
    let other_app = admin::create_app(&stack.service.state.db, "Other", &["other.example".into()])
        .await
        .expect("app");

    for (name, path) in operations(&user, &account_id) {
        let url = stack.url(&path);
        let bare = || stack.http.get(&url).bearer_auth(&user.token);

        let (status, body) = send(
            bare()
                .header("X-API-DOMAIN", &stack.domain)
                .header("X-SDK-TYPE", "desktop_rest_api"),
        )
        .await;
        assert_error(status, &body, 401, "InvalidAppKey");

        let (status, body) = send(
            bare()
                .header("X-API-KEY", "sk_not_a_key")
                .header("X-API-DOMAIN", &stack.domain)
                .header("X-SDK-TYPE", "desktop_rest_api"),
        )
        .await;
        assert_error(status, &body, 401, "InvalidAppKey");

        let (status, body) = send(
            bare()
                .header("X-API-KEY", &stack.app_key)
                .header("X-API-DOMAIN", "evil.example")
                .header("X-SDK-TYPE", "desktop_rest_api"),
        )
        .await;
        assert_error(status, &body, 403, "InvalidDomain");

        // Another app's key with its own domain: the token was not issued for it.
        let (status, body) = send(
            bare()
                .header("X-API-KEY", &other_app.app_key)
                .header("X-API-DOMAIN", "other.example")
                .header("X-SDK-TYPE", "desktop_rest_api"),
        )
        .await;
        assert_error(status, &body, 401, "InvalidToken");

        let (status, body) = send(
            bare()
                .header("X-API-KEY", &stack.app_key)
                .header("X-SDK-TYPE", "desktop_rest_api"),
        )
        .await;
        assert_error(status, &body, 400, "InvalidParameters");

        let (status, body) = send(
            bare()
                .header("X-API-KEY", &stack.app_key)
                .header("X-API-DOMAIN", &stack.domain),
        )
        .await;
        assert_error(status, &body, 400, "InvalidParameters");
        assert!(
            body["message"]
                .as_str()
                .is_some_and(|m| m.contains("X-SDK-TYPE")),
            "{name}: {body}"
        );
    }
}

pub async fn every_operation_refuses_missing_garbled_expired_or_foreign_tokens(backend: Backend) {
    let stack = Stack::start(backend).await;
    let user = stack.user("ada@example.com").await;
    let account_id = first_account_id(&stack, &user).await;
    let state = &stack.service.state;
    let app_id = state
        .db
        .user_app(&user.user_id)
        .await
        .expect("db")
        .expect("app");
    let session = state
        .db
        .create_session(&user.user_id, None, 600)
        .await
        .expect("session");
    let expired = state
        .keys
        .mint_access(&user.user_id, &app_id, &session, -120)
        .expect("token");
    // Signed by a service that is not this one (its own database, its own key).
    let stranger = Stack::start(Backend::Sqlite).await;
    let stranger_user = stranger.user("eve@example.com").await;

    for (name, path) in operations(&user, &account_id) {
        let (status, body) = send(stack.app_request(&path)).await;
        assert_error(status, &body, 401, "InvalidToken");
        assert!(
            body["message"]
                .as_str()
                .is_some_and(|m| m.contains("Bearer")),
            "{name}: {body}"
        );

        let (status, body) = send(
            stack
                .app_request(&path)
                .header("Authorization", "Basic abc"),
        )
        .await;
        assert_error(status, &body, 401, "InvalidToken");

        for garbled in [
            "not.a.jwt",
            "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.",
            &user.token[..user.token.len() - 4],
        ] {
            let (status, body) = stack.get(&path, garbled).await;
            assert_error(status, &body, 401, "InvalidToken");
        }

        let (status, body) = stack.get(&path, &expired).await;
        assert_error(status, &body, 401, "InvalidToken");
        assert!(
            body["message"]
                .as_str()
                .is_some_and(|m| m.contains("expired")),
            "{name}: {body}"
        );

        let (status, body) = stack.get(&path, &stranger_user.token).await;
        assert_error(status, &body, 401, "InvalidToken");
    }
}

pub async fn a_revoked_session_is_refused(backend: Backend) {
    let stack = Stack::start(backend).await;
    let user = stack.user("ada@example.com").await;
    let account_id = first_account_id(&stack, &user).await;
    let state = &stack.service.state;
    let sid = state.keys.verify_access(&user.token).expect("valid").sid;
    state.revoke_session(&sid).await.expect("revoked");
    for (_, path) in operations(&user, &account_id) {
        let (status, body) = stack.get(&path, &user.token).await;
        assert_error(status, &body, 401, "InvalidLoginSession");
    }
}

pub async fn another_users_ids_get_403_and_no_data(backend: Backend) {
    let stack = Stack::start(backend).await;
    let ada = stack.user("ada@example.com").await;
    let bob = stack.user("bob@example.com").await;
    let bobs_account = first_account_id(&stack, &bob).await;
    stack
        .demo
        .mint_pal(bob.address(), "Bob's", "#123456")
        .await
        .expect("minted");

    let attempts = [
        // Bob's user id and wallet, with Ada's token.
        format!("/v1/account?{}", bob.wallet_query()),
        format!("/v1/nft?{}", bob.wallet_query()),
        format!("/v1/nft/refresh?{}", bob.wallet_query()),
        // Ada's user id with Bob's wallet.
        format!(
            "/v1/account?userId={}&walletId={}",
            ada.user_id, bob.wallet_id
        ),
        format!("/v1/nft?userId={}&walletId={}", ada.user_id, bob.wallet_id),
        format!(
            "/v1/nft/refresh?userId={}&walletId={}",
            ada.user_id, bob.wallet_id
        ),
        // Bob's user id with Ada's wallet.
        format!(
            "/v1/account?userId={}&walletId={}",
            bob.user_id, ada.wallet_id
        ),
        // Bob's account.
        format!("/v1/accountbalance/{bobs_account}/balance"),
    ];
    for path in attempts {
        let (status, body) = stack.get(&path, &ada.token).await;
        assert_error(status, &body, 403, "Forbidden");
        let text = body.to_string();
        assert!(
            !text.contains(&bob.address().to_checksum(None)) && !text.contains("Bob's"),
            "{path}: {text}"
        );
    }
    // Bob's refresh was never run on Ada's behalf: his NFTs are still unknown.
    let (_, body) = stack
        .get(&format!("/v1/nft?{}", bob.wallet_query()), &bob.token)
        .await;
    assert_eq!(body["nfts"], serde_json::json!([]));
}
