//! The approvals an account gave (beyond the spec): ERC-20 allowances and NFT
//! operators found in its logs, the newest of each, a withdrawn one gone; and
//! never another user's.

use alloy::primitives::{Address, U256, utils::parse_units};
use satchel_service::assets::approvals::MAX_APPROVALS;
use satchel_tests::{Backend, Stack};
use serde_json::Value;

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

/// Runtime code of a spam "token": called with one word (an owner), it logs
/// `Approval(owner, caller, 1)`; asked anything else (`allowance`), it answers
/// 1, so its approvals look alive on chain too.
///
/// ```text
/// CALLDATASIZE PUSH1 32 EQ PUSH1 emit JUMPI
/// PUSH1 1 PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
/// emit: JUMPDEST PUSH1 1 PUSH1 0 MSTORE CALLER PUSH1 0 CALLDATALOAD
/// PUSH32 Approval PUSH1 32 PUSH1 0 LOG3 STOP
/// ```
const SPAM_TOKEN: &str = "0x36602014601157600160005260206000f35b6001600052336000357f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b92560206000a300";

/// Logs of many cheap contracts cannot crowd out a real approval made after
/// them (issue 45, item 9): past the account's 500 kept approvals, those worth
/// nothing on chain give way first, and a new one is always kept (the oldest
/// gives way), even when the spam answers that its approvals hold.
pub async fn a_real_approval_is_kept_after_a_flood_of_spam_approvals(backend: Backend) {
    let stack = Stack::start(backend).await;
    let ada = stack.user("ada@example.com").await;
    let account_id = first_account_id(&stack, &ada).await;
    let path = format!("/v1/account/{account_id}/approvals");
    let spammer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    let owner_word = format!("0x{:0>64}", alloy::hex::encode(ada.address()));
    let spam = MAX_APPROVALS + 60;
    let mut last = Value::Null;
    for n in 0..spam {
        let contract = Address::left_padding_from(&(0x5000_0000u64 + n as u64).to_be_bytes());
        stack
            .chain_rpc("anvil_setCode", serde_json::json!([contract, SPAM_TOKEN]))
            .await;
        let hash = stack
            .chain_rpc(
                "eth_sendTransaction",
                serde_json::json!([{"from": spammer, "to": contract, "data": owner_word}]),
            )
            .await;
        assert!(hash.is_string(), "{hash}");
        last = hash;
    }
    // Anvil answers a send before it mines it: the scan starts once the last
    // spam is in a block.
    stack.mined(&last).await;
    let listed = |body: &serde_json::Value| body["approvals"].as_array().map_or(0, Vec::len);
    // The scan reads a few log windows a call: read on until it is complete.
    let read_all = || async {
        loop {
            let (status, body) = stack.get(&path, &ada.token).await;
            assert_eq!(status, 200, "{body}");
            if body["complete"] == true {
                return body;
            }
        }
    };
    let body = read_all().await;
    let on_chain = stack
        .chain_rpc(
            "eth_getLogs",
            serde_json::json!([{"fromBlock": "0x0", "toBlock": "latest", "topics": [null, owner_word]}]),
        )
        .await;
    assert_eq!(
        listed(&body),
        MAX_APPROVALS,
        "full of spam ({} approval logs on chain)",
        on_chain.as_array().map_or(0, Vec::len)
    );

    // The drainer's real approval, made after the flood, is kept and listed.
    let gas: U256 = parse_units("1", 18).expect("units").into();
    stack
        .demo
        .send_ether(ada.address(), gas)
        .await
        .expect("gas");
    let drainer = Address::repeat_byte(0xdd);
    let demo = &stack.demo;
    demo.approve_as(&ada.signer, demo.token18, drainer, U256::MAX)
        .await
        .expect("an unlimited allowance");
    let body = read_all().await;
    assert_eq!(listed(&body), MAX_APPROVALS);
    assert!(
        body["approvals"]
            .as_array()
            .expect("a list")
            .iter()
            .any(|a| a["spender"] == drainer.to_checksum(None)
                && a["value"] == U256::MAX.to_string()),
        "the drainer's approval is shown"
    );
}
