//! E-mail identities: sign-up with a verification e-mail, sending the link
//! again, opening the link, and resetting the password by an e-mailed link.
//! Logging in with the password is [`super::email_login`].
//!
//! An address nobody has proven does not stay taken: in an app that asks for
//! verification, a new sign-up replaces an unverified identity that no user is
//! made from (new password, the old links dead), and such an identity expires
//! `unverified_identity_ttl_secs` after its sign-up (counted absent, deleted when
//! next met). A verified identity, or one a user is made from, is never replaced.

use axum::http::StatusCode;
use satchel_api::rules::{self, email_domain, normalize_email};
use satchel_api::{EmailCredentials, Provider, ServiceErrorCode, SignUpResponse};

use super::require_provider;
use super::sessions::issue_identity_tokens;
use crate::crypto::passwords::hash_password;
use crate::crypto::{random_secret, secret_hash};
use crate::db::{AppRow, DbError, IdentityRow};
use crate::error::{ApiError, ApiResult};
use crate::identity::login_failures::{Counted, account_key};
use crate::limits::{LimitKey, MailKind};
use crate::state::AppState;

/// How long a verification link works (at most: not past its identity's expiry).
const VERIFICATION_LIFETIME_SECS: i64 = 24 * 60 * 60;

/// How long a password-reset link works.
pub const PASSWORD_RESET_LIFETIME_SECS: i64 = 60 * 60;

/// Whether a new sign-up may take this identity's place: the app asks for
/// verification, the address was never proven, and no user is made from it.
fn unclaimed(app: &AppRow, identity: &IdentityRow) -> bool {
    app.requires_email_verification() && !identity.verified() && !identity.has_user()
}

/// When an unclaimed identity stops holding its address; `None`: never.
fn expires_at(state: &AppState, app: &AppRow, identity: &IdentityRow) -> Option<i64> {
    let ttl = i64::try_from(state.settings.unverified_identity_ttl_secs).unwrap_or(i64::MAX);
    (ttl > 0 && unclaimed(app, identity)).then(|| identity.created_at.saturating_add(ttl))
}

/// The app's identity of `email`; an expired unverified one counts as absent and
/// is deleted.
pub(super) async fn live_identity(
    state: &AppState,
    app: &AppRow,
    email: &str,
) -> ApiResult<Option<IdentityRow>> {
    let Some(identity) = state.db.email_identity(&app.id, email).await? else {
        return Ok(None);
    };
    match expires_at(state, app, &identity) {
        Some(end) if end <= crate::clock::now() => {
            let created_by = crate::clock::now().saturating_sub(
                i64::try_from(state.settings.unverified_identity_ttl_secs).unwrap_or(i64::MAX),
            );
            state
                .db
                .delete_unclaimed_identity(&identity.id, created_by)
                .await?;
            Ok(None)
        }
        _ => Ok(Some(identity)),
    }
}

/// How long a new verification link of an identity that expires at `end` works:
/// never past `end`, so an expired identity cannot be verified.
fn verification_lifetime(end: Option<i64>) -> i64 {
    end.map_or(VERIFICATION_LIFETIME_SECS, |end| {
        VERIFICATION_LIFETIME_SECS.min(end.saturating_sub(crate::clock::now()).max(0))
    })
}

fn existed_email() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        ServiceErrorCode::ExistedEmail,
        "this e-mail address is already registered",
    )
}

/// Checks an e-mail and password against the shared rules, then the e-mail against
/// the app's own policy (the domains it accepts). Returns them normalised.
fn check_credentials(app: &AppRow, credentials: &EmailCredentials) -> ApiResult<EmailCredentials> {
    let checked = rules::check_credentials(&credentials.email, &credentials.password)?;
    check_email_domain(app, &checked.email)?;
    Ok(checked)
}

