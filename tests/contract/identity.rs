//! Identity and the login library against the real service: sign-up with the
//! e-mail in the outbox, verification, login, service login, token rotation,
//! logout, every error of the e-mail methods from a request that causes it, an
//! unverified sign-up that gives way to the address's owner, and the password
//! reset by e-mail link.
//! Every error of the identity methods comes from a real request that causes it.

use std::sync::Arc;
use std::time::Duration;

use satchel_api::{LoginLibraryError, LoginStatus, Outcome, Provider, ServiceErrorCode};
use satchel_sdk::{ErrorCode, Login, MemoryStore, SdkErrorCode, SignUpWait, TokenStore};
use satchel_tests::{Backend, Stack, send};

use crate::assert_error;

use satchel_tests::PASSWORD;

fn login_code(code: LoginLibraryError) -> ErrorCode {
    ErrorCode::Login(code)
}

async fn signed_in(stack: &Stack, email: &str) -> (Login, Arc<MemoryStore>) {
    let store = Arc::new(MemoryStore::default());
    (stack.sign_in(email, store.clone()).await, store)
}

pub async fn sign_up_verify_log_in_and_log_out(backend: Backend) {
    let stack = Stack::start(backend).await;
    let login = stack.login(Arc::new(MemoryStore::default())).await;

    let sent = login
        .sign_up_with_email_and_password("Ada@Example.com", PASSWORD, false)
        .await
        .expect_err("verification comes first");
    assert_eq!(
        sent.code,
        login_code(LoginLibraryError::EmailVerificationRequired)
    );
    let early = login
        .login_with_email_and_password("ada@example.com", PASSWORD)
        .await
        .expect_err("unverified");
    assert!(
        early.is(ServiceErrorCode::RequiredEmailVerified),
        "{early:?}"
    );

    let link = stack
        .verification_link("ada@example.com")
        .expect("the e-mail is in the outbox");
    // A mail scanner that follows the link verifies nothing: the page only asks.
    for _ in 0..2 {
        let page = stack.http.get(&link).send().await.expect("opened");
        assert_eq!(page.status(), 200);
        assert!(
            page.text()
                .await
                .expect("html")
                .contains("Verify my address")
        );
    }
    let still = login
        .login_with_email_and_password("ada@example.com", PASSWORD)
        .await
        .expect_err("still unverified");
    assert!(
        still.is(ServiceErrorCode::RequiredEmailVerified),
        "{still:?}"
    );
    // Its button does, once.
    let (status, html) = satchel_devstack::open_link(&stack.http, &link)
        .await
        .expect("opened");
    assert_eq!(status, 200);
    assert!(html.contains("verified"), "{html}");
    let (again, _) = satchel_devstack::open_link(&stack.http, &link)
        .await
        .expect("opened");
    assert_eq!(again, 400, "a link works once");

    let result = login
        .login_with_email_and_password("ada@example.com", PASSWORD)
        .await
        .expect("logged in");
    assert_eq!(result.provider, Provider::Email);
    let user = login
        .login_service(result.provider, result.token.clone())
        .await
        .expect("service login");
    assert_eq!(user.status, Outcome::Success);
    assert_eq!(user.user_status.login_status, LoginStatus::RegisterRequired);
    assert_eq!(user.wallet_id, None);
    let info = user.user_info.clone().expect("userInfo");
    assert_eq!(
        (info.email.as_str(), info.provider, info.use_2fa),
        ("ada@example.com", Provider::Email, false)
    );
    assert_eq!(
        login
            .get_current_service_user()
            .await
            .expect("current")
            .map(|u| u.user_info),
        Some(user.user_info)
    );

    let session = login.session().await.expect("store").expect("a session");
    assert!(login.logout().await.expect("logged out"));
    let (status, body) = stack
        .post(
            "/v1/auth/service/refresh",
            serde_json::json!({"refreshToken": session.service.refresh_token}),
        )
        .await;
    assert_error(status, &body, 401, "InvalidLoginSession");
    let (status, body) = stack
        .post(
            "/v1/auth/identity/refresh",
            serde_json::json!({"refreshToken": session.identity.refresh_token}),
        )
        .await;
    assert_error(status, &body, 401, "InvalidLoginSession");
    let (status, body) = stack
        .get(
            &format!("/v1/account?userId={}&walletId=x", session.user_id),
            &session.service.access_token,
        )
        .await;
    assert_error(status, &body, 401, "InvalidLoginSession");
    let old_identity = login
        .login_service(Provider::Email, session.identity)
        .await
        .expect_err("identity ended too");
    assert!(
        old_identity.is(ServiceErrorCode::InvalidLoginSession),
        "{old_identity:?}"
    );
    let twice = login.logout().await.expect_err("already");
    assert_eq!(twice.code, login_code(LoginLibraryError::AlreadyLogout));
    assert_eq!(
        login.get_current_service_user().await.expect("no error"),
        None
    );
}

