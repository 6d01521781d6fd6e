//! E-mail logins: sign-up with a verification e-mail, sending the link again,
//! opening the link, and logging in with the password.

use axum::http::StatusCode;
use satchel_api::rules::{self, email_domain, normalize_email};
use satchel_api::{EmailCredentials, LoginResult, Provider, ServiceErrorCode, SignUpResponse};

use super::passwords::{hash_password, password_matches, random_secret, secret_hash};
use super::require_provider;
use super::sessions::issue_identity_tokens;
use crate::db::{AppRow, DbError};
use crate::error::{ApiError, ApiResult};
use crate::refresh_limits::RefreshKey;
use crate::state::AppState;

/// How long a verification link works.
const VERIFICATION_LIFETIME_SECS: i64 = 24 * 60 * 60;

/// Checks an e-mail and password against the shared rules, then the e-mail against
/// the app's own policy (the domains it accepts). Returns them normalised.
fn check_credentials(app: &AppRow, credentials: &EmailCredentials) -> ApiResult<EmailCredentials> {
    let checked = rules::check_credentials(&credentials.email, &credentials.password)?;
    let domains = app.email_domains();
    if !domains.is_empty()
        && !domains
            .iter()
            .any(|d| d.eq_ignore_ascii_case(email_domain(&checked.email)))
    {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            ServiceErrorCode::InvalidEmailDomain,
            format!(
                "this app accepts e-mail addresses at {} only",
                domains.join(", ")
            ),
        ));
    }
    Ok(checked)
}

/// Creates an e-mail identity and sends its verification link, or, for apps that
/// do not ask for verification, logs it in at once. If the e-mail cannot be sent
/// the identity is removed again, so the person can simply try again.
pub async fn sign_up(
    state: &AppState,
    app: &AppRow,
    credentials: EmailCredentials,
) -> ApiResult<SignUpResponse> {
    require_provider(app, Provider::Email)?;
    let EmailCredentials { email, password } = check_credentials(app, &credentials)?;
    let hash = hash_password(password).await?;
    let identity_id = match state.db.create_email_identity(&app.id, &email, &hash).await {
        Ok(id) => id,
        Err(DbError::Conflict) => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                ServiceErrorCode::ExistedEmail,
                "this e-mail address is already registered",
            ));
        }
        Err(e) => return Err(e.into()),
    };
    if !app.requires_email_verification() {
        let identity = state
            .db
            .email_identity_by_id(&identity_id)
            .await?
            .ok_or_else(|| ApiError::internal("identity vanished after insert"))?;
        let login = issue_identity_tokens(state, &identity).await?;
        return Ok(SignUpResponse {
            verification_sent: false,
            login: Some(login),
        });
    }
    if let Err(e) = send_verification(state, app, &identity_id, &email).await {
        state.db.delete_email_identity(&identity_id).await?;
        return Err(e);
    }
    Ok(SignUpResponse {
        verification_sent: true,
        login: None,
    })
}

async fn send_verification(
    state: &AppState,
    app: &AppRow,
    identity_id: &str,
    email: &str,
) -> ApiResult<()> {
    state.refresh_limits.check_mail().map_err(|wait| {
        ApiError::too_many_requests(format!(
            "the service is sending too many e-mails; try again in {} s",
            wait.as_secs().max(1)
        ))
    })?;
    let secret = random_secret();
    state
        .db
        .create_email_verification(
            identity_id,
            &secret_hash(&secret),
            VERIFICATION_LIFETIME_SECS,
        )
        .await?;
    let mut link = state
        .settings
        .public_url
        .join("v1/auth/email/verify")
        .map_err(ApiError::internal)?;
    link.query_pairs_mut().append_pair("token", &secret);
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

/// Sends a new verification link to an unverified identity. Says nothing about
/// whether the address is registered.
pub async fn resend_verification(state: &AppState, app: &AppRow, email: &str) -> ApiResult<()> {
    let email = normalize_email(email);
    // Checked before it is counted: only a real address takes a limiter's place.
    if !rules::is_email_form(&email) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            ServiceErrorCode::IncorrectEmailForm,
            "that is not an e-mail address",
        ));
    }
    state
        .refresh_limits
        .check(RefreshKey::VerificationEmail {
            app_id: &app.id,
            email: &email,
        })
        .map_err(|wait| {
            ApiError::too_many_requests(format!(
                "wait {} s before asking again",
                wait.as_secs().max(1)
            ))
        })?;
    match state.db.email_identity(&app.id, &email).await? {
        Some(identity) if !identity.verified() => {
            send_verification(state, app, &identity.id, &email).await
        }
        _ => Ok(()),
    }
}

/// Uses a verification link; whether it verified an address.
pub async fn verify_link(state: &AppState, secret: &str) -> ApiResult<bool> {
    Ok(state
        .db
        .use_email_verification(&secret_hash(secret))
        .await?)
}

/// Logs an e-mail identity in with its password. Failures are counted per e-mail
/// address and per network address; past the limit even the right password waits.
pub async fn email_login(
    state: &AppState,
    app: &AppRow,
    credentials: EmailCredentials,
    address: Option<std::net::IpAddr>,
) -> ApiResult<LoginResult> {
    require_provider(app, Provider::Email)?;
    let email = normalize_email(&credentials.email);
    let account_key = format!("{}:{email}", app.id);
    // An unknown address is nobody's: it is not counted (or everyone behind an
    // unknown address would share one limit).
    let address_key = address.map(|a| a.to_string());
    let failures = &state.login_failures;
    let too_many = |wait: std::time::Duration| {
        ApiError::too_many_requests(format!(
            "too many failed logins; try again in {} min",
            wait.as_secs().div_ceil(60).max(1)
        ))
    };
    // Each try is counted before the password is checked, so parallel guesses
    // cannot all pass the limit; a right password gives its tries back.
    if let Some(key) = &address_key {
        failures.by_address.attempt(key).map_err(too_many)?;
    }
    if let Err(wait) = failures.by_account.attempt(&account_key) {
        if let Some(key) = &address_key {
            failures.by_address.succeeded(key);
        }
        return Err(too_many(wait));
    }
    let identity = state.db.email_identity(&app.id, &email).await?;
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
    if let Some(key) = &address_key {
        failures.by_address.succeeded(key);
    }
    failures.by_account.reset(&account_key);
    if app.requires_email_verification() && !identity.verified() {
        return Err(ApiError::new(
            StatusCode::PRECONDITION_REQUIRED,
            ServiceErrorCode::RequiredEmailVerified,
            "verify your e-mail address first: open the link in the e-mail we sent",
        ));
    }
    issue_identity_tokens(state, &identity).await
}
