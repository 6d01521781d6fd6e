//! `eth_signTypedData_v4` (EIP-712): the domain and the message as the person
//! reads them, from the same typed value the signature's hash is made of
//! (alloy's dynamic typed data), and token permits recognised and said in
//! words: EIP-2612's `Permit` and Uniswap's `Permit2` ("allows <spender> to
//! spend <amount> <token> until <deadline>"), unlimited amounts flagged.

use alloy::dyn_abi::{DynSolValue, TypedData};
use alloy::primitives::{Address, U256};
use serde::Serialize;
use serde_json::Value;

use super::permit::{Permit, TokenFacts, permit_of};
use super::seaport::{SeaportOrder, order_of};
use crate::rpc::ProviderError;

/// The largest typed data read, as JSON text.
pub const MAX_TYPED_DATA: usize = 64 * 1024;
/// The most fields shown (and nesting levels); past them the page says so.
const MAX_FIELDS: usize = 400;
const MAX_DEPTH: usize = 8;

/// One field of the domain or the message: a value, or the fields inside it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct TypedField {
    pub name: String,
    /// Its Solidity type (`address`, `uint256`, `Person`, `Person[]`…).
    pub type_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub value: Option<String>,
    /// The fields inside a struct or an array (none for a value).
    pub fields: Vec<TypedField>,
}

/// What the person is shown for typed data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct TypedReview {
    /// The account that would sign (checksummed).
    pub account: String,
    pub primary_type: String,
    /// The domain's fields that are set (name, version, chain, contract, salt).
    pub domain: Vec<TypedField>,
    pub message: Vec<TypedField>,
    /// More fields than the page shows.
    pub truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub permit: Option<Permit>,
    /// A Seaport order (an NFT market's listing or offer), in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub order: Option<SeaportOrder>,
    /// Why Satchel will not sign it (shown in red, with no way to approve).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub refusal: Option<String>,
}

/// Typed data to sign: the data the key signs (its EIP-712 hash) and what the
/// page shows of it.
#[derive(Debug, Clone, PartialEq)]
pub struct TypedDataToSign {
    pub account: Address,
    pub data: TypedData,
    pub review: TypedReview,
}

/// Reads `eth_signTypedData_v4`'s `[address, typedData]` (the data as JSON text
/// or an object) for chain `chain_id`, where `accounts` are the addresses the
/// origin sees and `token` names the app's known tokens.
pub fn sign_typed_data(
    params: &Value,
    accounts: &[Address],
    chain_id: u64,
    token: impl Fn(Address) -> Option<TokenFacts>,
) -> Result<TypedDataToSign, ProviderError> {
    let account = super::account_param(params.get(0), accounts)?;
    let raw = params
        .get(1)
        .ok_or_else(|| ProviderError::invalid_params("expected [address, typedData]"))?;
    let size = match raw {
        Value::String(text) => text.len(),
        other => other.to_string().len(),
    };
    if size > MAX_TYPED_DATA {
        return Err(ProviderError::invalid_params(format!(
            "typed data is at most {MAX_TYPED_DATA} bytes"
        )));
    }
    let invalid = |e: &dyn std::fmt::Display| {
        ProviderError::invalid_params(format!("not EIP-712 typed data: {e}"))
    };
    let data: TypedData = serde_json::from_value(raw.clone()).map_err(|e| invalid(&e))?;
    // What the hash is made of: a message that does not fit its types is refused
    // here, before anyone is asked.
    data.eip712_signing_hash().map_err(|e| invalid(&e))?;
    let message = data.coerce().map_err(|e| invalid(&e))?;

    let mut budget = MAX_FIELDS;
    let domain = domain_fields(&data);
    let fields = match &message {
        DynSolValue::CustomStruct {
            prop_names, tuple, ..
        } => struct_fields(prop_names, tuple, 0, &mut budget),
        other => vec![field("message", other, 0, &mut budget)],
    };
    let permit = permit_of(&data, &message, &token);
    let order = order_of(&data, &message, &token);
    let truncated = budget == 0;
    // A permit's owner, or an order's offerer: whose assets it moves.
    let owner = permit
        .as_ref()
        .map(|(_, owner)| *owner)
        .or_else(|| order.as_ref().map(|(_, offerer)| Some(*offerer)));
    let refusal = refusal(&data, chain_id, account, owner)
    .or_else(|| {
        // What the person cannot read in full is not signed.
        truncated.then(|| {
            format!("This data has more than {MAX_FIELDS} fields, more than the page can show you: Satchel does not sign what you cannot read.")
        })
    });
    Ok(TypedDataToSign {
        account,
        review: TypedReview {
            account: account.to_checksum(None),
            primary_type: data.primary_type.clone(),
            domain,
            message: fields,
            truncated,
            permit: permit.map(|(permit, _)| permit),
            order: order.map(|(order, _)| order),
            refusal,
        },
        data,
    })
}

