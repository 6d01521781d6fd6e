//! The service as identity provider of e-mail users, and as issuer of service
//! sessions. [`passwords`] keeps the secrets, [`email`] signs people up and logs
//! them in by e-mail, [`sessions`] issues, rotates and ends the tokens.

pub mod email;
pub mod external;
pub mod passwords;
pub mod providers;
pub mod registration;
pub mod sessions;

use axum::http::StatusCode;
use satchel_api::{Provider, ServiceErrorCode};

use crate::db::AppRow;
use crate::error::{ApiError, ApiResult};

/// 400 `InvalidLoginProvider` unless the app allows logins through `provider`.
fn require_provider(app: &AppRow, provider: Provider) -> ApiResult<()> {
    if app.providers().contains(&provider) {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            ServiceErrorCode::InvalidLoginProvider,
            format!("this app does not allow {} login", provider.as_str()),
        ))
    }
}
