//! Assets beyond the spec: tokens a person adds to an account by contract
//! address (the service reads the contract's facts on chain).
//!
//! Endpoints (the app headers and the user's bearer token; 403 `Forbidden` for
//! another user's account, 404 `NotFound` for none):
//! - `GET /v1/account/{accountId}/tokens/{contract}` → [`AddableToken`]: what the
//!   contract says of itself and the account's balance of it, read now; nothing
//!   is stored. 400 `InvalidParameters` when it is not an ERC-20 token.
//! - `PUT /v1/account/{accountId}/tokens/{contract}` → [`AddableToken`]: the
//!   account tracks the token from now on (operations 1 and 2 list it); 409
//!   `Conflict` when it does already, 429 `TooManyRequests` when the account has
//!   added as many as it may.
//! - `DELETE /v1/account/{accountId}/tokens/{contract}` → 204: the account stops
//!   tracking a token it added; 404 for a token it did not add.

use serde::{Deserialize, Serialize};

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

/// An ERC-20 token as its contract describes itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct AddableToken {
    /// The EIP-55 checksummed contract address.
    pub contract: String,
    pub network: String,
    pub name: String,
    pub symbol: String,
    pub decimals: u32,
    /// The account's balance in the smallest unit (an integer string).
    pub balance: String,
    /// Whether the account tracks the token already.
    pub tracked: bool,
    /// Whether the token is one of the network's configured tokens (those
    /// every account tracks, and which cannot be removed).
    pub configured: bool,
}
