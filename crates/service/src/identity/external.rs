//! Logins through someone else's identity: an OAuth provider (the service
//! exchanges the code a loopback redirect brought back, with the client secret
//! only it holds), and an external id token or access token the app's backend
//! vouches for with `sign`.
//!
//! Whoever the provider says the person is becomes an external identity. One
//! without an e-mail cannot log in yet: the login is refused with 428
//! `RequiredSignupEmail`, and the refused token (its hash) becomes a ticket, good
//! for [`TICKET_LIFETIME_SECS`], that may register an e-mail (`sendVerifyEmail`,
//! a link to prove it) and then log in once (`resume`): `registration.rs`. The
//! ticket is what makes that safe without `sign`: only a token the service
//! itself verified gets one.

use axum::http::StatusCode;
use satchel_api::{
    AccessTokenLogin, IdTokenLogin, LoginResult, OAuthCodeExchange, Provider,
    RegisterEmailRequired, ServiceErrorCode, is_oauth_provider, is_oidc_provider,
};
use subtle::ConstantTimeEq as _;

use super::providers::{Person, person_from_claims};
use super::require_provider;
use super::sessions::{IdentityFacts, issue_identity_tokens};
use crate::crypto::secret_hash;
use crate::db::{AppRow, ExternalIdentityRow, OAuthProviderRow};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

mod checks;

use checks::{check_code_verifier, check_loopback_redirect, check_nonce};

/// How long a refused token may register an e-mail and log in with it.
pub const TICKET_LIFETIME_SECS: i64 = 60 * 60;
/// The longest token taken (a JWT of a few KiB is already generous).
pub(super) const MAX_TOKEN_LEN: usize = 8192;

/// How an external login ended.
#[derive(Debug)]
pub enum ExternalLogin {
    LoggedIn(LoginResult),
    /// The identity has no e-mail yet (428 with this body).
    NeedsEmail(RegisterEmailRequired),
}

pub(super) fn invalid_provider(message: impl Into<String>) -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        ServiceErrorCode::InvalidLoginProvider,
        message,
    )
}

pub(super) fn invalid_token(message: impl Into<String>) -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        ServiceErrorCode::InvalidToken,
        message,
    )
}

fn invalid_parameters(message: impl Into<String>) -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        ServiceErrorCode::InvalidParameters,
        message,
    )
}

/// The token to keep a ticket for, and how the refusal hands it back.
enum RefusedToken<'a> {
    Id(&'a str),
    Access(&'a str),
}

impl RefusedToken<'_> {
    fn text(&self) -> &str {
        match self {
            Self::Id(t) | Self::Access(t) => t,
        }
    }
}

/// Logs `person` in as an external identity of `identity_provider`, or refuses
/// for want of an e-mail (keeping a ticket for `token`). `login_provider` is the
/// LoginResult's provider; `refusal_provider` the one the refusal names.
async fn log_in_person(
    state: &AppState,
    app: &AppRow,
    identity_provider: Provider,
    login_provider: Provider,
    refusal_provider: Provider,
    person: Person,
    token: RefusedToken<'_>,
) -> ApiResult<ExternalLogin> {
    let identity = state
        .db
        .find_or_create_external_identity(
            &app.id,
            identity_provider.as_str(),
            &person.subject,
            person.email.as_deref(),
        )
        .await?;
    if identity.email.is_none() {
        state
            .db
            .insert_registration_ticket(
                &secret_hash(token.text()),
                &identity.id,
                login_provider.as_str(),
                TICKET_LIFETIME_SECS,
            )
            .await?;
        let (id_token, access_token) = match token {
            RefusedToken::Id(t) => (Some(t.to_owned()), None),
            RefusedToken::Access(t) => (None, Some(t.to_owned())),
        };
        return Ok(ExternalLogin::NeedsEmail(RegisterEmailRequired {
            status_code: StatusCode::PRECONDITION_REQUIRED.as_u16(),
            code: ServiceErrorCode::RequiredSignupEmail.into(),
            message: "this account has no e-mail address yet: register one with sendVerifyEmail, \
                      open the link, then log in again with the same token"
                .to_owned(),
            provider: refusal_provider,
            id_token,
            access_token,
        }));
    }
    Ok(ExternalLogin::LoggedIn(
        issue_for(state, &identity, login_provider).await?,
    ))
}

/// Identity tokens for an external identity that has its e-mail.
pub(super) async fn issue_for(
    state: &AppState,
    identity: &ExternalIdentityRow,
    login_provider: Provider,
) -> ApiResult<LoginResult> {
    let email = identity
        .email
        .as_deref()
        .ok_or_else(|| ApiError::internal("identity without e-mail"))?;
    issue_identity_tokens(
        state,
        IdentityFacts {
            id: &identity.id,
            app_id: &identity.app_id,
            email,
            email_verified: true,
            provider: login_provider,
        },
    )
    .await
}

/// The app's registration of an OAuth provider it allows.
async fn registered_provider(
    state: &AppState,
    app: &AppRow,
    provider: Provider,
) -> ApiResult<OAuthProviderRow> {
    if !is_oauth_provider(provider) {
        return Err(invalid_provider(format!(
            "{} is not an OAuth provider",
            provider.as_str()
        )));
    }
    require_provider(app, provider)?;
    state
        .db
        .oauth_provider(&app.id, provider.as_str())
        .await?
        .ok_or_else(|| {
            invalid_provider(format!(
                "this app has not registered {} with the service",
                provider.as_str()
            ))
        })
}

