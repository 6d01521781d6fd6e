//! Logins through someone else's identity (identity/external.rs): the OAuth code
//! exchange, external id and access tokens with `sign`, and the e-mail
//! registration of an identity whose provider gave none.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use satchel_api::{
    AccessTokenLogin, IdTokenLogin, LoginResult, OAuthCodeExchange, RegisterEmailRequest,
    RegisterEmailRequired,
};
use serde::Deserialize;

use super::caller::{ClientAddress, per_address};
use super::email_links::{button_page, html_page, page};
use super::{Json, Query};
use crate::error::ApiResult;
use crate::http::caller::CallingApp;
use crate::identity::external::{self, ExternalLogin};
use crate::identity::registration;
use crate::limits::LimitKey;
use crate::state::AppState;

/// A login's answer: 200 with the identity tokens, or 428 with what
/// `sendVerifyEmail` needs.
fn login_reply(login: ExternalLogin) -> Response {
    match login {
        ExternalLogin::LoggedIn(result) => axum::Json(result).into_response(),
        ExternalLogin::NeedsEmail(body) => {
            (StatusCode::PRECONDITION_REQUIRED, axum::Json(body)).into_response()
        }
    }
}

/// Each external login may make the service call a provider: counted per
/// network address.
async fn count_login(state: &AppState, address: Option<std::net::IpAddr>) -> ApiResult<()> {
    match address {
        Some(address) => per_address(state, LimitKey::ExternalLoginFrom { address }).await,
        None => Ok(()),
    }
}

/// Exchanges the authorization code of a loopback redirect (RFC 8252, PKCE) with
/// the provider, using the client secret only the service holds, and logs the
/// person in (loginWithOauthProvider).
#[utoipa::path(post, path = "/v1/auth/oauth/token", request_body = OAuthCodeExchange,
    responses((status = 200, body = LoginResult, description = "identity tokens of the provider's person"),
              (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidLoginProvider: the app does not allow the provider or has not registered it; InvalidParameters: redirectUri is not a loopback redirect, or codeVerifier is malformed"),
              (status = 401, body = satchel_api::ApiErrorBody, description = "InvalidToken: the provider refused the code (used already, expired), or its id token does not verify (issuer, audience, key, expiry, nonce)"),
              (status = 428, body = RegisterEmailRequired, description = "RequiredSignupEmail: the provider gave no verified e-mail; register one with sendVerifyEmail and the token in this answer"),
              (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests from this network address"),
              (status = 502, body = satchel_api::ApiErrorBody, description = "UpstreamUnavailable: the provider did not answer, or refused the app's client")),
    security(("appKey" = [])))]
pub async fn oauth_token(
    State(state): State<AppState>,
    app: CallingApp,
    ClientAddress(address): ClientAddress,
    Json(body): Json<OAuthCodeExchange>,
) -> ApiResult<Response> {
    let app = app.policy(&state).await?;
    count_login(&state, address).await?;
    Ok(login_reply(
        external::oauth_login(&state, &app, body).await?,
    ))
}

/// Logs in with an id token of the app's own issuer, signed for the service by
/// the app's backend (loginWithIdToken).
#[utoipa::path(post, path = "/v1/auth/external/id-token", request_body = IdTokenLogin,
    responses((status = 200, body = LoginResult, description = "identity tokens, provider external_token"),
              (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidLoginProvider: the app does not take external tokens or has not set them up"),
              (status = 401, body = satchel_api::ApiErrorBody, description = "InvalidToken: sign is not the app's signature of the token; the token is from another issuer or audience, expired, or signed with an unknown key"),
              (status = 428, body = RegisterEmailRequired, description = "RequiredSignupEmail: the token carries no e-mail"),
              (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests from this network address")),
    security(("appKey" = [])))]
pub async fn id_token(
    State(state): State<AppState>,
    app: CallingApp,
    ClientAddress(address): ClientAddress,
    Json(body): Json<IdTokenLogin>,
) -> ApiResult<Response> {
    let app = app.policy(&state).await?;
    count_login(&state, address).await?;
    Ok(login_reply(
        external::id_token_login(&state, &app, body).await?,
    ))
}

/// Logs in with a provider's access token (naver, discord, facebook), signed for
/// the service by the app's backend; the provider's userinfo endpoint says who it
/// is (loginWithAccessToken).
#[utoipa::path(post, path = "/v1/auth/external/access-token", request_body = AccessTokenLogin,
    responses((status = 200, body = LoginResult, description = "identity tokens, provider external_token"),
              (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidLoginProvider: not naver, discord or facebook, or the app has not registered it or external tokens"),
              (status = 401, body = satchel_api::ApiErrorBody, description = "InvalidToken: sign is not the app's signature of the token, or the provider does not accept the token"),
              (status = 428, body = RegisterEmailRequired, description = "RequiredSignupEmail: the provider gave no verified e-mail"),
              (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests from this network address"),
              (status = 502, body = satchel_api::ApiErrorBody, description = "UpstreamUnavailable: the provider did not answer")),
    security(("appKey" = [])))]
pub async fn access_token(
    State(state): State<AppState>,
    app: CallingApp,
    ClientAddress(address): ClientAddress,
    Json(body): Json<AccessTokenLogin>,
) -> ApiResult<Response> {
    let app = app.policy(&state).await?;
    count_login(&state, address).await?;
    Ok(login_reply(
        external::access_token_login(&state, &app, body).await?,
    ))
}

/// E-mails a link that registers an address for the identity a login was refused
/// for (sendVerifyEmail); `idToken` or `accessToken` is the refused token.
#[utoipa::path(post, path = "/v1/auth/external/email", request_body = RegisterEmailRequest,
    responses((status = 204, description = "the link is on its way"),
              (status = 400, body = satchel_api::ApiErrorBody, description = "IncorrectEmailForm, InvalidEmailDomain; InvalidLoginProvider: the token was refused for another provider"),
              (status = 401, body = satchel_api::ApiErrorBody, description = "InvalidToken: no login was refused with this token in the last hour"),
              (status = 409, body = satchel_api::ApiErrorBody, description = "ExistedEmail: the account has its address already"),
              (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: a link was sent a moment ago, or from this network address, or the service sends too many e-mails"),
              (status = 502, body = satchel_api::ApiErrorBody, description = "FailedSendEmail")),
    security(("appKey" = [])))]
