//! Who may call: the app headers, the bearer token, and whose ids may be asked for.

use alloy::signers::local::PrivateKeySigner;
use reqwest::StatusCode;
use satchel_service::admin;
use satchel_tests::{Backend, Stack, User, send};
use serde_json::Value;

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

/// Wepin's web client (`@wepin/fetch-js`) sends an empty `X-API-DOMAIN` when the
/// app's domain contains "localhost". The service takes it as `localhost` for an
/// app key registered for `localhost` alone, and refuses it (400, as a missing
/// one) for any other app's key (a key that is no app's is a 401, as with any
/// domain); a missing header stays a 400 for every key.
pub async fn an_empty_domain_is_taken_only_for_a_localhost_only_app(backend: Backend) {
    let stack = Stack::start(backend).await;
    let db = &stack.service.state.db;

    // A localhost-only app: all four operations answer with an empty domain.
    let local = admin::create_app(db, "Local", &["localhost".into()])
        .await
        .expect("app");
    let lou = app_user(&stack, &local.app_id, "lou@example.com").await;
    let accounts = format!("/v1/account?{}", lou.wallet_query());
    let (status, body) = get_as(&stack, &local.app_key, Some(""), &lou.token, &accounts).await;
    assert_eq!(status, 200, "{body}");
    let account_id = body["accounts"][0]["accountId"]
        .as_str()
        .expect("an accountId")
        .to_owned();
    for (name, path) in operations(&lou, &account_id) {
        let (status, body) = get_as(&stack, &local.app_key, Some(""), &lou.token, &path).await;
        assert_eq!(status, 200, "{name}: {body}");
        match name {
            "accounts" => assert!(body["accounts"].as_array().is_some_and(|a| !a.is_empty())),
            "balance" => assert!(body["balance"].is_string(), "{name}: {body}"),
            _ => assert!(body["nfts"].is_array(), "{name}: {body}"),
        }
    }
    // The same key with its domain spelt out, or with another, is as before.
    let (status, body) = get_as(
        &stack,
        &local.app_key,
        Some("localhost"),
        &lou.token,
        &accounts,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = get_as(
        &stack,
        &local.app_key,
        Some("evil.example"),
        &lou.token,
        &accounts,
    )
    .await;
    assert_error(status, &body, 403, "InvalidDomain");
    // Missing is still missing.
    let (status, body) = get_as(&stack, &local.app_key, None, &lou.token, &accounts).await;
    assert_error(status, &body, 400, "InvalidParameters");
    // The empty domain loosens nothing else: another app's token is refused.
    let ada = stack.user("ada@example.com").await;
    let (status, body) = get_as(&stack, &local.app_key, Some(""), &ada.token, &accounts).await;
    assert_error(status, &body, 401, "InvalidToken");

    // An app with a real domain: refused on every operation, as before.
    let ada_account = first_account_id(&stack, &ada).await;
    for (name, path) in operations(&ada, &ada_account) {
        let (status, body) = get_as(&stack, &stack.app_key, Some(""), &ada.token, &path).await;
        assert_error(status, &body, 400, "InvalidParameters");
        assert!(
            body["message"]
                .as_str()
                .is_some_and(|m| m.contains("X-API-DOMAIN")),
            "{name}: {body}"
        );
    }

    // An app with localhost and a real domain: refused too, though each of its
    // domains spelt out is taken.
    let mixed = admin::create_app(db, "Mixed", &["localhost".into(), "shop.example".into()])
        .await
        .expect("app");
    let max = app_user(&stack, &mixed.app_id, "max@example.com").await;
    let max_account = {
        let path = format!("/v1/account?{}", max.wallet_query());
        let (status, body) = get_as(
            &stack,
            &mixed.app_key,
            Some("shop.example"),
            &max.token,
            &path,
        )
        .await;
        assert_eq!(status, 200, "{body}");
        let (status, body) =
            get_as(&stack, &mixed.app_key, Some("localhost"), &max.token, &path).await;
        assert_eq!(status, 200, "{body}");
        body["accounts"][0]["accountId"]
            .as_str()
            .expect("an accountId")
            .to_owned()
    };
    for (_, path) in operations(&max, &max_account) {
        let (status, body) = get_as(&stack, &mixed.app_key, Some(""), &max.token, &path).await;
        assert_error(status, &body, 400, "InvalidParameters");
    }

    // A key that is no app's, with an empty domain: refused for the key, as with
    // any other domain.
    let (status, body) = get_as(&stack, "sk_not_a_key", Some(""), &lou.token, &accounts).await;
    assert_error(status, &body, 401, "InvalidAppKey");
}

/// A user of `app_id` (not the stack's test app) with a wallet and a token.
async fn app_user(stack: &Stack, app_id: &str, email: &str) -> User {
    let state = &stack.service.state;
    let user_id = admin::create_email_account(state, app_id, email, "correct1horse")
        .await
        .expect("user");
    let signer = PrivateKeySigner::random();
    let wallet_id = admin::create_wallet(state, &user_id, &signer.address().to_string())
        .await
        .expect("wallet");
    let token = admin::mint_access_token(state, &user_id, 600)
        .await
        .expect("token");
    User {
        user_id,
        wallet_id,
        signer,
        token,
    }
}

/// A GET as a web client sends it: the app's key, `domain` as `X-API-DOMAIN`
/// (`None`: no such header), `web_rest_api`, and the bearer token.
async fn get_as(
    stack: &Stack,
    app_key: &str,
    domain: Option<&str>,
    token: &str,
    path: &str,
) -> (StatusCode, Value) {
    let mut request = stack
        .http
        .get(stack.url(path))
        .header("X-API-KEY", app_key)
        .header("X-SDK-TYPE", "web_rest_api")
        .header("Content-Type", "application/json")
        .bearer_auth(token);
    if let Some(domain) = domain {
        request = request.header("X-API-DOMAIN", domain);
    }
    send(request).await
}

/// A web page of the app's registered domain may read the four operations
/// (its preflight answered, its origin named back); a page of any other
/// origin gets no CORS headers (the browser refuses it), and a request whose
/// origin is not the domain it names is refused outright.
pub async fn only_a_page_of_a_registered_domain_may_read_across_origins(backend: Backend) {
    let stack = Stack::start(backend).await;
    let user = stack.user("ada@example.com").await;
    let account_id = first_account_id(&stack, &user).await;
    let own = format!("https://{}", stack.domain);
    let allowed_origin = |response: &reqwest::Response| {
        response
            .headers()
            .get("access-control-allow-origin")
            .map(|v| v.to_str().unwrap_or_default().to_owned())
    };
    for (name, path) in operations(&user, &account_id) {
        let url = stack.url(&path);
        let preflight = |origin: &str| {
            stack
                .http
                .request(reqwest::Method::OPTIONS, &url)
                .header("Origin", origin)
                .header("Access-Control-Request-Method", "GET")
                .header(
                    "Access-Control-Request-Headers",
                    "authorization,x-api-key,x-api-domain,x-sdk-type,x-sdk-version",
                )
        };
        let answer = preflight(&own).send().await.expect("preflight");
        assert!(
            answer.status().is_success(),
            "{name}: preflight {}",
            answer.status()
        );
        assert_eq!(
            allowed_origin(&answer).as_deref(),
            Some(own.as_str()),
            "{name}"
        );
        let headers = answer
            .headers()
            .get("access-control-allow-headers")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_ascii_lowercase();
        assert!(
            headers.contains("x-api-key") && headers.contains("authorization"),
            "{name}: {headers}"
        );

        let answer = preflight("https://evil.example")
            .send()
            .await
            .expect("preflight");
        assert_eq!(
            allowed_origin(&answer),
            None,
            "{name}: another origin is not named"
        );
        let answer = preflight(&format!("http://{}", stack.domain))
            .send()
            .await
            .expect("preflight");
        assert_eq!(
            allowed_origin(&answer),
            None,
            "{name}: plain http off loopback is not named"
        );

        let read = |origin: &str| {
            stack
                .app_request(&path)
                .bearer_auth(&user.token)
                .header("Origin", origin)
        };
        let answer = read(&own).send().await.expect("read");
        assert_eq!(answer.status(), StatusCode::OK, "{name}");
        assert_eq!(
            allowed_origin(&answer).as_deref(),
            Some(own.as_str()),
            "{name}"
        );

        // A page of another origin that names the app's domain is refused.
        let (status, body) = send(read("https://evil.example")).await;
        assert_error(status, &body, 403, "InvalidDomain");
    }
}

/// What a page's script got for one operation: its status, or the browser's
/// refusal (`TypeError: Failed to fetch` when the answer may not be read).
const FETCH_FOUR: &str = r#"
const [base, paths, key, domain, token, done] = arguments;
Promise.all(paths.map((path) =>
  fetch(base + path.slice(1), {
    headers: { 'X-API-KEY': key, 'X-API-DOMAIN': domain, 'X-SDK-TYPE': 'web_rest_api',
               'Content-Type': 'application/json', 'Authorization': 'Bearer ' + token },
  }).then(async (r) => ({ status: r.status, body: await r.json() }),
          (e) => ({ refused: String(e) }))
)).then(done);
"#;

/// A page served from `http://<host>:<port>/`, nothing in it: the origin a
/// script runs at.
async fn blank_page() -> anyhow::Result<u16> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
    let port = listener.local_addr()?.port();
    let router = axum::Router::new().route(
        "/",
        axum::routing::get(|| async { axum::response::Html("<!doctype html><title>shop</title>") }),
    );
    tokio::spawn(async move { axum::serve(listener, router).await });
    Ok(port)
}

