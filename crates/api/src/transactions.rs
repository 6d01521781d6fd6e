//! Sending: the service prepares a transaction (nonce, EIP-1559 fees, gas, a
//! simulation that refuses one that would revert), the device signs it, the service
//! broadcasts the signed bytes (only from the caller's own account) and follows it
//! to the block. The service never sees a key.
//!
//! Endpoints (the app headers and the user's bearer token):
//! - `POST /v1/transactions/prepare` [`PrepareRequest`] → [`PreparedTransaction`];
//!   400 `InvalidParameters` for a bad address or amount, 400 `TransactionWouldFail`
//!   with the revert reason when the simulation reverts (an amount over the balance
//!   included), 403 `Forbidden` for another user's account, 502 when the node fails.
//! - `POST /v1/transactions/prepare-call` [`PrepareCallRequest`] → [`PreparedCall`]:
//!   any transaction from the caller's account (a contract call, an approval, an NFT
//!   transfer), with what the node's simulation says it moves; 400
//!   `TransactionWouldFail` when it would revert.
//! - `POST /v1/transactions` [`BroadcastRequest`] → [`TransactionRecord`]: the
//!   signed EIP-1559 transaction (any but a deployment); 403 when its sender is not the caller's account,
//!   400 when it is not for the account's network or does not decode, 502 with the
//!   node's reason when the node refuses it. A transaction with the nonce of a
//!   pending one replaces it (speed up, cancel).
//! - `GET /v1/transactions?userId=&walletId=` → [`TransactionList`]: the wallet's sent
//!   transactions and its incoming token transfers, newest first (at most 100).
//! - `GET /v1/transactions/{txHash}` → [`TransactionRecord`], its receipt read again
//!   when pending. When one is mined the wallet's balances are read again, outside
//!   the refresh limit.

use serde::{Deserialize, Serialize};

use crate::assets::ApprovalKind;

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

/// What to send: from one of the caller's accounts (its coin, or the token at
/// `contract`) to `to`, `amount` as an integer in the smallest unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PrepareRequest {
    pub account_id: String,
    /// One of the account's network's tokens (`0x` and 40 hex digits; mixed
    /// case must be the EIP-55 checksum).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(pattern = "^0x[0-9a-fA-F]{40}$"))]
    pub contract: Option<String>,
    /// `0x` and 40 hex digits; mixed case must be the EIP-55 checksum.
    #[cfg_attr(feature = "openapi", schema(pattern = "^0x[0-9a-fA-F]{40}$"))]
    pub to: String,
    /// Decimal digits, at most 2^256 - 1.
    #[cfg_attr(feature = "openapi", schema(pattern = "^[0-9]{1,78}$"))]
    pub amount: String,
    /// The hash of a pending transaction of this account to replace (speed up or
    /// cancel): its nonce is used, and the fees are raised enough for the node to
    /// accept the replacement.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaces: Option<String>,
}

/// One fee level: EIP-1559 caps in wei (integer strings).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct FeeLevel {
    pub max_fee_per_gas: String,
    pub max_priority_fee_per_gas: String,
    /// `gas_limit * max_fee_per_gas`: the most the fee can be, in wei.
    pub max_fee: String,
}

/// Slow, normal and fast fees.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct FeeLevels {
    pub slow: FeeLevel,
    pub normal: FeeLevel,
    pub fast: FeeLevel,
}

/// The transaction to sign, less its fee choice: `to` is the recipient for the
/// coin, the token contract for a token (then `data` is its `transfer` call),
/// the contract called; absent for a deployment (then `data` is the code).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PreparedTransaction {
    pub chain_id: u64,
    pub nonce: u64,
    pub from: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub to: Option<String>,
    /// Wei sent with the transaction (the amount for the coin, 0 for a token).
    pub value: String,
    /// 0x-hex call data (empty for the coin).
    pub data: String,
    pub gas_limit: u64,
    /// The latest block's base fee, in wei.
    pub base_fee_per_gas: String,
    pub fees: FeeLevels,
    /// The account's coin balance, and the token's when a token is sent, now
    /// (integer strings in the smallest unit).
    pub coin_balance: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_balance: Option<String>,
    /// Whether the recipient has code: sending a coin or token to a contract
    /// often loses it.
    pub recipient_is_contract: bool,
}

