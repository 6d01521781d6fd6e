use satchel_api::{LoginErrorResult, LoginLibraryError};

use super::*;
use crate::login::test_service::{Answer, TestService, identity_tokens};

const SIGN: &str = "054abe9753df7aad3c3f38a68e4f7996eab13630243e771b57e43735f3a3a43e\
                    1ceecf02a8090e65f6c262fced71625e27a1daeb1832c17d67c358ec62c36f76";
const TOKEN: &str = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.c2ln";

/// A vector of `crates/api/src/login_sign_vectors.json` (python-ecdsa's).
#[test]
fn get_sign_for_login_signs_as_the_vectors_say() {
    assert_eq!(
        get_sign_for_login(
            "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
            TOKEN
        )
        .expect("sign"),
        SIGN
    );
    for bad in ["", "12", &"0".repeat(64), &"g".repeat(64)] {
        let e = get_sign_for_login(bad, "m").expect_err("bad key");
        assert!(e.is(ServiceErrorCode::InvalidParameters), "{bad}");
    }
}

#[tokio::test]
async fn an_id_token_login_answers_tokens_or_register_email() {
    let service = TestService::start(Answer::Success).await;
    let login = service.login(|l| l).await;
    let reply = login.login_with_id_token(TOKEN, SIGN).await.expect("login");
    assert_eq!(
        reply,
        LoginReply::Success(identity_tokens(Provider::ExternalToken))
    );
    let sent = service.recorded.calls_to("/v1/auth/external/id-token");
    assert_eq!(
        sent,
        vec![serde_json::json!({"token": TOKEN, "sign": SIGN})]
    );

    *service.recorded.answer.lock() = Answer::RegisterEmail;
    let reply = login.login_with_id_token(TOKEN, SIGN).await.expect("reply");
    assert_eq!(
        reply,
        LoginReply::Failure(LoginErrorResult {
            error: LoginLibraryError::RequiredRegisterEmail.as_str().into(),
            id_token: Some(TOKEN.into()),
            access_token: None,
            provider: Some(Provider::ExternalToken),
        })
    );
    assert_eq!(
        serde_json::to_value(&reply).expect("json")["error"],
        "required/register_email"
    );

    *service.recorded.answer.lock() =
        Answer::Error(401, ServiceErrorCode::InvalidToken, "the token has expired");
    let e = login
        .login_with_id_token(TOKEN, SIGN)
        .await
        .expect_err("401");
    assert!(e.is(ServiceErrorCode::InvalidToken));
    assert_eq!(e.message, "the token has expired");
}

#[tokio::test]
async fn an_access_token_login_is_for_three_providers() {
    let service = TestService::start(Answer::RegisterEmail).await;
    let login = service.login(|l| l).await;
    let reply = login
        .login_with_access_token("discord", "access-1", SIGN)
        .await
        .expect("reply");
    assert_eq!(
        reply,
        LoginReply::Failure(LoginErrorResult {
            error: "required/register_email".into(),
            id_token: None,
            access_token: Some("access-1".into()),
            provider: Some(Provider::Discord),
        })
    );
    for provider in ["google", "apple", "line", "email", "external_token", "x"] {
        let e = login
            .login_with_access_token(provider, "access-1", SIGN)
            .await
            .expect_err("not an access-token provider");
        assert!(e.is(ServiceErrorCode::InvalidLoginProvider), "{provider}");
    }
    assert_eq!(
        service
            .recorded
            .calls_to("/v1/auth/external/access-token")
            .len(),
        1
    );
}

#[tokio::test]
async fn bad_tokens_and_signs_are_refused_before_any_request() {
    let service = TestService::start(Answer::Success).await;
    let login = service.login(|l| l).await;
    for (token, sign) in [
        ("", SIGN),
        (TOKEN, ""),
        (TOKEN, "00"),
        (TOKEN, &"zz".repeat(64)),
    ] {
        let e = login
            .login_with_id_token(token, sign)
            .await
            .expect_err("refused");
        assert!(e.is(ServiceErrorCode::InvalidParameters), "{sign}");
    }
    let e = login
        .send_verify_email("not an address", "google", "id", "")
        .await
        .expect_err("form");
    assert!(e.is(ServiceErrorCode::IncorrectEmailForm));
    let e = login
        .send_verify_email("ada@example.com", "twitter", "id", "")
        .await
        .expect_err("provider");
    assert!(e.is(ServiceErrorCode::InvalidLoginProvider));
    let e = login
        .send_verify_email("ada@example.com", "google", "", "")
        .await
        .expect_err("no token");
    assert!(e.is(ServiceErrorCode::InvalidParameters));
    assert!(service.recorded.calls.lock().is_empty());
}

#[tokio::test]
async fn send_verify_email_then_resume_login() {
    let service = TestService::start(Answer::Success).await;
    let login = service.login(|l| l).await;
    assert!(
        login
            .send_verify_email(" Ada@Example.COM ", "naver", "", "access-1")
            .await
            .expect("sent")
    );
    assert_eq!(
        service.recorded.calls_to("/v1/auth/external/email"),
        vec![serde_json::json!({
            "email": "ada@example.com",
            "provider": "naver",
            "idToken": "",
            "accessToken": "access-1",
        })]
    );

    *service.recorded.answer.lock() = Answer::Error(
        428,
        ServiceErrorCode::RequiredEmailVerified,
        "open the link first",
    );
    let e = login
        .resume_login(Provider::Naver, "", "access-1")
        .await
        .expect_err("not yet");
    assert!(e.is(ServiceErrorCode::RequiredEmailVerified));

    *service.recorded.answer.lock() = Answer::Success;
    let result = login
        .resume_login(Provider::Naver, "", "access-1")
        .await
        .expect("resumed");
    assert_eq!(result, identity_tokens(Provider::Naver));
    let resumed = service.recorded.calls_to("/v1/auth/external/resume");
    assert_eq!(resumed.len(), 2);
    assert!(resumed[1].get("email").is_none(), "{}", resumed[1]);
}
