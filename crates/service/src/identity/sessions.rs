//! Sessions and their tokens: identity sessions (an e-mail login's id token and
//! refresh token), service sessions (access and refresh tokens), refresh with
//! rotation and reuse detection, the current user, and logout.
//!
//! A service session is made from an identity session (its parent). Rotation is
//! one database transaction; a token presented again within `refresh_reuse_grace_secs`
//! of its use is a retry after a lost answer and is renewed again, later it is
//! theft: the identity session and every service session made from it end. A
//! service refresh checks the parent is live, and an identity session idle for
//! longer than the refresh-token lifetime has ended.

use axum::http::StatusCode;
use satchel_api::{
    IdentityTokens, LoginResult, Provider, ServiceErrorCode, ServiceLoginRequest, ServiceToken,
    ServiceUser,
};

use super::require_provider;
use crate::assets::views;
use crate::crypto::{random_secret, secret_hash};
use crate::db::{AppRow, IdentityRow, RefreshPurpose, RefreshUse};
use crate::error::{ApiError, ApiResult};
use crate::identity::AuthUser;
use crate::identity::tokens::{TokenError, TokenKind};
use crate::state::AppState;

/// What an identity token says: whose identity (e-mail or external), its
/// address, and the provider of the login.
pub(super) struct IdentityFacts<'a> {
    pub id: &'a str,
    pub app_id: &'a str,
    pub email: &'a str,
    pub email_verified: bool,
    pub provider: Provider,
}

impl<'a> From<&'a IdentityRow> for IdentityFacts<'a> {
    fn from(identity: &'a IdentityRow) -> Self {
        Self {
            id: &identity.id,
            app_id: &identity.app_id,
            email: &identity.email,
            email_verified: identity.verified(),
            provider: Provider::Email,
        }
    }
}

/// Opens an identity session and issues its id token and first refresh token.
pub(super) async fn issue_identity_tokens(
    state: &AppState,
    identity: IdentityFacts<'_>,
) -> ApiResult<LoginResult> {
    let session = state
        .db
        .create_identity_session(identity.id, identity.provider.as_str())
        .await?;
    let refresh_token = random_secret();
    state
        .db
        .insert_refresh_token(
            RefreshPurpose::Identity,
            &session,
            &secret_hash(&refresh_token),
            state.settings.refresh_token_ttl_secs as i64,
        )
        .await?;
    identity_tokens_for(state, identity, &session, refresh_token)
}

/// The id token of `session`, beside its refresh token (already stored).
fn identity_tokens_for(
    state: &AppState,
    identity: IdentityFacts<'_>,
    session: &str,
    refresh_token: String,
) -> ApiResult<LoginResult> {
    let settings = &state.settings;
    let id_token = state
        .keys
        .mint_identity(
            identity.id,
            identity.app_id,
            session,
            identity.email,
            identity.email_verified,
            identity.provider.as_str(),
            settings.identity_token_ttl_secs as i64,
        )
        .map_err(ApiError::internal)?;
    Ok(LoginResult {
        provider: identity.provider,
        token: IdentityTokens {
            id_token,
            refresh_token,
        },
    })
}

/// A refresh token used up: the session (family) it renews, the token that
/// replaces it, and how long that one lives.
struct Rotated {
    family: String,
    next: String,
    lifetime: i64,
}

/// Uses up a refresh token of `purpose` and makes its replacement. A token
/// presented again (after the reuse grace) ends its session: for a service
/// session also the identity session it was made from and every other service
/// session made from that. An unknown or expired token is refused.
async fn rotate(
    state: &AppState,
    purpose: RefreshPurpose,
    refresh_token: &str,
) -> ApiResult<Rotated> {
    // The same token presented again within the grace gets the same replacement:
    // a retry never leaves two live tokens in one family.
    let next = state.pin_keys.refresh_child(refresh_token);
    let lifetime = state.settings.refresh_token_ttl_secs as i64;
    let used = state
        .db
        .rotate_refresh_token(
            purpose,
            &secret_hash(refresh_token),
            &secret_hash(&next),
            lifetime,
            state.settings.refresh_reuse_grace_secs as i64,
        )
        .await?;
    match used {
        RefreshUse::Fresh { family } => Ok(Rotated {
            family,
            next,
            lifetime,
        }),
        RefreshUse::Reused { family } => {
            match purpose {
                RefreshPurpose::Identity => state.revoke_identity_family(&family).await?,
                RefreshPurpose::Service => {
                    state.revoke_session(&family).await?;
                    if let Some(parent) = state.db.parent_identity_session(&family).await? {
                        state.revoke_identity_family(&parent).await?;
                    }
                }
            }
            Err(ApiError::refresh_token_reused())
        }
        RefreshUse::Invalid => Err(TokenKind::Refresh.refused(TokenError::Invalid)),
    }
}

