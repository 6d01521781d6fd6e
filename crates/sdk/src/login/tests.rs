//! The login library without a service: what is refused before any request.

use super::*;
use crate::keychain::MemoryStore;

fn login() -> Login {
    Login::new("app", "key", Arc::new(MemoryStore::default()))
}

fn config() -> ServiceConfig {
    ServiceConfig::new("http://127.0.0.1:9/".parse().expect("url"), "localhost")
}

#[tokio::test]
async fn methods_before_init_and_double_init_are_refused() {
    let login = login();
    let e = login
        .login_with_email_and_password("a@b.co", "password1")
        .await
        .expect_err("not initialised");
    assert!(e.is(ServiceErrorCode::NotInitialized));
    let e = login.logout().await.expect_err("not initialised");
    assert_eq!(
        e.code,
        crate::ErrorCode::Login(LoginLibraryError::NotInitialized)
    );
    login.init(config()).await.expect("init");
    let e = login.init(config()).await.expect_err("twice");
    assert!(e.is(ServiceErrorCode::AlreadyInitialized));
    login.finalize().await;
    assert!(!login.is_initialized().await);
}

#[tokio::test]
async fn logout_without_a_session_is_already_logout() {
    let login = login();
    login.init(config()).await.expect("init");
    let e = login.logout().await.expect_err("nobody");
    assert_eq!(
        e.code,
        crate::ErrorCode::Login(LoginLibraryError::AlreadyLogout)
    );
    assert_eq!(
        login.get_current_service_user().await.expect("no error"),
        None
    );
}

#[tokio::test]
async fn bad_credentials_are_refused_before_any_request() {
    let login = login();
    login.init(config()).await.expect("init");
    let e = login
        .sign_up_with_email_and_password("nope", "password1", false)
        .await
        .expect_err("form");
    assert!(e.is(ServiceErrorCode::IncorrectEmailForm));
    let e = login
        .sign_up_with_email_and_password("a@b.co", "short", false)
        .await
        .expect_err("form");
    assert!(e.is(ServiceErrorCode::IncorrectPasswordForm));
    let e = login
        .send_password_reset_email("not an address")
        .await
        .expect_err("form");
    assert!(e.is(ServiceErrorCode::IncorrectEmailForm));
}

#[tokio::test]
async fn an_unreachable_service_is_not_connected_not_a_panic() {
    let login = login();
    login.init(config()).await.expect("init");
    let e = login
        .login_with_email_and_password("a@b.co", "password1")
        .await
        .expect_err("nothing listens on port 9");
    assert!(e.is(ServiceErrorCode::NotConnectedInternet), "{e:?}");
}
