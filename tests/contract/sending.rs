//! Sending as a person does it, against the real service and anvil: the widget
//! quotes, signs on the device with the key the PIN opens, the service broadcasts
//! and follows to the block. Both sides change by the exact amounts and fee; two
//! sends in a row both mine; a pending one is sped up or cancelled (anvil with
//! automine off); every bad send gets its clear error and moves nothing; and the
//! service refuses what another key signed.

use std::time::{Duration, Instant};

use alloy::consensus::{SignableTransaction, TxEip1559, TxEnvelope};
use alloy::eips::eip2718::Encodable2718;
use alloy::network::TxSignerSync;
use alloy::primitives::utils::parse_units;
use alloy::primitives::{Address, Bytes, TxKind, U256};
use alloy::signers::local::PrivateKeySigner;
use reqwest::Method;
use satchel_api::{ServiceErrorCode, TransactionDirection, TransactionStatus};
use satchel_chain::Chain;
use satchel_sdk::vault::KdfStrength;
use satchel_sdk::{
    AccountRef, ActivityEntry, ActivityKind, ConfirmSend, ErrorCode, FeeSpeed, ReplaceAction,
    SdkErrorCode, SendForm, TxData, Widget,
};
use satchel_tests::{Backend, Stack, send};
use serde_json::{Value, json};

pub(crate) const PIN: &str = "246810";

pub(crate) async fn stack(backend: Backend) -> Stack {
    Stack::start_with(backend, |s| s.receipt_poll_ms = 200).await
}

/// A person signed up on their own device, with a registered wallet.
pub(crate) async fn person(stack: &Stack, email: &str) -> (Widget, Address) {
    stack.registered_widget(email, PIN, KdfStrength::Test).await
}

pub(crate) fn coin(address: Address) -> AccountRef {
    AccountRef {
        network: "anvil".into(),
        address: address.to_checksum(None),
        contract: None,
        is_aa: None,
    }
}

fn token(address: Address, contract: Address) -> AccountRef {
    AccountRef {
        contract: Some(contract.to_checksum(None)),
        ..coin(address)
    }
}

pub(crate) fn form(account: AccountRef, to: Address, amount: &str) -> SendForm {
    SendForm {
        account,
        to: to.to_checksum(None),
        amount: amount.into(),
    }
}

/// Quotes and confirms a send at the normal fee; the hash.
pub(crate) async fn send_now(w: &Widget, form: SendForm) -> String {
    let quote = w.prepare_send(&form).await.expect("quoted");
    let entry = w
        .confirm_send(with_pin(quote.quote_id, FeeSpeed::Normal))
        .await
        .expect("signed and broadcast");
    assert_eq!(entry.status, TransactionStatus::Pending);
    entry.tx_hash
}

/// Confirms quote `quote_id` at `speed` with the test's PIN, as the person does.
fn with_pin(quote_id: String, speed: FeeSpeed) -> ConfirmSend {
    ConfirmSend {
        quote_id,
        speed,
        pin: PIN.into(),
        request_id: None,
        accept_high_fee: false,
    }
}

