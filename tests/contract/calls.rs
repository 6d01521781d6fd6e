//! Any transaction from the caller's own account (#23's contract calls, NFT
//! transfers, approvals): the service prepares it with what the node's
//! simulation says it moves, refuses one that would revert, and broadcasts the
//! device's signature of it; the chain then holds exactly that.

use alloy::consensus::{SignableTransaction, TxEip1559, TxEnvelope};
use alloy::eips::eip2718::Encodable2718;
use alloy::network::TxSignerSync;
use alloy::primitives::{Address, Bytes, TxKind, U256};
use alloy::sol_types::SolCall;
use serde_json::{Value, json};

use satchel_tests::{Backend, Stack, User, send};

alloy::sol! {
    function transfer(address to, uint256 amount) returns (bool);
    function approve(address spender, uint256 amount) returns (bool);
    function setApprovalForAll(address operator, bool approved);
    function safeTransferFrom(address from, address to, uint256 tokenId);
    function ownerOf(uint256 tokenId) returns (address);
}

async fn post(stack: &Stack, user: &User, path: &str, body: Value) -> (reqwest::StatusCode, Value) {
    let request = stack
        .http
        .post(stack.url(path))
        .header("X-API-KEY", &stack.app_key)
        .header("X-API-DOMAIN", &stack.domain)
        .header("X-SDK-TYPE", "desktop_rest_api")
        .bearer_auth(&user.token)
        .json(&body);
    send(request).await
}

fn hex(data: &[u8]) -> String {
    format!("0x{}", alloy::hex::encode(data))
}

