//! Logging in with an e-mail address and its password: each try counted per
//! account and per network address before the password is checked, and a
//! device that logged in before let past its neighbours' failures.

use axum::http::StatusCode;
use satchel_api::rules::{self, normalize_email};
use satchel_api::{EmailLogin, EmailLoginResult, LoginResult, Provider, ServiceErrorCode};

use super::email::live_identity;
use super::require_provider;
use super::sessions::issue_identity_tokens;
use crate::crypto::passwords::{hash_password, password_matches};
use crate::db::AppRow;
use crate::error::{ApiError, ApiResult};
use crate::identity::login_failures::Counted;
use crate::state::AppState;

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Logs an e-mail identity in with its password. Failures are counted per e-mail
/// address and per network address; past the limit even the right password
/// waits. A device that logged in to this address before (its device token)
/// is not counted against its network address: strangers' failures from the
/// same office or carrier cannot lock it out.
pub async fn email_login(
    state: &AppState,
    app: &AppRow,
    request: EmailLogin,
    address: Option<std::net::IpAddr>,
) -> ApiResult<EmailLoginResult> {
    require_provider(app, Provider::Email)?;
    let EmailLogin {
        credentials,
        device_token,
    } = request;
    let email = normalize_email(&credentials.email);
    // Checked before it is counted: only a real address takes a counter's place.
    if !rules::is_email_form(&email) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            ServiceErrorCode::IncorrectEmailForm,
            "that is not an e-mail address",
        ));
    }
    let account_key = format!("{}:{email}", app.id);
    let known_device = device_token.as_deref().is_some_and(|token| {
        state
            .pin_keys
            .login_devices()
            .recognizes(&account_key, token, now_secs())
    });
    // An unknown address is nobody's: it is not counted (or everyone behind an
    // unknown address would share one limit).
    let address_key = address.filter(|_| !known_device).map(|a| a.to_string());
    let failures = &state.login_failures;
    let too_many = |wait: std::time::Duration| {
        ApiError::too_many_requests(format!(
            "too many failed logins; try again in {} min",
            wait.as_secs().div_ceil(60).max(1)
        ))
    };
    // Each try is counted before the password is checked, so parallel guesses
    // cannot all pass the limit; a right password gives its tries back.
    let by_address = match &address_key {
        Some(key) => Some((
            Counted::Address(key),
            failures
                .attempt(Counted::Address(key))
                .await
                .map_err(too_many)?,
        )),
        None => None,
    };
    let give_back_address = || async {
        if let Some((counted, taken)) = by_address {
            failures.succeeded(counted, taken).await;
        }
    };
    if let Err(wait) = failures.attempt(Counted::Account(&account_key)).await {
        give_back_address().await;
        return Err(too_many(wait));
    }
    let identity = live_identity(state, app, &email).await?;
    let matches = match &identity {
        Some(identity) => {
            password_matches(credentials.password, identity.password_hash.clone()).await
        }
        None => {
            // Spend the same time as a real check, so timing tells nothing.
            let _ = hash_password(credentials.password).await;
            false
        }
    };
    let identity = match identity {
        Some(identity) if matches => identity,
        _ => {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                ServiceErrorCode::FailedLogin,
                "the e-mail or password is wrong",
            ));
        }
    };
    give_back_address().await;
    failures.reset(Counted::Account(&account_key)).await;
    if app.requires_email_verification() && !identity.verified() {
        return Err(ApiError::new(
            StatusCode::PRECONDITION_REQUIRED,
            ServiceErrorCode::RequiredEmailVerified,
            "verify your e-mail address first: open the link in the e-mail we sent",
        ));
    }
    let login: LoginResult = issue_identity_tokens(state, (&identity).into()).await?;
    Ok(EmailLoginResult {
        login,
        device_token: state
            .pin_keys
            .login_devices()
            .token(&account_key, now_secs()),
    })
}
