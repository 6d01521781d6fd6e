//! The approvals an account gave (beyond the spec): ERC-20 allowances and NFT
//! operators found in its logs, the newest of each, a withdrawn one gone; and
//! never another user's.

use alloy::primitives::{Address, U256, utils::parse_units};
use satchel_tests::{Backend, Stack};

use crate::{assert_error, first_account_id};

pub async fn approvals_are_found_in_the_logs_and_withdrawn_ones_go(backend: Backend) {
    let stack = Stack::start(backend).await;
    let ada = stack.user("ada@example.com").await;
    let eve = stack.user("eve@example.com").await;
    let account_id = first_account_id(&stack, &ada).await;
    let path = format!("/v1/account/{account_id}/approvals");

    let (status, body) = stack.get(&path, &ada.token).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["approvals"], serde_json::json!([]));
    assert_eq!(body["complete"], true);

    let gas: U256 = parse_units("1", 18).expect("units").into();
    stack
        .demo
        .send_ether(ada.address(), gas)
        .await
        .expect("gas");
    let spender = Address::repeat_byte(0x5e);
    let operator = Address::repeat_byte(0x0b);
    let demo = &stack.demo;
    demo.approve_as(&ada.signer, demo.token18, spender, U256::from(5u64))
        .await
        .expect("a first allowance");
    demo.approve_as(&ada.signer, demo.token18, spender, U256::MAX)
        .await
        .expect("an unlimited allowance");
    demo.set_operator_as(&ada.signer, demo.pals, operator, true)
        .await
        .expect("an operator");

    // Another user's account: refused, and nothing is read for them.
    let (status, body) = stack.get(&path, &eve.token).await;
    assert_error(status, &body, 403, "Forbidden");

    let (status, body) = stack.get(&path, &ada.token).await;
    assert_eq!(status, 200, "{body}");
    let approvals = body["approvals"].as_array().expect("a list");
    assert_eq!(approvals.len(), 2, "{body}");
    let allowance = approvals
        .iter()
        .find(|a| a["kind"] == "allowance")
        .expect("the allowance");
    assert_eq!(allowance["contract"], demo.token18.to_checksum(None));
    assert_eq!(allowance["spender"], spender.to_checksum(None));
    assert_eq!(
        allowance["value"],
        U256::MAX.to_string(),
        "the newest of the two"
    );
    let nfts = approvals
        .iter()
        .find(|a| a["kind"] == "operator")
        .expect("the operator");
    assert_eq!(nfts["contract"], demo.pals.to_checksum(None));
    assert_eq!(nfts["spender"], operator.to_checksum(None));
    assert_eq!(nfts["value"], "1");

    // Withdrawn on chain: gone from the list on the next read.
    demo.approve_as(&ada.signer, demo.token18, spender, U256::ZERO)
        .await
        .expect("revoked");
    let (_, body) = stack.get(&path, &ada.token).await;
    let kinds: Vec<&str> = body["approvals"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|a| a["kind"].as_str())
        .collect();
    assert_eq!(kinds, ["operator"], "{body}");

    // One contract logging approvals for many spenders (as a spam contract
    // naming this owner could) keeps only a few: it cannot crowd out the rest.
    for n in 1..=(satchel_chain::SPENDERS_PER_CONTRACT as u8 + 3) {
        demo.approve_as(
            &ada.signer,
            demo.dollar6,
            Address::repeat_byte(n),
            U256::from(1u64),
        )
        .await
        .expect("an allowance");
    }
    let (_, body) = stack.get(&path, &ada.token).await;
    let of_dollar = body["approvals"]
        .as_array()
        .expect("a list")
        .iter()
        .filter(|a| a["contract"] == demo.dollar6.to_checksum(None))
        .count();
    assert_eq!(of_dollar, satchel_chain::SPENDERS_PER_CONTRACT, "{body}");
    let operators = body["approvals"]
        .as_array()
        .expect("a list")
        .iter()
        .filter(|a| a["kind"] == "operator")
        .count();
    assert_eq!(operators, 1, "the operator is still listed: {body}");
}
