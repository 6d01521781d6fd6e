//! The e-mail registration of an external identity whose provider gave none:
//! `sendVerifyEmail` for a token a login was refused with (its ticket), the
//! e-mailed link that gives the identity the address, and the refused login
//! resumed once (`resume`).

use axum::http::StatusCode;
use satchel_api::rules::{self, normalize_email};
use satchel_api::{LoginResult, Provider, RegisterEmailRequest, ServiceErrorCode};

use super::external::{MAX_TOKEN_LEN, invalid_provider, invalid_token, issue_for};
use crate::crypto::{random_secret, secret_hash};
use crate::db::{AppRow, ExternalIdentityRow};
use crate::error::{ApiError, ApiResult};
use crate::limits::{LimitKey, MailKind};
use crate::state::AppState;

/// How long a registration link works.
const REGISTRATION_LINK_SECS: i64 = 24 * 60 * 60;

/// The ticket of a refused token (`idToken` or `accessToken`, whichever is one),
/// checked against the provider the caller names.
async fn ticket_for(
    state: &AppState,
    app: &AppRow,
    request: &RegisterEmailRequest,
) -> ApiResult<(String, ExternalIdentityRow, Provider)> {
    for token in [&request.id_token, &request.access_token] {
        if token.is_empty() || token.len() > MAX_TOKEN_LEN {
            continue;
        }
        let hash = secret_hash(token);
        let Some(ticket) = state.db.registration_ticket(&hash).await? else {
            continue;
        };
        let Some(identity) = state
            .db
            .external_identity_by_id(&ticket.identity_id)
            .await?
            .filter(|i| i.app_id == app.id)
        else {
            continue;
        };
        let login_provider = Provider::parse(&ticket.login_provider)
            .ok_or_else(|| ApiError::internal("a ticket of an unknown provider"))?;
        let named = request.provider.as_str();
        if named != identity.provider && named != ticket.login_provider {
            return Err(invalid_provider(format!(
                "this token was refused for a {} login, not {named}",
                identity.provider
            )));
        }
        return Ok((hash, identity, login_provider));
    }
    Err(invalid_token(
        "no login was refused for want of an e-mail with this token in the last hour; log in \
         with it first",
    ))
}

/// `POST /v1/auth/external/email` (sendVerifyEmail): e-mails a link that gives
/// the refused login's identity this address.
pub async fn send_verify_email(
    state: &AppState,
    app: &AppRow,
    request: RegisterEmailRequest,
) -> ApiResult<()> {
    let email = normalize_email(request.email.as_deref().unwrap_or_default());
    if !rules::is_email_form(&email) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            ServiceErrorCode::IncorrectEmailForm,
            "the e-mail address is not valid",
        ));
    }
    super::email::check_email_domain(app, &email)?;
    let (_, identity, _) = ticket_for(state, app, &request).await?;
    if identity.email.is_some() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            ServiceErrorCode::ExistedEmail,
            "this account has its e-mail address already; log in again",
        ));
    }
    state
        .limits
        .take(LimitKey::VerificationEmail {
            app_id: &app.id,
            email: &identity.id,
        })
        .await
        .map_err(|wait| ApiError::rate_limited("a link was sent a moment ago", wait))?;
    super::check_mail(state, &app.id, &email, MailKind::Verification).await?;
    let secret = random_secret();
    state
        .db
        .create_email_registration(
            &secret_hash(&secret),
            &identity.id,
            &email,
            REGISTRATION_LINK_SECS,
        )
        .await?;
    super::send_verification_link(state, app, &email, "v1/auth/external/email/verify", &secret)
        .await
}

/// The link of a registration e-mail: the identity gets the address. Returns
/// whether the link worked.
pub async fn verify_registration_link(state: &AppState, token: &str) -> ApiResult<bool> {
    if token.is_empty() || token.len() > 128 {
        return Ok(false);
    }
    Ok(state.db.use_email_registration(&secret_hash(token)).await?)
}

/// `POST /v1/auth/external/resume`: the refused login again, now that its
/// identity has a verified e-mail; the ticket is used up.
pub async fn resume(
    state: &AppState,
    app: &AppRow,
    request: RegisterEmailRequest,
) -> ApiResult<LoginResult> {
    let (hash, identity, login_provider) = ticket_for(state, app, &request).await?;
    if identity.email.is_none() {
        return Err(ApiError::new(
            StatusCode::PRECONDITION_REQUIRED,
            ServiceErrorCode::RequiredEmailVerified,
            "the e-mail address is not verified yet: open the link in the e-mail first",
        ));
    }
    state.db.delete_registration_ticket(&hash).await?;
    issue_for(state, &identity, login_provider).await
}