/// Renews an identity token with a refresh token, which is used up and replaced.
pub async fn refresh_identity(
    state: &AppState,
    app: &AppRow,
    refresh_token: &str,
) -> ApiResult<LoginResult> {
    let Rotated {
        family,
        next,
        lifetime,
    } = rotate(state, RefreshPurpose::Identity, refresh_token).await?;
    let identity_id = state
        .db
        .live_identity_session(&family, lifetime)
        .await?
        .ok_or_else(ApiError::session_ended)?;
    if let Some(identity) = state.db.email_identity_by_id(&identity_id).await? {
        if identity.app_id != app.id {
            return Err(TokenKind::Refresh.foreign());
        }
        state.db.touch_identity_session(&family).await?;
        return identity_tokens_for(state, (&identity).into(), &family, next);
    }
    let identity = state
        .db
        .external_identity_by_id(&identity_id)
        .await?
        .ok_or_else(ApiError::session_ended)?;
    if identity.app_id != app.id {
        return Err(TokenKind::Refresh.foreign());
    }
    let provider = state
        .db
        .identity_session_provider(&family)
        .await?
        .and_then(|p| Provider::parse(&p))
        .ok_or_else(ApiError::session_ended)?;
    let email = identity
        .email
        .as_deref()
        .ok_or_else(ApiError::session_ended)?;
    state.db.touch_identity_session(&family).await?;
    identity_tokens_for(
        state,
        IdentityFacts {
            id: &identity.id,
            app_id: &identity.app_id,
            email,
            email_verified: true,
            provider,
        },
        &family,
        next,
    )
}

/// Turns an identity (from a login-library login) into a service session.
pub async fn service_login(
    state: &AppState,
    app: &AppRow,
    request: ServiceLoginRequest,
) -> ApiResult<ServiceUser> {
    require_provider(app, request.provider)?;
    let claims = state
        .keys
        .verify_identity(&request.token.id_token)
        .map_err(|e| TokenKind::Identity.refused(e))?;
    if claims.app != app.id {
        return Err(TokenKind::Identity.foreign());
    }
    if claims.provider != request.provider.as_str() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            ServiceErrorCode::InvalidLoginProvider,
            format!(
                "these identity tokens are of a {} login, not {}",
                claims.provider,
                request.provider.as_str()
            ),
        ));
    }
    if state
        .db
        .live_identity_session(&claims.sid, state.settings.refresh_token_ttl_secs as i64)
        .await?
        .is_none()
    {
        return Err(ApiError::session_ended());
    }
    let user_id = if request.provider == Provider::Email {
        if app.requires_email_verification() && !claims.email_verified {
            return Err(ApiError::new(
                StatusCode::PRECONDITION_REQUIRED,
                ServiceErrorCode::RequiredEmailVerified,
                "verify your e-mail address first",
            ));
        }
        state
            .db
            .find_or_create_user(
                &app.id,
                Provider::Email.as_str(),
                &claims.sub,
                &claims.email,
            )
            .await?
    } else {
        // The user of an external identity is that identity at its own provider
        // (a Discord account is one user, by OAuth or by access token).
        let identity = state
            .db
            .external_identity_by_id(&claims.sub)
            .await?
            .filter(|i| i.app_id == app.id)
            .ok_or_else(ApiError::session_ended)?;
        let email = identity
            .email
            .as_deref()
            .ok_or_else(ApiError::session_ended)?;
        state
            .db
            .find_or_create_user(&app.id, &identity.provider, &identity.id, email)
            .await?
    };
    let lifetime = state.settings.refresh_token_ttl_secs as i64;
    let session = state
        .db
        .create_session(&user_id, Some(&claims.sid), lifetime)
        .await?;
    let refresh_token = random_secret();
    state
        .db
        .insert_refresh_token(
            RefreshPurpose::Service,
            &session,
            &secret_hash(&refresh_token),
            lifetime,
        )
        .await?;
    let token = service_tokens_for(state, &user_id, &app.id, &session, refresh_token)?;
    service_user(state, &user_id, Some(token)).await
}

/// The access token of `session`, beside its refresh token (already stored).
fn service_tokens_for(
    state: &AppState,
    user_id: &str,
    app_id: &str,
    session: &str,
    refresh_token: String,
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
    Ok(ServiceToken {
        access_token,
        refresh_token,
    })
}

/// Renews a service access token with a refresh token, which is used up and
/// replaced; presenting a used one ends the session, the identity session it was
/// made from and every other service session made from that.
pub async fn refresh_service(
    state: &AppState,
    app: &AppRow,
    refresh_token: &str,
) -> ApiResult<ServiceToken> {
    let Rotated {
        family,
        next,
        lifetime,
    } = rotate(state, RefreshPurpose::Service, refresh_token).await?;
    let (user_id, parent) = state
        .db
        .live_session(&family)
        .await?
        .ok_or_else(ApiError::session_ended)?;
    // The identity login it came from must still be live too.
    if let Some(parent) = parent
        && state
            .db
            .live_identity_session(&parent, lifetime)
            .await?
            .is_none()
    {
        state.revoke_session(&family).await?;
        return Err(ApiError::session_ended());
    }
    if state.db.user_app(&user_id).await?.as_deref() != Some(app.id.as_str()) {
        return Err(TokenKind::Refresh.foreign());
    }
    state.db.extend_session(&family, lifetime).await?;
    service_tokens_for(state, &user_id, &app.id, &family, next)
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
    Ok(views::service_user(
        user_id, email, &provider, wallet_id, token,
    ))
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
        state.revoke_identity_family(&identity_session).await?;
    }
    Ok(())
}
