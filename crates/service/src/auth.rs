//! Who is calling: the app (from the three `X-` headers) and, for protected
//! operations, the user (from the bearer access token). Handlers say what they need
//! by taking [`CallingApp`] or [`AuthUser`] as a parameter.

use axum::extract::FromRequestParts;
use axum::http::StatusCode;
use axum::http::request::Parts;
use satchel_api::{RestErrorCode, ServiceErrorCode, headers};
use sha2::{Digest, Sha256};

use crate::db::AppRow;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::tokens::TokenKind;

/// The app a request comes from (its `X-` headers), checked against its key and
/// domain.
#[derive(Debug, Clone)]
pub struct CallingApp {
    pub app_id: String,
    /// `X-SDK-TYPE`, e.g. `desktop_rest_api`.
    pub sdk_type: String,
}

impl CallingApp {
    /// The app's stored policy (providers, e-mail rules), or 401 when the app was
    /// removed after its key was checked.
    pub async fn policy(&self, state: &AppState) -> ApiResult<AppRow> {
        state
            .db
            .app(&self.app_id)
            .await?
            .ok_or_else(ApiError::unknown_app_key)
    }
}

/// A logged-in user of the calling app, with a live session.
#[derive(Debug, Clone)]
pub struct AuthUser {
    pub user_id: String,
    pub app_id: String,
    pub session_id: String,
}

/// The calling app's access token, verified, whose session is not checked yet:
/// for an operation that checks it in the same database read as its own data
/// (operation 1), or calls [`AuthToken::check_session`].
#[derive(Debug, Clone)]
pub struct AuthToken(AuthUser);

impl AuthToken {
    pub fn user_id(&self) -> &str {
        &self.0.user_id
    }

    pub fn session_id(&self) -> &str {
        &self.0.session_id
    }

    /// Checks that the session is live (401 `InvalidLoginSession` when it ended).
    pub async fn check_session(&self, state: &AppState) -> ApiResult<()> {
        if !state
            .session_active(&self.0.session_id, &self.0.user_id)
            .await?
        {
            return Err(ApiError::session_ended());
        }
        Ok(())
    }

    /// What a read of the caller's own data found of the session: `live`, or 401
    /// `InvalidLoginSession`.
    pub fn found_live(&self, state: &AppState, live: bool) -> ApiResult<()> {
        if !live {
            return Err(ApiError::session_ended());
        }
        state.remember_live_session(&self.0.session_id, &self.0.user_id);
        Ok(())
    }
}

/// Apps are looked up by the SHA-256 of their key, so the key itself is never
/// stored and never compared byte by byte.
pub fn app_key_hash(key: &str) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))
}

fn header<'a>(parts: &'a Parts, name: &str) -> Option<&'a str> {
    parts
        .headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|v| !v.is_empty())
}

/// `X-API-DOMAIN`: a missing (or unreadable) one is a 400. An empty one is
/// passed on as `""`: Wepin's web client (`@wepin/fetch-js`) sends it so for an
/// app on `localhost`, and the app lookup allows it only for an app whose one
/// registered domain is `localhost` (`Db::app_for_key`).
fn api_domain(parts: &Parts) -> ApiResult<&str> {
    parts
        .headers
        .get(headers::API_DOMAIN)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .ok_or_else(|| ApiError::bad_request("X-API-DOMAIN is missing"))
}

fn is_sdk_type(value: &str) -> bool {
    value.len() <= 64
        && value
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

impl FromRequestParts<AppState> for CallingApp {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let key = header(parts, headers::API_KEY).ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                ServiceErrorCode::InvalidAppKey,
                "X-API-KEY is missing",
            )
        })?;
        let domain = api_domain(parts)?;
        let sdk_type = header(parts, headers::SDK_TYPE)
            .ok_or_else(|| ApiError::bad_request("X-SDK-TYPE is missing"))?;
        if !is_sdk_type(sdk_type) {
            return Err(ApiError::bad_request(
                "X-SDK-TYPE must look like <platform>_rest_api",
            ));
        }
        let app = state.app_for_key(&app_key_hash(key), domain).await?;
        match app {
            Some(app) if app.domain_allowed => Ok(Self {
                app_id: app.app_id,
                sdk_type: sdk_type.to_owned(),
            }),
            None => Err(ApiError::unknown_app_key()),
            // Any other app's key: an empty domain stays the 400 it always was.
            Some(_) if domain.is_empty() => Err(ApiError::bad_request(
                "X-API-DOMAIN is empty, which only an app key registered for localhost \
                 alone may send",
            )),
            Some(_) => Err(ApiError::new(
                StatusCode::FORBIDDEN,
                RestErrorCode::InvalidDomain,
                "X-API-DOMAIN is not registered for this app key",
            )),
        }
    }
}

impl FromRequestParts<AppState> for AuthToken {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let app = CallingApp::from_request_parts(parts, state).await?;
        let token = header(parts, "authorization")
            .and_then(|v| v.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, token)| token.trim())
            .ok_or_else(|| {
                ApiError::invalid_token("Authorization: Bearer <accessToken> is missing")
            })?;
        let claims = state
            .verify_access(token)
            .map_err(|e| ApiError::refused_token(TokenKind::Access, e))?;
        if claims.app != app.app_id {
            return Err(ApiError::foreign_token(TokenKind::Access));
        }
        Ok(Self(AuthUser {
            user_id: claims.sub,
            app_id: claims.app,
            session_id: claims.sid,
        }))
    }
}

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let token = AuthToken::from_request_parts(parts, state).await?;
        token.check_session(state).await?;
        Ok(token.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sdk_types_are_short_lowercase_words() {
        assert!(is_sdk_type("desktop_rest_api"));
        assert!(is_sdk_type("desktop-login"));
        assert!(!is_sdk_type("Desktop REST"));
        assert!(!is_sdk_type(&"a".repeat(65)));
    }

    #[test]
    fn app_keys_hash_to_64_hex_digits() {
        let hash = app_key_hash("sk_demo");
        assert_eq!(hash.len(), 64);
        assert_ne!(hash, app_key_hash("sk_demo2"));
    }
}
