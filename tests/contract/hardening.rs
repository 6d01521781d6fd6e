//! The service's answers to the attacks a review found (issue 22): each test
//! makes the attack and checks that the defence held and nothing moved.

use satchel_tests::{Backend, Stack, send};

use crate::identity::login_from;

/// A failed e-mail login from `client`, as the trusted proxy in front says.
async fn failed_login_from(stack: &Stack, client: &str, n: u32) -> u16 {
    let email = format!("victim{n}@example.com");
    login_from(stack, client, &email, "wrong1password", "").await
}

pub async fn a_forwarded_address_cannot_escape_the_per_address_limits(backend: Backend) {
    let stack = Stack::start_with(backend, |s| {
        s.login_failures_per_address = 3;
        s.trusted_proxies = vec!["127.0.0.1".parse().expect("ip")];
    })
    .await;
    // An entry that does not parse is not "no address": the proxy's own, here.
    for n in 0..3 {
        assert_eq!(failed_login_from(&stack, "not-an-address", n).await, 401);
    }
    assert_eq!(
        failed_login_from(&stack, "garbage, more garbage", 3).await,
        429,
        "unreadable addresses are counted together, never let through"
    );
    // IPv6 clients are counted by their /64: new addresses in it buy nothing.
    for n in 0..3 {
        let client = format!("2001:db8:7:7::{}", n + 1);
        assert_eq!(failed_login_from(&stack, &client, 10 + n).await, 401);
    }
    assert_eq!(
        failed_login_from(&stack, "2001:db8:7:7:ffff::9", 20).await,
        429,
        "another address of the same /64 waits"
    );
    assert_eq!(
        failed_login_from(&stack, "2001:db8:7:8::1", 21).await,
        401,
        "the next /64 is someone else"
    );
}

pub async fn what_takes_a_counter_or_cache_place_is_checked_first(backend: Backend) {
    let stack = Stack::start_with(backend, |s| s.login_failures_per_address = 3).await;
    // Not an address: refused before it is counted, so it uses up nothing.
    for n in 0..5 {
        let email = format!("{}@x", "a".repeat(300 + n));
        let (status, body) = stack
            .post(
                "/v1/auth/email/login",
                serde_json::json!({"email": email, "password": "x1"}),
            )
            .await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["code"], "IncorrectEmailForm", "{body}");
    }
    let (status, _) = stack
        .post(
            "/v1/auth/email/login",
            serde_json::json!({"email": "someone@example.com", "password": "wrong1password"}),
        )
        .await;
    assert_eq!(status, 401, "the address's tries are all there");
    // A domain header longer than a domain can be is refused as such.
    let request = stack
        .http
        .get(stack.url("/v1/app"))
        .header("X-API-KEY", &stack.app_key)
        .header("X-API-DOMAIN", "a".repeat(254))
        .header("X-SDK-TYPE", "desktop_rest_api");
    let (status, body) = send(request).await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["message"].as_str().unwrap_or_default().contains("253"),
        "{body}"
    );
}

pub async fn a_refresh_retry_gets_the_same_next_token_and_no_second_live_one(backend: Backend) {
    let stack = Stack::start(backend).await; // the default grace: 10 s
    let login = stack
        .sign_in(
            "ada@example.com",
            std::sync::Arc::new(satchel_sdk::MemoryStore::default()),
        )
        .await;
    let tokens = login.session().await.expect("store").expect("session");
    let refresh = |token: String| {
        stack.post(
            "/v1/auth/service/refresh",
            serde_json::json!({"refreshToken": token}),
        )
    };
    let (status, first) = refresh(tokens.service.refresh_token.clone()).await;
    assert_eq!(status, 200, "{first}");
    let (status, retried) = refresh(tokens.service.refresh_token.clone()).await;
    assert_eq!(status, 200, "{retried}");
    assert_eq!(retried["refreshToken"], first["refreshToken"]);
    // The next token used: the first one again is a reuse, which ends the session
    // and every token of it.
    let next = first["refreshToken"].as_str().expect("token").to_owned();
    let (status, last) = refresh(next).await;
    assert_eq!(status, 200, "{last}");
    let (status, body) = refresh(tokens.service.refresh_token.clone()).await;
    assert_eq!(
        (status.as_u16(), body["code"].clone()),
        (401, "InvalidLoginSession".into())
    );
    let last = last["refreshToken"].as_str().expect("token").to_owned();
    let (status, body) = refresh(last).await;
    assert_eq!(
        (status.as_u16(), body["code"].clone()),
        (401, "InvalidLoginSession".into())
    );
}

