//! `eth_sendTransaction`: the transaction an application asks for, read here
//! (never taken from the service): who it goes to, the coin it sends, and its
//! call decoded where the standard is known (ERC-20 `transfer`, `approve`,
//! `transferFrom`; ERC-721 and ERC-1155 transfers; `setApprovalForAll`), with
//! what can take everything (an unlimited approval, an operator for all NFTs)
//! flagged; without `to`, a contract's deployment, with its code's size. The fees, gas and nonce are Satchel's own, from the service's
//! preparation shown on the page; what the application suggests for them is
//! not used.

use alloy::primitives::{Address, Bytes, TxKind, U256};
use alloy::sol;
use alloy::sol_types::SolCall;
use serde::Serialize;
use serde_json::Value;

use super::permit::TokenFacts;
use crate::rpc::ProviderError;

/// The largest call data taken, in bytes (the service's own limit).
pub const MAX_CALL_DATA: usize = 32 * 1024;

sol! {
    function transfer(address to, uint256 amount) returns (bool);
    function approve(address spender, uint256 amount) returns (bool);
    function increaseAllowance(address spender, uint256 addedValue) returns (bool);
    function transferFrom(address from, address to, uint256 amount) returns (bool);
    function safeTransferFrom(address from, address to, uint256 tokenId);
    function setApprovalForAll(address operator, bool approved);
}

mod with_data {
    alloy::sol! {
        function safeTransferFrom(address from, address to, uint256 tokenId, bytes data);
    }
}

/// Uniswap's Permit2 contract: one approval in it lets a spender move a token
/// the owner approved Permit2 for.
mod permit2 {
    alloy::sol! {
        function approve(address token, address spender, uint160 amount, uint48 expiration);
    }
}

mod erc1155 {
    alloy::sol! {
        function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes data);
    }
}

/// The call, as the page says it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum DecodedCall {
    /// No call: the coin only.
    Plain,
    /// ERC-20 `transfer` (of a token the app knows, or a contract it does not).
    Transfer {
        to: String,
        amount: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        symbol: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        decimals: Option<u32>,
    },
    /// `approve`: a spender may take `amount` (ERC-20) of the contract's token;
    /// `increaseAllowance` (`adds`): `amount` more than it may now.
    Approve {
        spender: String,
        amount: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        symbol: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        decimals: Option<u32>,
        unlimited: bool,
        adds: bool,
    },
    /// Permit2's `approve`: a spender may move `amount` of `token` through
    /// Permit2 (the contract called) until `until` (none: never ends).
    Permit2Approve {
        token: String,
        spender: String,
        amount: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        symbol: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        decimals: Option<u32>,
        unlimited: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        until: Option<u64>,
    },
    /// `transferFrom` (ERC-20 or ERC-721: the same call).
    TransferFrom {
        from: String,
        to: String,
        /// An amount of a known token in its units, else the raw value (an
        /// amount or an NFT's id).
        amount: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        symbol: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        decimals: Option<u32>,
    },
    /// An NFT's `safeTransferFrom` (ERC-721, or ERC-1155 with an amount).
    NftTransfer {
        from: String,
        to: String,
        token_id: String,
        amount: String,
    },
    /// `setApprovalForAll`: an operator may move every NFT of the collection.
    SetApprovalForAll { operator: String, approved: bool },
    /// A call Satchel cannot read: its selector and data, as they are.
    Unknown { selector: String },
    /// No `to`: a new contract, made from `data` (its creation code, of
    /// `code_size` bytes); the page says what the contract is not known to do.
    Deploy { code_size: u32 },
}

/// What the person is shown of a transaction before the service's preparation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct CallReview {
    pub from: String,
    /// The transaction's own `to`: the recipient, or the contract called;
    /// absent for a deployment.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub to: Option<String>,
    /// The coin sent, in wei.
    pub value: String,
    pub call: DecodedCall,
    /// The call data, 0x-hex (`0x` for none).
    pub data: String,
    /// What lets someone take everything: an unlimited approval, an operator
    /// for every NFT of a collection (shown in red).
    pub takes_everything: bool,
}

