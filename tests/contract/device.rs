//! The device trusts only what it derived or signed (issue 22): a service that
//! lies, a proxy in front of the real one rewriting its answers, gets nothing
//! shown, received into or sent from that the device's own key does not back.

use std::sync::Arc;

use satchel_api::ServiceErrorCode;
use satchel_sdk::vault::KdfStrength;
use satchel_sdk::{AccountRef, Login, MemoryStore, TokenStore, Widget};
use satchel_tests::{Backend, LyingService, Stack};
use serde_json::Value;

const PIN: &str = "246810";
/// Where the lying service would have Ada's money go.
const ATTACKER: &str = "0x00000000000000000000000000000000000bad00";

async fn widget_on(stack: &Stack, url: url::Url, store: Arc<dyn TokenStore>) -> Widget {
    let login = Login::new(stack.app_id().await, &stack.app_key, store.clone());
    let widget = Widget::new(Arc::new(login), store)
        .with_kdf(KdfStrength::Test)
        .with_networks(stack.service.network_table());
    widget
        .init(satchel_sdk::ServiceConfig::new(url, &stack.domain))
        .await
        .expect("initialised");
    widget
}

pub async fn accounts_that_are_not_the_keys_are_never_shown_or_paid_into(backend: Backend) {
    let stack = Stack::start(backend).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    drop(stack.sign_in("ada@example.com", store.clone()).await);
    let honest = widget_on(&stack, stack.sdk_config().service_url, store.clone()).await;
    honest.register(PIN, false).await.expect("registered");
    let key_address = honest.get_accounts(None, false).await.expect("accounts")[0]
        .address
        .clone();

    // The service now answers the token entries with the attacker's address.
    let liar = LyingService::start(stack.sdk_config().service_url, |method, path, body| {
        if method == reqwest::Method::GET && path == "/v1/account" {
            for account in body["accounts"].as_array_mut().into_iter().flatten() {
                if account.get("contract").is_some_and(|c| !c.is_null()) {
                    account["address"] = Value::from(ATTACKER);
                }
            }
            // And lists the attacker's address as the wallet's next account.
            let coin = body["accounts"]
                .as_array()
                .and_then(|all| all.iter().find(|a| a.get("contract").is_none()).cloned());
            if let (Some(mut extra), Some(all)) = (coin, body["accounts"].as_array_mut()) {
                extra["address"] = Value::from(ATTACKER);
                extra["addressPath"] = Value::from("m/44'/60'/0'/0/1");
                extra["accountId"] = Value::from("the-attackers");
                all.push(extra);
            }
        }
    })
    .await;
    let device = widget_on(&stack, liar.url.clone(), store.clone()).await;
    device
        .login_with_email("ada@example.com", "correct1horse")
        .await
        .expect("logged in through the liar");
    let shown = device.get_accounts(None, false).await.expect("accounts");
    assert!(!shown.is_empty(), "the coin account is the key's and shows");
    assert!(
        shown
            .iter()
            .all(|a| a.address.eq_ignore_ascii_case(&key_address)),
        "{shown:?}"
    );
    assert!(
        device.key_status().refused_accounts >= 1,
        "the page can say so"
    );
    assert!(liar.lies_on("/v1/account") > 0, "the lie was served");
    // The next-index entry waits for the PIN; opened, the phrase does not make
    // it: refused from then on, never shown, never signed for.
    assert_eq!(device.key_status().unconfirmed_accounts, 1);
    let checked = device.confirm_accounts(PIN).await.expect("checked");
    assert!(
        checked
            .iter()
            .all(|a| a.address.eq_ignore_ascii_case(&key_address)),
        "{checked:?}"
    );
    assert_eq!(device.key_status().unconfirmed_accounts, 0);
    assert!(device.key_status().refused_accounts >= 2);
    // The key opens for its own account, and never for the attacker's.
    let own: alloy::primitives::Address = key_address.parse().expect("an address");
    device
        .unlock(PIN, own)
        .await
        .expect("the key's own account");
    let attacker: alloy::primitives::Address = ATTACKER.parse().expect("an address");
    let e = device
        .unlock(PIN, attacker)
        .await
        .expect_err("not an account of the key");
    assert!(e.is(ServiceErrorCode::InvalidParameters), "{e:?}");
    let token = stack.demo.dollar6.to_checksum(None);
    let e = device
        .receive(&AccountRef {
            network: "anvil".into(),
            address: ATTACKER.into(),
            contract: Some(token),
            is_aa: None,
        })
        .await
        .expect_err("not the key's");
    assert!(e.message.contains("not one of your accounts"), "{e:?}");
    let coin = device
        .receive(&AccountRef {
            network: "anvil".into(),
            address: key_address.clone(),
            contract: None,
            is_aa: None,
        })
        .await
        .expect("the key's own account");
    assert!(coin.address.eq_ignore_ascii_case(&key_address));

    // A device without the key cannot check an address, so it shows none to be
    // paid at (it is not logged in to the wallet until the key is restored).
    let empty: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    let keyless = widget_on(&stack, stack.sdk_config().service_url, empty).await;
    keyless
        .login_with_email("ada@example.com", "correct1horse")
        .await
        .expect("logged in");
    let e = keyless
        .receive(&AccountRef {
            network: "anvil".into(),
            address: key_address,
            contract: None,
            is_aa: None,
        })
        .await
        .expect_err("no key here");
    assert!(
        e.message.contains("restore") || e.message.contains("log in"),
        "{e:?}"
    );
}

