//! What the send page and an application exchange with the widget: the spec's
//! `txData` and `{txId}`, the form, the quote with its fee options, the
//! confirmation, and the activity entries. Amounts are exact decimal strings.

use satchel_api::{ServiceAccount, TransactionDirection, TransactionStatus};
use serde::{Deserialize, Serialize};

use crate::widget::AccountRef;

/// The spec's `txData`: where to and how much, each optional (`to` on the Web,
/// `toAddress` in React Native).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TxData {
    #[serde(default)]
    pub to: Option<String>,
    #[serde(default)]
    pub to_address: Option<String>,
    #[serde(default)]
    pub amount: Option<String>,
}

/// An application's `send` waiting for the page: the form opens with these.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct SendRequest {
    pub id: u64,
    pub account: ServiceAccount,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount: Option<String>,
}

/// The spec's result of `send`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SendResult {
    pub tx_id: String,
}

/// What the send form holds: the amount as typed, in the coin's or token's units.
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SendForm {
    pub account: AccountRef,
    pub to: String,
    pub amount: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum FeeSpeed {
    Slow,
    Normal,
    Fast,
}

/// One fee choice and what it does to the balances. Amounts are exact decimal
/// strings; the coin's for fees and totals.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct FeeOption {
    pub speed: FeeSpeed,
    /// The fee cap per gas, in gwei (decimal).
    pub max_fee_per_gas_gwei: String,
    /// The most the fee can be: gas limit × fee cap.
    pub fee: String,
    /// Amount plus fee, when the coin itself is sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<String>,
    /// The coin balance after, at the most the fee can be (never below 0).
    pub coin_after: String,
    /// The token balance after, when a token is sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token_after: Option<String>,
    /// What Max fills in: the whole balance less this fee for the coin, the
    /// whole token balance for a token.
    pub max: String,
    /// Whether the balance covers the amount and this fee.
    pub enough: bool,
    /// Why this fee needs the person's explicit yes on the review page, when it
    /// does ([`ConfirmSend::accept_high_fee`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high_fee: Option<HighFee>,
}

/// Why a fee is unusually high. The fee levels come from the service; a lying
/// or mistaken one could drain an account through the fee alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum HighFee {
    /// The fee cap per gas is far above the network's base fee (more than four
    /// times it plus twice the tip), or the tip alone is above the base fee and
    /// 5 gwei.
    AboveBaseFee,
    /// The most the fee can be is more than a quarter of the coin amount sent.
    ShareOfAmount,
}

/// A replacement of a pending transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum ReplaceAction {
    /// The same transfer with a higher fee.
    SpeedUp,
    /// Nothing (0 to itself) with a higher fee, in the pending one's place.
    Cancel,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Replacement {
    pub tx_hash: String,
    pub action: ReplaceAction,
}

/// What the review page shows, and what confirming it signs.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct SendQuote {
    pub quote_id: String,
    pub network: String,
    pub chain_id: u64,
    pub from: String,
    /// The recipient (EIP-55).
    pub to: String,
    /// The ENS name typed for the recipient, which resolved to `to`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recipient_name: Option<String>,
    /// The token's contract, when a token is sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contract: Option<String>,
    pub symbol: String,
    pub decimals: u32,
    pub coin_symbol: String,
    /// The amount sent, exact, in `symbol`'s units.
    pub amount: String,
    pub coin_balance: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token_balance: Option<String>,
    pub gas_limit: u64,
    /// The latest block's base fee, in gwei.
    pub base_fee_gwei: String,
    /// Slow, normal, fast; one option for a replacement.
    pub options: Vec<FeeOption>,
    pub recipient_is_contract: bool,
    pub recipient_is_self: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaces: Option<Replacement>,
    /// What the review warns of about the recipient (a send's; none for a
    /// replacement or an application's transaction, which show their own).
    pub warnings: Vec<crate::widget::RecipientWarning>,
}

/// Confirms a quote with the PIN; `request_id` settles an application's `send`.
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct ConfirmSend {
    pub quote_id: String,
    pub speed: FeeSpeed,
    pub pin: String,
    #[serde(default)]
    pub request_id: Option<u64>,
    /// The person confirmed an unusually high fee ([`FeeOption::high_fee`]);
    /// without it such a fee is refused.
    #[serde(default)]
    pub accept_high_fee: bool,
}

/// A typed recipient, checked.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct AddressCheck {
    /// The address in EIP-55 form.
    pub address: String,
    /// It is the sending account itself.
    pub is_self: bool,
    /// The ENS name typed, in the form resolved, when a name was typed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// One line of the wallet's activity, amounts as exact decimal strings.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct ActivityEntry {
    pub tx_hash: String,
    pub network: String,
    /// The wallet's account this is about (EIP-55).
    pub address: String,
    pub direction: TransactionDirection,
    pub status: TransactionStatus,
    pub counterparty: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contract: Option<String>,
    pub symbol: String,
    pub amount: String,
    pub coin_symbol: String,
    /// Paid (mined) or at most (pending), in the coin.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fee: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nonce: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_number: Option<u64>,
    pub created_at: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaced_by: Option<String>,
    /// A cancel: nothing sent to itself in a pending one's place.
    pub is_cancel: bool,
    /// What it did, as this device signed it.
    pub kind: ActivityKind,
    /// The NFT it sent, when `kind` is an NFT transfer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nft: Option<NftSent>,
}

/// The NFT a send moved, as this device signed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct NftSent {
    /// The collection's contract (EIP-55).
    pub contract: String,
    /// The token's id, in decimal.
    pub token_id: String,
    /// How many (1 for an ERC-721), in decimal.
    pub amount: String,
}

/// What a line of the activity did. Read from the bytes this device signed and
/// kept; what was received, or sent from another device, counts as a transfer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum ActivityKind {
    /// A coin or token moved to the counterparty.
    #[default]
    Transfer,
    /// An NFT sent to the counterparty (`nft` says which).
    NftTransfer,
    /// A contract called (the counterparty), as a dapp asked.
    ContractCall,
    /// A new contract made: the counterparty is its address, derived from the
    /// signer and the nonce signed.
    Deployment,
}