/// 400 `InvalidEmailDomain` unless the app takes addresses at `email`'s domain.
pub(super) fn check_email_domain(app: &AppRow, email: &str) -> ApiResult<()> {
    let domains = app.email_domains();
    if !domains.is_empty()
        && !domains
            .iter()
            .any(|d| d.eq_ignore_ascii_case(email_domain(email)))
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
    Ok(())
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
        Err(DbError::Conflict) => replace_unclaimed(state, app, &email, &hash).await?,
        Err(e) => return Err(e.into()),
    };
    if !app.requires_email_verification() {
        let identity = state
            .db
            .email_identity_by_id(&identity_id)
            .await?
            .ok_or_else(|| ApiError::internal("identity vanished after insert"))?;
        let login = issue_identity_tokens(state, (&identity).into()).await?;
        return Ok(SignUpResponse {
            verification_sent: false,
            login: Some(login),
        });
    }
    let lifetime = match state.settings.unverified_identity_ttl_secs {
        0 => VERIFICATION_LIFETIME_SECS,
        ttl => VERIFICATION_LIFETIME_SECS.min(i64::try_from(ttl).unwrap_or(i64::MAX)),
    };
    if let Err(e) = send_verification(state, app, &identity_id, &email, lifetime).await {
        state.db.delete_email_identity(&identity_id).await?;
        return Err(e);
    }
    Ok(SignUpResponse {
        verification_sent: true,
        login: None,
    })
}

/// A sign-up for an address that has an identity already: in an app that asks
/// for verification, an unclaimed one (unverified, no user) is given to this
/// sign-up; anything else is 409 `ExistedEmail`. Returns the identity's id.
async fn replace_unclaimed(
    state: &AppState,
    app: &AppRow,
    email: &str,
    password_hash: &str,
) -> ApiResult<String> {
    if !app.requires_email_verification() {
        return Err(existed_email());
    }
    let Some(identity) = state.db.email_identity(&app.id, email).await? else {
        // Deleted (expired) meanwhile: made anew, unless another sign-up was first.
        return match state
            .db
            .create_email_identity(&app.id, email, password_hash)
            .await
        {
            Ok(id) => Ok(id),
            Err(DbError::Conflict) => Err(existed_email()),
            Err(e) => Err(e.into()),
        };
    };
    // Conditional in the database too: a verification racing this sign-up wins,
    // and this sign-up is refused.
    if unclaimed(app, &identity)
        && state
            .db
            .replace_unclaimed_identity(&identity.id, password_hash)
            .await?
    {
        Ok(identity.id)
    } else {
        Err(existed_email())
    }
}

async fn send_verification(
    state: &AppState,
    app: &AppRow,
    identity_id: &str,
    email: &str,
    lifetime_secs: i64,
) -> ApiResult<()> {
    super::check_mail(state, &app.id, email, MailKind::Verification).await?;
    let secret = random_secret();
    state
        .db
        .create_email_verification(identity_id, &secret_hash(&secret), lifetime_secs)
        .await?;
    super::send_verification_link(state, app, email, "v1/auth/email/verify", &secret).await
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
        .limits
        .take(LimitKey::VerificationEmail {
            app_id: &app.id,
            email: &email,
        })
        .await
        .map_err(|wait| ApiError::rate_limited("asked a moment ago", wait))?;
    match live_identity(state, app, &email).await? {
        Some(identity) if !identity.verified() => {
            let lifetime = verification_lifetime(expires_at(state, app, &identity));
            send_verification(state, app, &identity.id, &email, lifetime).await
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

/// `POST /v1/auth/email/password-reset`: e-mails a link (single use, 1 hour) that
/// sets a new password. Says nothing about whether the address is registered:
/// the same answer either way, a failure to send only logged.
pub async fn request_password_reset(state: &AppState, app: &AppRow, email: &str) -> ApiResult<()> {
    require_provider(app, Provider::Email)?;
    let email = normalize_email(email);
    // Checked before it is counted: only a real address takes a limiter's place.
    if !rules::is_email_form(&email) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            ServiceErrorCode::IncorrectEmailForm,
            "that is not an e-mail address",
        ));
    }
    // Counted for every address, registered or not, so a 429 tells nothing.
    state
        .limits
        .take(LimitKey::PasswordReset {
            app_id: &app.id,
            email: &email,
        })
        .await
        .map_err(|wait| ApiError::rate_limited("asked a moment ago", wait))?;
    let Some(identity) = live_identity(state, app, &email).await? else {
        return Ok(());
    };
    if let Err(e) = send_password_reset(state, app, &identity).await {
        tracing::warn!(
            status = e.status.as_u16(),
            "password-reset e-mail not sent: {e}"
        );
    }
    Ok(())
}