pub async fn a_replacement_is_built_from_what_the_device_signed(backend: Backend) {
    use std::sync::atomic::{AtomicU8, Ordering};

    use satchel_sdk::{ConfirmSend, FeeSpeed, ReplaceAction, SendForm};

    // What the service lies about: 0 nothing, 1 the pending transaction's
    // recipient and amount, 2 the nonce of a replacement's quote.
    let lie = Arc::new(AtomicU8::new(0));
    let stack = Stack::start_with(backend, |s| s.receipt_poll_ms = 200).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    drop(stack.sign_in("ada@example.com", store.clone()).await);
    let mode = lie.clone();
    let liar =
        LyingService::start(
            stack.sdk_config().service_url,
            move |method, path, body| match mode.load(Ordering::SeqCst) {
                1 if method == reqwest::Method::GET && path.starts_with("/v1/transactions/0x") => {
                    body["counterparty"] = Value::from(ATTACKER);
                    body["amount"] = Value::from("9000000000000000000");
                }
                2 if method == reqwest::Method::POST && path == "/v1/transactions/prepare" => {
                    let nonce = body["nonce"].as_u64().unwrap_or_default();
                    body["nonce"] = Value::from(nonce + 1);
                }
                _ => {}
            },
        )
        .await;
    let ada = widget_on(&stack, liar.url.clone(), store.clone()).await;
    ada.login_with_email("ada@example.com", "correct1horse")
        .await
        .expect("logged in");
    ada.register(PIN, false).await.expect("registered");
    let address = ada.get_accounts(None, false).await.expect("accounts")[0]
        .address
        .clone();
    stack
        .demo
        .fund(address.parse().expect("address"))
        .await
        .expect("funded");
    let bob = "0x00000000000000000000000000000000000b0b00";
    stack
        .chain_rpc("evm_setAutomine", serde_json::json!([false]))
        .await;
    let coin = AccountRef {
        network: "anvil".into(),
        address: address.clone(),
        contract: None,
        is_aa: None,
    };
    let quote = ada
        .prepare_send(&SendForm {
            account: coin,
            to: bob.into(),
            amount: "1".into(),
        })
        .await
        .expect("quoted");
    let pending = ada
        .confirm_send(ConfirmSend {
            quote_id: quote.quote_id,
            speed: FeeSpeed::Normal,
            pin: PIN.into(),
            request_id: None,
            accept_high_fee: false,
        })
        .await
        .expect("sent")
        .tx_hash;

    // The service says the pending one paid the attacker 9 ETH: the speed-up
    // is still Bob's 1 ETH, from what the device signed.
    lie.store(1, Ordering::SeqCst);
    let faster = ada
        .prepare_replacement(&pending, ReplaceAction::SpeedUp)
        .await
        .expect("quoted");
    assert!(faster.to.eq_ignore_ascii_case(bob), "{faster:?}");
    assert_eq!(faster.amount, "1");
    assert!(
        liar.lies_on("/v1/transactions/0x") > 0,
        "the pending transaction's lie was served"
    );
    // A replacement's quote at another nonce is refused.
    lie.store(2, Ordering::SeqCst);
    let e = ada
        .prepare_replacement(&pending, ReplaceAction::Cancel)
        .await
        .expect_err("another nonce");
    assert!(e.message.contains("nonce"), "{e:?}");
    assert!(
        liar.lies_on("/v1/transactions/prepare") > 0,
        "the nonce's lie was served"
    );
    // A pending transaction this device never signed (made with the phrase
    // elsewhere, broadcast straight to the service) is not its to replace.
    lie.store(0, Ordering::SeqCst);
    let words = ada
        .show_recovery_phrase(PIN)
        .await
        .expect("the words")
        .join(" ");
    let elsewhere = satchel_sdk::vault::Phrase::parse(&words)
        .expect("phrase")
        .signer()
        .expect("signer");
    let mut tx = alloy::consensus::TxEip1559 {
        chain_id: satchel_devstack::anvil::CHAIN_ID,
        nonce: 1,
        gas_limit: 21_000,
        max_fee_per_gas: 50_000_000_000,
        max_priority_fee_per_gas: 2_000_000_000,
        to: alloy::primitives::TxKind::Call(bob.parse().expect("address")),
        value: alloy::primitives::U256::from(7u64),
        access_list: Default::default(),
        input: Default::default(),
    };
    let signature = {
        use alloy::network::TxSignerSync as _;
        elsewhere.sign_transaction_sync(&mut tx).expect("signed")
    };
    let envelope: alloy::consensus::TxEnvelope = {
        use alloy::consensus::SignableTransaction as _;
        tx.into_signed(signature).into()
    };
    let raw = {
        use alloy::eips::eip2718::Encodable2718 as _;
        format!("0x{}", alloy::hex::encode(envelope.encoded_2718()))
    };
    let (token, account_id) = stack.rest_client_of(&ada).await;
    let request = stack
        .http
        .post(stack.url("/v1/transactions"))
        .header("X-API-KEY", &stack.app_key)
        .header("X-API-DOMAIN", &stack.domain)
        .header("X-SDK-TYPE", "desktop_rest_api")
        .bearer_auth(&token)
        .json(&serde_json::json!({"accountId": account_id, "raw": raw}));
    let (status, record) = satchel_tests::send(request).await;
    assert_eq!(status, 200, "{record}");
    let e = ada
        .prepare_replacement(
            record["txHash"].as_str().expect("a hash"),
            ReplaceAction::Cancel,
        )
        .await
        .expect_err("not signed here");
    assert!(e.message.contains("did not sign"), "{e:?}");
}

