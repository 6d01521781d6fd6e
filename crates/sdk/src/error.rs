//! The SDK's one error type: a stable code the application can branch on (the
//! spec's `ServiceError` codes and login-library strings) and a readable message.

use satchel_api::{ApiErrorBody, LoginLibraryError, RestErrorCode, ServiceErrorCode};
use serde::Serialize;

/// Codes the desktop SDK needs beyond the spec's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum SdkErrorCode {
    /// The OS keychain is missing, locked or refused access.
    KeychainUnavailable,
    /// The service asked the client to slow down (HTTP 429); after wrong PINs,
    /// the pause before the next try.
    TooManyRequests,
    /// The PIN is wrong; the message says how many tries are left.
    WrongPin,
    /// Too many wrong PINs: only the e-mailed link, or the recovery phrase, lifts
    /// the lock.
    PinLocked,
    /// The service has no such wallet, account or route (HTTP 404).
    NotFound,
    /// The transaction would revert or costs more than the account holds (the
    /// message says why), or the node refused the signed one.
    TransactionWouldFail,
}

/// An error's code, serialised as the bare string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(untagged)]
pub enum ErrorCode {
    Service(ServiceErrorCode),
    Login(LoginLibraryError),
    Sdk(SdkErrorCode),
}

/// `{code, message}`, as the UI receives it.
///
/// ```no_run
/// # async fn demo(login: &satchel_sdk::Login) {
/// use satchel_sdk::api::ServiceErrorCode;
/// match login.login_with_email_and_password("ada@example.com", "wrong1pass").await {
///     Err(e) if e.is(ServiceErrorCode::FailedLogin) => println!("{}", e.message),
///     Err(e) => println!("{:?}: {}", e.code, e.message),
///     Ok(result) => println!("logged in with {:?}", result.provider),
/// }
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "AppError"))]
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

    /// An error of Satchel's own making (a broken invariant, a failed task): the
    /// code is `UnknownError` and the message says what failed.
    pub fn unknown(message: impl std::fmt::Display) -> Self {
        Self::service(ServiceErrorCode::UnknownError, message.to_string())
    }

    /// The OS keychain is missing, locked or refused access.
    pub fn keychain(message: impl std::fmt::Display) -> Self {
        Self::sdk(SdkErrorCode::KeychainUnavailable, message.to_string())
    }

    /// The service ended the session (or there never was one).
    pub fn session_ended() -> Self {
        Self::service(
            ServiceErrorCode::InvalidLoginSession,
            "the login session has ended; log in again",
        )
    }

    /// No one is logged in.
    pub fn not_logged_in() -> Self {
        Self::service(ServiceErrorCode::InvalidLoginSession, "log in first")
    }

    /// The library or widget was used before `init`.
    pub fn not_initialized(what: &str) -> Self {
        Self::service(
            ServiceErrorCode::NotInitialized,
            format!("the {what} is not initialised"),
        )
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
            Wire::Rest(RestErrorCode::WrongPin) => ErrorCode::Sdk(SdkErrorCode::WrongPin),
            Wire::Rest(RestErrorCode::PinLocked) => ErrorCode::Sdk(SdkErrorCode::PinLocked),
            Wire::Rest(RestErrorCode::NotFound) => ErrorCode::Sdk(SdkErrorCode::NotFound),
            Wire::Rest(RestErrorCode::TransactionWouldFail) => {
                ErrorCode::Sdk(SdkErrorCode::TransactionWouldFail)
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

/// Turns any other failure into an [`SdkError`] with code `UnknownError`.
pub trait OrUnknown<T> {
    fn or_unknown(self) -> Result<T, SdkError>;
}

impl<T, E: std::fmt::Display> OrUnknown<T> for Result<T, E> {
    fn or_unknown(self) -> Result<T, SdkError> {
        self.map_err(SdkError::unknown)
    }
}

/// Runs blocking work (the keychain, a key derivation) off the async runtime.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, SdkError> + Send + 'static,
) -> Result<T, SdkError> {
    tokio::task::spawn_blocking(work).await.or_unknown()?
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
