//! External tokens against the real service and a real example backend on
//! loopback (devstack's `ExampleBackend`: an ES256 issuer with a JWKS and the
//! app's secp256k1 authentication key): `loginWithIdToken` with every way a
//! token or its `sign` can be wrong, and the e-mail registration of an account
//! whose token carries no e-mail (`sendVerifyEmail`, the link, the same token
//! again).

use std::sync::Arc;

use satchel_api::{LoginLibraryError, LoginReply, LoginStatus, Provider, ServiceErrorCode};
use satchel_devstack::ExampleBackend;
use satchel_sdk::{Login, MemoryStore};
use satchel_tests::{Backend, Stack};
use serde_json::json;

/// A stack whose app takes id tokens from a fresh example backend.
async fn stack_with_backend(backend: Backend) -> (Stack, ExampleBackend) {
    let stack = Stack::start(backend).await;
    let example = stack.example_backend().await;
    (stack, example)
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("time")
        .as_secs() as i64
}

/// The claims the example backend puts in a token, with `changes` over them.
fn claims(example: &ExampleBackend, sub: &str, changes: serde_json::Value) -> serde_json::Value {
    let mut claims = json!({
        "iss": example.issuer(),
        "aud": example.app_id(),
        "sub": sub,
        "email": format!("{sub}@example.com"),
        "email_verified": true,
        "iat": now(),
        "exp": now() + 600,
    });
    if let (Some(base), Some(changes)) = (claims.as_object_mut(), changes.as_object()) {
        for (k, v) in changes {
            if v.is_null() {
                base.remove(k);
            } else {
                base.insert(k.clone(), v.clone());
            }
        }
    }
    claims
}

/// Asserts a refused external login: the code, a message naming the reason, and
/// no session kept.
async fn assert_refused(
    login: &Login,
    store: &MemoryStore,
    token: &str,
    sign: &str,
    code: ServiceErrorCode,
    reason: &str,
) {
    let e = login
        .login_with_id_token(token, sign)
        .await
        .expect_err("refused");
    assert!(e.is(code), "{reason}: {e:?}");
    assert!(
        e.message.contains(reason),
        "expected {reason:?} in {:?}",
        e.message
    );
    assert!(
        login
            .get_current_service_user()
            .await
            .expect("no error")
            .is_none(),
        "no session after a refused login"
    );
    assert!(store.is_empty(), "nothing kept after a refused login");
}

pub async fn an_id_token_logs_in_only_with_its_sign_issuer_audience_key_and_time(backend: Backend) {
    let (stack, example) = stack_with_backend(backend).await;
    let store = Arc::new(MemoryStore::default());
    let login = stack.login(store.clone()).await;

    let bad_token = |c| example.mint(c);
    let cases = [
        (
            bad_token(claims(
                &example,
                "u1",
                json!({"iss": "https://elsewhere.example"}),
            )),
            "another issuer",
        ),
        (
            bad_token(claims(&example, "u1", json!({"aud": "another-app"}))),
            "another audience",
        ),
        (
            bad_token(claims(
                &example,
                "u1",
                json!({"exp": now() - 3600, "iat": now() - 7200}),
            )),
            "expired",
        ),
        (
            example.mint_with_kid(claims(&example, "u1", json!({})), "no-such-key"),
            "unknown kid",
        ),
        (
            example.other_key_token(claims(&example, "u1", json!({}))),
            "signature does not verify",
        ),
    ];
    for (token, reason) in &cases {
        // Each token is signed properly by the app's backend: only the token is wrong.
        let sign = example.sign(token);
        assert_refused(
            &login,
            &store,
            token,
            &sign,
            ServiceErrorCode::InvalidToken,
            reason,
        )
        .await;
    }

    // A good token with a bad sign: another key's, another token's, garbage.
    let (token, sign) = example.login_token("u1", Some("u1@example.com"));
    let other_key =
        satchel_api::login_sign::sign_for_login(&"11".repeat(32), &token).expect("sign");
    let (other_token, other_sign) = example.login_token("u2", Some("u2@example.com"));
    assert_ne!(other_token, token);
    for bad in [other_key.as_str(), other_sign.as_str(), "00"] {
        let e = login
            .login_with_id_token(&token, bad)
            .await
            .expect_err("bad sign");
        assert!(
            e.is(ServiceErrorCode::InvalidToken) || e.is(ServiceErrorCode::InvalidParameters),
            "{e:?}"
        );
        assert!(
            login
                .get_current_service_user()
                .await
                .expect("ok")
                .is_none()
        );
    }

    // The real thing logs in, as external_token, and the service makes a user.
    let reply = login
        .login_with_id_token(&token, &sign)
        .await
        .expect("logged in");
    let LoginReply::Success(result) = reply else {
        panic!("expected a login, got {reply:?}");
    };
    assert_eq!(result.provider, Provider::ExternalToken);
    let user = login
        .login_service(result.provider, result.token)
        .await
        .expect("service login");
    let info = user.user_info.expect("user info");
    assert_eq!(info.provider, Provider::ExternalToken);
    assert_eq!(info.email, "u1@example.com");
    assert_eq!(user.user_status.login_status, LoginStatus::RegisterRequired);
    // The same person again is the same user.
    let (again, again_sign) = example.login_token("u1", Some("u1@example.com"));
    let second = stack.login(Arc::new(MemoryStore::default())).await;
    let LoginReply::Success(result) = second
        .login_with_id_token(&again, &again_sign)
        .await
        .expect("again")
    else {
        panic!("expected a login");
    };
    let user2 = second
        .login_service(result.provider, result.token)
        .await
        .expect("service login");
    assert_eq!(user2.user_info.expect("info").user_id, info.user_id);
    // And the identity tokens are not e-mail ones: loginService refuses them as email.
    let (t3, s3) = example.login_token("u1", Some("u1@example.com"));
    let third = stack.login(Arc::new(MemoryStore::default())).await;
    let LoginReply::Success(result) = third.login_with_id_token(&t3, &s3).await.expect("third")
    else {
        panic!("expected a login");
    };
    let e = third
        .login_service(Provider::Email, result.token)
        .await
        .expect_err("not an e-mail login");
    assert!(e.is(ServiceErrorCode::InvalidLoginProvider), "{e:?}");
}