/// Chain ids, token contracts, symbols and decimals are the app's own network
/// table's (issue 22, item 3): a service that moves a token to another contract,
/// changes its decimals (a typed "1" would send a trillion times more), or
/// prepares for another chain id (the device's chain ids are its table's, never
/// an answer of the service) gets nothing shown or signed. Each test asserts
/// its lie was served.
pub async fn chains_and_tokens_are_the_apps_own_not_the_services(backend: Backend) {
    use std::sync::atomic::{AtomicBool, Ordering};

    use satchel_sdk::SendForm;

    let stack = Stack::start(backend).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    drop(stack.sign_in("ada@example.com", store.clone()).await);
    let honest = widget_on(&stack, stack.sdk_config().service_url, store.clone()).await;
    honest.register(PIN, false).await.expect("registered");
    let honest_balances = honest.get_balance(None).await.expect("balances");
    let honest_tokens = honest_balances[0].tokens.len();
    assert_eq!(honest_tokens, 2, "DEMO and DUSD: {honest_balances:?}");
    assert_eq!(honest.key_status().refused_accounts, 0);
    let address = honest.get_accounts(None, false).await.expect("accounts")[0]
        .address
        .clone();
    stack
        .demo
        .fund(address.parse().expect("address"))
        .await
        .expect("funded");

    let (demo, dollar) = (stack.demo.token18, stack.demo.dollar6);
    let other_chain = Arc::new(AtomicBool::new(false));
    let lie_chain = other_chain.clone();
    let liar = LyingService::start(stack.sdk_config().service_url, move |method, path, body| {
        if method == reqwest::Method::GET && path == "/v1/account" {
            for account in body["accounts"].as_array_mut().into_iter().flatten() {
                let contract = account["contract"]
                    .as_str()
                    .and_then(|c| c.parse::<alloy::primitives::Address>().ok());
                if contract == Some(dollar) {
                    account["decimals"] = Value::from(18);
                } else if contract == Some(demo) {
                    account["contract"] = Value::from(ATTACKER);
                }
            }
        }
        if lie_chain.load(Ordering::SeqCst) && path == "/v1/transactions/prepare" {
            body["chainId"] = Value::from(1);
        }
    })
    .await;
    let device = widget_on(&stack, liar.url.clone(), store.clone()).await;
    device
        .login_with_email("ada@example.com", "correct1horse")
        .await
        .expect("logged in through the liar");
    let balances = device.get_balance(None).await.expect("balances");
    assert!(
        balances[0].tokens.is_empty(),
        "neither the moved token nor the one with other decimals shows: {balances:?}"
    );
    assert_eq!(device.key_status().refused_accounts, 2, "the page says so");
    let e = device
        .prepare_send(&SendForm {
            account: AccountRef {
                network: "anvil".into(),
                address: address.clone(),
                contract: Some(dollar.to_checksum(None)),
                is_aa: None,
            },
            to: "0x00000000000000000000000000000000000b0b00".into(),
            amount: "1".into(),
        })
        .await
        .expect_err("not a token the device believes");
    assert!(e.message.contains("not one of your accounts"), "{e:?}");

    // The coin still sends as the app's table says; a service announcing chain 1
    // everywhere gets the quote refused, not a transaction signed for chain 1.
    let coin = AccountRef {
        network: "anvil".into(),
        address,
        contract: None,
        is_aa: None,
    };
    let send = SendForm {
        account: coin,
        to: "0x00000000000000000000000000000000000b0b00".into(),
        amount: "1".into(),
    };
    device
        .prepare_send(&send)
        .await
        .expect("the coin as the table says");
    assert!(
        liar.lies_on("/v1/account") > 0,
        "the token lies were served"
    );
    other_chain.store(true, Ordering::SeqCst);
    let e = device
        .prepare_send(&send)
        .await
        .expect_err("another chain than the app's");
    assert!(e.message.contains("different transaction"), "{e:?}");
    assert!(
        liar.lies_on("/v1/transactions/prepare") > 0,
        "the chain's lie was served"
    );
}

