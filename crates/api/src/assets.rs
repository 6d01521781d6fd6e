//! Assets beyond the spec: tokens a person adds to an account by contract
//! address (the service reads the contract's facts on chain), and the
//! approvals an account gave.
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
//! - `GET /v1/account/{accountId}/approvals` → [`ApprovalsResponse`]: the ERC-20
//!   allowances and NFT operators the account gave, from its logs (read a few
//!   windows further on each call, from where the last call stopped).
//! - `GET /v1/prices?currency=usd` → [`PricesResponse`]: each coin and token's
//!   price from the Chainlink feed the service's configuration names for it.

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

/// What an approval lets its spender do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum ApprovalKind {
    /// An ERC-20 allowance: the spender may move up to `value` of the token.
    Allowance,
    /// An operator for all the account's NFTs of the contract.
    Operator,
}

/// An approval the account gave, as its newest log says (whether it still
/// holds is read with a call).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ApprovalRecord {
    /// The token or NFT contract (EIP-55).
    pub contract: String,
    /// Who may spend or move (EIP-55).
    pub spender: String,
    pub kind: ApprovalKind,
    /// The allowance in the token's smallest unit (an integer string); `1` for
    /// an operator.
    pub value: String,
    pub block_number: u64,
    pub tx_hash: String,
}

/// `GET /v1/account/{accountId}/approvals`: the approvals found so far, and
/// how far the account's logs have been read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ApprovalsResponse {
    pub approvals: Vec<ApprovalRecord>,
    /// The last block read.
    pub scanned_to: u64,
    /// Whether the logs were read up to the newest block (else ask again to
    /// read on).
    pub complete: bool,
}

/// `GET /v1/prices`'s query: the quote currency.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[serde(rename_all = "camelCase")]
pub struct PricesQuery {
    /// A lowercase ISO 4217 code; default `usd`.
    #[cfg_attr(feature = "openapi", param(pattern = "^[a-z]{3}$"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
}

/// `GET /v1/prices`: the latest price of each coin and configured token that
/// has a feed in the currency, as the feeds on chain answer (read again after
/// the service's price cache time).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PricesResponse {
    pub currency: String,
    /// Every currency some feed is configured in.
    pub currencies: Vec<String>,
    /// A price older than this many seconds is stale.
    pub stale_after_secs: u64,
    /// Assets without a feed in the currency, or whose feed did not answer
    /// sensibly, are left out.
    pub prices: Vec<AssetPrice>,
}

/// One asset's price: a whole coin or token in the currency.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AssetPrice {
    pub network: String,
    /// The token's checksummed contract; omitted for the network's coin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contract: Option<String>,
    /// A decimal string, exactly as the feed answered.
    pub price: String,
    /// When the feed was last updated (Unix seconds).
    pub updated_at: u64,
}

/// What the wallet is worth in a currency, as the device works it out from its
/// balances and the service's prices (the desktop's `getValues`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct WalletValues {
    /// Uppercase ISO 4217 code (`USD`).
    pub currency: String,
    /// The currencies the person may choose from (uppercase).
    pub currencies: Vec<String>,
    /// The sum of every shown asset's value, to the cent; omitted when an
    /// asset held has no price or a stale one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<String>,
    /// The update time of the oldest price in the total (Unix seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priced_at: Option<u64>,
    /// The symbols of held assets without a fresh price: why there is no total.
    pub unpriced: Vec<String>,
    pub assets: Vec<AssetValue>,
}

/// One coin or token of an account and what it is worth.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct AssetValue {
    pub network: String,
    pub address: String,
    /// The token's contract; omitted for the coin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contract: Option<String>,
    pub symbol: String,
    /// One whole unit's price (decimal string); omitted without a feed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<String>,
    /// The balance's value to the cent (rounded down); omitted without a price.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// When the price's feed was last updated (Unix seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<u64>,
    /// Whether the price is older than the service's staleness bound.
    pub stale: bool,
}