pub async fn an_app_that_does_not_take_external_tokens_refuses_them(backend: Backend) {
    let stack = Stack::start(backend).await;
    let app_id = stack.app_id().await;
    let example = ExampleBackend::start(&app_id)
        .await
        .expect("example backend");
    let login = stack.login(Arc::new(MemoryStore::default())).await;
    let (token, sign) = example.login_token("u1", Some("u1@example.com"));
    let e = login
        .login_with_id_token(&token, &sign)
        .await
        .expect_err("not allowed");
    assert!(e.is(ServiceErrorCode::InvalidLoginProvider), "{e:?}");
    let e = login
        .login_with_access_token("discord", &token, &sign)
        .await
        .expect_err("not allowed");
    assert!(e.is(ServiceErrorCode::InvalidLoginProvider), "{e:?}");
    let e = login
        .login_with_access_token("google", &token, &sign)
        .await
        .expect_err("not an access-token provider");
    assert!(e.is(ServiceErrorCode::InvalidLoginProvider), "{e:?}");
}

pub async fn a_token_without_e_mail_registers_one_then_logs_in_with_the_same_token(
    backend: Backend,
) {
    let (stack, example) = stack_with_backend(backend).await;
    let store = Arc::new(MemoryStore::default());
    let login = stack.login(store.clone()).await;
    let (token, sign) = example.login_token("no-mail", None);

    let reply = login
        .login_with_id_token(&token, &sign)
        .await
        .expect("answered");
    let LoginReply::Failure(refusal) = reply else {
        panic!("expected required/register_email, got {reply:?}");
    };
    assert_eq!(
        refusal.error,
        LoginLibraryError::RequiredRegisterEmail.as_str()
    );
    assert_eq!(refusal.id_token.as_deref(), Some(token.as_str()));
    assert_eq!(refusal.provider, Some(Provider::ExternalToken));
    assert!(store.is_empty(), "no session without an e-mail");

    // Only a token a login was refused for may register an e-mail.
    let (stranger, _) = example.login_token("someone-else", None);
    let e = login
        .send_verify_email("x@example.com", "external_token", &stranger, "")
        .await
        .expect_err("never refused");
    assert!(e.is(ServiceErrorCode::InvalidToken), "{e:?}");
    let e = login
        .send_verify_email("not an address", "external_token", &token, "")
        .await
        .expect_err("bad address");
    assert!(e.is(ServiceErrorCode::IncorrectEmailForm), "{e:?}");

    assert!(
        login
            .send_verify_email("Nomail@Example.com", "external_token", &token, "")
            .await
            .expect("sent")
    );
    // Before the link is opened, the same token is still refused.
    let early = login
        .resume_login(Provider::ExternalToken, &token, "")
        .await
        .expect_err("early");
    assert!(
        early.is(ServiceErrorCode::RequiredEmailVerified),
        "{early:?}"
    );
    let LoginReply::Failure(_) = login
        .login_with_id_token(&token, &sign)
        .await
        .expect("answered")
    else {
        panic!("no e-mail yet");
    };

    let link = stack
        .mail_links("nomail@example.com")
        .pop()
        .expect("the registration e-mail");
    // Following the link (as a mail scanner does) registers nothing; its
    // button does, once.
    let page = stack.http.get(&link).send().await.expect("opened");
    assert_eq!(page.status(), 200);
    assert!(
        page.text()
            .await
            .expect("html")
            .contains("Register my address")
    );
    let (status, _) = satchel_devstack::open_link(&stack.http, &link)
        .await
        .expect("opened");
    assert_eq!(status, 200);
    let (again, _) = satchel_devstack::open_link(&stack.http, &link)
        .await
        .expect("opened");
    assert_eq!(again, 400, "a link works once");

    // The earlier token (and its sign) now logs in, with the registered address.
    let LoginReply::Success(result) = login
        .login_with_id_token(&token, &sign)
        .await
        .expect("logged in")
    else {
        panic!("the e-mail is registered now");
    };
    let user = login
        .login_service(result.provider, result.token)
        .await
        .expect("service login");
    assert_eq!(user.user_info.expect("info").email, "nomail@example.com");
    assert!(!store.is_empty(), "the session is kept");

    // The widget's way back in: the refused token resumes the login once.
    let widget = stack.login(Arc::new(MemoryStore::default())).await;
    let result = widget
        .resume_login(Provider::ExternalToken, &token, "")
        .await
        .expect("resumed");
    assert_eq!(result.provider, Provider::ExternalToken);
    let e = widget
        .resume_login(Provider::ExternalToken, &token, "")
        .await
        .expect_err("used up");
    assert!(e.is(ServiceErrorCode::InvalidToken), "{e:?}");
}

