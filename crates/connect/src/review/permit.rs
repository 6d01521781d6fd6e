//! Token permits recognised in typed data and said in words: EIP-2612's
//! `Permit`, DAI's all-or-nothing one, and Uniswap's Permit2 with or without a
//! witness ("allows <spender> to spend <amount> <token> until <deadline>"),
//! unlimited amounts flagged.

use alloy::dyn_abi::{DynSolValue, TypedData};
use alloy::primitives::{Address, U256};
use serde::Serialize;

/// A token's symbol and decimals, as the app's own network table names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenFacts {
    pub symbol: String,
    pub decimals: u32,
}

/// What a permit allows, for one token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Allowance {
    /// The token's contract (checksummed).
    pub token: String,
    /// Its symbol and decimals when the app knows the token.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub symbol: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub decimals: Option<u32>,
    /// In the token's smallest unit, as a decimal string.
    pub amount: String,
    /// So large it stands for "everything, for ever".
    pub unlimited: bool,
}

/// A recognised permit, in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Permit {
    /// `Permit` (EIP-2612) or `Permit2`.
    pub standard: String,
    /// Who may spend (checksummed).
    pub spender: String,
    pub allowances: Vec<Allowance>,
    /// Seconds since 1970 until which it holds; none when it never ends.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub until: Option<u64>,
    /// The chain its domain names (a permit without one is valid on any that
    /// has the contract).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub chain_id: Option<u64>,
}

/// A struct's field by name.
pub(super) fn prop<'a>(value: &'a DynSolValue, name: &str) -> Option<&'a DynSolValue> {
    let DynSolValue::CustomStruct {
        prop_names, tuple, ..
    } = value
    else {
        return None;
    };
    prop_names
        .iter()
        .position(|n| n == name)
        .and_then(|i| tuple.get(i))
}

pub(super) fn address_of(value: &DynSolValue, name: &str) -> Option<Address> {
    prop(value, name).and_then(DynSolValue::as_address)
}

pub(super) fn uint_of(value: &DynSolValue, name: &str) -> Option<(U256, usize)> {
    prop(value, name).and_then(DynSolValue::as_uint)
}

/// An amount that stands for "everything": its type's largest value, or past
/// any token's supply.
fn is_unlimited(amount: U256, bits: usize) -> bool {
    let type_max = if bits >= 256 {
        U256::MAX
    } else {
        (U256::from(1) << bits) - U256::from(1)
    };
    amount == type_max || amount >= U256::from(1) << 128
}

/// A deadline: none when it is so far it never comes (uint48's or uint256's
/// largest values, as permits write "for ever").
pub(super) fn deadline(value: U256) -> Option<u64> {
    u64::try_from(value).ok().filter(|s| *s < 1 << 47)
}

/// The permit this typed data is, with the owner it names (EIP-2612's; none for
/// Permit2, whose owner is the signer by construction).
pub(super) fn permit_of(
    data: &TypedData,
    message: &DynSolValue,
    token: &impl Fn(Address) -> Option<TokenFacts>,
) -> Option<(Permit, Option<Address>)> {
    let allowance = |contract: Address, (amount, bits): (U256, usize)| {
        let facts = token(contract);
        Allowance {
            token: contract.to_checksum(None),
            symbol: facts.as_ref().map(|f| f.symbol.clone()),
            decimals: facts.map(|f| f.decimals),
            amount: amount.to_string(),
            unlimited: is_unlimited(amount, bits),
        }
    };
    let spender = address_of(message, "spender")?;
    let chain_id = data.domain.chain_id.and_then(|id| u64::try_from(id).ok());
    let is_permit2 = data.domain.name.as_deref() == Some("Permit2");
    match data.primary_type.as_str() {
        "Permit" if !is_permit2 => {
            let contract = data.domain.verifying_contract?;
            if let Some(owner) = address_of(message, "owner") {
                let amount = uint_of(message, "value")?;
                let until = deadline(uint_of(message, "deadline")?.0);
                return Some((
                    Permit {
                        standard: "Permit".into(),
                        spender: spender.to_checksum(None),
                        allowances: vec![allowance(contract, amount)],
                        until,
                        chain_id,
                    },
                    Some(owner),
                ));
            }
            // DAI's: `Permit(holder, spender, nonce, expiry, allowed)`, all
            // or nothing, and an expiry of 0 never ends.
            let holder = address_of(message, "holder")?;
            let allowed = prop(message, "allowed").and_then(DynSolValue::as_bool)?;
            let expiry = uint_of(message, "expiry")?.0;
            let amount = if allowed { U256::MAX } else { U256::ZERO };
            Some((
                Permit {
                    standard: "Permit".into(),
                    spender: spender.to_checksum(None),
                    allowances: vec![allowance(contract, (amount, 256))],
                    until: if expiry.is_zero() {
                        None
                    } else {
                        deadline(expiry)
                    },
                    chain_id,
                },
                Some(holder),
            ))
        }
        // Permit2's allowances (`details`, until each expiry) and one-time
        // transfers (`permitted`, until the signature's deadline): one shape.
        // With a witness (UniswapX and other intents) the same transfer, plus
        // the witness the tree below shows.
        kind @ ("PermitSingle"
        | "PermitBatch"
        | "PermitTransferFrom"
        | "PermitBatchTransferFrom"
        | "PermitWitnessTransferFrom"
        | "PermitBatchWitnessTransferFrom")
            if is_permit2 =>
        {
            let allowance_kind = matches!(kind, "PermitSingle" | "PermitBatch");
            let list = if allowance_kind {
                "details"
            } else {
                "permitted"
            };
            let items: Vec<&DynSolValue> = match prop(message, list)? {
                DynSolValue::Array(items) => items.iter().collect(),
                single => vec![single],
            };
            let allowances = items
                .iter()
                .map(|i| Some(allowance(address_of(i, "token")?, uint_of(i, "amount")?)))
                .collect::<Option<Vec<_>>>()?;
            let until = if allowance_kind {
                // The earliest expiry of the allowances.
                items
                    .iter()
                    .filter_map(|i| uint_of(i, "expiration").and_then(|(e, _)| deadline(e)))
                    .min()
            } else {
                deadline(uint_of(message, "deadline")?.0)
            };
            let permit = Permit {
                standard: "Permit2".into(),
                spender: spender.to_checksum(None),
                allowances,
                until,
                chain_id,
            };
            Some((permit, None))
        }
        _ => None,
    }
}