pub async fn send_verify_email(
    State(state): State<AppState>,
    app: CallingApp,
    ClientAddress(address): ClientAddress,
    Json(body): Json<RegisterEmailRequest>,
) -> ApiResult<StatusCode> {
    let app = app.policy(&state).await?;
    if let Some(address) = address {
        per_address(&state, LimitKey::ResendFrom { address }).await?;
    }
    registration::send_verify_email(&state, &app, body).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct LinkQuery {
    token: String,
}

/// The link in a registration e-mail: a page with the button that registers
/// the address. Opening the link changes nothing (mail scanners follow links).
#[utoipa::path(get, path = "/v1/auth/external/email/verify",
    params(("token" = String, Query, description = "the token of the e-mailed link")),
    responses((status = 200, description = "an HTML page with the button that registers the address", content_type = "text/html"),
              (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidParameters: the link has no token")))]
pub async fn verify_link_page(Query(query): Query<LinkQuery>) -> Html<String> {
    Html(button_page(
        "Register this e-mail address?",
        "Only if you asked an app to use this address for your account.",
        "/v1/auth/external/email/verify",
        "Register my address",
        &query.token,
    ))
}

/// The page's button: the account gets the address.
#[utoipa::path(post, path = "/v1/auth/external/email/verify",
    request_body(content = LinkQuery, content_type = "application/x-www-form-urlencoded", description = "the page's form: the link's token"),
    responses((status = 200, description = "an HTML page: the address is registered", content_type = "text/html"),
              (status = 400, description = "an HTML page: the link was used already or has expired (or the form is not the page's)", content_type = "text/html")))]
pub async fn verify_link(
    State(state): State<AppState>,
    form: Result<axum::Form<LinkQuery>, axum::extract::rejection::FormRejection>,
) -> ApiResult<Response> {
    let registered = match form {
        Ok(axum::Form(form)) => registration::verify_registration_link(&state, &form.token).await?,
        Err(_) => false,
    };
    Ok(if registered {
        html_page(
            StatusCode::OK,
            page(
                "E-mail verified",
                "Your e-mail address is registered. Go back to the app and continue.",
            ),
        )
    } else {
        html_page(
            StatusCode::BAD_REQUEST,
            page(
                "This link does not work",
                "The link was used already or has expired. Ask the app to send a new one.",
            ),
        )
    })
}

/// Logs in with the token a login was refused for, once the address registered
/// for it is verified; the token is then used up here.
#[utoipa::path(post, path = "/v1/auth/external/resume", request_body = RegisterEmailRequest,
    responses((status = 200, body = LoginResult),
              (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidLoginProvider: the token was refused for another provider"),
              (status = 401, body = satchel_api::ApiErrorBody, description = "InvalidToken: no login was refused with this token in the last hour (or it finished already)"),
              (status = 428, body = satchel_api::ApiErrorBody, description = "RequiredEmailVerified: the link in the e-mail was not opened yet")),
    security(("appKey" = [])))]
pub async fn resume(
    State(state): State<AppState>,
    app: CallingApp,
    Json(body): Json<RegisterEmailRequest>,
) -> ApiResult<axum::Json<LoginResult>> {
    let app = app.policy(&state).await?;
    Ok(axum::Json(registration::resume(&state, &app, body).await?))
}
