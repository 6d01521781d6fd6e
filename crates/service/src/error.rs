//! The one error type of the REST interface: a real HTTP status and the JSON body
//! `{statusCode, code, message}`. Internal causes are logged, never sent.

use axum::Json;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use satchel_api::{ApiErrorBody, ErrorCode, RestErrorCode, ServiceErrorCode};

use crate::db::DbError;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: ErrorCode,
    pub message: String,
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn new(status: StatusCode, code: impl Into<ErrorCode>, message: impl Into<String>) -> Self {
        Self {
            status,
            code: code.into(),
            message: message.into(),
        }
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

    pub fn upstream(network: &str, cause: impl std::fmt::Display) -> Self {
        tracing::warn!(network, %cause, "node request failed");
        Self::new(
            StatusCode::BAD_GATEWAY,
            RestErrorCode::UpstreamUnavailable,
            format!("the {network} node did not answer; try again later"),
        )
    }

    /// A fault of the service: logged with its cause, sent as a bare 500.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(%cause, "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            RestErrorCode::InternalError,
            "internal error",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ApiErrorBody {
            status_code: self.status.as_u16(),
            code: self.code,
            message: self.message,
        };
        (self.status, Json(body)).into_response()
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
            other => Self::internal(other),
        }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(e: QueryRejection) -> Self {
        Self::bad_request(e.body_text())
    }
}

impl From<JsonRejection> for ApiError {
    fn from(e: JsonRejection) -> Self {
        Self::bad_request(e.body_text())
    }
}

impl From<PathRejection> for ApiError {
    fn from(e: PathRejection) -> Self {
        Self::bad_request(e.body_text())
    }
}