/// The prepared transaction signed by the user's key, at the normal fee.
/// Waits until the chain has a receipt for `hash` (the node answers the
/// broadcast before its block is always readable under load).
async fn mined(stack: &Stack, hash: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let receipt = stack
            .chain_rpc("eth_getTransactionReceipt", json!([hash]))
            .await;
        if receipt.is_object() {
            assert_eq!(receipt["status"], "0x1", "{receipt}");
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{hash} was never mined"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

fn signed(user: &User, prepared: &Value) -> String {
    let number = |v: &Value| v.as_u64().expect("a number");
    let wei = |v: &Value| v.as_str().expect("wei").parse::<u128>().expect("wei");
    let mut tx = TxEip1559 {
        chain_id: number(&prepared["chainId"]),
        nonce: number(&prepared["nonce"]),
        gas_limit: number(&prepared["gasLimit"]),
        max_fee_per_gas: wei(&prepared["fees"]["normal"]["maxFeePerGas"]),
        max_priority_fee_per_gas: wei(&prepared["fees"]["normal"]["maxPriorityFeePerGas"]),
        to: TxKind::Call(
            prepared["to"]
                .as_str()
                .expect("to")
                .parse()
                .expect("address"),
        ),
        value: prepared["value"]
            .as_str()
            .expect("value")
            .parse()
            .expect("wei"),
        access_list: Default::default(),
        input: Bytes::from(
            alloy::hex::decode(prepared["data"].as_str().expect("data")).expect("hex"),
        ),
    };
    let signature = user.signer.sign_transaction_sync(&mut tx).expect("signed");
    let envelope: TxEnvelope = tx.into_signed(signature).into();
    hex(&envelope.encoded_2718())
}

pub async fn a_contract_call_is_prepared_with_what_it_moves_and_broadcast(backend: Backend) {
    let stack = Stack::start_with(backend, |s| s.receipt_poll_ms = 200).await;
    let ada = stack.user("ada@example.com").await;
    let bob = Address::repeat_byte(0xb0);
    stack.demo.fund(ada.address()).await.expect("funded");
    let pal = stack
        .demo
        .mint_pal(ada.address(), "Pal #3", "#123456")
        .await
        .expect("minted");
    let account = crate::first_account_id(&stack, &ada).await;
    let prepare = |to: Address, data: Vec<u8>| {
        post(
            &stack,
            &ada,
            "/v1/transactions/prepare-call",
            json!({"accountId": account, "to": to, "value": "0", "data": hex(&data)}),
        )
    };

    // A token transfer as a call: 2 DUSD leave for Bob, and nothing else moves.
    let (status, body) = prepare(
        stack.demo.dollar6,
        transferCall {
            to: bob,
            amount: U256::from(2_000_000u64),
        }
        .abi_encode(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["changes"],
        json!([{"kind": "erc20", "direction": "out", "contract": stack.demo.dollar6.to_checksum(None),
                "amount": "2000000", "counterparty": bob.to_checksum(None)}]),
        "{body}"
    );
    assert_eq!(
        body.get("approvals"),
        None,
        "a transfer approves nothing: {body}"
    );

    // Approvals are among what the simulation shows: an unlimited allowance
    // and an operator for the whole collection, with the account as owner.
    let (status, body) = prepare(
        stack.demo.dollar6,
        approveCall {
            spender: bob,
            amount: U256::MAX,
        }
        .abi_encode(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["approvals"],
        json!([{"kind": "allowance", "contract": stack.demo.dollar6.to_checksum(None),
                "spender": bob.to_checksum(None), "value": U256::MAX.to_string()}]),
        "{body}"
    );
    let (status, body) = prepare(
        stack.demo.pals,
        setApprovalForAllCall {
            operator: bob,
            approved: true,
        }
        .abi_encode(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["approvals"],
        json!([{"kind": "operator", "contract": stack.demo.pals.to_checksum(None),
                "spender": bob.to_checksum(None), "value": "1"}]),
        "{body}"
    );
    // Someone else's NFT: the call would revert, and is refused before signing.
    let (status, body) = prepare(
        stack.demo.pals,
        safeTransferFromCall {
            from: bob,
            to: ada.address(),
            tokenId: pal,
        }
        .abi_encode(),
    )
    .await;
    assert_eq!(
        (status.as_u16(), body["code"].clone()),
        (400, "TransactionWouldFail".into()),
        "{body}"
    );

    // The NFT to Bob: the simulation shows it leaving; signed and broadcast, it
    // is Bob's on chain.
    let call = safeTransferFromCall {
        from: ada.address(),
        to: bob,
        tokenId: pal,
    }
    .abi_encode();
    let (status, body) = prepare(stack.demo.pals, call).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["changes"][0]["kind"], "erc721", "{body}");
    assert_eq!(body["changes"][0]["tokenId"], pal.to_string());
    assert_eq!(body["changes"][0]["direction"], "out");
    let raw = signed(&ada, &body["transaction"]);
    let (status, record) = post(
        &stack,
        &ada,
        "/v1/transactions",
        json!({"accountId": account, "raw": raw}),
    )
    .await;
    assert_eq!(status, 200, "{record}");
    mined(&stack, record["txHash"].as_str().expect("a hash")).await;
    let owner = stack
        .chain_rpc(
            "eth_call",
            json!([{"to": stack.demo.pals, "data": hex(&ownerOfCall { tokenId: pal }.abi_encode())}, "latest"]),
        )
        .await;
    let owner = owner.as_str().expect("an owner");
    assert!(
        owner.to_lowercase().ends_with(&format!("{bob:x}")),
        "{owner} is Bob"
    );

    // Another user cannot prepare (or so learn anything of) Ada's account, nor
    // broadcast on it, even with a transaction Ada signed: refused, nothing sent.
    let eve = stack.user("eve@example.com").await;
    let asked = json!({"accountId": account, "to": bob, "value": "0", "data": "0x"});
    let (status, body) = post(&stack, &eve, "/v1/transactions/prepare-call", asked).await;
    assert_eq!(status, 403, "{body}");
    let nonce_before = stack.nonce_of(&ada.address().to_string()).await;
    let (status, body) = post(
        &stack,
        &eve,
        "/v1/transactions",
        json!({"accountId": account, "raw": raw}),
    )
    .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(
        stack.nonce_of(&ada.address().to_string()).await,
        nonce_before
    );
}

/// Runtime code of a bait contract: when `block.basefee` is 0 (a simulation that
/// does not validate) it pays its caller 2 ETH; on chain it keeps the coin.
///
/// ```text
/// BASEFEE ISZERO PUSH1 6 JUMPI STOP JUMPDEST
/// PUSH1 0 PUSH1 0 PUSH1 0 PUSH1 0 PUSH8 2e18 CALLER GAS CALL STOP
/// ```
const BAIT: &str = "0x4815600657005b6000600060006000671bc16d674ec80000335af100";

/// A contract cannot tell the simulation from the transaction (issue 45, item
/// 2): the service simulates paying the quoted fees against the block's base
/// fee, validated, so the bait that pays only simulations shows no payment.
pub async fn a_contract_that_pays_only_simulations_shows_nothing_received(backend: Backend) {
    let stack = Stack::start(backend).await;
    let ada = stack.user("ada@example.com").await;
    stack.demo.fund(ada.address()).await.expect("funded");
    let bait = Address::repeat_byte(0xba);
    stack.chain_rpc("anvil_setCode", json!([bait, BAIT])).await;
    stack
        .chain_rpc("anvil_setBalance", json!([bait, "0x56bc75e2d63100000"]))
        .await;
    let account = crate::first_account_id(&stack, &ada).await;
    let (status, body) = post(
        &stack,
        &ada,
        "/v1/transactions/prepare-call",
        json!({"accountId": account, "to": bait, "value": "0", "data": "0x01"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["changes"],
        json!([]),
        "the simulation saw a payment the chain will not make: {body}"
    );

    // The same code does pay when the base fee is 0: the bait is real.
    let paid = stack
        .chain_rpc(
            "eth_simulateV1",
            json!([{"blockStateCalls": [{"calls": [{"from": ada.address(), "to": bait, "input": "0x01"}]}],
                    "traceTransfers": true, "validation": false}, "latest"]),
        )
        .await;
    let logs = &paid[0]["calls"][0]["logs"];
    assert_eq!(
        logs.as_array().map(Vec::len),
        Some(1),
        "unvalidated, the bait pays: {paid}"
    );
}