/// A transaction to send: what the key signs (from the service's preparation
/// only its fees, gas and nonce, which the page shows) and its review.
#[derive(Debug, Clone, PartialEq)]
pub struct TransactionToSend {
    /// The network it goes to (the origin's).
    pub network: String,
    pub from: Address,
    /// The contract or recipient called, or `Create` for a deployment.
    pub to: TxKind,
    pub value: U256,
    pub data: Bytes,
    /// The application's own gas limit, the least the limit signed may be.
    pub gas: Option<u64>,
    pub review: CallReview,
}

/// The largest gas limit an application may ask for (a block's worth).
pub const MAX_GAS: u64 = 30_000_000;

fn quantity(value: Option<&Value>, name: &str) -> Result<Option<U256>, ProviderError> {
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    value
        .as_str()
        .and_then(|s| s.strip_prefix("0x"))
        .filter(|digits| !digits.is_empty() && digits.len() <= 64)
        .and_then(|digits| U256::from_str_radix(digits, 16).ok())
        .map(Some)
        .ok_or_else(|| ProviderError::invalid_params(format!("{name} is a 0x-hex quantity")))
}

/// Reads `eth_sendTransaction`'s `[{from, to, value?, data?, …}]` for `network`
/// (chain `chain_id`), where `accounts` are the addresses the origin sees and
/// `token` names the app's known tokens.
pub fn send_transaction(
    params: &Value,
    accounts: &[Address],
    network: &str,
    chain_id: u64,
    token: impl Fn(Address) -> Option<TokenFacts>,
) -> Result<TransactionToSend, ProviderError> {
    let tx = params
        .get(0)
        .and_then(Value::as_object)
        .ok_or_else(|| ProviderError::invalid_params("expected [{from, to, value, data}]"))?;
    let from = super::account_param(tx.get("from"), accounts)?;
    let to = match tx.get("to").filter(|t| !t.is_null()) {
        None => TxKind::Create,
        Some(to) => TxKind::Call(
            to.as_str()
                .and_then(|t| t.parse().ok())
                .ok_or_else(|| ProviderError::invalid_params("`to` is an address"))?,
        ),
    };
    if let Some(chain) = quantity(tx.get("chainId"), "chainId")?
        && chain != U256::from(chain_id)
    {
        return Err(ProviderError::chain_disconnected(format!(
            "this transaction is for chain {chain}, but this site is on chain {chain_id}"
        )));
    }
    let value = quantity(tx.get("value"), "value")?.unwrap_or_default();
    let gas = match quantity(tx.get("gas"), "gas")? {
        None => None,
        Some(gas) if gas <= U256::from(MAX_GAS) => Some(gas.to::<u64>()),
        Some(_) => {
            return Err(ProviderError::invalid_params(format!(
                "gas is at most {MAX_GAS} (a block's worth)"
            )));
        }
    };
    let data = match tx.get("data").or_else(|| tx.get("input")) {
        None | Some(Value::Null) => Bytes::new(),
        Some(data) => {
            let hex = data
                .as_str()
                .and_then(|d| d.strip_prefix("0x"))
                .ok_or_else(|| ProviderError::invalid_params("`data` is 0x-hex"))?;
            if hex.len() > 2 * MAX_CALL_DATA {
                return Err(ProviderError::invalid_params(format!(
                    "call data is at most {MAX_CALL_DATA} bytes"
                )));
            }
            Bytes::from(
                alloy::hex::decode(hex)
                    .map_err(|_| ProviderError::invalid_params("`data` is 0x-hex"))?,
            )
        }
    };
    let call = match to {
        TxKind::Call(to) => decode(&data, to, &token),
        TxKind::Create if data.is_empty() => {
            return Err(ProviderError::invalid_params(
                "a deployment (no `to`) carries the contract's creation code in `data`",
            ));
        }
        TxKind::Create => DecodedCall::Deploy {
            code_size: u32::try_from(data.len()).unwrap_or(u32::MAX),
        },
    };
    let takes_everything = match &call {
        DecodedCall::Approve { unlimited, .. } | DecodedCall::Permit2Approve { unlimited, .. } => {
            *unlimited
        }
        DecodedCall::SetApprovalForAll { approved, .. } => *approved,
        _ => false,
    };
    Ok(TransactionToSend {
        network: network.to_owned(),
        from,
        to,
        value,
        gas,
        review: CallReview {
            from: from.to_checksum(None),
            to: to.to().map(|to| to.to_checksum(None)),
            value: value.to_string(),
            call,
            data: format!("0x{}", alloy::hex::encode(&data)),
            takes_everything,
        },
        data,
    })
}

