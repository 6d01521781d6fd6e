//! Wire types of the Satchel service and SDK.
//!
//! Every JSON shape of `service-spec.md` is defined here once, with the spec's exact
//! field names. The service serialises these types and the SDK deserialises the same
//! ones, so a renamed field is a compile error rather than a bug. Optional fields are
//! omitted when absent, never sent as `null` or `""`.

pub mod assets;
pub mod auth;
pub mod error;
pub mod external;
pub mod keys;
pub mod login_sign;
pub mod rest;
pub mod rules;
pub mod sdk;
pub mod transactions;

pub use assets::*;
pub use auth::*;
pub use error::{ApiErrorBody, ErrorCode, LoginLibraryError, RestErrorCode, ServiceErrorCode};
pub use external::*;
pub use keys::*;
pub use rest::*;
pub use sdk::*;
pub use transactions::*;

/// The names of the five headers every REST request carries.
pub mod headers {
    pub const API_KEY: &str = "x-api-key";
    pub const API_DOMAIN: &str = "x-api-domain";
    pub const SDK_TYPE: &str = "x-sdk-type";
}