/// Waits until the activity shows `hash` out of pending; its entry.
pub(crate) async fn settled(w: &Widget, hash: &str) -> ActivityEntry {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let activity = w.get_activity().await.expect("activity");
        if let Some(entry) = activity.into_iter().find(|e| e.tx_hash == hash)
            && entry.status != TransactionStatus::Pending
        {
            return entry;
        }
        assert!(Instant::now() < deadline, "{hash} never left pending");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub(crate) async fn chain_balances(stack: &Stack, who: Address) -> (U256, U256) {
    let chain = Chain::http(stack.anvil.url.clone(), Duration::from_secs(5)).expect("chain");
    let b = chain
        .balances(who, &[stack.demo.dollar6])
        .await
        .expect("balances");
    (b.native, b.tokens[0].expect("DUSD"))
}

pub(crate) fn wei(decimal: &str, decimals: u8) -> U256 {
    parse_units(decimal, decimals).expect("units").into()
}

pub async fn coin_and_token_sends_move_the_exact_amounts_and_fee(backend: Backend) {
    let stack = stack(backend).await;
    let (ada, ada_address) = person(&stack, "ada@example.com").await;
    let (bob, bob_address) = person(&stack, "bob@example.com").await;
    stack.demo.fund(ada_address).await.expect("funded");
    let (ada_eth, ada_dusd) = chain_balances(&stack, ada_address).await;
    let (bob_eth, bob_dusd) = chain_balances(&stack, bob_address).await;

    // The coin: the review shows the fee, the total and the balance after.
    let quote = ada
        .prepare_send(&form(coin(ada_address), bob_address, "0.1"))
        .await
        .expect("quoted");
    assert_eq!(quote.amount, "0.1");
    assert_eq!(quote.gas_limit, 21_000);
    assert_eq!(quote.options.len(), 3);
    assert!(!quote.recipient_is_contract && !quote.recipient_is_self);
    let normal = &quote.options[1];
    assert!(normal.enough);
    assert_eq!(quote.coin_balance, "10");
    let hash = send_now(&ada, form(coin(ada_address), bob_address, "0.1")).await;
    let mined = settled(&ada, &hash).await;
    assert_eq!(mined.status, TransactionStatus::Mined);
    assert_eq!(mined.amount, "0.1");
    let fee = wei(mined.fee.as_deref().expect("the fee paid"), 18);
    let (ada_eth_after, _) = chain_balances(&stack, ada_address).await;
    let (bob_eth_after, _) = chain_balances(&stack, bob_address).await;
    assert_eq!(
        ada_eth_after,
        ada_eth - wei("0.1", 18) - fee,
        "amount and fee"
    );
    assert_eq!(bob_eth_after, bob_eth + wei("0.1", 18));
    // The service refreshed both wallets' balances when it saw the block, with
    // no refresh asked for (and none counted against the limit).
    let listed = ada.get_balance(None).await.expect("balances");
    assert_eq!(wei(&listed[0].balance, 18), ada_eth_after);
    let listed = bob.get_balance(None).await.expect("balances");
    assert_eq!(listed[0].balance, "0.1");
    ada.refresh_balances()
        .await
        .expect("the limit was not used");

    // The 6-decimal token: 1.5 DUSD is 1,500,000 units, exactly.
    let hash = send_now(
        &ada,
        form(token(ada_address, stack.demo.dollar6), bob_address, "1.5"),
    )
    .await;
    let mined = settled(&ada, &hash).await;
    assert_eq!(
        (mined.amount.as_str(), mined.symbol.as_str()),
        ("1.5", "DUSD")
    );
    let token_fee = wei(mined.fee.as_deref().expect("fee"), 18);
    let (ada_eth_end, ada_dusd_end) = chain_balances(&stack, ada_address).await;
    let (_, bob_dusd_end) = chain_balances(&stack, bob_address).await;
    assert_eq!(ada_dusd_end, ada_dusd - U256::from(1_500_000u64));
    assert_eq!(bob_dusd_end, bob_dusd + U256::from(1_500_000u64));
    assert_eq!(
        ada_eth_end,
        ada_eth_after - token_fee,
        "only the fee in ether"
    );

    // Bob's activity lists the incoming token transfer, found in the logs.
    let bobs = bob.get_activity().await.expect("activity");
    let received = bobs
        .iter()
        .find(|e| e.direction == TransactionDirection::Received)
        .expect("the incoming DUSD");
    assert_eq!(received.tx_hash, hash);
    assert_eq!(received.amount, "1.5");
    assert_eq!(received.counterparty, ada_address.to_checksum(None));
    // Ada's lists both sends, newest first.
    let adas = ada.get_activity().await.expect("activity");
    let sent: Vec<_> = adas
        .iter()
        .filter(|e| e.direction == TransactionDirection::Sent)
        .map(|e| e.symbol.as_str())
        .collect();
    assert_eq!(sent, ["DUSD", "ETH"]);
}

pub async fn two_sends_in_a_row_both_mine(backend: Backend) {
    let stack = stack(backend).await;
    let (ada, ada_address) = person(&stack, "ada@example.com").await;
    stack.demo.fund(ada_address).await.expect("funded");
    let bob = PrivateKeySigner::random().address();
    stack.chain_rpc("evm_setAutomine", json!([false])).await;
    let first = send_now(&ada, form(coin(ada_address), bob, "0.25")).await;
    let second = send_now(&ada, form(coin(ada_address), bob, "0.5")).await;
    assert_ne!(first, second);
    stack.chain_rpc("evm_mine", json!([])).await;
    assert_eq!(settled(&ada, &first).await.status, TransactionStatus::Mined);
    assert_eq!(
        settled(&ada, &second).await.status,
        TransactionStatus::Mined
    );
    let chain = Chain::http(stack.anvil.url.clone(), Duration::from_secs(5)).expect("chain");
    let got = chain.balances(bob, &[]).await.expect("balance").native;
    assert_eq!(got, wei("0.75", 18));

    // Two pages made before either is confirmed (a dapp's two requests in the
    // queue) are quoted the same nonce; the second confirmed takes the next
    // one instead of replacing the first.
    let one = ada
        .prepare_send(&form(coin(ada_address), bob, "1"))
        .await
        .expect("quoted");
    let two = ada
        .prepare_send(&form(coin(ada_address), bob, "2"))
        .await
        .expect("quoted");
    let mut sent = Vec::new();
    for quote in [one, two] {
        let entry = ada
            .confirm_send(with_pin(quote.quote_id, FeeSpeed::Normal))
            .await
            .expect("signed and broadcast, neither refused as a replacement");
        sent.push(entry);
    }
    assert_eq!(
        sent.iter().map(|e| e.nonce).collect::<Vec<_>>(),
        [Some(2), Some(3)]
    );
    stack.chain_rpc("evm_mine", json!([])).await;
    for entry in &sent {
        assert_eq!(
            settled(&ada, &entry.tx_hash).await.status,
            TransactionStatus::Mined
        );
    }
    let got = chain.balances(bob, &[]).await.expect("balance").native;
    assert_eq!(got, wei("3.75", 18), "both arrived");
}

/// The service's honest fees are never flagged as unusually high, however
/// many sends in a row pay the fast tip (issue 45, item 3): tips are read from
/// what recent blocks paid, so a quiet chain's own transactions do not raise
/// the next quote's tip (the node's suggestion times 2 doubled it each block),
/// and the base fee sinking to a few hundredths of a gwei does not trip the guard.
pub async fn many_fast_sends_leave_the_fees_honest_and_unflagged(backend: Backend) {
    let stack = stack(backend).await;
    let (ada, ada_address) = person(&stack, "ada@example.com").await;
    stack.demo.fund(ada_address).await.expect("funded");
    let bob = PrivateKeySigner::random().address();
    let fast_cap = |quote: &satchel_sdk::SendQuote| -> U256 {
        let fast = quote.options.iter().find(|o| o.speed == FeeSpeed::Fast);
        wei(&fast.expect("a fast option").max_fee_per_gas_gwei, 9)
    };
    let first = ada
        .prepare_send(&form(coin(ada_address), bob, "0.001"))
        .await
        .expect("quoted");
    for n in 0..12 {
        let quote = ada
            .prepare_send(&form(coin(ada_address), bob, "0.001"))
            .await
            .expect("quoted");
        assert!(
            quote.options.iter().all(|o| o.high_fee.is_none()),
            "send {n}: an honest quote flagged: {:?}",
            quote.options
        );
        let entry = ada
            .confirm_send(with_pin(quote.quote_id, FeeSpeed::Fast))
            .await
            .expect("signed without accepting a high fee");
        let settled = settled(&ada, &entry.tx_hash).await;
        assert_eq!(
            settled.status,
            TransactionStatus::Mined,
            "send {n}: {settled:?}"
        );
    }
    let last = ada
        .prepare_send(&form(coin(ada_address), bob, "0.001"))
        .await
        .expect("quoted");
    assert!(
        fast_cap(&last) <= fast_cap(&first),
        "the fast cap grew from {:?} to {:?} gwei",
        first.options,
        last.options
    );
}

/// A sent transaction the network drops is not pending for ever (issue 22, item
/// 10): past `pending_expiry_secs` (0 here), one the node no longer has and
/// whose nonce is unused is settled as dropped, and its nonce is free again; one
/// the node still holds stays pending, however old, until it is mined.
pub async fn a_dropped_transaction_expires_and_frees_its_nonce(backend: Backend) {
    let stack = Stack::start_with(backend, |s| {
        s.receipt_poll_ms = 200;
        s.pending_expiry_secs = 0;
    })
    .await;
    let (ada, ada_address) = person(&stack, "ada@example.com").await;
    let (bob, bob_address) = person(&stack, "bob@example.com").await;
    stack.demo.fund(ada_address).await.expect("funded");
    stack.demo.fund(bob_address).await.expect("funded");
    stack.chain_rpc("evm_setAutomine", json!([false])).await;
    let nonce = stack.nonce_of(&ada_address.to_checksum(None)).await;

    let first = send_now(&ada, form(coin(ada_address), bob_address, "1")).await;
    stack
        .chain_rpc("anvil_dropTransaction", json!([first]))
        .await;
    assert_eq!(
        settled(&ada, &first).await.status,
        TransactionStatus::Dropped
    );

    // Sent again, the very same bytes are pending again (the network has them).
    let again = send_now(&ada, form(coin(ada_address), bob_address, "1")).await;
    assert_eq!(again, first, "the same transaction");
    stack
        .chain_rpc("anvil_dropTransaction", json!([again]))
        .await;
    assert_eq!(
        settled(&ada, &again).await.status,
        TransactionStatus::Dropped
    );

    // The dropped one's nonce is the next send's; this one stays in the node's
    // pool past the expiry: a later pass (Bob's dropped send is followed after
    // it) leaves it pending, and it is mined when a block comes.
    let second = send_now(&ada, form(coin(ada_address), bob_address, "2")).await;
    eprintln!(
        "DEBUG {}",
        stack
            .chain_rpc("eth_getTransactionByHash", json!([second]))
            .await
    );
    eprintln!(
        "DEBUG pool {}",
        stack.chain_rpc("txpool_content", json!([])).await
    );
    let bobs = send_now(&bob, form(coin(bob_address), ada_address, "1")).await;
    stack
        .chain_rpc("anvil_dropTransaction", json!([bobs]))
        .await;
    assert_eq!(
        settled(&bob, &bobs).await.status,
        TransactionStatus::Dropped
    );
    let pending = ada.get_activity().await.expect("activity");
    let entry = pending
        .iter()
        .find(|e| e.tx_hash == second)
        .expect("listed");
    assert_eq!(
        entry.status,
        TransactionStatus::Pending,
        "the node still has it"
    );
    assert_eq!(entry.nonce, Some(nonce), "the dropped one's nonce");
    stack.chain_rpc("evm_mine", json!([])).await;
    assert_eq!(
        settled(&ada, &second).await.status,
        TransactionStatus::Mined
    );
}

pub async fn a_pending_send_is_sped_up_or_cancelled(backend: Backend) {
    let stack = stack(backend).await;
    let (ada, ada_address) = person(&stack, "ada@example.com").await;
    stack.demo.fund(ada_address).await.expect("funded");
    let bob = PrivateKeySigner::random().address();
    stack.chain_rpc("evm_setAutomine", json!([false])).await;

    // Speed up: the same transfer, higher fees, the same nonce.
    let slow = send_now(&ada, form(coin(ada_address), bob, "1")).await;
    let quote = ada
        .prepare_replacement(&slow, ReplaceAction::SpeedUp)
        .await
        .expect("quoted");
    assert_eq!(quote.options.len(), 1);
    assert_eq!(quote.amount, "1");
    let faster = ada
        .confirm_send(with_pin(quote.quote_id, FeeSpeed::Fast))
        .await
        .expect("replacement broadcast")
        .tx_hash;
    stack.chain_rpc("evm_mine", json!([])).await;
    assert_eq!(
        settled(&ada, &faster).await.status,
        TransactionStatus::Mined
    );
    let replaced = settled(&ada, &slow).await;
    assert_eq!(replaced.status, TransactionStatus::Replaced);
    assert_eq!(replaced.replaced_by.as_deref(), Some(faster.as_str()));

    // Cancel: nothing sent to itself in the pending one's place.
    let doomed = send_now(&ada, form(coin(ada_address), bob, "2")).await;
    let quote = ada
        .prepare_replacement(&doomed, ReplaceAction::Cancel)
        .await
        .expect("quoted");
    assert_eq!(quote.amount, "0");
    assert!(quote.recipient_is_self);
    let cancel = ada
        .confirm_send(with_pin(quote.quote_id, FeeSpeed::Fast))
        .await
        .expect("cancel broadcast");
    assert!(cancel.is_cancel);
    stack.chain_rpc("evm_mine", json!([])).await;
    assert_eq!(
        settled(&ada, &cancel.tx_hash).await.status,
        TransactionStatus::Mined
    );
    assert_eq!(
        settled(&ada, &doomed).await.status,
        TransactionStatus::Replaced
    );
    let chain = Chain::http(stack.anvil.url.clone(), Duration::from_secs(5)).expect("chain");
    let got = chain.balances(bob, &[]).await.expect("balance").native;
    assert_eq!(
        got,
        wei("1", 18),
        "the sped-up one arrived, the cancelled one did not"
    );
    let e = ada
        .prepare_replacement(&doomed, ReplaceAction::SpeedUp)
        .await
        .expect_err("no longer pending");
    assert!(e.is(ServiceErrorCode::InvalidParameters), "{e:?}");
}

pub async fn bad_sends_get_clear_errors_and_move_nothing(backend: Backend) {
    let stack = stack(backend).await;
    let (ada, ada_address) = person(&stack, "ada@example.com").await;
    stack.demo.fund(ada_address).await.expect("funded");
    let bob = PrivateKeySigner::random().address();
    let before = chain_balances(&stack, ada_address).await;

    let e = ada
        .prepare_send(&form(coin(ada_address), bob, "10"))
        .await
        .expect_err("10 ETH and a fee out of 10 ETH");
    assert_eq!(e.code, ErrorCode::Sdk(SdkErrorCode::TransactionWouldFail));
    assert!(e.message.contains("not enough ETH"), "{}", e.message);
    let e = ada
        .prepare_send(&form(token(ada_address, stack.demo.dollar6), bob, "420.26"))
        .await
        .expect_err("more DUSD than held");
    assert_eq!(e.code, ErrorCode::Sdk(SdkErrorCode::TransactionWouldFail));
    assert!(e.message.contains("not enough DUSD"), "{}", e.message);

    let mut typo = form(coin(ada_address), bob, "1");
    typo.to = bob
        .to_checksum(None)
        .replacen('a', "A", 1)
        .replacen('b', "B", 1);
    if typo.to != bob.to_checksum(None) {
        let e = ada.prepare_send(&typo).await.expect_err("bad checksum");
        assert!(e.is(ServiceErrorCode::InvalidParameters));
        assert!(e.message.contains("checksum"), "{}", e.message);
    }
    for amount in ["1e-18", "0.0000001", "-1", "1,5"] {
        let e = ada
            .prepare_send(&form(token(ada_address, stack.demo.dollar6), bob, amount))
            .await
            .expect_err("a bad amount");
        assert!(e.is(ServiceErrorCode::InvalidParameters), "{amount}: {e:?}");
    }

    // A token transfer that reverts: the simulation gives the contract's reason.
    let e = ada
        .prepare_send(&form(
            token(ada_address, stack.demo.dollar6),
            Address::ZERO,
            "1",
        ))
        .await
        .expect_err("reverts");
    assert_eq!(e.code, ErrorCode::Sdk(SdkErrorCode::TransactionWouldFail));
    assert!(e.message.contains("zero address"), "{}", e.message);

    // A wrong PIN signs nothing; the quote can still be confirmed after.
    let quote = ada
        .prepare_send(&form(coin(ada_address), bob, "1"))
        .await
        .expect("quoted");
    let e = ada
        .confirm_send(ConfirmSend {
            quote_id: quote.quote_id.clone(),
            speed: FeeSpeed::Normal,
            pin: "000000".into(),
            request_id: None,
            accept_high_fee: false,
        })
        .await
        .expect_err("wrong PIN");
    assert_eq!(e.code, ErrorCode::Sdk(SdkErrorCode::WrongPin));
    let wrong_pin_quote = quote.quote_id;

    // An application's send the person closes resolves UserCancelled.
    let (request, done) = ada
        .begin_send(
            &coin(ada_address),
            Some(TxData {
                to: Some(bob.to_checksum(None)),
                to_address: None,
                amount: Some("0.5".into()),
            }),
        )
        .await
        .expect("opened");
    assert_eq!(request.to.as_deref(), Some(bob.to_checksum(None).as_str()));
    assert_eq!(request.amount.as_deref(), Some("0.5"));
    ada.cancel_send(request.id);
    let e = done.await.expect("settled").expect_err("cancelled");
    assert!(e.is(ServiceErrorCode::UserCancelled));
    // So does one whose window the person closes, whatever page it shows.
    let (_, done) = ada
        .begin_send(&coin(ada_address), None)
        .await
        .expect("opened");
    assert!(ada.close_widget());
    let e = done.await.expect("settled").expect_err("cancelled");
    assert!(e.is(ServiceErrorCode::UserCancelled));
    let e = ada
        .begin_send(
            &AccountRef {
                address: bob.to_checksum(None),
                ..coin(ada_address)
            },
            None,
        )
        .await
        .expect_err("not Ada's account");
    assert!(e.is(ServiceErrorCode::InvalidParameters));

    let activity = ada.get_activity().await.expect("activity");
    assert!(
        activity
            .iter()
            .all(|e| e.direction == TransactionDirection::Received),
        "nothing sent: {activity:?}"
    );
    assert_eq!(
        chain_balances(&stack, ada_address).await,
        before,
        "nothing moved"
    );

    // The quote the wrong PIN was tried on still goes with the right one.
    let entry = ada
        .confirm_send(with_pin(wrong_pin_quote, FeeSpeed::Normal))
        .await
        .expect("the same quote, the right PIN");
    assert_eq!(entry.status, TransactionStatus::Pending);
    assert_eq!(entry.amount, "1");

    // An application's send the person confirms resolves with the hash.
    let (request, done) = ada
        .begin_send(&coin(ada_address), None)
        .await
        .expect("opened");
    assert!(
        request.to.is_none() && request.amount.is_none(),
        "the empty form"
    );
    let quote = ada
        .prepare_send(&form(coin(ada_address), bob, "0.5"))
        .await
        .expect("quoted");
    let entry = ada
        .confirm_send(ConfirmSend {
            quote_id: quote.quote_id,
            speed: FeeSpeed::Slow,
            pin: PIN.into(),
            request_id: Some(request.id),
            accept_high_fee: false,
        })
        .await
        .expect("sent");
    assert_eq!(
        done.await.expect("settled").expect("a txId").tx_id,
        entry.tx_hash
    );
}

/// A signed EIP-1559 coin transfer, as raw hex.
fn signed_transfer(signer: &PrivateKeySigner, chain_id: u64, nonce: u64, to: Address) -> String {
    let mut tx = TxEip1559 {
        chain_id,
        nonce,
        gas_limit: 21_000,
        max_fee_per_gas: 10_000_000_000,
        max_priority_fee_per_gas: 1_000_000_000,
        to: TxKind::Call(to),
        value: U256::from(1u64),
        access_list: Default::default(),
        input: Default::default(),
    };
    let signature = signer.sign_transaction_sync(&mut tx).expect("signed");
    let envelope: TxEnvelope = tx.into_signed(signature).into();
    format!("0x{}", alloy::hex::encode(envelope.encoded_2718()))
}

pub async fn the_service_broadcasts_only_the_callers_own_signed_transfers(backend: Backend) {
    let stack = stack(backend).await;
    let ada = stack.user("ada@example.com").await;
    let eve = stack.user("eve@example.com").await;
    stack.demo.fund(ada.address()).await.expect("funded");
    let ada_account = crate::first_account_id(&stack, &ada).await;
    let eve_account = crate::first_account_id(&stack, &eve).await;
    let post = |token: &str, path: &str, body: Value| {
        let request = stack
            .http
            .request(Method::POST, stack.url(path))
            .header("X-API-KEY", &stack.app_key)
            .header("X-API-DOMAIN", &stack.domain)
            .header("X-SDK-TYPE", "desktop_rest_api")
            .bearer_auth(token.to_owned())
            .json(&body);
        send(request)
    };
    let chain_id = satchel_devstack::anvil::CHAIN_ID;

    // Eve's key signing a transfer from Ada's account: refused.
    let raw = signed_transfer(&eve.signer, chain_id, 0, eve.address());
    let (status, body) = post(
        &ada.token,
        "/v1/transactions",
        json!({"accountId": ada_account, "raw": raw}),
    )
    .await;
    crate::assert_error(status, &body, 403, "Forbidden");
    // Eve broadcasting to Ada's account id with Ada's key's transfer: not hers.
    let raw = signed_transfer(&ada.signer, chain_id, 0, eve.address());
    let (status, body) = post(
        &eve.token,
        "/v1/transactions",
        json!({"accountId": ada_account, "raw": raw}),
    )
    .await;
    crate::assert_error(status, &body, 403, "Forbidden");
    // Ada's own key for another chain, bytes that are no transaction, a huge body.
    let raw = signed_transfer(&ada.signer, chain_id + 1, 0, eve.address());
    let (status, body) = post(
        &ada.token,
        "/v1/transactions",
        json!({"accountId": ada_account, "raw": raw}),
    )
    .await;
    crate::assert_error(status, &body, 400, "InvalidParameters");
    let (status, body) = post(
        &ada.token,
        "/v1/transactions",
        json!({"accountId": ada_account, "raw": "0x02deadbeef"}),
    )
    .await;
    crate::assert_error(status, &body, 400, "InvalidParameters");
    // Over the signed transaction's limit (16 KiB), and over the body limit.
    let (status, body) = post(
        &ada.token,
        "/v1/transactions",
        json!({"accountId": ada_account, "raw": format!("0x{}", "00".repeat(20_000))}),
    )
    .await;
    crate::assert_error(status, &body, 400, "InvalidParameters");
    let (status, body) = post(
        &ada.token,
        "/v1/transactions",
        json!({"accountId": ada_account, "raw": format!("0x{}", "00".repeat(40_000))}),
    )
    .await;
    crate::assert_error(status, &body, 413, "InvalidParameters");
    // Preparing from another user's account, or listing their activity.
    let (status, body) = post(
        &eve.token,
        "/v1/transactions/prepare",
        json!({"accountId": ada_account, "to": eve.address().to_string(), "amount": "1"}),
    )
    .await;
    crate::assert_error(status, &body, 403, "Forbidden");
    let (status, body) = stack
        .get(
            &format!(
                "/v1/transactions?userId={}&walletId={}",
                eve.user_id, ada.wallet_id
            ),
            &eve.token,
        )
        .await;
    crate::assert_error(status, &body, 403, "Forbidden");
    // Nothing moved from Ada's account, on chain or here; Eve's own account
    // works for Eve.
    let chain = Chain::http(stack.anvil.url.clone(), Duration::from_secs(5)).expect("chain");
    assert_eq!(
        chain.mined_nonce(ada.address()).await.expect("nonce"),
        0,
        "no transaction of Ada's reached the chain"
    );
    let (status, body) = stack
        .get(
            &format!("/v1/transactions?{}", ada.wallet_query()),
            &ada.token,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let listed = body["transactions"].as_array().expect("a list");
    assert!(
        listed.iter().all(|t| t["direction"] == "received"),
        "{body}"
    );
    assert_eq!(listed.len(), 2, "the funding's DEMO and DUSD: {body}");
    let (status, body) = post(
        &eve.token,
        "/v1/transactions/prepare",
        json!({"accountId": eve_account, "to": ada.address().to_string(), "amount": "0"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["chainId"], json!(chain_id));
    assert_eq!(body["gasLimit"], json!(21_000));

    // Ada's own signed transfer goes through and is listed, pending then mined.
    let raw = signed_transfer(&ada.signer, chain_id, 0, eve.address());
    let (status, body) = post(
        &ada.token,
        "/v1/transactions",
        json!({"accountId": ada_account, "raw": raw}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let hash = body["txHash"].as_str().expect("hash").to_owned();
    assert_eq!(body["direction"], "sent");
    let (status, body) = stack
        .get(&format!("/v1/transactions/{hash}"), &eve.token)
        .await;
    crate::assert_error(status, &body, 403, "Forbidden");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, body) = stack
            .get(&format!("/v1/transactions/{hash}"), &ada.token)
            .await;
        assert_eq!(status, 200, "{body}");
        if body["status"] == "mined" {
            assert!(body["blockNumber"].as_u64().is_some(), "{body}");
            break;
        }
        assert!(Instant::now() < deadline, "never mined: {body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The review's warnings about a recipient, against the real chain and the
/// wallet's own history: none for a saved address, amber for a first transfer,
/// red for a look-alike of a saved or recent address (made here to share its
/// first and last four hex digits), a token's own contract, and a contract
/// that is not a token. The address book goes out as CSV and back in.
pub async fn a_look_alike_recipient_is_told_in_red_and_a_first_one_in_amber(backend: Backend) {
    use satchel_sdk::RecipientWarning;
    let stack = stack(backend).await;
    let (ada, ada_address) = person(&stack, "ada@example.com").await;
    stack.demo.fund(ada_address).await.expect("funded");
    let bob = PrivateKeySigner::random().address();
    let carol = PrivateKeySigner::random().address();
    let warnings = |to: Address| {
        let ada = &ada;
        async move {
            ada.prepare_send(&form(coin(ada_address), to, "0.01"))
                .await
                .expect("quoted")
                .warnings
        }
    };

    assert_eq!(warnings(bob).await, [RecipientWarning::FirstTransfer]);
    ada.save_address(&bob.to_checksum(None), "Bob")
        .expect("saved");
    assert_eq!(warnings(bob).await, [], "a saved address is known");

    // Bob's first two and last two bytes, anything between.
    let mut poison = [0u8; 20];
    poison[..2].copy_from_slice(&bob[..2]);
    poison[18..].copy_from_slice(&bob[18..]);
    let poison = Address::from(poison);
    let told = warnings(poison).await;
    assert!(
        told.contains(&RecipientWarning::LookAlike {
            of: bob.to_checksum(None),
            name: Some("Bob".into())
        }),
        "{told:?}"
    );
    assert!(told.iter().any(RecipientWarning::is_danger));
    // An application's transaction to it is told the same.
    let by_an_app = ada
        .prepare_call(
            "anvil",
            ada_address,
            poison,
            U256::from(1_000u64),
            Default::default(),
        )
        .await
        .expect("prepared");
    assert!(
        by_an_app
            .quote
            .warnings
            .iter()
            .any(RecipientWarning::is_danger),
        "{:?}",
        by_an_app.quote.warnings
    );
    // An application's own gas is the least the limit is, and the fees shown
    // are for that limit; less than the service's changes nothing.
    let with_gas = |gas| {
        ada.prepare_call_with_gas(
            "anvil",
            ada_address,
            TxKind::Call(poison),
            U256::from(1_000u64),
            Default::default(),
            Some(gas),
        )
    };
    let asked = with_gas(100_000).await.expect("prepared");
    assert_eq!(asked.quote.gas_limit, 100_000);
    let wei = |amount: &str, decimals: u8| -> U256 {
        alloy::primitives::utils::parse_units(amount, decimals)
            .expect("an amount")
            .into()
    };
    for option in &asked.quote.options {
        assert_eq!(
            wei(&option.fee, 18),
            wei(&option.max_fee_per_gas_gwei, 9) * U256::from(100_000u64),
            "{option:?}"
        );
    }
    let less = with_gas(1).await.expect("prepared");
    assert_eq!(less.quote.gas_limit, by_an_app.quote.gas_limit);

    // A recent recipient, not saved, is known too; its look-alike is told.
    send_now(&ada, form(coin(ada_address), carol, "0.01")).await;
    assert_eq!(warnings(carol).await, [], "sent to before");
    assert_eq!(ada.recent_recipients().await.expect("recent"), [carol]);
    let mut carol_like = [0xffu8; 20];
    carol_like[..2].copy_from_slice(&carol[..2]);
    carol_like[18..].copy_from_slice(&carol[18..]);
    let told = warnings(Address::from(carol_like)).await;
    assert!(
        told.contains(&RecipientWarning::LookAlike {
            of: carol.to_checksum(None),
            name: None
        }),
        "{told:?}"
    );

    // Contracts (DUSD sent, which any address takes; coins a contract without
    // a payable fallback refuses): the token's own, and one that is not a token.
    let dusd_to = |to: Address| {
        let ada = &ada;
        let dollar6 = stack.demo.dollar6;
        async move {
            ada.prepare_send(&form(token(ada_address, dollar6), to, "1"))
                .await
                .expect("quoted")
                .warnings
        }
    };
    assert!(
        dusd_to(stack.demo.dollar6)
            .await
            .contains(&RecipientWarning::TokenContract)
    );
    assert!(
        dusd_to(stack.demo.pals)
            .await
            .contains(&RecipientWarning::ContractNotToken)
    );

    // Out as CSV, back in: the same book; a bad line is refused by number.
    let csv = ada.export_address_book().expect("exported");
    assert!(
        csv.contains(&format!("Bob,{}", bob.to_checksum(None))),
        "{csv}"
    );
    ada.forget_address(&bob.to_checksum(None))
        .expect("forgotten");
    let outcome = ada
        .import_address_book(&format!("{csv}\"Zed, the third\",not-an-address\n"))
        .expect("imported");
    assert_eq!((outcome.added, outcome.renamed), (1, 0));
    assert_eq!(outcome.refused.len(), 1, "{outcome:?}");
    assert!(outcome.refused[0].starts_with("line 3"), "{outcome:?}");
    assert_eq!(
        ada.saved_addresses().expect("listed")[0].address,
        bob.to_checksum(None)
    );
}

/// An application's deployment (no `to`): prepared and simulated by the
/// service, shown with the address the new contract will have (derived on the
/// device from the account and the nonce), signed with the PIN, and mined with
/// its code where the review said; Activity names the new contract.
pub async fn a_deployment_is_made_where_the_review_said(backend: Backend) {
    let stack = stack(backend).await;
    let (ada, ada_address) = person(&stack, "ada@example.com").await;
    stack.demo.fund(ada_address).await.expect("funded");
    // Creation code that returns a contract answering 42 to any call.
    let runtime = "602a60005260206000f3";
    let creation_code = || -> Bytes {
        alloy::hex::decode(format!("69{runtime}600052600a6016f3"))
            .expect("hex")
            .into()
    };
    // The review of deploying `code` from Ada's account.
    let deployment = |code: Bytes| {
        ada.prepare_call_with_gas("anvil", ada_address, TxKind::Create, U256::ZERO, code, None)
    };
    let prepared = deployment(creation_code()).await.expect("prepared");
    let nonce = stack.nonce_of(&ada_address.to_checksum(None)).await;
    let created = ada_address.create(nonce);
    assert_eq!(prepared.quote.to, created.to_checksum(None));
    assert!(
        prepared.quote.warnings.is_empty(),
        "{:?}",
        prepared.quote.warnings
    );
    let sent = ada
        .confirm_send(with_pin(prepared.quote.quote_id, FeeSpeed::Normal))
        .await
        .expect("sent");
    let entry = settled(&ada, &sent.tx_hash).await;
    assert_eq!(entry.status, TransactionStatus::Mined);
    // Activity names it from the bytes the device kept: a deployment, at the
    // address the signer and nonce give, never a recipient to send to again.
    assert_eq!(sent.kind, ActivityKind::Deployment);
    assert_eq!(entry.kind, ActivityKind::Deployment);
    assert_eq!(entry.counterparty, created.to_checksum(None));
    assert!(
        !ada.recent_recipients()
            .await
            .expect("recent")
            .contains(&created),
        "a new contract is no recipient"
    );
    let code = stack
        .chain_rpc("eth_getCode", json!([created, "latest"]))
        .await;
    assert_eq!(code, format!("0x{runtime}"));

    // A deployment left pending cannot be sped up (that would sign its code
    // again, unread), but it can be cancelled: its nonce taken by a transfer
    // of nothing to itself, and no contract made.
    stack.chain_rpc("evm_setAutomine", json!([false])).await;
    let pending = deployment(creation_code()).await.expect("prepared");
    let never = ada_address.create(stack.nonce_of(&ada_address.to_checksum(None)).await);
    assert_eq!(pending.quote.to, never.to_checksum(None));
    let pending = ada
        .confirm_send(with_pin(pending.quote.quote_id, FeeSpeed::Slow))
        .await
        .expect("sent");
    let refused = ada
        .prepare_replacement(&pending.tx_hash, ReplaceAction::SpeedUp)
        .await
        .expect_err("not a transfer");
    assert!(refused.message.contains("can be cancelled"), "{refused:?}");
    let cancel = ada
        .prepare_replacement(&pending.tx_hash, ReplaceAction::Cancel)
        .await
        .expect("a cancel is quoted");
    assert!(cancel.recipient_is_self);
    let cancel = ada
        .confirm_send(with_pin(cancel.quote_id, FeeSpeed::Fast))
        .await
        .expect("cancel broadcast");
    stack.chain_rpc("evm_mine", json!([])).await;
    stack.chain_rpc("evm_setAutomine", json!([true])).await;
    assert_eq!(
        settled(&ada, &cancel.tx_hash).await.status,
        TransactionStatus::Mined
    );
    assert_eq!(
        settled(&ada, &pending.tx_hash).await.status,
        TransactionStatus::Replaced
    );
    let nothing = stack
        .chain_rpc("eth_getCode", json!([never, "latest"]))
        .await;
    assert_eq!(nothing, "0x", "the cancelled deployment made no contract");

    // A deployment's page made before another send from the account is
    // refused: at the next nonce its contract would not be where it said.
    let deploy = deployment(creation_code()).await.expect("prepared");
    let carol = PrivateKeySigner::random().address();
    send_now(&ada, form(coin(ada_address), carol, "0.01")).await;
    let refused = ada
        .confirm_send(with_pin(deploy.quote.quote_id, FeeSpeed::Normal))
        .await
        .expect_err("the address shown would be wrong");
    assert!(refused.message.contains("deploy again"), "{refused:?}");
    let shown: Address = deploy.quote.to.parse().expect("an address");
    let code = stack
        .chain_rpc("eth_getCode", json!([shown, "latest"]))
        .await;
    assert_eq!(code, "0x", "nothing deployed");

    // Nothing to deploy: refused by the service, nothing signed.
    let refused = deployment(Default::default()).await.expect_err("no code");
    assert!(
        refused.is(ServiceErrorCode::InvalidParameters),
        "{refused:?}"
    );
}

/// An ERC-721 and an ERC-1155 sent from the widget as a person does it: the
/// quote shows each leaving (the node's simulation), the device signs the
/// `safeTransferFrom` it built, and the recipient holds them on chain.
pub async fn nfts_are_sent_and_the_recipient_holds_them(backend: Backend) {
    use satchel_api::AssetKind;
    use satchel_sdk::NftSendForm;
    let stack = stack(backend).await;
    let (ada, ada_address) = person(&stack, "ada@example.com").await;
    stack.demo.fund(ada_address).await.expect("funded");
    let pal = stack
        .demo
        .mint_pal(ada_address, "Pal to send", "#336699")
        .await
        .expect("minted");
    stack
        .demo
        .mint_items(ada_address, &[(7, 5)])
        .await
        .expect("minted");
    let bob = PrivateKeySigner::random().address();
    let nft_form = |contract: Address, token_id: U256, erc1155: bool, amount: &str| NftSendForm {
        account: coin(ada_address),
        contract: contract.to_checksum(None),
        token_id: token_id.to_string(),
        erc1155,
        to: bob.to_checksum(None),
        amount: amount.into(),
    };

    // ERC-721: one of a kind.
    let refused = ada
        .prepare_nft_send(&nft_form(stack.demo.pals, pal, false, "2"))
        .await
        .expect_err("two of one");
    assert_eq!(
        refused.code,
        ErrorCode::Service(ServiceErrorCode::InvalidParameters)
    );
    let quoted = ada
        .prepare_nft_send(&nft_form(stack.demo.pals, pal, false, "1"))
        .await
        .expect("quoted");
    assert_eq!(
        quoted.quote.to,
        bob.to_checksum(None),
        "the review names Bob"
    );
    let quote_id = quoted.quote.quote_id.clone();
    assert!(
        ada.quote_is_fresh(&quote_id),
        "a new quote may be confirmed"
    );
    assert!(!ada.quote_is_fresh("no-such-quote"));
    let changes = quoted.changes.expect("simulated");
    assert!(
        changes.iter().any(
            |c| c.kind == AssetKind::Erc721 && c.token_id.as_deref() == Some(&*pal.to_string())
        ),
        "{changes:?}"
    );
    let sent = ada
        .confirm_send(with_pin(quoted.quote.quote_id, FeeSpeed::Normal))
        .await
        .expect("sent");
    // Activity reads the NFT from the bytes the device signed: which one, to whom.
    assert_eq!(sent.kind, ActivityKind::NftTransfer);
    assert_eq!(sent.counterparty, bob.to_checksum(None));
    let moved = sent.nft.clone().expect("the NFT sent");
    assert_eq!(
        (moved.contract, moved.token_id, moved.amount),
        (
            stack.demo.pals.to_checksum(None),
            pal.to_string(),
            "1".to_owned()
        )
    );
    assert_eq!(
        settled(&ada, &sent.tx_hash).await.status,
        TransactionStatus::Mined
    );
    assert_eq!(stack.demo.pal_owner(pal).await.expect("owner"), bob);
    assert!(!ada.quote_is_fresh(&quote_id), "a confirmed quote is spent");

    // ERC-1155: two of the five.
    let quoted = ada
        .prepare_nft_send(&nft_form(stack.demo.items, U256::from(7), true, "2"))
        .await
        .expect("quoted");
    let sent = ada
        .confirm_send(with_pin(quoted.quote.quote_id, FeeSpeed::Normal))
        .await
        .expect("sent");
    assert_eq!(
        settled(&ada, &sent.tx_hash).await.status,
        TransactionStatus::Mined
    );
    assert_eq!(
        stack.demo.item_balance(bob, 7).await.expect("balance"),
        U256::from(2)
    );
    assert_eq!(
        stack
            .demo
            .item_balance(ada_address, 7)
            .await
            .expect("balance"),
        U256::from(3)
    );

    // A collection hidden from the grid is kept (per person, on the device) and
    // shown again; another network's is refused.
    let pals = stack.demo.pals.to_checksum(None);
    let choices = ada.hide_collection("anvil", &pals).expect("hidden");
    assert_eq!(choices.hidden, [format!("anvil:{:#x}", stack.demo.pals)]);
    assert_eq!(ada.collection_choices().expect("listed"), choices);
    assert!(ada.hide_collection("nowhere", &pals).is_err());
    assert!(
        ada.show_collection("anvil", &pals)
            .expect("shown")
            .hidden
            .is_empty()
    );
}
