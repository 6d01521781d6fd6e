//! Error codes: the widget SDK's `ServiceError`, the login library's error strings,
//! and the REST error body.

use serde::{Deserialize, Serialize};

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

/// The widget SDK's error codes, spelled exactly as the spec does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ServiceErrorCode {
    ApiRequestError,
    InvalidParameters,
    NotInitialized,
    InvalidAppKey,
    InvalidLoginProvider,
    InvalidToken,
    InvalidLoginSession,
    UserCancelled,
    UnknownError,
    NotConnectedInternet,
    FailedLogin,
    AlreadyLogout,
    AlreadyInitialized,
    InvalidEmailDomain,
    FailedSendEmail,
    RequiredEmailVerified,
    IncorrectEmailForm,
    IncorrectPasswordForm,
    NotInitializedNetwork,
    RequiredSignupEmail,
    FailedEmailVerified,
    FailedPasswordStateSetting,
    FailedPasswordSetting,
    ExistedEmail,
    NotActivity,
}

/// The `code` of a REST error body.
///
/// The spec leaves REST errors open, so the service reuses the SDK's codes where one
/// fits and adds the few a REST client also needs to tell apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(untagged)]
pub enum ErrorCode {
    Service(ServiceErrorCode),
    Rest(RestErrorCode),
}

/// REST error codes that have no `ServiceError` counterpart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub enum RestErrorCode {
    /// 403: the domain is not registered for the app key.
    InvalidDomain,
    /// 403: the id asked for belongs to another user.
    Forbidden,
    /// 404: no such account, wallet or route.
    NotFound,
    /// 409: the thing to create exists already.
    Conflict,
    /// 429: too many requests; try again later.
    TooManyRequests,
    /// 403: the PIN proof is wrong (the message says how many tries are left).
    WrongPin,
    /// 423: too many wrong PIN proofs; the e-mail link (or the recovery phrase)
    /// lifts the lock.
    PinLocked,
    /// 400: the transaction would revert, or cost more than the account holds;
    /// the message gives the reason (the revert reason when there is one). Also
    /// a signed transaction the node refused (nonce, fee too low to replace).
    TransactionWouldFail,
    /// 502: the network's node did not answer or answered wrongly.
    UpstreamUnavailable,
    /// 500: a fault of the service itself; the cause is logged, not sent.
    InternalError,
}

impl From<ServiceErrorCode> for ErrorCode {
    fn from(code: ServiceErrorCode) -> Self {
        Self::Service(code)
    }
}

impl From<RestErrorCode> for ErrorCode {
    fn from(code: RestErrorCode) -> Self {
        Self::Rest(code)
    }
}

/// The JSON body of every REST error: `{statusCode, code, message}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ApiErrorBody {
    pub status_code: u16,
    pub code: ErrorCode,
    pub message: String,
}

/// The login library's error strings, exactly as the spec writes them.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumIter,
)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum LoginLibraryError {
    #[serde(rename = "required/register_email")]
    #[strum(serialize = "required/register_email")]
    RequiredRegisterEmail,
    #[serde(rename = "Invalid provider")]
    #[strum(serialize = "Invalid provider")]
    InvalidProvider,
    #[serde(rename = "User canceled")]
    #[strum(serialize = "User canceled")]
    UserCanceled,
    #[serde(rename = "Internal error")]
    #[strum(serialize = "Internal error")]
    InternalError,
    #[serde(rename = "auth/email-verified")]
    #[strum(serialize = "auth/email-verified")]
    EmailVerificationRequired,
    #[serde(rename = "auth/existed-email")]
    #[strum(serialize = "auth/existed-email")]
    ExistedEmail,
    #[serde(rename = "fail/send-email")]
    #[strum(serialize = "fail/send-email")]
    FailSendEmail,
    #[serde(rename = "fail/email-verified")]
    #[strum(serialize = "fail/email-verified")]
    FailEmailVerified,
    #[serde(rename = "login module not initialized")]
    #[strum(serialize = "login module not initialized")]
    NotInitialized,
    #[serde(rename = "Already logout")]
    #[strum(serialize = "Already logout")]
    AlreadyLogout,
}

impl LoginLibraryError {
    /// The spec's string (`auth/email-verified`, `Already logout`, ...).
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl std::fmt::Display for LoginLibraryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
