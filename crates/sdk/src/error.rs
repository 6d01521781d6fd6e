//! The SDK's one error type: a stable code the application can branch on (the
//! spec's `ServiceError` codes and login-library strings) and a readable message.

use satchel_api::{ApiErrorBody, LoginLibraryError, RestErrorCode, ServiceErrorCode};
use serde::Serialize;

/// Codes the desktop SDK needs beyond the spec's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SdkErrorCode {
    /// The OS keychain is missing, locked or refused access.
    KeychainUnavailable,
    /// The service asked the client to slow down (HTTP 429).
    TooManyRequests,
}

/// An error's code, serialised as the bare string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ErrorCode {
    Service(ServiceErrorCode),
    Login(LoginLibraryError),
    Sdk(SdkErrorCode),
}

/// `{code, message}`, as the UI receives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{message}")]
pub struct SdkError {
    pub code: ErrorCode,
    pub message: String,
}

impl SdkError {
    pub fn service(code: ServiceErrorCode, message: impl Into<String>) -> Self {
        Self {
            code: ErrorCode::Service(code),
            message: message.into(),
        }
    }

    pub fn login(code: LoginLibraryError, message: impl Into<String>) -> Self {
        Self {
            code: ErrorCode::Login(code),
            message: message.into(),
        }
    }

    pub fn sdk(code: SdkErrorCode, message: impl Into<String>) -> Self {
        Self {
            code: ErrorCode::Sdk(code),
            message: message.into(),
        }
    }

    /// Whether this is the service code `code`.
    pub fn is(&self, code: ServiceErrorCode) -> bool {
        self.code == ErrorCode::Service(code)
    }

    /// The service's error body as an SDK error: its code where the SDK has one.
    pub fn from_api(body: ApiErrorBody) -> Self {
        use satchel_api::ErrorCode as Wire;
        let code = match body.code {
            Wire::Service(code) => ErrorCode::Service(code),
            Wire::Rest(RestErrorCode::TooManyRequests) => {
                ErrorCode::Sdk(SdkErrorCode::TooManyRequests)
            }
            Wire::Rest(RestErrorCode::InvalidDomain) => {
                ErrorCode::Service(ServiceErrorCode::InvalidAppKey)
            }
            Wire::Rest(RestErrorCode::InternalError) => {
                ErrorCode::Service(ServiceErrorCode::UnknownError)
            }
            Wire::Rest(_) => ErrorCode::Service(ServiceErrorCode::ApiRequestError),
        };
        Self {
            code,
            message: body.message,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_serialise_as_code_and_message() {
        let error = SdkError::login(LoginLibraryError::AlreadyLogout, "no one is logged in");
        assert_eq!(
            serde_json::to_value(&error).expect("json"),
            serde_json::json!({"code": "Already logout", "message": "no one is logged in"})
        );
        let error = SdkError::service(ServiceErrorCode::NotInitialized, "x");
        assert_eq!(
            serde_json::to_value(&error).expect("json")["code"],
            "NotInitialized"
        );
    }

    #[test]
    fn rest_codes_map_to_sdk_codes() {
        let body = |code: satchel_api::ErrorCode| ApiErrorBody {
            status_code: 400,
            code,
            message: "m".into(),
        };
        assert!(
            SdkError::from_api(body(ServiceErrorCode::FailedLogin.into()))
                .is(ServiceErrorCode::FailedLogin)
        );
        assert_eq!(
            SdkError::from_api(body(RestErrorCode::TooManyRequests.into())).code,
            ErrorCode::Sdk(SdkErrorCode::TooManyRequests)
        );
        assert!(
            SdkError::from_api(body(RestErrorCode::Forbidden.into()))
                .is(ServiceErrorCode::ApiRequestError)
        );
    }
}