fn refusal(
    data: &TypedData,
    chain_id: u64,
    account: Address,
    permit_owner: Option<Option<Address>>,
) -> Option<String> {
    if let Some(chain) = data.domain.chain_id
        && chain != U256::from(chain_id)
    {
        return Some(format!(
            "This signature is for chain {chain}, but this site is on chain {chain_id}: it could be used where you do not expect it."
        ));
    }
    match permit_owner {
        Some(Some(owner)) if owner != account => Some(format!(
            "This moves the assets of the account {}, not the account that would sign it.",
            owner.to_checksum(None)
        )),
        _ => None,
    }
}

fn text_field(name: &str, type_name: &str, value: String) -> TypedField {
    TypedField {
        name: name.into(),
        type_name: type_name.into(),
        value: Some(value),
        fields: Vec::new(),
    }
}

fn domain_fields(data: &TypedData) -> Vec<TypedField> {
    let domain = &data.domain;
    let mut fields = Vec::new();
    if let Some(name) = &domain.name {
        fields.push(text_field("name", "string", name.to_string()));
    }
    if let Some(version) = &domain.version {
        fields.push(text_field("version", "string", version.to_string()));
    }
    if let Some(chain) = domain.chain_id {
        fields.push(text_field("chainId", "uint256", chain.to_string()));
    }
    if let Some(contract) = domain.verifying_contract {
        fields.push(text_field(
            "verifyingContract",
            "address",
            contract.to_checksum(None),
        ));
    }
    if let Some(salt) = domain.salt {
        fields.push(text_field("salt", "bytes32", salt.to_string()));
    }
    fields
}

fn struct_fields(
    names: &[String],
    values: &[DynSolValue],
    depth: usize,
    budget: &mut usize,
) -> Vec<TypedField> {
    names
        .iter()
        .zip(values)
        .map_while(|(name, value)| (*budget > 0).then(|| field(name, value, depth, budget)))
        .collect()
}

/// One value as the page shows it, within the field budget.
fn field(name: &str, value: &DynSolValue, depth: usize, budget: &mut usize) -> TypedField {
    *budget = budget.saturating_sub(1);
    // A struct by its own name (`Person`), not its tuple's signature.
    let type_name = match value {
        DynSolValue::CustomStruct { name, .. } => name.clone(),
        other => other
            .sol_type_name()
            .map(|t| t.into_owned())
            .unwrap_or_default(),
    };
    let leaf = |text: String| TypedField {
        name: name.to_owned(),
        type_name: type_name.clone(),
        value: Some(text),
        fields: Vec::new(),
    };
    let inner = |fields: Vec<TypedField>| TypedField {
        name: name.to_owned(),
        type_name: type_name.clone(),
        value: None,
        fields,
    };
    if depth >= MAX_DEPTH {
        return leaf("…".into());
    }
    match value {
        DynSolValue::Address(a) => leaf(a.to_checksum(None)),
        DynSolValue::Bool(b) => leaf(b.to_string()),
        DynSolValue::Uint(n, _) => leaf(n.to_string()),
        DynSolValue::Int(n, _) => leaf(n.to_string()),
        DynSolValue::FixedBytes(word, size) => leaf(format!(
            "0x{}",
            alloy::hex::encode(&word[..(*size).min(32)])
        )),
        DynSolValue::Bytes(bytes) => leaf(format!("0x{}", alloy::hex::encode(bytes))),
        DynSolValue::String(text) => leaf(text.clone()),
        DynSolValue::Function(f) => leaf(f.to_string()),
        DynSolValue::CustomStruct {
            prop_names, tuple, ..
        } => inner(struct_fields(prop_names, tuple, depth + 1, budget)),
        DynSolValue::Array(items) | DynSolValue::FixedArray(items) | DynSolValue::Tuple(items) => {
            inner(
                items
                    .iter()
                    .enumerate()
                    .map_while(|(i, item)| {
                        (*budget > 0).then(|| field(&format!("[{i}]"), item, depth + 1, budget))
                    })
                    .collect(),
            )
        }
    }
}

#[cfg(test)]
mod tests;
