//! The service as identity provider of e-mail users, and as issuer of service
//! sessions: sign-up with a verification e-mail, e-mail login, identity and
//! service token refresh with rotation and reuse detection, service login, logout.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use axum::http::StatusCode;
use base64::Engine as _;
use rand::RngCore;
use satchel_api::rules::{email_domain, is_email_form, is_password_form, normalize_email};
use satchel_api::{
    EmailCredentials, IdentityTokens, LoginResult, LoginStatus, Outcome, Provider,
    ServiceErrorCode, ServiceLoginRequest, ServiceToken, ServiceUser, SignUpResponse, UserInfo,
    UserStatus,
};
use sha2::{Digest, Sha256};

use crate::auth::AuthUser;
use crate::db::{AppRow, DbError, IdentityRow, RefreshPurpose, RefreshUse};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::tokens::TokenError;

/// How long a verification link works.
const VERIFICATION_LIFETIME_SECS: i64 = 24 * 60 * 60;

fn error(status: StatusCode, code: ServiceErrorCode, message: impl Into<String>) -> ApiError {
    ApiError::new(status, code, message)
}

/// A new secret for a link or a refresh token: 256 random bits, URL-safe.
fn random_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Secrets are stored as their SHA-256 and looked up by it, never compared raw.
fn secret_hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// argon2id with its own salt; slow on purpose, so off the async runtime.
pub async fn hash_password(password: String) -> ApiResult<String> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut rand::rngs::OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|hash| hash.to_string())
            .map_err(|e| ApiError::internal(format!("password hashing: {e}")))
    })
    .await
    .map_err(ApiError::internal)?
}

async fn password_matches(password: String, hash: String) -> bool {
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&hash).is_ok_and(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
    })
    .await
    .unwrap_or(false)
}

fn require_provider(app: &AppRow, provider: Provider) -> ApiResult<()> {
    if app.providers().contains(&provider) {
        Ok(())
    } else {
        Err(error(
            StatusCode::BAD_REQUEST,
            ServiceErrorCode::InvalidLoginProvider,
            format!("this app does not allow {} login", provider.as_str()),
        ))
    }
}

