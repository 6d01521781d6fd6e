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
    let truncated = budget == 0;
    let refusal = refusal(
        &data,
        chain_id,
        account,
        permit.as_ref().map(|(_, owner)| *owner),
    )
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
            "This permit is for the account {}, not the account that would sign it.",
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
mod tests {
    use super::*;
    use serde_json::json;

    const OWNER: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const SPENDER: &str = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
    const TOKEN: &str = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

    fn owner() -> Address {
        OWNER.parse().expect("owner")
    }

    fn known(contract: Address) -> Option<TokenFacts> {
        (contract == TOKEN.parse::<Address>().expect("token")).then(|| TokenFacts {
            symbol: "DEMO".into(),
            decimals: 18,
        })
    }

    fn permit(chain: u64, owner: &str, value: &str) -> Value {
        json!({
            "types": {
                "EIP712Domain": [
                    {"name": "name", "type": "string"}, {"name": "version", "type": "string"},
                    {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}],
                "Permit": [
                    {"name": "owner", "type": "address"}, {"name": "spender", "type": "address"},
                    {"name": "value", "type": "uint256"}, {"name": "nonce", "type": "uint256"},
                    {"name": "deadline", "type": "uint256"}]
            },
            "primaryType": "Permit",
            "domain": {"name": "Demo Token", "version": "1", "chainId": chain, "verifyingContract": TOKEN},
            "message": {"owner": owner, "spender": SPENDER, "value": value, "nonce": 0, "deadline": 1_900_000_000u64}
        })
    }

    #[test]
    fn a_permit_is_said_in_words_with_the_known_tokens_name() {
        // As viem sends it: the typed data as JSON text.
        let text = permit(31337, OWNER, "1500000000000000000").to_string();
        let signing =
            sign_typed_data(&json!([OWNER, text]), &[owner()], 31337, known).expect("permit");
        let review = signing.review;
        assert_eq!(review.refusal, None);
        let permit = review.permit.expect("recognised");
        assert_eq!(permit.standard, "Permit");
        assert_eq!(permit.spender, SPENDER);
        assert_eq!(permit.until, Some(1_900_000_000));
        assert_eq!(permit.chain_id, Some(31337), "the summary names the chain");
        let allowance = &permit.allowances[0];
        assert_eq!(allowance.token, TOKEN);
        assert_eq!(allowance.symbol.as_deref(), Some("DEMO"));
        assert_eq!(allowance.amount, "1500000000000000000");
        assert!(!allowance.unlimited);
        assert_eq!(review.domain[2].value.as_deref(), Some("31337"));
        assert_eq!(review.message[1].name, "spender");
        assert_eq!(review.message[1].value.as_deref(), Some(SPENDER));
    }

    #[test]
    fn an_unlimited_permit_another_chain_or_another_owner_are_flagged_or_refused() {
        let max = U256::MAX.to_string();
        let review = sign_typed_data(
            &json!([OWNER, permit(31337, OWNER, &max)]),
            &[owner()],
            31337,
            known,
        )
        .expect("unlimited")
        .review;
        assert!(review.permit.expect("permit").allowances[0].unlimited);
        let other_chain = sign_typed_data(
            &json!([OWNER, permit(1, OWNER, "1")]),
            &[owner()],
            31337,
            known,
        )
        .expect("other chain")
        .review;
        assert!(other_chain.refusal.expect("refused").contains("chain 1"));
        let other_owner = sign_typed_data(
            &json!([OWNER, permit(31337, SPENDER, "1")]),
            &[owner()],
            31337,
            known,
        )
        .expect("other owner")
        .review;
        assert!(
            other_owner
                .refusal
                .expect("refused")
                .contains("not the account")
        );
    }

    #[test]
    fn permit2_is_recognised_and_its_uint160_maximum_is_unlimited() {
        let data = json!({
            "types": {
                "EIP712Domain": [{"name": "name", "type": "string"}, {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}],
                "PermitSingle": [{"name": "details", "type": "PermitDetails"}, {"name": "spender", "type": "address"}, {"name": "sigDeadline", "type": "uint256"}],
                "PermitDetails": [{"name": "token", "type": "address"}, {"name": "amount", "type": "uint160"}, {"name": "expiration", "type": "uint48"}, {"name": "nonce", "type": "uint48"}]
            },
            "primaryType": "PermitSingle",
            "domain": {"name": "Permit2", "chainId": 31337, "verifyingContract": "0x000000000022D473030F116dDEE9F6B43aC78BA3"},
            "message": {"details": {"token": TOKEN, "amount": "0xffffffffffffffffffffffffffffffffffffffff", "expiration": "281474976710655", "nonce": 0}, "spender": SPENDER, "sigDeadline": 1_900_000_000u64}
        });
        let review = sign_typed_data(&json!([OWNER, data]), &[owner()], 31337, known)
            .expect("permit2")
            .review;
        let permit = review.permit.expect("recognised");
        assert_eq!(permit.standard, "Permit2");
        assert!(permit.allowances[0].unlimited);
        assert_eq!(permit.until, None, "uint48's largest value never ends");
        assert_eq!(review.message[0].fields.len(), 4, "details shown as a tree");
        assert_eq!(review.message[0].type_name, "PermitDetails");
    }

