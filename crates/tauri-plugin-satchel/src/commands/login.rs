//! The login library's commands: OAuth, e-mail and password, external tokens,
//! e-mail verification and registration, logout.
#![allow(non_snake_case)] // command names are the spec's method names

use satchel_api::ServiceUser;
use satchel_sdk::{ExternalLoginOutcome, LoginOptions, LoginProviderChoice, RegisterEmailPrompt};
use serde::Serialize;
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime};

use super::{Page, Result, Start, forward_watch};
use satchel_desktop::application::{self, WidgetWindow as _};

/// The logged-in user (tokens left out), or `null`.
#[tauri::command]
pub fn getCurrentServiceUser(widget: Page) -> Option<ServiceUser> {
    widget.current_user()
}

/// loginWithUI: the user when someone is logged in, without showing the
/// widget; otherwise shows the widget's login page and resolves with the user
/// once they log in, or `UserCancelled` when the widget is closed.
///
/// `providers` (`[{provider, clientId}]`) are the OAuth buttons the login page
/// shows (an empty list: e-mail only; left out: every provider the app
/// registered), each one the app allows (`InvalidLoginProvider` otherwise);
/// `email` fills in the e-mail field.
#[tauri::command]
pub async fn loginWithUI<R: Runtime>(
    widget: Page,
    app: AppHandle<R>,
    providers: Option<Vec<LoginProviderChoice>>,
    email: Option<String>,
) -> Result<ServiceUser> {
    application::login_with_ui(&widget, &widget.window(&app), providers, email).await
}

/// What the login page offers: OAuth buttons and the e-mail form.
#[tauri::command]
pub async fn getLoginOptions(widget: Page) -> Result<LoginOptions> {
    widget.login_options().await
}

/// loginWithOauthProvider: the system browser, a loopback redirect, then the
/// user (logged in to the service; its tokens stay in the keychain), or
/// `{registerEmail: {provider}}` when the account has no e-mail yet. Errors:
/// 'Invalid provider', 'User canceled', 'Internal error'.
#[tauri::command]
pub async fn loginWithOauthProvider(
    widget: Page,
    provider: String,
    with_logout: Option<bool>,
) -> Result<ExternalLoginOutcome> {
    widget.login_with_oauth(&provider, with_logout).await
}

/// Ends an OAuth login waiting for the browser ('User canceled').
#[tauri::command]
pub fn cancelOauth(widget: Page) {
    widget.cancel_oauth();
}

/// loginWithIdToken: an id token of the app's backend and its `sign`.
#[tauri::command]
pub async fn loginWithIdToken(
    widget: Page,
    token: String,
    sign: String,
) -> Result<ExternalLoginOutcome> {
    widget.login_with_id_token(&token, &sign).await
}

/// loginWithAccessToken: a naver, discord or facebook access token and its `sign`.
#[tauri::command]
pub async fn loginWithAccessToken(
    widget: Page,
    provider: String,
    token: String,
    sign: String,
) -> Result<ExternalLoginOutcome> {
    widget
        .login_with_access_token(&provider, &token, &sign)
        .await
}

/// getSignForLogin: secp256k1 over SHA-256 of the message, RFC 6979, `r || s`
/// hex. Meant for an app's backend; here for completeness of the login library.
#[tauri::command]
pub fn getSignForLogin(priv_key: String, message: String) -> Result<String> {
    satchel_sdk::get_sign_for_login(&priv_key, &message)
}

/// sendVerifyEmail for the login refused for want of an e-mail (its token stays
/// in the app).
#[tauri::command]
pub async fn sendVerifyEmail(widget: Page, email: String) -> Result<bool> {
    widget.send_verify_email(&email).await
}

/// The refused login again once its e-mail is verified: the user
/// (`RequiredEmailVerified` before).
#[tauri::command]
pub async fn resumeLogin(widget: Page) -> Result<ServiceUser> {
    widget.resume_login().await
}

/// registerUserEmail: shows the e-mail registration for the account of these
/// tokens and resolves with the user once it is done, or `UserCancelled` when
/// the widget is closed.
#[tauri::command]
pub async fn registerUserEmail<R: Runtime>(
    widget: Page,
    app: AppHandle<R>,
    provider: String,
    id_token: Option<String>,
    access_token: Option<String>,
) -> Result<ServiceUser> {
    widget.window(&app).show();
    widget
        .register_user_email(
            &provider,
            id_token.as_deref().unwrap_or_default(),
            access_token.as_deref().unwrap_or_default(),
        )
        .await
}

/// Follows registerUserEmail calls: the page opens its e-mail registration.
#[tauri::command]
pub fn watchRegisterEmailRequests(widget: Page, on_event: Channel<RegisterEmailPrompt>) {
    forward_watch(
        widget.watch_register_email_requests(),
        on_event,
        Start::NextChange,
        |request| *request,
    );
}

#[tauri::command]
pub async fn loginWithEmailAndPassword(
    widget: Page,
    email: String,
    password: String,
) -> Result<ServiceUser> {
    widget.login_with_email(&email, &password).await
}

#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct SignUpOutcome {
    verification_sent: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    user: Option<ServiceUser>,
}

#[tauri::command]
pub async fn signUpWithEmailAndPassword(
    widget: Page,
    email: String,
    password: String,
) -> Result<SignUpOutcome> {
    let user = widget.sign_up_with_email(&email, &password).await?;
    Ok(SignUpOutcome {
        verification_sent: user.is_none(),
        user,
    })
}

#[tauri::command]
pub async fn resendVerification(widget: Page, email: String) -> Result<()> {
    widget.login().resend_verification(&email).await
}

/// E-mails a link that sets a new password; the same answer whether or not the
/// address has a login.
#[tauri::command]
pub async fn sendPasswordResetEmail(widget: Page, email: String) -> Result<()> {
    widget.login().send_password_reset_email(&email).await
}

#[tauri::command]
pub async fn logout(widget: Page) -> Result<()> {
    widget.logout().await
}