/// Checks an e-mail and password against the rules and the app's e-mail domains.
fn check_credentials(app: &AppRow, email: &str, password: &str) -> ApiResult<()> {
    if !is_email_form(email) {
        return Err(error(
            StatusCode::BAD_REQUEST,
            ServiceErrorCode::IncorrectEmailForm,
            "the e-mail address is not valid",
        ));
    }
    if !is_password_form(password) {
        return Err(error(
            StatusCode::BAD_REQUEST,
            ServiceErrorCode::IncorrectPasswordForm,
            format!(
                "the password must have {}",
                satchel_api::rules::PASSWORD_RULES
            ),
        ));
    }
    let domains = app.email_domains();
    if !domains.is_empty()
        && !domains
            .iter()
            .any(|d| d.eq_ignore_ascii_case(email_domain(email)))
    {
        return Err(error(
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
    let email = normalize_email(&credentials.email);
    check_credentials(app, &email, &credentials.password)?;
    let hash = hash_password(credentials.password).await?;
    let identity_id = match state.db.create_email_identity(&app.id, &email, &hash).await {
        Ok(id) => id,
        Err(DbError::Conflict) => {
            return Err(error(
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
            tracing::warn!(error = %e, "verification e-mail not sent");
            ApiError::new(
                StatusCode::BAD_GATEWAY,
                ServiceErrorCode::FailedSendEmail,
                "the verification e-mail could not be sent; try again later",
            )
        })
}

/// Sends a new verification link to an unverified identity. Says nothing about
/// whether the address is registered.
pub async fn resend_verification(state: &AppState, app: &AppRow, email: &str) -> ApiResult<()> {
    let email = normalize_email(email);
    state
        .limiter
        .check(&format!("resend:{}:{email}", app.id))
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

/// Logs an e-mail identity in with its password.
pub async fn email_login(
    state: &AppState,
    app: &AppRow,
    credentials: EmailCredentials,
    address: Option<std::net::IpAddr>,
) -> ApiResult<LoginResult> {
    require_provider(app, Provider::Email)?;
    let email = normalize_email(&credentials.email);
    let account_key = format!("{}:{email}", app.id);
    let address_key = address.map(|a| a.to_string()).unwrap_or_default();
    let limits = &state.logins;
    if let Some(wait) = limits
        .by_account
        .blocked(&account_key)
        .or_else(|| limits.by_address.blocked(&address_key))
    {
        return Err(ApiError::too_many_requests(format!(
            "too many failed logins; try again in {} min",
            wait.as_secs().div_ceil(60).max(1)
        )));
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
            limits.by_account.record(&account_key);
            limits.by_address.record(&address_key);
            return Err(error(
                StatusCode::UNAUTHORIZED,
                ServiceErrorCode::FailedLogin,
                "the e-mail or password is wrong",
            ));
        }
    };
    limits.by_account.reset(&account_key);
    if app.requires_email_verification() && !identity.verified() {
        return Err(error(
            StatusCode::PRECONDITION_REQUIRED,
            ServiceErrorCode::RequiredEmailVerified,
            "verify your e-mail address first: open the link in the e-mail we sent",
        ));
    }
    issue_identity_tokens(state, &identity).await
}

/// Opens an identity session and issues its id token and first refresh token.
async fn issue_identity_tokens(state: &AppState, identity: &IdentityRow) -> ApiResult<LoginResult> {
    let session = state.db.create_identity_session(&identity.id).await?;
    identity_tokens_for(state, identity, &session).await
}

async fn identity_tokens_for(
    state: &AppState,
    identity: &IdentityRow,
    session: &str,
) -> ApiResult<LoginResult> {
    let settings = &state.settings;
    let id_token = state
        .keys
        .mint_identity(
            &identity.id,
            &identity.app_id,
            session,
            &identity.email,
            identity.verified(),
            settings.identity_token_ttl_secs as i64,
        )
        .map_err(ApiError::internal)?;
    let refresh_token = random_secret();
    state
        .db
        .insert_refresh_token(
            RefreshPurpose::Identity,
            session,
            &secret_hash(&refresh_token),
            settings.refresh_token_ttl_secs as i64,
        )
        .await?;
    Ok(LoginResult {
        provider: Provider::Email,
        token: IdentityTokens {
            id_token,
            refresh_token,
        },
    })
}

fn reused() -> ApiError {
    error(
        StatusCode::UNAUTHORIZED,
        ServiceErrorCode::InvalidLoginSession,
        "this refresh token was used before, so the session was ended; log in again",
    )
}

fn session_ended() -> ApiError {
    error(
        StatusCode::UNAUTHORIZED,
        ServiceErrorCode::InvalidLoginSession,
        "the login session has ended; log in again",
    )
}

/// Renews an identity token with a refresh token, which is used up and replaced.
pub async fn refresh_identity(
    state: &AppState,
    app: &AppRow,
    refresh_token: &str,
) -> ApiResult<LoginResult> {
    match state
        .db
        .use_refresh_token(RefreshPurpose::Identity, &secret_hash(refresh_token))
        .await?
    {
        RefreshUse::Fresh { family } => {
            let identity_id = state
                .db
                .identity_session(&family)
                .await?
                .ok_or_else(session_ended)?;
            let identity = state
                .db
                .email_identity_by_id(&identity_id)
                .await?
                .ok_or_else(session_ended)?;
            if identity.app_id != app.id {
                return Err(ApiError::invalid_token(
                    "the refresh token was issued for another app",
                ));
            }
            identity_tokens_for(state, &identity, &family).await
        }
        RefreshUse::Reused { family } => {
            state.db.revoke_identity_session(&family).await?;
            Err(reused())
        }
        RefreshUse::Invalid => Err(ApiError::invalid_token("the refresh token is not valid")),
    }
}

/// Turns an identity (from a login-library login) into a service session.
pub async fn service_login(
    state: &AppState,
    app: &AppRow,
    request: ServiceLoginRequest,
) -> ApiResult<ServiceUser> {
    require_provider(app, request.provider)?;
    if request.provider != Provider::Email {
        return Err(error(
            StatusCode::BAD_REQUEST,
            ServiceErrorCode::InvalidLoginProvider,
            format!(
                "{} login is not available on this service yet",
                request.provider.as_str()
            ),
        ));
    }
    let claims = state
        .keys
        .verify_identity(&request.token.id_token)
        .map_err(|e| match e {
            TokenError::Expired => {
                ApiError::invalid_token("the identity token has expired; refresh it")
            }
            TokenError::Invalid => ApiError::invalid_token("the identity token is not valid"),
        })?;
    if claims.app != app.id {
        return Err(ApiError::invalid_token(
            "the identity token was issued for another app",
        ));
    }
    if state.db.identity_session(&claims.sid).await?.is_none() {
        return Err(session_ended());
    }
    if app.requires_email_verification() && !claims.email_verified {
        return Err(error(
            StatusCode::PRECONDITION_REQUIRED,
            ServiceErrorCode::RequiredEmailVerified,
            "verify your e-mail address first",
        ));
    }
    let user_id = state
        .db
        .find_or_create_user(
            &app.id,
            Provider::Email.as_str(),
            &claims.sub,
            &claims.email,
        )
        .await?;
    let lifetime = state.settings.refresh_token_ttl_secs as i64;
    let session = state
        .db
        .create_session(&user_id, Some(&claims.sid), lifetime)
        .await?;
    let token = service_tokens_for(state, &user_id, &app.id, &session).await?;
    service_user(state, &user_id, Some(token)).await
}

async fn service_tokens_for(
    state: &AppState,
    user_id: &str,
    app_id: &str,
    session: &str,
) -> ApiResult<ServiceToken> {
    let settings = &state.settings;
    let access_token = state
        .keys
        .mint_access(
            user_id,
            app_id,
            session,
            settings.access_token_ttl_secs as i64,
        )
        .map_err(ApiError::internal)?;
    let refresh_token = random_secret();
    state
        .db
        .insert_refresh_token(
            RefreshPurpose::Service,
            session,
            &secret_hash(&refresh_token),
            settings.refresh_token_ttl_secs as i64,
        )
        .await?;
    Ok(ServiceToken {
        access_token,
        refresh_token,
    })
}

/// Renews a service access token with a refresh token, which is used up and
/// replaced; presenting a used one ends the session.
pub async fn refresh_service(
    state: &AppState,
    app: &AppRow,
    refresh_token: &str,
) -> ApiResult<ServiceToken> {
    match state
        .db
        .use_refresh_token(RefreshPurpose::Service, &secret_hash(refresh_token))
        .await?
    {
        RefreshUse::Fresh { family } => {
            let (user_id, _) = state
                .db
                .live_session(&family)
                .await?
                .ok_or_else(session_ended)?;
            if state.db.user_app(&user_id).await?.as_deref() != Some(app.id.as_str()) {
                return Err(ApiError::invalid_token(
                    "the refresh token was issued for another app",
                ));
            }
            state
                .db
                .extend_session(&family, state.settings.refresh_token_ttl_secs as i64)
                .await?;
            service_tokens_for(state, &user_id, &app.id, &family).await
        }
        RefreshUse::Reused { family } => {
            state.revoke_session(&family).await?;
            Err(reused())
        }
        RefreshUse::Invalid => Err(ApiError::invalid_token("the refresh token is not valid")),
    }
}

/// The user as `ServiceUser`, with `token` when one was just issued.
pub async fn service_user(
    state: &AppState,
    user_id: &str,
    token: Option<ServiceToken>,
) -> ApiResult<ServiceUser> {
    let (email, provider) = state
        .db
        .user_profile(user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("user"))?;
    let wallet_id = state.db.user_wallet(user_id).await?;
    Ok(ServiceUser {
        status: Outcome::Success,
        user_info: Some(UserInfo {
            user_id: user_id.to_owned(),
            email,
            provider: Provider::parse(&provider).unwrap_or(Provider::Email),
            use_2fa: false,
        }),
        user_status: UserStatus {
            login_status: if wallet_id.is_some() {
                LoginStatus::Complete
            } else {
                LoginStatus::RegisterRequired
            },
            pin_required: None,
        },
        wallet_id,
        token,
    })
}

/// Ends the caller's service session and the identity session it came from.
pub async fn logout(state: &AppState, user: &AuthUser) -> ApiResult<()> {
    let identity_session = state
        .db
        .live_session(&user.session_id)
        .await?
        .and_then(|(_, identity)| identity);
    state.revoke_session(&user.session_id).await?;
    if let Some(identity_session) = identity_session {
        state.db.revoke_identity_session(&identity_session).await?;
    }
    Ok(())
}

/// An app's policy, or 401 when the key's app vanished meanwhile.
pub async fn app(state: &AppState, app_id: &str) -> ApiResult<AppRow> {
    state.db.app(app_id).await?.ok_or_else(|| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            ServiceErrorCode::InvalidAppKey,
            "the app key is not known",
        )
    })
}