/// A widget of the stack's app over `store`.
async fn widget(stack: &Stack, store: Arc<MemoryStore>) -> satchel_sdk::Widget {
    let login = Login::new(stack.app_id().await, &stack.app_key, store.clone());
    let widget = satchel_sdk::Widget::new(Arc::new(login), store)
        .with_networks(stack.service.network_table());
    widget.init(stack.sdk_config()).await.expect("initialised");
    widget
}

pub async fn the_widget_registers_an_e_mail_without_the_page_holding_a_token(backend: Backend) {
    use satchel_api::ServiceLifeCycle;
    use satchel_sdk::ExternalLoginOutcome;
    let (stack, example) = stack_with_backend(backend).await;
    let w = Arc::new(widget(&stack, Arc::new(MemoryStore::default())).await);

    // The widget's own token login: refused for want of an e-mail, the page
    // learns only the provider.
    let (token, sign) = example.login_token("widget-user", None);
    let outcome = w
        .login_with_id_token(&token, &sign)
        .await
        .expect("answered");
    let ExternalLoginOutcome::RegisterEmail(prompt) = outcome.clone() else {
        panic!("expected the e-mail registration, got {outcome:?}");
    };
    assert_eq!(prompt.provider, Provider::ExternalToken);
    let shown = serde_json::to_string(&outcome).expect("json");
    assert!(!shown.contains(&token), "the token never reaches the page");
    assert_eq!(w.get_status(), ServiceLifeCycle::BeforeLogin);
    let early = w.resume_login().await.expect_err("not verified");
    assert!(
        early.is(ServiceErrorCode::RequiredEmailVerified),
        "{early:?}"
    );
    assert!(
        w.send_verify_email("widget@example.com")
            .await
            .expect("sent")
    );
    let link = stack
        .mail_links("widget@example.com")
        .pop()
        .expect("e-mail");
    assert_eq!(
        satchel_devstack::open_link(&stack.http, &link)
            .await
            .expect("opened")
            .0,
        200
    );
    let user = w.resume_login().await.expect("logged in");
    assert_eq!(user.user_info.expect("info").email, "widget@example.com");
    assert_eq!(w.get_status(), ServiceLifeCycle::LoginBeforeRegister);

    // An application's registerUserEmail: the page is asked to show the form,
    // and the call resolves once the login resumed.
    let other = Arc::new(widget(&stack, Arc::new(MemoryStore::default())).await);
    let (token, _) = example.login_token("app-user", None);
    let second = stack.login(Arc::new(MemoryStore::default())).await;
    let LoginReply::Failure(_) = second
        .login_with_id_token(&token, &example.sign(&token))
        .await
        .expect("answered")
    else {
        panic!("no e-mail yet");
    };
    let mut requests = other.watch_register_email_requests();
    let waiting = tokio::spawn({
        let other = other.clone();
        let token = token.clone();
        async move {
            other
                .register_user_email("external_token", &token, "")
                .await
        }
    });
    requests.changed().await.expect("a request");
    assert_eq!(
        requests.borrow_and_update().map(|p| p.provider),
        Some(Provider::ExternalToken)
    );
    assert!(
        other
            .send_verify_email("app-user@example.com")
            .await
            .expect("sent")
    );
    let link = stack
        .mail_links("app-user@example.com")
        .pop()
        .expect("e-mail");
    assert_eq!(
        satchel_devstack::open_link(&stack.http, &link)
            .await
            .expect("opened")
            .0,
        200
    );
    other.resume_login().await.expect("resumed");
    let user = waiting.await.expect("joined").expect("the user");
    assert_eq!(user.user_info.expect("info").email, "app-user@example.com");
}