async fn send_password_reset(
    state: &AppState,
    app: &AppRow,
    identity: &IdentityRow,
) -> ApiResult<()> {
    super::check_mail(state, &app.id, &identity.email, MailKind::Account).await?;
    let secret = random_secret();
    state
        .db
        .create_password_reset(
            &identity.id,
            &secret_hash(&secret),
            PASSWORD_RESET_LIFETIME_SECS,
        )
        .await?;
    let mut link = state
        .settings
        .public_url
        .join("v1/auth/email/password-reset")
        .map_err(ApiError::internal)?;
    link.query_pairs_mut().append_pair("token", &secret);
    state
        .mailer
        .send_password_reset(&identity.email, &app.name, link.as_str())
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::BAD_GATEWAY,
                ServiceErrorCode::FailedSendEmail,
                "the password-reset e-mail could not be sent",
            )
            .with_cause(e)
        })
}

/// Whether a password-reset link still works (its page shows the form). Changes
/// nothing.
pub async fn password_reset_usable(state: &AppState, token: &str) -> ApiResult<bool> {
    Ok(state.db.password_reset_usable(&secret_hash(token)).await?)
}

/// 400 `InvalidToken`: the reset link is unknown, used or expired.
pub fn reset_link_refused() -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        ServiceErrorCode::InvalidToken,
        "this password-reset link was used already or has expired; ask for a new one",
    )
}

/// `POST /v1/auth/email/password-reset/confirm`: sets the new password with a
/// reset link's token. The password must follow the rules (400
/// `IncorrectPasswordForm`, the link stays usable); the link must be unused and
/// unexpired (400 `InvalidToken`). The address counts as verified (the person
/// opened the link in its inbox), the link is used up, and every session of
/// the identity ends: whoever logged in with the old password is logged out.
pub async fn reset_password(state: &AppState, token: &str, password: String) -> ApiResult<()> {
    rules::check_password(&password)?;
    let token_hash = secret_hash(token);
    // Cheap refusal of a dead link before the (slow, memory-hungry) hash.
    if !state.db.password_reset_usable(&token_hash).await? {
        return Err(reset_link_refused());
    }
    let hash = hash_password(password).await?;
    let reset = state
        .db
        .use_password_reset(&token_hash, &hash)
        .await?
        .ok_or_else(reset_link_refused)?;
    // Already revoked in the database; this drops them from this instance's cache.
    for session in &reset.ended_sessions {
        state.revoke_session(session).await?;
    }
    // The person may log in at once, even after failed tries with the old one.
    state
        .login_failures
        .reset(Counted::Account(&account_key(&reset.app_id, &reset.email)))
        .await;
    tracing::info!(identity = %reset.identity_id, sessions = reset.ended_sessions.len(), "password reset");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verification_link_never_outlives_its_identity() {
        assert_eq!(verification_lifetime(None), VERIFICATION_LIFETIME_SECS);
        let soon = crate::clock::now() + 600;
        let lifetime = verification_lifetime(Some(soon));
        assert!((599..=600).contains(&lifetime), "{lifetime}");
        assert_eq!(
            verification_lifetime(Some(crate::clock::now() + 10 * VERIFICATION_LIFETIME_SECS)),
            VERIFICATION_LIFETIME_SECS
        );
        assert_eq!(verification_lifetime(Some(crate::clock::now() - 5)), 0);
    }
}