/// An amount past any real supply, or uint256's largest: "everything".
fn is_unlimited(amount: U256) -> bool {
    amount >= U256::from(1) << 128
}

/// The call `data` makes of the contract `to` (`known`: the app's facts of a
/// token it knows).
pub fn decode(
    data: &[u8],
    to: Address,
    known: &impl Fn(Address) -> Option<TokenFacts>,
) -> DecodedCall {
    let facts = known(to);
    let token = facts.as_ref();
    let address = |a: Address| a.to_checksum(None);
    if data.is_empty() {
        return DecodedCall::Plain;
    }
    if let Ok(call) = transferCall::abi_decode(data) {
        return DecodedCall::Transfer {
            to: address(call.to),
            amount: call.amount.to_string(),
            symbol: token.map(|t| t.symbol.clone()),
            decimals: token.map(|t| t.decimals),
        };
    }
    if let Ok(call) = approveCall::abi_decode(data) {
        return DecodedCall::Approve {
            spender: address(call.spender),
            amount: call.amount.to_string(),
            symbol: token.map(|t| t.symbol.clone()),
            decimals: token.map(|t| t.decimals),
            unlimited: is_unlimited(call.amount),
            adds: false,
        };
    }
    if let Ok(call) = increaseAllowanceCall::abi_decode(data) {
        return DecodedCall::Approve {
            spender: address(call.spender),
            amount: call.addedValue.to_string(),
            symbol: token.map(|t| t.symbol.clone()),
            decimals: token.map(|t| t.decimals),
            unlimited: is_unlimited(call.addedValue),
            adds: true,
        };
    }
    if let Ok(call) = permit2::approveCall::abi_decode(data) {
        let amount = U256::from(call.amount);
        let permitted = known(call.token);
        let expiration = u64::try_from(call.expiration).unwrap_or(u64::MAX);
        return DecodedCall::Permit2Approve {
            token: address(call.token),
            spender: address(call.spender),
            amount: amount.to_string(),
            symbol: permitted.as_ref().map(|t| t.symbol.clone()),
            decimals: permitted.map(|t| t.decimals),
            // uint160's largest, Permit2's "everything", is past 2^128.
            unlimited: is_unlimited(amount),
            // uint48's largest never comes; 0 is Permit2's "this block only".
            until: (expiration < (1 << 47)).then_some(expiration),
        };
    }
    if let Ok(call) = transferFromCall::abi_decode(data) {
        return DecodedCall::TransferFrom {
            from: address(call.from),
            to: address(call.to),
            amount: call.amount.to_string(),
            symbol: token.map(|t| t.symbol.clone()),
            decimals: token.map(|t| t.decimals),
        };
    }
    // An ERC-721's safeTransferFrom (with or without data), or an ERC-1155's
    // with its amount: (from, to, id, amount).
    let nft = safeTransferFromCall::abi_decode(data)
        .map(|c| (c.from, c.to, c.tokenId, U256::from(1)))
        .or_else(|_| {
            with_data::safeTransferFromCall::abi_decode(data)
                .map(|c| (c.from, c.to, c.tokenId, U256::from(1)))
        })
        .or_else(|_| {
            erc1155::safeTransferFromCall::abi_decode(data).map(|c| (c.from, c.to, c.id, c.amount))
        });
    if let Ok((from, to, id, amount)) = nft {
        return DecodedCall::NftTransfer {
            from: address(from),
            to: address(to),
            token_id: id.to_string(),
            amount: amount.to_string(),
        };
    }
    if let Ok(call) = setApprovalForAllCall::abi_decode(data) {
        return DecodedCall::SetApprovalForAll {
            operator: address(call.operator),
            approved: call.approved,
        };
    }
    DecodedCall::Unknown {
        selector: format!("0x{}", alloy::hex::encode(&data[..data.len().min(4)])),
    }
}

#[cfg(test)]
mod tests;
