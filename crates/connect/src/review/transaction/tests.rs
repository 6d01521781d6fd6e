use super::*;
use serde_json::json;

const FROM: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const OTHER: &str = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const TOKEN: &str = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

fn from() -> Address {
    FROM.parse().expect("from")
}
fn other() -> Address {
    OTHER.parse().expect("other")
}
fn demo() -> TokenFacts {
    TokenFacts {
        symbol: "DEMO".into(),
        decimals: 18,
    }
}
fn known(contract: Address) -> Option<TokenFacts> {
    (contract == TOKEN.parse::<Address>().expect("token")).then(demo)
}
fn send(tx: Value) -> Result<TransactionToSend, ProviderError> {
    send_transaction(&json!([tx]), &[from()], "anvil", 31337, known)
}
fn hex(data: Vec<u8>) -> String {
    format!("0x{}", alloy::hex::encode(data))
}

#[test]
fn a_coin_transfer_and_a_known_tokens_transfer_are_read() {
    let coin =
        send(json!({"from": FROM, "to": OTHER, "value": "0xde0b6b3a7640000"})).expect("coin");
    assert_eq!(coin.value, U256::from(10u64.pow(18)));
    assert_eq!(coin.review.call, DecodedCall::Plain);
    assert_eq!(coin.review.value, "1000000000000000000");
    let data = transferCall {
        to: other(),
        amount: U256::from(5),
    }
    .abi_encode();
    let token = send(json!({"from": FROM, "to": TOKEN, "data": hex(data)})).expect("token");
    assert_eq!(
        token.review.call,
        DecodedCall::Transfer {
            to: OTHER.into(),
            amount: "5".into(),
            symbol: Some("DEMO".into()),
            decimals: Some(18)
        }
    );
    assert!(!token.review.takes_everything);
}

#[test]
fn increase_allowance_and_permit2_approve_are_said_in_words() {
    let more = increaseAllowanceCall {
        spender: other(),
        addedValue: U256::from(5u64) * U256::from(10u64).pow(U256::from(18u64)),
    }
    .abi_encode();
    let review = send(json!({"from": FROM, "to": TOKEN, "data": hex(more)}))
        .expect("increase")
        .review;
    assert_eq!(
        review.call,
        DecodedCall::Approve {
            spender: OTHER.into(),
            amount: "5000000000000000000".into(),
            symbol: Some("DEMO".into()),
            decimals: Some(18),
            unlimited: false,
            adds: true,
        }
    );
    assert!(!review.takes_everything);
    let everything = increaseAllowanceCall {
        spender: other(),
        addedValue: U256::MAX,
    }
    .abi_encode();
    let review = send(json!({"from": FROM, "to": TOKEN, "data": hex(everything)}))
        .expect("increase")
        .review;
    assert!(review.takes_everything);

    // Permit2's own approve, sent to Permit2: the token is a parameter.
    let permit2 = "0x000000000022D473030F116dDEE9F6B43aC78BA3";
    let approve = permit2::approveCall {
        token: TOKEN.parse().expect("token"),
        spender: other(),
        amount: alloy::primitives::Uint::<160, 3>::MAX,
        expiration: alloy::primitives::Uint::<48, 1>::from(1_900_000_000u64),
    }
    .abi_encode();
    let review = send(json!({"from": FROM, "to": permit2, "data": hex(approve)}))
        .expect("permit2 approve")
        .review;
    let DecodedCall::Permit2Approve {
        token,
        spender,
        symbol,
        unlimited,
        until,
        ..
    } = &review.call
    else {
        panic!("not read as Permit2's approve: {:?}", review.call);
    };
    assert_eq!((token.as_str(), spender.as_str()), (TOKEN, OTHER));
    assert_eq!(symbol.as_deref(), Some("DEMO"));
    assert!(*unlimited);
    assert_eq!(*until, Some(1_900_000_000));
    assert!(review.takes_everything);
}

#[test]
fn unlimited_approvals_and_operators_for_everything_are_flagged() {
    let unlimited = approveCall {
        spender: other(),
        amount: U256::MAX,
    }
    .abi_encode();
    let review = send(json!({"from": FROM, "to": TOKEN, "data": hex(unlimited)}))
        .expect("approve")
        .review;
    assert!(matches!(
        review.call,
        DecodedCall::Approve {
            unlimited: true,
            ..
        }
    ));
    assert!(review.takes_everything);
    let limited = approveCall {
        spender: other(),
        amount: U256::from(7),
    }
    .abi_encode();
    let review = send(json!({"from": FROM, "to": TOKEN, "data": hex(limited)}))
        .expect("approve")
        .review;
    assert!(!review.takes_everything);
    let operator = setApprovalForAllCall {
        operator: other(),
        approved: true,
    }
    .abi_encode();
    let review = send(json!({"from": FROM, "to": OTHER, "data": hex(operator)}))
        .expect("operator")
        .review;
    assert_eq!(
        review.call,
        DecodedCall::SetApprovalForAll {
            operator: OTHER.into(),
            approved: true
        }
    );
    assert!(review.takes_everything);
    let revoke = setApprovalForAllCall {
        operator: other(),
        approved: false,
    }
    .abi_encode();
    assert!(
        !send(json!({"from": FROM, "to": OTHER, "data": hex(revoke)}))
            .expect("revoke")
            .review
            .takes_everything
    );
}