/// Fees are the service's to quote, not to inflate (issue 22, item 3): a fee
/// cap far above the base fee is flagged on its option and signed only when
/// the person confirms it; the service's own levels on the dev chain are not.
pub async fn an_inflated_fee_is_signed_only_when_the_person_accepts_it(backend: Backend) {
    use std::sync::atomic::{AtomicBool, Ordering};

    use satchel_sdk::{ConfirmSend, FeeSpeed, HighFee, SendForm};

    let stack = Stack::start(backend).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    drop(stack.sign_in("ada@example.com", store.clone()).await);
    let inflate = Arc::new(AtomicBool::new(false));
    let lie = inflate.clone();
    let liar = LyingService::start(stack.sdk_config().service_url, move |method, path, body| {
        if lie.load(Ordering::SeqCst)
            && method == reqwest::Method::POST
            && path == "/v1/transactions/prepare"
        {
            let base: u128 = body["baseFeePerGas"]
                .as_str()
                .and_then(|b| b.parse().ok())
                .unwrap_or_default();
            let inflated = (base.max(1_000_000_000) * 100).to_string();
            body["fees"]["normal"]["maxFeePerGas"] = Value::from(inflated);
        }
    })
    .await;
    let ada = widget_on(&stack, liar.url.clone(), store.clone()).await;
    ada.login_with_email("ada@example.com", "correct1horse")
        .await
        .expect("logged in");
    ada.register(PIN, false).await.expect("registered");
    let address = ada.get_accounts(None, false).await.expect("accounts")[0]
        .address
        .clone();
    stack
        .demo
        .fund(address.parse().expect("address"))
        .await
        .expect("funded");
    let send = SendForm {
        account: AccountRef {
            network: "anvil".into(),
            address: address.clone(),
            contract: None,
            is_aa: None,
        },
        to: "0x00000000000000000000000000000000000b0b00".into(),
        amount: "1".into(),
    };
    let honest = ada.prepare_send(&send).await.expect("quoted");
    assert!(
        honest.options.iter().all(|o| o.high_fee.is_none()),
        "the service's own levels: {:?}",
        honest.options
    );

    inflate.store(true, Ordering::SeqCst);
    let quote = ada.prepare_send(&send).await.expect("quoted");
    let normal = quote
        .options
        .iter()
        .find(|o| o.speed == FeeSpeed::Normal)
        .expect("normal");
    assert_eq!(normal.high_fee, Some(HighFee::AboveBaseFee), "{normal:?}");
    assert!(
        liar.lies_on("/v1/transactions/prepare") > 0,
        "the lie was served"
    );
    let nonce_before = stack.nonce_of(&address).await;
    let e = ada
        .confirm_send(ConfirmSend {
            quote_id: quote.quote_id.clone(),
            speed: FeeSpeed::Normal,
            pin: PIN.into(),
            request_id: None,
            accept_high_fee: false,
        })
        .await
        .expect_err("not accepted");
    assert!(e.message.contains("unusually high"), "{e:?}");
    assert_eq!(stack.nonce_of(&address).await, nonce_before, "nothing sent");
    ada.confirm_send(ConfirmSend {
        quote_id: quote.quote_id,
        speed: FeeSpeed::Normal,
        pin: PIN.into(),
        request_id: None,
        accept_high_fee: true,
    })
    .await
    .expect("accepted on the review page");
}