pub async fn refresh_token_reuse_revokes_the_family(backend: Backend) {
    let stack = Stack::start_with(backend, |s| s.refresh_reuse_grace_secs = 0).await;
    let (login, _) = signed_in(&stack, "ada@example.com").await;
    let identity_refresh = login
        .session()
        .await
        .expect("store")
        .expect("session")
        .identity
        .refresh_token;
    let first = login
        .session()
        .await
        .expect("store")
        .expect("session")
        .service;
    let refresh = |token: &str| {
        stack.post(
            "/v1/auth/service/refresh",
            serde_json::json!({"refreshToken": token}),
        )
    };

    let (status, second) = refresh(&first.refresh_token).await;
    assert_eq!(status, 200, "{second}");
    let second_refresh = second["refreshToken"].as_str().expect("rotated").to_owned();
    assert_ne!(second_refresh, first.refresh_token);

    let (status, body) = refresh(&first.refresh_token).await;
    assert_error(status, &body, 401, "InvalidLoginSession");
    let (status, body) = refresh(&second_refresh).await;
    assert_error(status, &body, 401, "InvalidLoginSession");
    let access = second["accessToken"].as_str().expect("access");
    let (status, body) = stack.get("/v1/auth/service/user", access).await;
    assert_error(status, &body, 401, "InvalidLoginSession");
    // The whole login ended: the identity session it came from too, so a thief
    // holding the identity refresh token cannot make a new service session.
    let (status, body) = stack
        .post(
            "/v1/auth/identity/refresh",
            serde_json::json!({"refreshToken": identity_refresh}),
        )
        .await;
    assert_error(status, &body, 401, "InvalidLoginSession");

    // The identity side rotates and detects reuse the same way.
    let (login, _) = signed_in(&stack, "bob@example.com").await;
    let identity = login
        .session()
        .await
        .expect("store")
        .expect("session")
        .identity;
    let renewed = login.get_refresh_identity_token().await.expect("renewed");
    assert_ne!(renewed.token.refresh_token, identity.refresh_token);
    let (status, body) = stack
        .post(
            "/v1/auth/identity/refresh",
            serde_json::json!({"refreshToken": identity.refresh_token}),
        )
        .await;
    assert_error(status, &body, 401, "InvalidLoginSession");
    let e = login
        .get_refresh_identity_token()
        .await
        .expect_err("the family ended");
    assert!(e.is(ServiceErrorCode::InvalidLoginSession), "{e:?}");
}

pub async fn a_retried_refresh_is_renewed_and_an_ended_login_ends_its_sessions(backend: Backend) {
    let stack = Stack::start(backend).await; // the default grace: 10 s
    let (login, _) = signed_in(&stack, "ada@example.com").await;
    let tokens = login.session().await.expect("store").expect("session");
    let refresh = |token: String| {
        stack.post(
            "/v1/auth/service/refresh",
            serde_json::json!({"refreshToken": token}),
        )
    };
    // The answer to the first refresh was lost: the client sends the same token
    // again at once, and is renewed rather than logged out.
    let (status, first) = refresh(tokens.service.refresh_token.clone()).await;
    assert_eq!(status, 200, "{first}");
    let (status, retried) = refresh(tokens.service.refresh_token.clone()).await;
    assert_eq!(status, 200, "a retry within the grace: {retried}");
    assert_eq!(
        retried["refreshToken"], first["refreshToken"],
        "the retry gets the same next token: never two live ones"
    );
    let (status, body) = refresh(retried["refreshToken"].as_str().expect("token").to_owned()).await;
    assert_eq!(status, 200, "{body}");

    // A second service session from the same identity login, then that login
    // ends (reuse of its identity refresh token after the grace is simulated by
    // logging out): every service session made from it ends with it.
    let (status, other) = stack
        .post(
            "/v1/auth/service/login",
            serde_json::json!({"provider": "email", "token": {"idToken": tokens.identity.id_token, "refreshToken": tokens.identity.refresh_token}}),
        )
        .await;
    assert_eq!(status, 200, "{other}");
    let other_refresh = other["token"]["refreshToken"]
        .as_str()
        .expect("token")
        .to_owned();
    login.logout().await.expect("logged out");
    let (status, body) = refresh(other_refresh).await;
    assert_error(status, &body, 401, "InvalidLoginSession");
}

pub async fn an_expired_or_refused_access_token_is_renewed_transparently(backend: Backend) {
    let stack = Stack::start(backend).await;
    let (login, store) = signed_in(&stack, "ada@example.com").await;
    let key = format!(
        "session:{}@{}",
        stack.app_id().await,
        stack.service.base_url.origin().ascii_serialization()
    );
    let mut session = login.session().await.expect("store").expect("session");
    let user_id = session.user_id.clone();
    let claims = stack
        .service
        .state
        .keys
        .verify_access(&session.service.access_token)
        .expect("valid");

    // Expired: renewed before it is sent.
    session.service.access_token = stack
        .service
        .state
        .keys
        .mint_access(&user_id, &claims.app, &claims.sid, -30)
        .expect("minted");
    store
        .save(&key, &serde_json::to_string(&session).expect("json"))
        .expect("saved");
    let restarted = stack.login(store.clone()).await;
    let user = restarted
        .get_current_service_user()
        .await
        .expect("no error")
        .expect("still logged in");
    assert_eq!(user.user_info.map(|i| i.user_id), Some(user_id.clone()));
    let renewed = restarted.session().await.expect("store").expect("session");
    assert_ne!(renewed.service.access_token, session.service.access_token);
    assert_ne!(
        renewed.service.refresh_token, session.service.refresh_token,
        "the refresh token rotated"
    );

    // Unexpired but refused by the service (a bad signature): renewed after the 401.
    let mut forged = renewed.clone();
    let token = &forged.service.access_token;
    let (head, signature) = token.rsplit_once('.').expect("a JWT");
    let flipped = if signature.starts_with('A') { "B" } else { "A" };
    forged.service.access_token = format!("{head}.{flipped}{}", &signature[1..]);
    store
        .save(&key, &serde_json::to_string(&forged).expect("json"))
        .expect("saved");
    let restarted = stack.login(store.clone()).await;
    let user = restarted
        .get_current_service_user()
        .await
        .expect("no error")
        .expect("still logged in");
    assert_eq!(user.user_info.map(|i| i.user_id), Some(user_id));
}