/// In headless Chromium: a page of a registered domain reads the four
/// operations with `fetch` (the browser's own preflight answered); the same
/// script on a page of another site is refused by the browser.
pub async fn a_page_in_a_browser_reads_the_four_operations_only_from_a_registered_domain() {
    if let Some(missing) = satchel_devstack::browser::missing_tools() {
        panic!("the browser test needs {missing} (scripts/setup.sh installs it)");
    }
    let stack = Stack::start(Backend::Sqlite).await;
    let user = stack.user("ada@example.com").await;
    let account_id = first_account_id(&stack, &user).await;
    let app_id = stack.app_id().await;
    // The shop's page is served on loopback as `localhost` (registered) and as
    // `shop.test` (not registered; Chromium maps the name to loopback).
    stack
        .service
        .state
        .db
        .add_app_domain(&app_id, "localhost")
        .await
        .expect("a domain");
    let port = blank_page().await.expect("a page");
    let browser =
        satchel_devstack::Browser::start_with(&["--host-resolver-rules=MAP shop.test 127.0.0.1"])
            .await
            .expect("the browser");
    let paths: Vec<String> = operations(&user, &account_id)
        .into_iter()
        .map(|(_, path)| path)
        .collect();
    let read_from = |page: String, domain: &'static str| {
        let (browser, paths) = (&browser, paths.clone());
        let args = vec![
            Value::from(stack.service.base_url.to_string()),
            serde_json::json!(paths),
            Value::from(stack.app_key.clone()),
            Value::from(domain),
            Value::from(user.token.clone()),
        ];
        async move {
            browser.open(&page).await.expect("the page");
            // The shop's page itself, not an error page (whose fetches fail too).
            let title = browser.client().title().await.expect("a title");
            assert_eq!(title, "shop", "{page} loaded");
            browser
                .client()
                .execute_async(FETCH_FOUR, args)
                .await
                .expect("the script ran")
        }
    };

    let answers = read_from(format!("http://localhost:{port}/"), "localhost").await;
    let answers = answers.as_array().cloned().unwrap_or_default();
    assert_eq!(answers.len(), 4, "{answers:?}");
    for answer in &answers {
        assert_eq!(answer["status"], 200, "the registered page reads: {answer}");
    }
    assert_eq!(
        answers[0]["body"]["accounts"][0]["accountId"], account_id,
        "operation 1 answers the user's own accounts"
    );

    let refused = read_from(format!("http://shop.test:{port}/"), "shop.test").await;
    for answer in refused.as_array().cloned().unwrap_or_default() {
        assert!(
            answer["refused"]
                .as_str()
                .is_some_and(|e| e.contains("Failed to fetch")),
            "the browser refuses another site's page: {answer}"
        );
    }
    browser.close().await;
}
