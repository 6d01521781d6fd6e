//! Identity and session endpoints (the spec leaves them to the design): e-mail
//! sign-up and login, token refresh, service login, the current user, logout,
//! and the app's own facts. What the e-mailed links open is in `email_links.rs`.

use axum::extract::State;
use axum::http::StatusCode;
use satchel_api::{
    AppInfo, EmailCredentials, EmailLogin, EmailLoginResult, LoginResult, NetworkInfo,
    RefreshRequest, RegisterRequest, ResendRequest, ServiceLoginRequest, ServiceToken, ServiceUser,
    SignUpResponse,
};

use super::Json;
use super::caller::{ClientAddress, per_address};
use crate::error::ApiResult;
use crate::http::caller::CallingApp;
use crate::identity;
use crate::identity::AuthUser;
use crate::limits::LimitKey;
use crate::state::AppState;

type Reply<T> = ApiResult<axum::Json<T>>;

/// Signs up with an e-mail and password.
#[utoipa::path(post, path = "/v1/auth/email/signup", request_body = EmailCredentials,
    responses((status = 200, body = SignUpResponse),
              (status = 400, body = satchel_api::ApiErrorBody, description = "IncorrectEmailForm, IncorrectPasswordForm, InvalidEmailDomain (the app takes other domains only); InvalidLoginProvider when the app has no e-mail logins"),
              (status = 409, body = satchel_api::ApiErrorBody, description = "ExistedEmail"),
              (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: too many sign-ups from this network address, or the service is sending too many e-mails"),
              (status = 502, body = satchel_api::ApiErrorBody, description = "FailedSendEmail")),
    security(("appKey" = [])))]
pub async fn sign_up(
    State(state): State<AppState>,
    app: CallingApp,
    ClientAddress(address): ClientAddress,
    Json(body): Json<EmailCredentials>,
) -> Reply<SignUpResponse> {
    let app = app.policy(&state).await?;
    if let Some(address) = address {
        per_address(&state, LimitKey::SignUpFrom { address }).await?;
    }
    Ok(axum::Json(
        identity::email::sign_up(&state, &app, body).await?,
    ))
}

/// Sends the verification e-mail again.
#[utoipa::path(post, path = "/v1/auth/email/resend", request_body = ResendRequest,
    responses((status = 204, description = "if the address has an unverified login, a new link is on its way (the answer is the same otherwise)"),
              (status = 400, body = satchel_api::ApiErrorBody, description = "IncorrectEmailForm; InvalidLoginProvider when the app has no e-mail logins"),
              (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: asked for too often for this address or from this network address, or the service is sending too many e-mails"),
              (status = 502, body = satchel_api::ApiErrorBody, description = "FailedSendEmail")),
    security(("appKey" = [])))]
pub async fn resend(
    State(state): State<AppState>,
    app: CallingApp,
    ClientAddress(address): ClientAddress,
    Json(body): Json<ResendRequest>,
) -> ApiResult<StatusCode> {
    let app = app.policy(&state).await?;
    if let Some(address) = address {
        per_address(&state, LimitKey::ResendFrom { address }).await?;
    }
    identity::email::resend_verification(&state, &app, &body.email).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Logs in with an e-mail and password; gives identity tokens.
#[utoipa::path(post, path = "/v1/auth/email/login", request_body = EmailLogin,
    responses((status = 200, body = EmailLoginResult),
              (status = 400, body = satchel_api::ApiErrorBody, description = "IncorrectEmailForm (checked before anything is counted); InvalidLoginProvider when the app has no e-mail logins"),
              (status = 401, body = satchel_api::ApiErrorBody, description = "FailedLogin: the e-mail or password is wrong"),
              (status = 428, body = satchel_api::ApiErrorBody, description = "RequiredEmailVerified"),
              (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: too many failed logins for this e-mail or from this network address")),
    security(("appKey" = [])))]
pub async fn email_login(
    State(state): State<AppState>,
    app: CallingApp,
    ClientAddress(address): ClientAddress,
    Json(body): Json<EmailLogin>,
) -> Reply<EmailLoginResult> {
    let app = app.policy(&state).await?;
    Ok(axum::Json(
        identity::email_login::email_login(&state, &app, body, address).await?,
    ))
}

/// Renews identity tokens (getRefreshIdentityToken).
#[utoipa::path(post, path = "/v1/auth/identity/refresh", request_body = RefreshRequest,
    responses((status = 200, body = LoginResult),
              (status = 401, body = satchel_api::ApiErrorBody, description = "InvalidToken: the refresh token is not valid, or another app's; InvalidLoginSession: its session has ended, or it was used before (which ends the session)")),
    security(("appKey" = [])))]
pub async fn refresh_identity(
    State(state): State<AppState>,
    app: CallingApp,
    Json(body): Json<RefreshRequest>,
) -> Reply<LoginResult> {
    let app = app.policy(&state).await?;
    Ok(axum::Json(
        identity::sessions::refresh_identity(&state, &app, &body.refresh_token).await?,
    ))
}