pub async fn tampered_foreign_and_wrong_purpose_tokens_are_refused(backend: Backend) {
    let stack = Stack::start(backend).await;
    let (login, _) = signed_in(&stack, "ada@example.com").await;
    let session = login.session().await.expect("store").expect("session");
    let service_login = |id_token: String| {
        stack.post(
            "/v1/auth/service/login",
            serde_json::json!({"provider": "email", "token": {"idToken": id_token, "refreshToken": "x"}}),
        )
    };
    let mut tampered = session.identity.id_token.clone().into_bytes();
    let middle = tampered.len() / 2;
    tampered[middle] = if tampered[middle] == b'a' { b'b' } else { b'a' };
    let (status, body) = service_login(String::from_utf8(tampered).expect("ascii")).await;
    assert_error(status, &body, 401, "InvalidToken");

    let (status, body) = service_login(session.service.access_token.clone()).await;
    assert_error(status, &body, 401, "InvalidToken");

    let elsewhere = Stack::start(Backend::Sqlite).await;
    let (foreign, _) = signed_in(&elsewhere, "eve@example.com").await;
    let foreign = foreign.session().await.expect("store").expect("session");
    let (status, body) = service_login(foreign.identity.id_token).await;
    assert_error(status, &body, 401, "InvalidToken");

    let (status, body) = stack
        .post("/v1/auth/service/login", serde_json::json!({"provider": "google", "token": {"idToken": "x", "refreshToken": "y"}}))
        .await;
    assert_error(status, &body, 400, "InvalidLoginProvider");
}

