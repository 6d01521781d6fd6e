//! Who people are: the service as identity provider of e-mail users
//! ([`email`]), logins through someone else's identity ([`external`],
//! [`providers`], the e-mail registration of those without one in
//! [`registration`]), the sessions and tokens they end in ([`sessions`],
//! [`tokens`]), and the counting of failed logins ([`login_failures`]).

pub mod email;
pub mod email_login;
pub mod external;
pub mod login_failures;
pub mod providers;
pub mod registration;
pub mod sessions;
pub mod tokens;

use axum::http::StatusCode;
use satchel_api::{Provider, ServiceErrorCode};

use crate::db::AppRow;
use crate::error::{ApiError, ApiResult};
use crate::limits::MailKind;
use crate::state::AppState;

/// A logged-in user of the calling app, with a live session (the HTTP layer's
/// `AuthUser` extractor checks the access token and the session).
#[derive(Debug, Clone)]
pub struct AuthUser {
    pub user_id: String,
    pub app_id: String,
    pub session_id: String,
}

/// 400 `InvalidLoginProvider` unless the app allows logins through `provider`.
fn require_provider(app: &AppRow, provider: Provider) -> ApiResult<()> {
    if app.providers().contains(&provider) {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            ServiceErrorCode::InvalidLoginProvider,
            format!("this app does not allow {} login", provider.as_str()),
        ))
    }
}

/// Counts an e-mail of `kind` to `recipient` of `app`'s people against the
/// recipient's, the app's and the service's allowances.
pub(crate) async fn check_mail(
    state: &AppState,
    app_id: &str,
    recipient: &str,
    kind: MailKind,
) -> ApiResult<()> {
    state
        .limits
        .take_mail(app_id, recipient, kind)
        .await
        .map_err(|wait| ApiError::rate_limited("too many e-mails are being sent", wait))
}

/// E-mails `email` the link `{public_url}{path}?token={secret}` of a
/// verification (a sign-up's, or an external account's registered address).
pub(super) async fn send_verification_link(
    state: &AppState,
    app: &AppRow,
    email: &str,
    path: &str,
    secret: &str,
) -> ApiResult<()> {
    let mut link = state
        .settings
        .public_url
        .join(path)
        .map_err(ApiError::internal)?;
    link.query_pairs_mut().append_pair("token", secret);
    state
        .mailer
        .send_verification(email, &app.name, link.as_str())
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::BAD_GATEWAY,
                ServiceErrorCode::FailedSendEmail,
                "the verification e-mail could not be sent; try again later",
            )
            .with_cause(format_args!("verification e-mail not sent: {e}"))
        })
}