    #[test]
    fn a_dai_permit_is_everything_and_permit2_with_a_witness_is_a_transfer() {
        let dai = |holder: &str, allowed: bool, expiry: u64| {
            json!({
                "types": {
                    "EIP712Domain": [{"name": "name", "type": "string"}, {"name": "version", "type": "string"},
                        {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}],
                    "Permit": [{"name": "holder", "type": "address"}, {"name": "spender", "type": "address"},
                        {"name": "nonce", "type": "uint256"}, {"name": "expiry", "type": "uint256"},
                        {"name": "allowed", "type": "bool"}]
                },
                "primaryType": "Permit",
                "domain": {"name": "Dai Stablecoin", "version": "1", "chainId": 31337, "verifyingContract": TOKEN},
                "message": {"holder": holder, "spender": SPENDER, "nonce": 0, "expiry": expiry, "allowed": allowed}
            })
        };
        let review = sign_typed_data(
            &json!([OWNER, dai(OWNER, true, 0)]),
            &[owner()],
            31337,
            known,
        )
        .expect("dai")
        .review;
        let permit = review.permit.expect("recognised");
        assert!(permit.allowances[0].unlimited, "allowed is everything");
        assert_eq!(permit.until, None, "an expiry of 0 never ends");
        assert_eq!(permit.spender, SPENDER);
        assert_eq!(review.refusal, None);
        let withdrawn = sign_typed_data(
            &json!([OWNER, dai(OWNER, false, 1_900_000_000)]),
            &[owner()],
            31337,
            known,
        )
        .expect("dai")
        .review
        .permit
        .expect("recognised");
        assert_eq!(withdrawn.allowances[0].amount, "0");
        assert_eq!(withdrawn.until, Some(1_900_000_000));
        // Another holder's DAI permit is refused, as an EIP-2612 one is.
        let other = sign_typed_data(
            &json!([OWNER, dai(SPENDER, true, 0)]),
            &[owner()],
            31337,
            known,
        )
        .expect("reviewed")
        .review;
        assert!(other.refusal.is_some(), "another holder: {other:?}");

        let witness = json!({
            "types": {
                "EIP712Domain": [{"name": "name", "type": "string"}, {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}],
                "PermitWitnessTransferFrom": [{"name": "permitted", "type": "TokenPermissions"}, {"name": "spender", "type": "address"},
                    {"name": "nonce", "type": "uint256"}, {"name": "deadline", "type": "uint256"}, {"name": "witness", "type": "Order"}],
                "TokenPermissions": [{"name": "token", "type": "address"}, {"name": "amount", "type": "uint256"}],
                "Order": [{"name": "recipient", "type": "address"}, {"name": "minOut", "type": "uint256"}]
            },
            "primaryType": "PermitWitnessTransferFrom",
            "domain": {"name": "Permit2", "chainId": 31337, "verifyingContract": "0x000000000022D473030F116dDEE9F6B43aC78BA3"},
            "message": {"permitted": {"token": TOKEN, "amount": "2000000000000000000"}, "spender": SPENDER, "nonce": 1,
                "deadline": 1_900_000_000u64, "witness": {"recipient": SPENDER, "minOut": 5}}
        });
        let review = sign_typed_data(&json!([OWNER, witness]), &[owner()], 31337, known)
            .expect("witness")
            .review;
        let permit = review.permit.expect("recognised");
        assert_eq!(permit.standard, "Permit2");
        assert_eq!(permit.allowances[0].amount, "2000000000000000000");
        assert_eq!(permit.allowances[0].symbol.as_deref(), Some("DEMO"));
        assert_eq!(permit.until, Some(1_900_000_000));
        assert_eq!(
            review.message[4].type_name, "Order",
            "the witness shown as a tree"
        );
    }

    #[test]
    fn other_typed_data_is_shown_as_a_tree_and_broken_data_refused() {
        let mail = json!({
            "types": {
                "EIP712Domain": [{"name": "name", "type": "string"}],
                "Mail": [{"name": "to", "type": "string"}, {"name": "tags", "type": "string[]"}]
            },
            "primaryType": "Mail",
            "domain": {"name": "Mailer"},
            "message": {"to": "Bob", "tags": ["a", "b"]}
        });
        let review = sign_typed_data(&json!([OWNER, mail]), &[owner()], 31337, known)
            .expect("mail")
            .review;
        assert_eq!(review.permit, None);
        assert_eq!(review.refusal, None, "no chain named: nothing to refuse");
        assert_eq!(review.message[1].fields[1].value.as_deref(), Some("b"));
        let missing = json!({"types": {"Mail": [{"name": "to", "type": "string"}]}, "primaryType": "Mail", "domain": {}, "message": {}});
        let refused = sign_typed_data(&json!([OWNER, missing]), &[owner()], 31337, known);
        assert_eq!(refused.expect_err("missing field").code, -32602);
        let refused = sign_typed_data(&json!([OWNER, "nonsense"]), &[owner()], 31337, known);
        assert_eq!(refused.expect_err("not json").code, -32602);
    }

    #[test]
    fn a_long_array_is_cut_to_the_field_budget_and_not_signed() {
        let items: Vec<u64> = (0..1000).collect();
        let data = json!({
            "types": {"EIP712Domain": [], "List": [{"name": "items", "type": "uint256[]"}]},
            "primaryType": "List",
            "domain": {},
            "message": {"items": items}
        });
        let review = sign_typed_data(&json!([OWNER, data]), &[owner()], 31337, known)
            .expect("list")
            .review;
        assert!(review.truncated);
        assert!(review.message[0].fields.len() < MAX_FIELDS);
        // Cut short, it cannot be signed.
        let refusal = review.refusal.expect("refused");
        assert!(refusal.contains("cannot read"), "{refusal}");
    }
}