pub async fn every_error_of_the_email_methods_comes_from_a_real_request(backend: Backend) {
    let stack = Stack::start(backend.clone()).await;
    let login = stack.login(Arc::new(MemoryStore::default())).await;
    let e = login
        .sign_up_with_email_and_password("ada@example.com", PASSWORD, false)
        .await
        .expect_err("sent");
    assert_eq!(
        e.code,
        login_code(LoginLibraryError::EmailVerificationRequired)
    );
    // Taken once verified (an unverified sign-up gives way to a new one).
    let link = stack
        .verification_link("ada@example.com")
        .expect("a verification e-mail");
    assert_eq!(
        satchel_devstack::open_link(&stack.http, &link)
            .await
            .expect("opened")
            .0,
        200
    );
    let e = login
        .sign_up_with_email_and_password("ada@example.com", PASSWORD, false)
        .await
        .expect_err("taken");
    assert_eq!(e.code, login_code(LoginLibraryError::ExistedEmail));

    // The service enforces the forms itself too, for clients that skip the SDK.
    for (email, password, code) in [
        ("not-an-email", PASSWORD, "IncorrectEmailForm"),
        ("bob@example.com", "short", "IncorrectPasswordForm"),
    ] {
        let (status, body) = stack
            .post(
                "/v1/auth/email/signup",
                serde_json::json!({"email": email, "password": password}),
            )
            .await;
        assert_error(status, &body, 400, code);
    }
    let (status, body) = stack
        .post("/v1/auth/email/signup", serde_json::json!({"email": 3}))
        .await;
    assert_error(status, &body, 400, "InvalidParameters");

    let app_id = stack.app_id().await;
    let db = &stack.service.state.db;
    db.set_app_policy(&app_id, &[Provider::Email], true, &["example.com".into()])
        .await
        .expect("policy");
    let e = login
        .sign_up_with_email_and_password("carol@elsewhere.org", PASSWORD, false)
        .await
        .expect_err("domain");
    assert!(e.is(ServiceErrorCode::InvalidEmailDomain), "{e:?}");

    let e = login
        .login_with_email_and_password("ada@example.com", "wrong1password")
        .await
        .expect_err("wrong");
    assert!(e.is(ServiceErrorCode::FailedLogin), "{e:?}");
    let e = login
        .login_with_email_and_password("nobody@example.com", PASSWORD)
        .await
        .expect_err("unknown");
    assert!(e.is(ServiceErrorCode::FailedLogin), "{e:?}");

    // fail/email-verified: the link is never opened while the SDK waits.
    let impatient = Login::new(&app_id, &stack.app_key, Arc::new(MemoryStore::default()))
        .with_sign_up_wait(SignUpWait {
            poll: Duration::from_millis(50),
            timeout: Duration::from_millis(300),
        });
    impatient.init(stack.sdk_config()).await.expect("init");
    let e = impatient
        .sign_up_with_email_and_password("dan@example.com", PASSWORD, true)
        .await
        .expect_err("never verified");
    assert_eq!(e.code, login_code(LoginLibraryError::FailEmailVerified));

    // With the link opened while it waits, the same call logs in.
    let patient = Login::new(&app_id, &stack.app_key, Arc::new(MemoryStore::default()))
        .with_sign_up_wait(SignUpWait {
            poll: Duration::from_millis(50),
            timeout: Duration::from_secs(20),
        });
    patient.init(stack.sdk_config()).await.expect("init");
    let opener = async {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        loop {
            assert!(
                std::time::Instant::now() < deadline,
                "no verification e-mail came"
            );
            if let Some(link) = stack.verification_link("erin@example.com") {
                assert_eq!(
                    satchel_devstack::open_link(&stack.http, &link)
                        .await
                        .expect("opened")
                        .0,
                    200
                );
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    let (result, ()) = tokio::join!(
        patient.sign_up_with_email_and_password("erin@example.com", PASSWORD, true),
        opener
    );
    assert_eq!(
        result.expect("logged in once verified").provider,
        Provider::Email
    );

    // fail/send-email: the SMTP server is down; nothing is left behind.
    let closed = satchel_devstack::free_port().expect("port");
    let broken = Stack::start_with(backend, |s| {
        s.mail.smtp_url = Some(format!("smtp://127.0.0.1:{closed}"))
    })
    .await;
    let login = broken.login(Arc::new(MemoryStore::default())).await;
    let e = login
        .sign_up_with_email_and_password("ada@example.com", PASSWORD, false)
        .await
        .expect_err("no mail");
    assert_eq!(e.code, login_code(LoginLibraryError::FailSendEmail));
    let e = login
        .login_with_email_and_password("ada@example.com", PASSWORD)
        .await
        .expect_err("not created");
    assert!(e.is(ServiceErrorCode::FailedLogin), "{e:?}");
}

pub async fn failed_logins_are_limited_per_account_and_per_address(backend: Backend) {
    let stack = Stack::start_with(backend, |s| {
        s.login_failures_per_account = 3;
        s.login_failures_per_address = 5;
    })
    .await;
    drop(signed_in(&stack, "ada@example.com").await);
    // Guessed from a device that never logged in (one that did skips the
    // address's count: a_device_that_logged_in_before_is_not_locked_out…).
    let login = stack.login(Arc::new(MemoryStore::default())).await;
    for _ in 0..3 {
        let e = login
            .login_with_email_and_password("ada@example.com", "wrong1password")
            .await
            .expect_err("wrong");
        assert!(e.is(ServiceErrorCode::FailedLogin));
    }
    let e = login
        .login_with_email_and_password("ada@example.com", PASSWORD)
        .await
        .expect_err("locked");
    assert_eq!(
        e.code,
        ErrorCode::Sdk(SdkErrorCode::TooManyRequests),
        "even the right password waits"
    );

    for _ in 0..2 {
        let e = login
            .login_with_email_and_password("bob@example.com", "wrong1password")
            .await
            .expect_err("wrong");
        assert!(e.is(ServiceErrorCode::FailedLogin));
    }
    let e = login
        .login_with_email_and_password("carol@example.com", "wrong1password")
        .await
        .expect_err("address");
    assert_eq!(
        e.code,
        ErrorCode::Sdk(SdkErrorCode::TooManyRequests),
        "five failures from one address"
    );
}

/// A login from `client` (as the proxy in front says; "" for none) with
/// `password`, and the device token `device` when not "": its status.
pub(crate) async fn login_from(
    stack: &Stack,
    client: &str,
    email: &str,
    password: &str,
    device: &str,
) -> u16 {
    let mut body = serde_json::json!({"email": email, "password": password});
    if !device.is_empty() {
        body["deviceToken"] = device.into();
    }
    let mut request = stack.email_login_to(&stack.service.base_url, body);
    if !client.is_empty() {
        request = request.header("X-Forwarded-For", client);
    }
    send(request).await.0.as_u16()
}

pub async fn one_address_cannot_lock_out_everyone_else(backend: Backend) {
    // Behind a proxy the service trusts: each client is counted on its own.
    let stack = Stack::start_with(backend.clone(), |s| {
        s.login_failures_per_address = 3;
        s.trusted_proxies = vec!["127.0.0.1".parse().expect("ip")];
    })
    .await;
    drop(signed_in(&stack, "ada@example.com").await);
    for n in 0..3 {
        let email = format!("victim{n}@example.com");
        assert_eq!(
            login_from(&stack, "198.51.100.1", &email, "wrong1password", "").await,
            401
        );
    }
    assert_eq!(
        login_from(&stack, "198.51.100.1", "ada@example.com", PASSWORD, "").await,
        429,
        "the guesser's address waits"
    );
    assert_eq!(
        login_from(&stack, "198.51.100.2", "ada@example.com", PASSWORD, "").await,
        200,
        "everyone else logs in"
    );
    drop(stack);

    // Without a trusted proxy the header is the client's own claim: changing it
    // does not buy more guesses.
    let stack = Stack::start_with(backend, |s| s.login_failures_per_address = 3).await;
    for n in 0..3 {
        let email = format!("victim{n}@example.com");
        let spoofed = format!("198.51.100.{n}");
        assert_eq!(
            login_from(&stack, &spoofed, &email, "wrong1password", "").await,
            401
        );
    }
    assert_eq!(
        login_from(
            &stack,
            "198.51.100.9",
            "other@example.com",
            "wrong1password",
            ""
        )
        .await,
        429
    );
}

/// A device that logged in before is counted on its own: strangers' failures
/// from the same network address (an office, a carrier's NAT) and a
/// guesser's elsewhere do not lock the person out of it, and its own wrong
/// passwords are limited as anyone's are.
pub async fn a_device_that_logged_in_before_is_not_locked_out_by_its_neighbours(backend: Backend) {
    // Behind a proxy the service trusts (a request without X-Forwarded-For is
    // the proxy's own address, as the login library's requests here are).
    let stack = Stack::start_with(backend, |s| {
        s.login_failures_per_address = 3;
        s.login_failures_per_account = 3;
        s.trusted_proxies = vec!["127.0.0.1".parse().expect("ip")];
    })
    .await;
    let (login, store) = signed_in(&stack, "ada@example.com").await;
    let ada = "ada@example.com";
    let device_token = || {
        let keys: Vec<String> = store
            .keys()
            .into_iter()
            .filter(|k| k.starts_with("login-device:ada@example.com:"))
            .collect();
        assert_eq!(keys.len(), 1, "one device token in the keychain");
        let json = store.get(&keys[0]).expect("kept");
        serde_json::from_str::<String>(&json).expect("a token")
    };
    drop(device_token());
    drop(signed_in(&stack, "bob@example.com").await);
    for n in 0..3 {
        let email = format!("stranger{n}@example.com");
        assert_eq!(
            login_from(&stack, "", &email, "wrong1password", "").await,
            401
        );
    }
    // A device that never logged in waits, as the strangers do...
    let fresh = stack.login(Arc::new(MemoryStore::default())).await;
    let e = fresh
        .login_with_email_and_password(ada, PASSWORD)
        .await
        .expect_err("the address waits");
    assert_eq!(e.code, ErrorCode::Sdk(SdkErrorCode::TooManyRequests));
    // ...and Ada's own device logs in.
    login
        .login_with_email_and_password(ada, PASSWORD)
        .await
        .expect("a known device passes its address's failures");
    // Her device token is hers: it takes nobody else's login past the count.
    let token = device_token();
    let bob = "bob@example.com";
    assert_eq!(login_from(&stack, "", bob, PASSWORD, &token).await, 429);
    assert_eq!(login_from(&stack, "", bob, PASSWORD, "forged").await, 429);

    // A guesser elsewhere locks Ada's account for every other device...
    for _ in 0..3 {
        let status = login_from(&stack, "198.51.100.7", ada, "wrong1password", "").await;
        assert_eq!(status, 401);
    }
    let status = login_from(&stack, "198.51.100.8", ada, PASSWORD, "").await;
    assert_eq!(
        status, 429,
        "the account waits for devices it does not know"
    );
    // ...not her own, whose logins do not end the guesser's wait.
    login
        .login_with_email_and_password(ada, PASSWORD)
        .await
        .expect("a known device passes the account's failures");
    let status = login_from(&stack, "198.51.100.8", ada, PASSWORD, "").await;
    assert_eq!(status, 429, "still locked for the others");

    // Her device's own wrong passwords are limited as anyone's are.
    let token = device_token();
    for _ in 0..3 {
        let status = login_from(&stack, "", ada, "wrong1password", &token).await;
        assert_eq!(status, 401);
    }
    let status = login_from(&stack, "", ada, PASSWORD, &token).await;
    assert_eq!(status, 429, "the device's own count is spent");
}

pub async fn e_mail_endpoints_take_no_unbounded_input(backend: Backend) {
    let stack = Stack::start_with(backend, |s| s.email_requests_per_address = 3).await;
    // A body past the limit is not read.
    let huge = "a".repeat(100 * 1024);
    let (status, body) = stack
        .post(
            "/v1/auth/email/resend",
            serde_json::json!({"email": format!("{huge}@example.com")}),
        )
        .await;
    assert_error(status, &body, 413, "InvalidParameters");
    // Not an address: refused before anything is counted or stored.
    let (status, body) = stack
        .post(
            "/v1/auth/email/resend",
            serde_json::json!({"email": format!("{}@x", "a".repeat(1000))}),
        )
        .await;
    assert_error(status, &body, 400, "IncorrectEmailForm");
    // Sign-ups from one address: a burst of `email_requests_per_address`, then 429.
    for n in 0..3 {
        let (status, body) = stack
            .post(
                "/v1/auth/email/signup",
                serde_json::json!({"email": format!("new{n}@example.com"), "password": PASSWORD}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = stack
        .post(
            "/v1/auth/email/signup",
            serde_json::json!({"email": "one-too-many@example.com", "password": PASSWORD}),
        )
        .await;
    assert_error(status, &body, 429, "TooManyRequests");
}

pub async fn the_app_info_says_what_the_key_may_use(backend: Backend) {
    let stack = Stack::start(backend).await;
    let (status, body) = send(stack.app_request("/v1/app")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["providers"], serde_json::json!(["email"]));
    assert_eq!(body["emailVerification"], true);
    assert_eq!(body["emailDomains"], serde_json::json!([]));
    assert_eq!(body["networks"][0]["name"], "anvil");
    assert_eq!(body["networks"][0]["chainId"], 31337);
    let (status, jwks) = send(stack.http.get(stack.url("/.well-known/jwks.json"))).await;
    assert_eq!(status, 200);
    assert_eq!(jwks["keys"][0]["kty"], "EC");
}

pub async fn get_login_session_returns_and_replaces_the_stored_tokens(backend: Backend) {
    let stack = Stack::start(backend).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    let login = stack.sign_in("gwen@example.com", store.clone()).await;

    let session = login.get_login_session(None).await.expect("a session");
    assert_eq!(session.identity_token.provider, Provider::Email);
    let (status, _) = stack
        .get("v1/auth/service/user", &session.service_token.access_token)
        .await;
    assert_eq!(status, 200, "the service token is the live one");

    // A refresh moves the stored tokens on; handing the earlier ones in keeps those.
    login.get_refresh_identity_token().await.expect("refreshed");
    assert_ne!(
        login.get_login_session(None).await.expect("moved on"),
        session
    );
    let kept = login
        .get_login_session(Some(session.clone()))
        .await
        .expect("replaced");
    assert_eq!(kept, session);
    let fresh = stack.login(store.clone()).await;
    assert_eq!(
        fresh.get_login_session(None).await.expect("read back"),
        session,
        "kept in the store, not only in memory"
    );

    let mut foreign = session.clone();
    foreign.identity_token.provider = Provider::Google;
    assert!(
        login
            .get_login_session(Some(foreign))
            .await
            .expect_err("another provider")
            .is(ServiceErrorCode::InvalidParameters)
    );
    login.logout().await.expect("logged out");
    assert!(
        login
            .get_login_session(None)
            .await
            .expect_err("no one")
            .is(ServiceErrorCode::InvalidLoginSession)
    );
}

/// The outcome of a sign-up the service answered with a verification e-mail.
async fn signed_up(login: &Login, email: &str, password: &str) {
    let e = login
        .sign_up_with_email_and_password(email, password, false)
        .await
        .expect_err("verification comes first");
    assert_eq!(
        e.code,
        login_code(LoginLibraryError::EmailVerificationRequired),
        "a normal sign-up: {e:?}"
    );
}

/// The status of the page an e-mailed link ends on once its button is pressed.
async fn status_of(stack: &Stack, link: &str) -> u16 {
    satchel_devstack::open_link(&stack.http, link)
        .await
        .expect("opened")
        .0
        .as_u16()
}

pub async fn an_unverified_sign_up_does_not_hold_the_address(backend: Backend) {
    let stack = Stack::start(backend).await;
    let login = stack.login(Arc::new(MemoryStore::default())).await;
    const MALLORYS: &str = "mallory1squats";

    // Mallory signs up with Ada's address and never opens the link (it is in
    // Ada's inbox).
    signed_up(&login, "ada@example.com", MALLORYS).await;
    let mallorys_link = stack
        .new_mail_link("ada@example.com", &[])
        .expect("a verification e-mail");

    // Ada signs up with her own password: a normal sign-up, with a new link.
    signed_up(&login, "Ada@Example.com", PASSWORD).await;
    let adas_link = stack
        .new_mail_link("ada@example.com", std::slice::from_ref(&mallorys_link))
        .expect("a new verification e-mail");
    assert_eq!(
        status_of(&stack, &mallorys_link).await,
        400,
        "the squatter's link died with the new sign-up"
    );
    let e = login
        .login_with_email_and_password("ada@example.com", MALLORYS)
        .await
        .expect_err("not Mallory's password any more");
    assert!(e.is(ServiceErrorCode::FailedLogin), "{e:?}");
    assert_eq!(status_of(&stack, &adas_link).await, 200);

    let result = login
        .login_with_email_and_password("ada@example.com", PASSWORD)
        .await
        .expect("Ada logs in with her password");
    login
        .login_service(result.provider, result.token)
        .await
        .expect("service login");
    let e = login
        .login_with_email_and_password("ada@example.com", MALLORYS)
        .await
        .expect_err("Mallory's password");
    assert!(e.is(ServiceErrorCode::FailedLogin), "{e:?}");

    // A verified address is taken, for the library and for a bare request.
    let e = login
        .sign_up_with_email_and_password("ada@example.com", MALLORYS, false)
        .await
        .expect_err("taken");
    assert_eq!(e.code, login_code(LoginLibraryError::ExistedEmail));
    let (status, body) = stack
        .post(
            "/v1/auth/email/signup",
            serde_json::json!({"email": "ada@example.com", "password": MALLORYS}),
        )
        .await;
    assert_error(status, &body, 409, "ExistedEmail");
    let e = login
        .login_with_email_and_password("ada@example.com", MALLORYS)
        .await
        .expect_err("still not Mallory's");
    assert!(e.is(ServiceErrorCode::FailedLogin), "{e:?}");

    // An unverified login that is someone's user (it signed up while the app
    // asked for no verification) is never replaced either.
    let app_id = stack.app_id().await;
    let db = &stack.service.state.db;
    db.set_app_policy(&app_id, &[Provider::Email], false, &[])
        .await
        .expect("policy");
    let result = login
        .sign_up_with_email_and_password("bob@example.com", PASSWORD, false)
        .await
        .expect("logged in at once");
    login
        .login_service(result.provider, result.token)
        .await
        .expect("a user");
    db.set_app_policy(&app_id, &[Provider::Email], true, &[])
        .await
        .expect("policy");
    let (status, body) = stack
        .post(
            "/v1/auth/email/signup",
            serde_json::json!({"email": "bob@example.com", "password": MALLORYS}),
        )
        .await;
    assert_error(status, &body, 409, "ExistedEmail");
}

/// Moves the stored times of every e-mail identity and link `secs` into the
/// past: the test's clock, instead of waiting for an expiry.
async fn age_identities(stack: &Stack, secs: i64) {
    use sqlx::Connection as _;
    sqlx::any::install_default_drivers();
    let mut db = sqlx::AnyConnection::connect(&stack.service.state.settings.database_url())
        .await
        .expect("the stack's database");
    sqlx::query("UPDATE email_identities SET created_at = created_at - $1")
        .bind(secs)
        .execute(&mut db)
        .await
        .expect("aged");
    sqlx::query("UPDATE email_verifications SET expires_at = expires_at - $1")
        .bind(secs)
        .execute(&mut db)
        .await
        .expect("aged");
}

pub async fn an_unverified_sign_up_expires(backend: Backend) {
    let stack = Stack::start_with(backend, |s| s.unverified_identity_ttl_secs = 600).await;
    let login = stack.login(Arc::new(MemoryStore::default())).await;
    signed_up(&login, "ada@example.com", PASSWORD).await;
    let link = stack
        .new_mail_link("ada@example.com", &[])
        .expect("a verification e-mail");
    let e = login
        .login_with_email_and_password("ada@example.com", PASSWORD)
        .await
        .expect_err("unverified");
    assert!(e.is(ServiceErrorCode::RequiredEmailVerified), "{e:?}");

    age_identities(&stack, 601).await;
    // Expired: as if it had never been. Its link works no longer than it, the
    // login is unknown, and no e-mail goes out for it.
    assert_eq!(status_of(&stack, &link).await, 400);
    let e = login
        .login_with_email_and_password("ada@example.com", PASSWORD)
        .await
        .expect_err("gone");
    assert!(e.is(ServiceErrorCode::FailedLogin), "{e:?}");
    login
        .resend_verification("ada@example.com")
        .await
        .expect("answered");
    login
        .send_password_reset_email("ada@example.com")
        .await
        .expect("answered");
    assert_eq!(stack.mail_links("ada@example.com"), vec![link.clone()]);

    // The address is free for a new sign-up, which verifies and logs in.
    signed_up(&login, "ada@example.com", PASSWORD).await;
    let fresh = stack
        .new_mail_link("ada@example.com", std::slice::from_ref(&link))
        .expect("a new verification e-mail");
    assert_eq!(status_of(&stack, &fresh).await, 200);
    age_identities(&stack, 601).await;
    login
        .login_with_email_and_password("ada@example.com", PASSWORD)
        .await
        .expect("a verified login does not expire");
}

/// Posts the reset page's form, as a browser does.
async fn post_reset_form(stack: &Stack, fields: &[(&str, &str)]) -> (u16, String) {
    let body = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(fields)
        .finish();
    let response = stack
        .http
        .post(stack.url("/v1/auth/email/password-reset/confirm"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .expect("posted");
    let status = response.status().as_u16();
    (status, response.text().await.expect("html"))
}

/// The `token` of a password-reset link.
fn token_of(link: &str) -> String {
    let url: url::Url = link.parse().expect("a URL");
    assert_eq!(url.path(), "/v1/auth/email/password-reset", "{link}");
    url.query_pairs()
        .find(|(k, _)| k == "token")
        .map(|(_, v)| v.into_owned())
        .expect("a token")
}

pub async fn a_password_reset_link_sets_a_new_password_and_ends_every_session(backend: Backend) {
    const NEW: &str = "new1horse-battery";
    let stack = Stack::start(backend).await;
    let (login, _) = signed_in(&stack, "ada@example.com").await;
    let old = login.session().await.expect("store").expect("a session");
    let before = stack.mail_links("ada@example.com");

    // An unknown address gets the same answer, and nothing is sent.
    login
        .send_password_reset_email("nobody@example.com")
        .await
        .expect("204 for anyone");
    let (status, body) = stack
        .post(
            "/v1/auth/email/password-reset",
            serde_json::json!({"email": "nobody@example.com"}),
        )
        .await;
    assert_eq!((status.as_u16(), body), (204, serde_json::Value::Null));
    assert_eq!(stack.mail_links("nobody@example.com"), Vec::<String>::new());
    let (status, body) = stack
        .post(
            "/v1/auth/email/password-reset",
            serde_json::json!({"email": "not an address"}),
        )
        .await;
    assert_error(status, &body, 400, "IncorrectEmailForm");

    login
        .send_password_reset_email("Ada@Example.com")
        .await
        .expect("sent");
    let link = stack
        .new_mail_link("ada@example.com", &before)
        .expect("a password-reset e-mail");
    let token = token_of(&link);

    // Opening the link shows the form and changes nothing (a mail scanner may
    // follow it): twice the form, and the old password still works.
    for _ in 0..2 {
        let page = stack.http.get(&link).send().await.expect("opened");
        assert_eq!(page.status(), 200);
        let html = page.text().await.expect("html");
        assert!(html.contains("<form method=\"post\""), "{html}");
        assert!(
            html.contains("/v1/auth/email/password-reset/confirm"),
            "{html}"
        );
        assert!(html.contains("name=\"confirm\""), "{html}");
    }
    let thief = login
        .login_with_email_and_password("ada@example.com", PASSWORD)
        .await
        .expect("the old password works until the form is sent");

    // A password against the rules, or two that differ, change nothing.
    let (status, html) = post_reset_form(
        &stack,
        &[
            ("token", &token),
            ("password", "short"),
            ("confirm", "short"),
        ],
    )
    .await;
    assert_eq!(status, 400, "{html}");
    assert!(html.contains("must have"), "{html}");
    let (status, html) = post_reset_form(
        &stack,
        &[
            ("token", &token),
            ("password", NEW),
            ("confirm", "other1horse"),
        ],
    )
    .await;
    assert_eq!(status, 400, "{html}");
    assert!(html.contains("not the same"), "{html}");
    let (status, body) = stack
        .post(
            "/v1/auth/email/password-reset/confirm",
            serde_json::json!({"token": "not-a-token", "password": NEW}),
        )
        .await;
    assert_error(status, &body, 400, "InvalidToken");

    let (status, html) = post_reset_form(
        &stack,
        &[("token", &token), ("password", NEW), ("confirm", NEW)],
    )
    .await;
    assert_eq!(status, 200, "{html}");
    assert!(html.contains("Password changed"), "{html}");

    // The old password fails, the new one works.
    let e = login
        .login_with_email_and_password("ada@example.com", PASSWORD)
        .await
        .expect_err("the old password");
    assert!(e.is(ServiceErrorCode::FailedLogin), "{e:?}");
    login
        .login_with_email_and_password("ada@example.com", NEW)
        .await
        .expect("the new password");

    // Every session from before is over: the service session's refresh and
    // access tokens, its identity login, and the thief's login.
    let (status, body) = stack
        .post(
            "/v1/auth/service/refresh",
            serde_json::json!({"refreshToken": old.service.refresh_token}),
        )
        .await;
    assert_error(status, &body, 401, "InvalidLoginSession");
    let (status, body) = stack
        .get("/v1/auth/service/user", &old.service.access_token)
        .await;
    assert_error(status, &body, 401, "InvalidLoginSession");
    for refresh_token in [&old.identity.refresh_token, &thief.token.refresh_token] {
        let (status, body) = stack
            .post(
                "/v1/auth/identity/refresh",
                serde_json::json!({"refreshToken": refresh_token}),
            )
            .await;
        assert_error(status, &body, 401, "InvalidLoginSession");
    }
    let e = login
        .login_service(thief.provider, thief.token)
        .await
        .expect_err("the thief's identity login ended");
    assert!(e.is(ServiceErrorCode::InvalidLoginSession), "{e:?}");

    // The link works once.
    assert_eq!(status_of(&stack, &link).await, 400);
    let (status, html) = post_reset_form(
        &stack,
        &[
            ("token", &token),
            ("password", "third1horse"),
            ("confirm", "third1horse"),
        ],
    )
    .await;
    assert_eq!(status, 400, "{html}");
    assert!(html.contains("does not work"), "{html}");
    let (status, body) = stack
        .post(
            "/v1/auth/email/password-reset/confirm",
            serde_json::json!({"token": token, "password": "third1horse"}),
        )
        .await;
    assert_error(status, &body, 400, "InvalidToken");

    // Clients may send the new password as JSON: 204, or the JSON error.
    let before = stack.mail_links("ada@example.com");
    login
        .send_password_reset_email("ada@example.com")
        .await
        .expect("sent");
    let token = token_of(
        &stack
            .new_mail_link("ada@example.com", &before)
            .expect("another reset e-mail"),
    );
    let (status, body) = stack
        .post(
            "/v1/auth/email/password-reset/confirm",
            serde_json::json!({"token": token, "password": "nodigits"}),
        )
        .await;
    assert_error(status, &body, 400, "IncorrectPasswordForm");
    let (status, body) = stack
        .post(
            "/v1/auth/email/password-reset/confirm",
            serde_json::json!({"token": token, "password": "third1horse"}),
        )
        .await;
    assert_eq!((status.as_u16(), body), (204, serde_json::Value::Null));
    login
        .login_with_email_and_password("ada@example.com", "third1horse")
        .await
        .expect("the newest password");

    // Asking again and again for one address is limited, registered or not.
    let mut statuses = Vec::new();
    for _ in 0..8 {
        let (status, _) = stack
            .post(
                "/v1/auth/email/password-reset",
                serde_json::json!({"email": "carol@example.com"}),
            )
            .await;
        statuses.push(status.as_u16());
    }
    assert!(statuses.starts_with(&[204; 6]), "{statuses:?}");
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
}
