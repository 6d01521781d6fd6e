//! Logging in with an e-mail address and its password: each try counted
//! before the password is checked, per account and per network address, or,
//! for a device that logged in to the account before, on that device's own
//! count (OWASP's device cookies): neither its neighbours' failures nor a
//! guesser's elsewhere lock it out.

use axum::http::StatusCode;
use satchel_api::rules::{self, normalize_email};
use satchel_api::{
    EmailLogin, EmailLoginResult, LoginResult, MAX_DEVICE_TOKEN_LENGTH, Provider, ServiceErrorCode,
};

use super::email::live_identity;
use super::require_provider;
use super::sessions::issue_identity_tokens;
use crate::crypto::passwords::{hash_password, password_matches};
use crate::db::AppRow;
use crate::error::{ApiError, ApiResult};
use crate::identity::login_failures::{Counted, account_key};
use crate::state::AppState;

fn now_secs() -> u64 {
    u64::try_from(crate::clock::now()).unwrap_or_default()
}

/// Logs an e-mail identity in with its password. Past a count's limit even
/// the right password waits; a right password gives its tries back.
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
    let account_key = account_key(&app.id, &email);
    // A token past its documented length is no token (nor decoded).
    let known_device = device_token
        .filter(|token| token.len() <= MAX_DEVICE_TOKEN_LENGTH)
        .filter(|token| {
            state
                .pin_keys
                .login_devices()
                .recognizes(&account_key, token, now_secs())
        });
    let address = address.map(|a| a.to_string());
    let counted: Vec<Counted<'_>> = match &known_device {
        Some(token) => vec![Counted::Device(token)],
        // An unknown address is nobody's: it is not counted (or everyone
        // behind an unknown address would share one limit).
        None => address
            .as_deref()
            .map(Counted::Address)
            .into_iter()
            .chain([Counted::Account(&account_key)])
            .collect(),
    };
    let failures = &state.login_failures;
    let too_many = |wait: std::time::Duration| {
        ApiError::too_many_requests(format!(
            "too many failed logins; try again in {} min",
            wait.as_secs().div_ceil(60).max(1)
        ))
    };
    // Each try is counted before the password is checked, so parallel guesses
    // cannot all pass the limit; a right password gives its tries back.
    let mut taken = Vec::with_capacity(counted.len());
    for counted in counted {
        match failures.attempt(counted).await {
            Ok(turn) => taken.push((counted, turn)),
            Err(wait) => {
                for (counted, turn) in taken {
                    failures.succeeded(counted, turn).await;
                }
                return Err(too_many(wait));
            }
        }
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
    for (counted, turn) in taken {
        failures.succeeded(counted, turn).await;
    }
    // A stranger's right password ends the account's failures; a known
    // device's ends only its own, so a guesser's lockout outlasts the person's
    // own logins.
    match &known_device {
        Some(token) => failures.reset(Counted::Device(token)).await,
        None => failures.reset(Counted::Account(&account_key)).await,
    }
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