/// Logs in to the service with identity tokens (loginService).
#[utoipa::path(post, path = "/v1/auth/service/login", request_body = ServiceLoginRequest,
    responses((status = 200, body = ServiceUser),
              (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidLoginProvider: the app does not allow the provider"),
              (status = 401, body = satchel_api::ApiErrorBody, description = "InvalidToken: the identity token is not valid, expired, or another app's; InvalidLoginSession: its login has ended"),
              (status = 428, body = satchel_api::ApiErrorBody, description = "RequiredEmailVerified")),
    security(("appKey" = [])))]
pub async fn service_login(
    State(state): State<AppState>,
    app: CallingApp,
    Json(body): Json<ServiceLoginRequest>,
) -> Reply<ServiceUser> {
    let app = app.policy(&state).await?;
    Ok(axum::Json(
        identity::sessions::service_login(&state, &app, body).await?,
    ))
}

/// Renews the service access token; the refresh token is used up and replaced.
#[utoipa::path(post, path = "/v1/auth/service/refresh", request_body = RefreshRequest,
    responses((status = 200, body = ServiceToken),
              (status = 401, body = satchel_api::ApiErrorBody, description = "InvalidToken: the refresh token is not valid, or another app's; InvalidLoginSession: its session has ended, or it was used before (which ends the session)")),
    security(("appKey" = [])))]
pub async fn refresh_service(
    State(state): State<AppState>,
    app: CallingApp,
    Json(body): Json<RefreshRequest>,
) -> Reply<ServiceToken> {
    let app = app.policy(&state).await?;
    Ok(axum::Json(
        identity::sessions::refresh_service(&state, &app, &body.refresh_token).await?,
    ))
}

/// The logged-in user (getCurrentServiceUser), without tokens.
#[utoipa::path(get, path = "/v1/auth/service/user", responses((status = 200, body = ServiceUser)),
    security(("appKey" = [], "accessToken" = [])))]
pub async fn current_user(State(state): State<AppState>, user: AuthUser) -> Reply<ServiceUser> {
    Ok(axum::Json(
        identity::sessions::service_user(&state, &user.user_id, None).await?,
    ))
}

/// Ends the session: its access and refresh tokens and its identity tokens.
#[utoipa::path(post, path = "/v1/auth/logout",
    responses((status = 204, description = "the session has ended")),
    security(("appKey" = [], "accessToken" = [])))]
pub async fn logout(State(state): State<AppState>, user: AuthUser) -> ApiResult<StatusCode> {
    identity::sessions::logout(&state, &user).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Registers the wallet the device made (register): its address and path, a
/// signature of a challenge (`POST /v1/wallets/challenge`) by the address's key,
/// and the PIN material the service keeps. Nothing is created unless all of it
/// is right.
#[utoipa::path(post, path = "/v1/wallets", request_body = RegisterRequest,
    responses((status = 200, body = ServiceUser),
              (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidParameters: malformed address, path, PIN material, backup or signature; a nonce that is unknown, another user's, used or expired; a signature not by the address's key (the message says which)"),
              (status = 409, body = satchel_api::ApiErrorBody, description = "Conflict: the user has a wallet already")),
    security(("appKey" = [], "accessToken" = [])))]
pub async fn register(
    State(state): State<AppState>,
    user: AuthUser,
    Json(body): Json<RegisterRequest>,
) -> Reply<ServiceUser> {
    crate::wallets::register(&state, &user.user_id, body).await?;
    Ok(axum::Json(
        identity::sessions::service_user(&state, &user.user_id, None).await?,
    ))
}

/// What the app key may use: providers, networks, e-mail rules.
#[utoipa::path(get, path = "/v1/app", responses((status = 200, body = AppInfo)),
    security(("appKey" = [])))]
pub async fn app_info(State(state): State<AppState>, app: CallingApp) -> Reply<AppInfo> {
    let app = app.policy(&state).await?;
    let mut networks: Vec<NetworkInfo> = state
        .settings
        .networks
        .iter()
        .map(|n| NetworkInfo {
            name: n.name.clone(),
            chain_id: n.chain_id,
            symbol: n.symbol.clone(),
            decimals: n.decimals,
            icon_url: n.icon_url.clone(),
        })
        .collect();
    networks.sort_by(|a, b| a.name.cmp(&b.name));
    let providers = app.providers();
    let oauth = state
        .db
        .oauth_providers(&app.id)
        .await?
        .into_iter()
        .filter_map(|row| {
            let provider = satchel_api::Provider::parse(&row.provider)?;
            providers
                .contains(&provider)
                .then_some(satchel_api::OAuthProviderInfo {
                    provider,
                    client_id: row.client_id,
                    authorize_url: row.authorize_url,
                    scopes: row.scopes,
                })
        })
        .collect();
    Ok(axum::Json(AppInfo {
        providers,
        oauth,
        email_verification: app.requires_email_verification(),
        email_domains: app.email_domains(),
        password_rules: satchel_api::rules::PASSWORD_RULES.to_owned(),
        app_id: app.id,
        name: app.name,
        networks,
    }))
}

/// The public key identity tokens are signed with.
pub async fn jwks(State(state): State<AppState>) -> axum::Json<serde_json::Value> {
    axum::Json(state.keys.jwks())
}