pub async fn activity_keeps_no_zero_or_dust_transfers(backend: Backend) {
    use alloy::primitives::U256;
    let stack = Stack::start(backend).await;
    let bob = stack.user("bob@example.com").await;
    let demo = &stack.demo;
    // What address poisoning sends: nothing, and a wei of a real token.
    demo.send_token(demo.token18, bob.address(), U256::ZERO)
        .await
        .expect("a zero transfer");
    demo.send_token(demo.token18, bob.address(), U256::from(1u64))
        .await
        .expect("a dust transfer");
    demo.send_token(demo.dollar6, bob.address(), U256::ZERO)
        .await
        .expect("a zero transfer");
    // A real payment: 0.25 DUSD.
    demo.send_token(demo.dollar6, bob.address(), U256::from(250_000u64))
        .await
        .expect("a payment");
    let (status, body) = stack
        .get(
            &format!("/v1/transactions?{}", bob.wallet_query()),
            &bob.token,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let entries = body["transactions"].as_array().expect("a list");
    let amounts: Vec<&str> = entries
        .iter()
        .map(|e| e["amount"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(amounts, ["250000"], "only the payment: {body}");
}

pub async fn sign_up_floods_leave_room_for_password_resets(backend: Backend) {
    // 8 e-mails a minute: 6 for anyone, 2 kept for account mail.
    let stack = Stack::start_with(backend, |s| {
        s.emails_per_minute = 8;
        s.email_requests_per_address = 100;
    })
    .await;
    let sign_in = stack
        .sign_in(
            "ada@example.com",
            std::sync::Arc::new(satchel_sdk::MemoryStore::default()),
        )
        .await;
    drop(sign_in);
    // Ada's own sign-up took one; a flood of sign-ups takes the rest of the
    // general share, and then waits.
    let mut refused = 0;
    for n in 0..8 {
        let (status, _) = stack
            .post(
                "/v1/auth/email/signup",
                serde_json::json!({"email": format!("flood{n}@example.com"), "password": "correct1horse"}),
            )
            .await;
        if status == 429 {
            refused += 1;
        }
    }
    assert!(refused >= 3, "the flood is cut off ({refused} refused)");
    // Ada can still get her password reset.
    let before = stack.mail_links("ada@example.com");
    let (status, body) = stack
        .post(
            "/v1/auth/email/password-reset",
            serde_json::json!({"email": "ada@example.com"}),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    assert!(
        stack.new_mail_link("ada@example.com", &before).is_some(),
        "the reset link went out"
    );
}

/// A coin transfer of 1 wei from `signer` with `nonce`, at `max_fee` wei per gas.
fn signed_transfer(
    signer: &alloy::signers::local::PrivateKeySigner,
    nonce: u64,
    max_fee: u128,
) -> String {
    use alloy::consensus::{SignableTransaction, TxEip1559, TxEnvelope};
    use alloy::eips::eip2718::Encodable2718;
    use alloy::network::TxSignerSync;
    use alloy::primitives::{TxKind, U256};
    let mut tx = TxEip1559 {
        chain_id: satchel_devstack::anvil::CHAIN_ID,
        nonce,
        gas_limit: 21_000,
        max_fee_per_gas: max_fee,
        max_priority_fee_per_gas: 1_000_000_000,
        to: TxKind::Call(alloy::primitives::Address::repeat_byte(0x42)),
        value: U256::from(1u64),
        access_list: Default::default(),
        input: Default::default(),
    };
    let signature = signer.sign_transaction_sync(&mut tx).expect("signed");
    let envelope: TxEnvelope = tx.into_signed(signature).into();
    format!("0x{}", alloy::hex::encode(envelope.encoded_2718()))
}

pub async fn an_account_keeps_a_bounded_number_of_pending_transactions(backend: Backend) {
    let stack = Stack::start_with(backend, |s| s.max_pending_per_account = 2).await;
    let ada = stack.user("ada@example.com").await;
    stack.demo.fund(ada.address()).await.expect("funded");
    let account = crate::first_account_id(&stack, &ada).await;
    // Nothing mines: every transfer stays pending.
    stack
        .chain_rpc("evm_setAutomine", serde_json::json!([false]))
        .await;
    let broadcast = |raw: String| {
        let request = stack
            .http
            .post(stack.url("/v1/transactions"))
            .header("X-API-KEY", &stack.app_key)
            .header("X-API-DOMAIN", &stack.domain)
            .header("X-SDK-TYPE", "desktop_rest_api")
            .bearer_auth(&ada.token)
            .json(&serde_json::json!({"accountId": account, "raw": raw}));
        send(request)
    };
    let gwei = 1_000_000_000u128;
    for nonce in 0..2 {
        let (status, body) = broadcast(signed_transfer(&ada.signer, nonce, 10 * gwei)).await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = broadcast(signed_transfer(&ada.signer, 2, 10 * gwei)).await;
    assert_eq!(status, 429, "a third new nonce waits: {body}");
    assert_eq!(body["code"], "TooManyRequests");
    // A replacement of a pending one still goes: a stuck account can speed up.
    let (status, body) = broadcast(signed_transfer(&ada.signer, 0, 20 * gwei)).await;
    assert_eq!(status, 200, "{body}");
    // Nothing of the refused one reached the node.
    let pending: serde_json::Value = stack
        .http
        .post(stack.anvil.url.clone())
        .json(&serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "eth_getTransactionCount", "params": [ada.address(), "pending"]}))
        .send()
        .await
        .expect("anvil")
        .json()
        .await
        .expect("json");
    assert_eq!(pending["result"], "0x2", "{pending}");
}

pub async fn the_receipt_follower_reads_the_least_recently_read_first(backend: Backend) {
    let stack = Stack::start_with(backend, |s| s.receipt_poll_ms = 3_600_000).await;
    let db = &stack.service.state.db;
    let ada = stack.user("ada@example.com").await;
    let bob = stack.user("bob@example.com").await;
    let ada_account = crate::first_account_id(&stack, &ada).await;
    let bob_account = crate::first_account_id(&stack, &bob).await;
    let row = pending_row;
    // Ada's three never-mined transfers are older than Bob's one.
    for n in 1..=3 {
        db.insert_sent(&row(&ada.wallet_id, &ada_account, n))
            .await
            .expect("stored");
    }
    db.insert_sent(&row(&bob.wallet_id, &bob_account, 9))
        .await
        .expect("stored");
    let first = db
        .pending_transactions(2, 100, 30, "a")
        .await
        .expect("read");
    assert!(
        first.iter().all(|r| r.account_id == ada_account),
        "{first:?}"
    );
    let second = db
        .pending_transactions(2, 101, 30, "a")
        .await
        .expect("read");
    assert!(
        second.iter().any(|r| r.account_id == bob_account),
        "Bob's is read in the next pass, not after Ada's forever: {second:?}"
    );
}

fn hex_byte(n: u8) -> String {
    format!("{n:02x}")
}

/// A sent transaction never mined, the `n`th (its hash, nonce and time).
fn pending_row(wallet: &str, account: &str, n: u8) -> satchel_service::db::TransactionRow {
    satchel_service::db::TransactionRow {
        wallet_id: wallet.into(),
        account_id: account.into(),
        network: "anvil".into(),
        tx_hash: format!("0x{}", hex_byte(n).repeat(32)),
        direction: "sent".into(),
        status: "pending".into(),
        counterparty: format!("0x{}", "42".repeat(20)),
        contract: None,
        amount: "1".into(),
        nonce: Some(i64::from(n)),
        gas_limit: Some(21_000),
        max_fee_per_gas: Some("1".into()),
        max_priority_fee_per_gas: Some("1".into()),
        fee: Some("21000".into()),
        block_number: None,
        replaced_by: None,
        created_at: i64::from(n),
    }
}

/// Two instances' receipt followers passing at the same moment (two pools on
/// one database) claim each pending transaction once between them; each then
/// follows its own, and a third takes them over only once both stopped (their
/// claims unrenewed for the lease).
pub async fn two_followers_at_once_claim_each_pending_transaction_once(backend: Backend) {
    let stack = Stack::start_with(backend, |s| s.receipt_poll_ms = 3_600_000).await;
    let db = &stack.service.state.db;
    let other = satchel_service::db::Db::connect(&stack.service.state.settings.database_url())
        .await
        .expect("a second instance's pool");
    let ada = stack.user("ada@example.com").await;
    let account = crate::first_account_id(&stack, &ada).await;
    for n in 1..=40 {
        db.insert_sent(&pending_row(&ada.wallet_id, &account, n))
            .await
            .expect("stored");
    }
    let (mine, theirs) = tokio::join!(
        db.pending_transactions(25, 100, 30, "a"),
        other.pending_transactions(25, 100, 30, "b")
    );
    let (mine, theirs) = (mine.expect("claimed"), theirs.expect("claimed"));
    assert!(
        mine.len() <= 25 && theirs.len() <= 25,
        "a pass claims at most its batch"
    );
    let mut hashes: Vec<&str> = mine
        .iter()
        .chain(&theirs)
        .map(|r| r.tx_hash.as_str())
        .collect();
    hashes.sort_unstable();
    let claimed = hashes.len();
    hashes.dedup();
    assert_eq!(hashes.len(), claimed, "one transaction claimed twice");
    assert_eq!(claimed, 40, "{} and {}", mine.len(), theirs.len());
    // Each instance's next pass reads its own again, and none of the other's.
    let hashes = |rows: &[satchel_service::db::TransactionRow]| {
        let mut hashes: Vec<String> = rows.iter().map(|r| r.tx_hash.clone()).collect();
        hashes.sort_unstable();
        hashes
    };
    let again = other
        .pending_transactions(25, 102, 30, "b")
        .await
        .expect("read");
    assert_eq!(hashes(&again), hashes(&theirs));
    // A third instance finds nothing to take while both follow theirs, and all
    // of it once neither has read them for the lease.
    assert!(
        db.pending_transactions(100, 110, 30, "c")
            .await
            .expect("read")
            .is_empty()
    );
    assert_eq!(
        db.pending_transactions(100, 140, 30, "c")
            .await
            .expect("read")
            .len(),
        40
    );
    other.close().await;
}

pub async fn an_id_with_a_nul_character_names_nothing_on_every_engine(backend: Backend) {
    let stack = Stack::start(backend).await;
    let ada = stack.user("ada@example.com").await;
    // PostgreSQL cannot even compare such text: still no 500, but what it is.
    let (status, body) = stack
        .get(
            &format!("/v1/account?userId={}&walletId=%00x", ada.user_id),
            &ada.token,
        )
        .await;
    assert_eq!(status, 404, "{body}");
    let (status, body) = stack.get("/v1/wallets/a%00b/pin", &ada.token).await;
    assert_eq!(status, 404, "{body}");
    let (status, body) = stack.get("/v1/transactions/0x%00", &ada.token).await;
    assert_eq!(status, 404, "{body}");
}