#[test]
fn nft_transfers_are_read_and_other_calls_shown_by_selector() {
    let nft = erc1155::safeTransferFromCall {
        from: from(),
        to: other(),
        id: U256::from(3),
        amount: U256::from(2),
        data: Bytes::new(),
    }
    .abi_encode();
    let review = send(json!({"from": FROM, "to": OTHER, "data": hex(nft)}))
        .expect("1155")
        .review;
    assert_eq!(
        review.call,
        DecodedCall::NftTransfer {
            from: FROM.into(),
            to: OTHER.into(),
            token_id: "3".into(),
            amount: "2".into()
        }
    );
    let review = send(json!({"from": FROM, "to": OTHER, "data": "0x1249c58b"}))
        .expect("mint")
        .review;
    assert_eq!(
        review.call,
        DecodedCall::Unknown {
            selector: "0x1249c58b".into()
        }
    );
}

#[test]
fn a_transaction_without_to_is_a_deployment_of_its_code() {
    let code = "0x6080604052348015600f57600080fd5b50";
    let tx = send(json!({"from": FROM, "data": code, "value": "0x1"})).expect("a deployment");
    assert_eq!(tx.to, alloy::primitives::TxKind::Create);
    assert_eq!(tx.review.to, None);
    assert_eq!(tx.review.call, DecodedCall::Deploy { code_size: 17 });
    let json = serde_json::to_value(&tx.review).expect("json");
    assert!(json.get("to").is_none(), "absent, not null: {json}");
    assert_eq!(json["call"], json!({"kind": "deploy", "codeSize": 17}));
    // `to: null`, as ethers and viem may send a deployment, is one too.
    let null_to = send(json!({"from": FROM, "to": null, "data": code})).expect("a deployment");
    assert_eq!(null_to.to, alloy::primitives::TxKind::Create);
    // Without code there is nothing to deploy.
    for empty in [json!({"from": FROM}), json!({"from": FROM, "data": "0x"})] {
        let refused = send(empty).expect_err("no code");
        assert_eq!(refused.code, -32602);
        assert!(
            refused.message.contains("creation code"),
            "{}",
            refused.message
        );
    }
}

#[test]
fn what_cannot_be_sent_is_refused_before_anyone_is_asked() {
    assert_eq!(
        send(json!({"from": OTHER, "to": OTHER}))
            .expect_err("not seen")
            .code,
        4100
    );
    assert_eq!(
        send(json!({"from": FROM, "to": OTHER, "chainId": "0x1"}))
            .expect_err("chain")
            .code,
        4901
    );
    for bad in [
        json!({"from": FROM, "to": "nope"}),
        json!({"from": FROM, "to": OTHER, "value": "12"}),
        json!({"from": FROM, "to": OTHER, "data": "0xzz"}),
        json!({"from": FROM, "to": OTHER, "data": format!("0x{}", "00".repeat(MAX_CALL_DATA + 1))}),
    ] {
        assert_eq!(send(bad.clone()).expect_err("bad").code, -32602, "{bad}");
    }
    let refused = send_transaction(&json!([]), &[from()], "anvil", 31337, known);
    assert_eq!(refused.expect_err("no tx").code, -32602);
}

#[test]
fn the_applications_gas_is_kept_as_a_floor_within_a_blocks_worth() {
    let plain = send(json!({"from": FROM, "to": OTHER, "value": "0x1"})).expect("plain");
    assert_eq!(plain.gas, None);
    let asked = send(json!({"from": FROM, "to": OTHER, "value": "0x1", "gas": "0x186a0"}))
        .expect("with gas");
    assert_eq!(asked.gas, Some(100_000));
    for refused in [json!("0x1c9c381"), json!("lots"), json!(7)] {
        let error = send(json!({"from": FROM, "to": OTHER, "value": "0x1", "gas": refused}))
            .expect_err("refused");
        assert_eq!(error.code, -32602, "{refused}");
    }
}