/// `POST /v1/transactions/prepare-call`: any transaction from one of the caller's
/// accounts (a contract call, an approval, an NFT transfer, a deployment): `to`,
/// `value` in wei and the call `data`; without `to`, a deployment of the
/// contract whose creation code `data` is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PrepareCallRequest {
    pub account_id: String,
    /// `0x` and 40 hex digits; mixed case must be the EIP-55 checksum. Absent
    /// for a deployment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(pattern = "^0x[0-9a-fA-F]{40}$"))]
    pub to: Option<String>,
    /// Wei, decimal digits.
    #[cfg_attr(feature = "openapi", schema(pattern = "^[0-9]{1,78}$"))]
    pub value: String,
    /// 0x-hex call data, at most 32 KiB.
    #[cfg_attr(feature = "openapi", schema(pattern = "^0x([0-9a-fA-F]{2}){0,32768}$"))]
    pub data: String,
}

/// What kind of asset moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum AssetKind {
    Coin,
    Erc20,
    Erc721,
    Erc1155,
}

/// Whether an asset leaves the account or arrives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ChangeDirection {
    In,
    Out,
}

/// One movement of an asset to or from the account, as the node's simulation
/// found it (the service's word: the device shows it as such).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct BalanceChange {
    pub kind: AssetKind,
    pub direction: ChangeDirection,
    /// The token's contract (checksummed); absent for the coin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contract: Option<String>,
    /// An NFT's id (decimal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_id: Option<String>,
    /// Smallest units (1 for an ERC-721 token).
    pub amount: String,
    /// The other side (checksummed).
    pub counterparty: String,
}

/// A prepared transaction and, when the node can simulate it, what it moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PreparedCall {
    pub transaction: PreparedTransaction,
    /// What leaves and arrives at the account, from `eth_simulateV1`; absent when
    /// the node cannot simulate (its estimate then showed no revert).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<Vec<BalanceChange>>,
    /// The approvals the account would give or withdraw, from the same
    /// simulation's logs; absent when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub approvals: Vec<ApprovalChange>,
}

/// An approval a simulated transaction gives or withdraws, the account being
/// the owner: an ERC-20 allowance or an operator for all NFTs of a contract.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ApprovalChange {
    pub kind: ApprovalKind,
    /// The token's or collection's contract (checksummed).
    pub contract: String,
    /// Who may spend or move (checksummed).
    pub spender: String,
    /// The allowance in smallest units; for an operator `1` granted, `0` withdrawn.
    pub value: String,
}

/// `POST /v1/transactions`: a signed transaction, 0x-hex of its EIP-2718 bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BroadcastRequest {
    pub account_id: String,
    /// Hex (`0x` optional) of at most 16 KiB.
    #[cfg_attr(
        feature = "openapi",
        schema(pattern = "^(0x)?([0-9a-fA-F]{2}){0,16384}$")
    )]
    pub raw: String,
}

/// Where a transaction stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum TransactionStatus {
    Pending,
    Mined,
    /// Mined, and reverted.
    Failed,
    /// Another transaction with the same nonce was mined instead.
    Replaced,
    /// Never mined, and the network no longer has it: nothing was spent, and its
    /// nonce is free again.
    Dropped,
}

/// Sent by this wallet, or received (incoming token transfers found in logs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum TransactionDirection {
    Sent,
    Received,
}

/// One transaction of the wallet's activity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct TransactionRecord {
    pub tx_hash: String,
    pub account_id: String,
    pub network: String,
    pub direction: TransactionDirection,
    pub status: TransactionStatus,
    /// The other side: the recipient of a sent one, the sender of a received one.
    pub counterparty: String,
    /// The token's contract, absent for the coin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contract: Option<String>,
    pub symbol: String,
    pub decimals: u32,
    /// Integer string in the smallest unit.
    pub amount: String,
    /// The sender's nonce (sent ones only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nonce: Option<u64>,
    /// Sent ones: the gas limit and EIP-1559 caps signed (wei, integer strings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gas_limit: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_fee_per_gas: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_priority_fee_per_gas: Option<String>,
    /// Sent ones: the fee paid when mined, the most it can be while pending (wei).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fee: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_number: Option<u64>,
    /// Unix seconds when the service first saw it.
    pub created_at: i64,
    /// The hash of the transaction that replaced this one, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced_by: Option<String>,
}

/// `GET /v1/transactions?userId=&walletId=`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TransactionList {
    pub transactions: Vec<TransactionRecord>,
}
