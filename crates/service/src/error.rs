//! The one error type of the REST interface: a real HTTP status and the JSON body
//! `{statusCode, code, message}`. Constructors only build the value; an error's
//! internal cause is logged once, when the error becomes a response, and is never
//! sent.

use axum::Json;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use satchel_api::rules::RuleViolation;
use satchel_api::{ApiErrorBody, ErrorCode, RestErrorCode, ServiceErrorCode};

use crate::crypto::CryptoError;
use crate::db::DbError;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: ErrorCode,
    /// What the client reads.
    pub message: String,
    /// What went wrong inside, for the log only.
    cause: Option<String>,
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn new(status: StatusCode, code: impl Into<ErrorCode>, message: impl Into<String>) -> Self {
        Self {
            status,
            code: code.into(),
            message: message.into(),
            cause: None,
        }
    }

    /// Adds the internal cause, which is logged with the response and never sent.
    pub fn with_cause(mut self, cause: impl std::fmt::Display) -> Self {
        self.cause = Some(cause.to_string());
        self
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            ServiceErrorCode::InvalidParameters,
            message,
        )
    }

    pub fn invalid_token(message: impl Into<String>) -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            ServiceErrorCode::InvalidToken,
            message,
        )
    }

    /// No app has the key in `X-API-KEY`, or its app was removed meanwhile.
    pub fn unknown_app_key() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            ServiceErrorCode::InvalidAppKey,
            "the app key is not known",
        )
    }

    /// The session a token belongs to was logged out or has expired.
    pub fn session_ended() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            ServiceErrorCode::InvalidLoginSession,
            "the login session has ended; log in again",
        )
    }

    /// A refresh token was presented a second time, so its session was ended.
    pub fn refresh_token_reused() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            ServiceErrorCode::InvalidLoginSession,
            "this refresh token was used before, so the session was ended; log in again",
        )
    }

    /// The id asked for is not the caller's. Says nothing about whose it is.
    pub fn forbidden() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            RestErrorCode::Forbidden,
            "this resource belongs to another user",
        )
    }

    pub fn not_found(what: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            RestErrorCode::NotFound,
            format!("{what} not found"),
        )
    }

    pub fn too_many_requests(message: impl Into<String>) -> Self {
        Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            RestErrorCode::TooManyRequests,
            message,
        )
    }

    /// A limiter said no: 429, `what` ("too many requests from this address")
    /// followed by when to try again, in whole seconds (at least one).
    pub fn rate_limited(what: &str, wait: std::time::Duration) -> Self {
        Self::too_many_requests(format!("{what}; try again in {} s", wait.as_secs().max(1)))
    }

    /// A network's node failed: 502, with the node's error kept for the log.
    pub fn upstream(network: &str, cause: impl std::fmt::Display) -> Self {
        Self::new(
            StatusCode::BAD_GATEWAY,
            RestErrorCode::UpstreamUnavailable,
            format!("the {network} node did not answer; try again later"),
        )
        .with_cause(format_args!("{network} node: {cause}"))
    }

    /// A fault of the service: a bare 500, with the cause kept for the log.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            RestErrorCode::InternalError,
            "internal error",
        )
        .with_cause(cause)
    }
}

/// The message, and the cause when there is one: for logs and the operator's
/// command line, never for a response body.
impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.cause {
            Some(cause) => write!(f, "{}: {cause}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    /// The one place errors are logged: server-side failures (5xx) with their
    /// cause, inside the request's span.
    fn into_response(self) -> Response {
        let cause = self.cause.as_deref().unwrap_or("none recorded");
        if self.status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!(status = self.status.as_u16(), code = ?self.code, cause, "{}", self.message);
        } else if self.status.is_server_error() {
            tracing::warn!(status = self.status.as_u16(), code = ?self.code, cause, "{}", self.message);
        }
        let body = ApiErrorBody {
            status_code: self.status.as_u16(),
            code: self.code,
            message: self.message,
        };
        (self.status, Json(body)).into_response()
    }
}

impl From<CryptoError> for ApiError {
    fn from(e: CryptoError) -> Self {
        Self::internal(e)
    }
}

impl From<DbError> for ApiError {
    fn from(e: DbError) -> Self {
        match e {
            DbError::Conflict => Self::new(
                StatusCode::CONFLICT,
                RestErrorCode::Conflict,
                "already exists",
            ),
            // Nothing stored is named by it (an id with a NUL character).
            DbError::Unstorable => Self::not_found("record"),
            other => Self::internal(other),
        }
    }
}

/// Input that breaks the shared e-mail and password rules: 400 with the rule's
/// code and sentence.
impl From<RuleViolation> for ApiError {
    fn from(v: RuleViolation) -> Self {
        Self::new(StatusCode::BAD_REQUEST, v.code, v.message)
    }
}

impl From<QueryRejection> for ApiError {
    fn from(e: QueryRejection) -> Self {
        Self::bad_request(e.body_text())
    }
}

impl From<JsonRejection> for ApiError {
    fn from(e: JsonRejection) -> Self {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            return Self::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                ServiceErrorCode::InvalidParameters,
                "the request body is too large",
            );
        }
        Self::bad_request(e.body_text())
    }
}

impl From<PathRejection> for ApiError {
    fn from(e: PathRejection) -> Self {
        Self::bad_request(e.body_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body_of(error: ApiError) -> (u16, serde_json::Value) {
        use http_body_util::BodyExt;
        let response = error.into_response();
        let status = response.status().as_u16();
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        (status, serde_json::from_slice(&bytes).expect("json"))
    }

    #[tokio::test]
    async fn an_internal_cause_is_never_sent() {
        let (status, body) = body_of(ApiError::internal("db password is hunter2")).await;
        assert_eq!(status, 500);
        assert_eq!(
            body,
            serde_json::json!({"statusCode": 500, "code": "InternalError", "message": "internal error"})
        );
        let (status, body) = body_of(ApiError::upstream("anvil", "connection refused")).await;
        assert_eq!(status, 502);
        assert!(!body.to_string().contains("refused"), "{body}");
    }
}