/// `POST /v1/auth/oauth/token`: exchanges the code at the provider and logs the
/// person in.
pub async fn oauth_login(
    state: &AppState,
    app: &AppRow,
    request: OAuthCodeExchange,
) -> ApiResult<ExternalLogin> {
    let config = registered_provider(state, app, request.provider).await?;
    check_loopback_redirect(&request.redirect_uri)?;
    check_code_verifier(&request.code_verifier)?;
    if request.code.is_empty() || request.code.len() > 2048 {
        return Err(invalid_parameters("code is malformed"));
    }
    check_nonce(request.provider, &request.nonce)?;
    let secret = state
        .pin_keys
        .open_client_secret(&app.id, &config.provider, &config.client_secret_sealed)
        .map_err(|_| ApiError::internal("an OAuth client secret does not open"))?;
    let answer = state
        .providers
        .exchange_code(
            &config.token_url,
            &config.client_id,
            &secret,
            &request.code,
            &request.code_verifier,
            &request.redirect_uri,
        )
        .await?;
    let text = |name: &str| {
        answer
            .get(name)
            .and_then(serde_json::Value::as_str)
            .filter(|t| !t.is_empty() && t.len() <= MAX_TOKEN_LEN)
            .map(str::to_owned)
    };
    if is_oidc_provider(request.provider) {
        let id_token = text("id_token")
            .ok_or_else(|| invalid_token("the provider's answer has no id token"))?;
        let claims = state
            .providers
            .verify_jwt(
                &id_token,
                &config.jwks_url,
                &config.issuer,
                &config.client_id,
            )
            .await?;
        let nonce = claims.get("nonce").and_then(serde_json::Value::as_str);
        let same = nonce.is_some_and(|n| bool::from(n.as_bytes().ct_eq(request.nonce.as_bytes())));
        if !same {
            return Err(invalid_token(
                "the id token was not issued for this login (nonce)",
            ));
        }
        let person = person_from_claims(&claims)
            .ok_or_else(|| invalid_token("the id token names no person"))?;
        log_in_person(
            state,
            app,
            request.provider,
            request.provider,
            request.provider,
            person,
            RefusedToken::Id(&id_token),
        )
        .await
    } else {
        let access_token = text("access_token")
            .ok_or_else(|| invalid_token("the provider's answer has no access token"))?;
        let person = state
            .providers
            .userinfo(&config.userinfo_url, &access_token)
            .await?;
        log_in_person(
            state,
            app,
            request.provider,
            request.provider,
            request.provider,
            person,
            RefusedToken::Access(&access_token),
        )
        .await
    }
}

/// The app's key for `sign`, when it has set up external tokens.
fn login_key(app: &AppRow) -> ApiResult<k256::ecdsa::VerifyingKey> {
    require_provider(app, Provider::ExternalToken)?;
    if app.login_public_key.is_empty() {
        return Err(invalid_provider(
            "this app has not registered a login key for external tokens",
        ));
    }
    satchel_api::login_sign::parse_public_key(&app.login_public_key)
        .map_err(|_| ApiError::internal("the app's login key does not parse"))
}

/// Checks `sign` (the app backend's signature of `token`) before anything else.
fn check_sign(app: &AppRow, token: &str, sign: &str) -> ApiResult<()> {
    let key = login_key(app)?;
    if token.is_empty() || token.len() > MAX_TOKEN_LEN {
        return Err(invalid_token("the token is empty or too long"));
    }
    if satchel_api::login_sign::verify_login_sign(&key, token, sign) {
        Ok(())
    } else {
        Err(invalid_token(
            "sign is not the app's signature of this token (getSignForLogin with the app's \
             authentication key)",
        ))
    }
}

/// `POST /v1/auth/external/id-token` (loginWithIdToken).
pub async fn id_token_login(
    state: &AppState,
    app: &AppRow,
    request: IdTokenLogin,
) -> ApiResult<ExternalLogin> {
    check_sign(app, &request.token, &request.sign)?;
    if app.token_issuer.is_empty() || app.token_jwks_url.is_empty() {
        return Err(invalid_provider(
            "this app has not registered the issuer of its id tokens",
        ));
    }
    let audience = if app.token_audience.is_empty() {
        &app.id
    } else {
        &app.token_audience
    };
    let claims = state
        .providers
        .verify_jwt(
            &request.token,
            &app.token_jwks_url,
            &app.token_issuer,
            audience,
        )
        .await?;
    let person =
        person_from_claims(&claims).ok_or_else(|| invalid_token("the token names no person"))?;
    log_in_person(
        state,
        app,
        Provider::ExternalToken,
        Provider::ExternalToken,
        Provider::ExternalToken,
        person,
        RefusedToken::Id(&request.token),
    )
    .await
}

/// `POST /v1/auth/external/access-token` (loginWithAccessToken).
pub async fn access_token_login(
    state: &AppState,
    app: &AppRow,
    request: AccessTokenLogin,
) -> ApiResult<ExternalLogin> {
    if !matches!(
        request.provider,
        Provider::Naver | Provider::Discord | Provider::Facebook
    ) {
        return Err(invalid_provider(
            "access tokens are taken from naver, discord or facebook",
        ));
    }
    check_sign(app, &request.token, &request.sign)?;
    let config = state
        .db
        .oauth_provider(&app.id, request.provider.as_str())
        .await?
        .filter(|c| !c.userinfo_url.is_empty())
        .ok_or_else(|| {
            invalid_provider(format!(
                "this app has not registered {} with the service",
                request.provider.as_str()
            ))
        })?;
    let person = state
        .providers
        .userinfo(&config.userinfo_url, &request.token)
        .await?;
    log_in_person(
        state,
        app,
        request.provider,
        Provider::ExternalToken,
        request.provider,
        person,
        RefusedToken::Access(&request.token),
    )
    .await
}
