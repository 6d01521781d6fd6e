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
    let signing = sign_typed_data(&json!([OWNER, text]), &[owner()], 31337, known).expect("permit");
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

/// A Seaport listing as OpenSea asks for it: `offer` given by `offerer`, each
/// `consideration` item `(itemType, token, amount, recipient)`.
fn seaport_order(offerer: &str, offer: Value, consideration: &[(u8, &str, &str, &str)]) -> Value {
    let item = json!([
        {"name": "itemType", "type": "uint8"}, {"name": "token", "type": "address"},
        {"name": "identifierOrCriteria", "type": "uint256"}, {"name": "startAmount", "type": "uint256"},
        {"name": "endAmount", "type": "uint256"}]);
    let mut consideration_item = item.as_array().expect("fields").clone();
    consideration_item.push(json!({"name": "recipient", "type": "address"}));
    json!({
        "types": {
            "EIP712Domain": [
                {"name": "name", "type": "string"}, {"name": "version", "type": "string"},
                {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}],
            "OrderComponents": [
                {"name": "offerer", "type": "address"}, {"name": "zone", "type": "address"},
                {"name": "offer", "type": "OfferItem[]"}, {"name": "consideration", "type": "ConsiderationItem[]"},
                {"name": "orderType", "type": "uint8"}, {"name": "startTime", "type": "uint256"},
                {"name": "endTime", "type": "uint256"}, {"name": "zoneHash", "type": "bytes32"},
                {"name": "salt", "type": "uint256"}, {"name": "conduitKey", "type": "bytes32"},
                {"name": "counter", "type": "uint256"}],
            "OfferItem": item,
            "ConsiderationItem": consideration_item,
        },
        "primaryType": "OrderComponents",
        "domain": {"name": "Seaport", "version": "1.6", "chainId": 31337, "verifyingContract": "0x0000000000000068F116a894984e2DB1123eB395"},
        "message": {
            "offerer": offerer, "zone": "0x0000000000000000000000000000000000000000",
            "offer": offer,
            "consideration": consideration.iter().map(|(kind, token, amount, recipient)| json!({
                "itemType": kind, "token": token, "identifierOrCriteria": 0,
                "startAmount": amount, "endAmount": amount, "recipient": recipient})).collect::<Vec<_>>(),
            "orderType": 0, "startTime": 1_700_000_000u64, "endTime": 1_900_000_000u64,
            "zoneHash": format!("0x{}", "00".repeat(32)), "salt": 7,
            "conduitKey": format!("0x{}", "00".repeat(32)), "counter": 0
        }
    })
}

const NFT: &str = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const COIN: &str = "0x0000000000000000000000000000000000000000";
const FEES: &str = "0x0000a26b00c1F0DF003000390027140000fAa719";

fn pal(id: u64) -> Value {
    json!([{"itemType": 2, "token": NFT, "identifierOrCriteria": id, "startAmount": 1, "endAmount": 1}])
}

#[test]
fn a_seaport_listing_says_what_is_given_what_comes_back_and_what_others_get() {
    use crate::review::seaport::OrderItemKind;
    let listing = seaport_order(
        OWNER,
        pal(4),
        &[
            (0, COIN, "975000000000000000", OWNER),
            (0, COIN, "25000000000000000", FEES),
        ],
    );
    let review = sign_typed_data(&json!([OWNER, listing]), &[owner()], 31337, known)
        .expect("an order")
        .review;
    assert_eq!(review.refusal, None);
    let order = review.order.expect("said in words");
    assert_eq!(order.gives[0].kind, OrderItemKind::Erc721);
    assert_eq!(order.gives[0].token_id.as_deref(), Some("4"));
    assert_eq!(order.receives[0].kind, OrderItemKind::Coin);
    assert_eq!(order.receives[0].amount, "975000000000000000");
    assert_eq!(order.others_receive[0].recipient.as_deref(), Some(FEES));
    assert_eq!(order.until, Some(1_900_000_000));
    assert!(!order.gives_for_nothing);
}

#[test]
fn an_order_that_gives_for_nothing_is_red_and_another_accounts_is_refused() {
    // The listing-phishing shape: the NFT, and everything to someone else.
    let drain = seaport_order(OWNER, pal(4), &[(0, COIN, "1", SPENDER)]);
    let order = sign_typed_data(&json!([OWNER, drain]), &[owner()], 31337, known)
        .expect("an order")
        .review
        .order
        .expect("said in words");
    assert!(order.gives_for_nothing);
    assert!(order.receives.is_empty());
    // Any NFT of the collection (criteria), for a known token: still read.
    let criteria = json!([{"itemType": 4, "token": NFT, "identifierOrCriteria": 0, "startAmount": 1, "endAmount": 1}]);
    let offer = seaport_order(OWNER, criteria, &[(1, TOKEN, "2000000000000000000", OWNER)]);
    let order = sign_typed_data(&json!([OWNER, offer]), &[owner()], 31337, known)
        .expect("an order")
        .review
        .order
        .expect("said in words");
    assert_eq!(order.receives[0].symbol.as_deref(), Some("DEMO"));
    assert_eq!(order.gives[0].token_id, None);
    // An order offering another account's assets is not signed.
    let theirs = seaport_order(SPENDER, pal(9), &[(0, COIN, "1", SPENDER)]);
    let review = sign_typed_data(&json!([OWNER, theirs]), &[owner()], 31337, known)
        .expect("read")
        .review;
    assert!(review.refusal.is_some_and(|r| r.contains(SPENDER)));
}
