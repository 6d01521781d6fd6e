//! Several accounts as a person uses them, against the real service and anvil:
//! the phrase's next account added behind the PIN, receiving and sending on its
//! own, named, and found again when the wallet is restored from its phrase.

use std::sync::Arc;

use alloy::primitives::Address;
use satchel_api::TransactionStatus;
use satchel_sdk::vault::{KdfStrength, Phrase};
use satchel_sdk::{ErrorCode, Login, MemoryStore, SdkErrorCode, TokenStore, Widget};
use satchel_tests::{Backend, Stack};

use crate::sending::{PIN, chain_balances, coin, form, person, send_now, settled, stack, wei};

/// Ada on a second device with an empty keychain, restored from her phrase.
async fn restored(stack: &Stack, words: &str) -> Widget {
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    let login = Login::new(stack.app_id().await, &stack.app_key, store.clone());
    let w = Widget::new(Arc::new(login), store)
        .with_kdf(KdfStrength::Test)
        .with_networks(stack.service.network_table());
    w.init(stack.sdk_config()).await.expect("initialised");
    w.login_with_email("ada@example.com", "correct1horse")
        .await
        .expect("logged in");
    w.restore_from_phrase(words, "135792")
        .await
        .expect("restored");
    w
}

pub async fn a_second_account_receives_and_sends_on_its_own(backend: Backend) {
    let stack = stack(backend).await;
    let (ada, first) = person(&stack, "ada@example.com").await;
    let (_, bob) = person(&stack, "bob@example.com").await;

    // A wrong PIN adds nothing.
    let e = ada
        .add_account("000000", "Savings")
        .await
        .expect_err("wrong PIN");
    assert_eq!(e.code, ErrorCode::Sdk(SdkErrorCode::WrongPin), "{e:?}");
    assert_eq!(ada.wallet_accounts().await.expect("accounts").len(), 1);

    // The phrase's index 1, named, listed after the first on every network.
    let accounts = ada.add_account(PIN, " Savings ").await.expect("added");
    let words = ada
        .show_recovery_phrase(PIN)
        .await
        .expect("words")
        .join(" ");
    let phrase = Phrase::parse(&words).expect("the phrase");
    let second = phrase.signer_at(1).expect("index 1").address();
    assert_eq!(
        accounts
            .iter()
            .map(|a| (a.address.clone(), a.label.as_str(), a.index))
            .collect::<Vec<_>>(),
        vec![
            (first.to_checksum(None), "Account 1", 0),
            (second.to_checksum(None), "Savings", 1),
        ]
    );
    let listed = ada.get_accounts(None, false).await.expect("getAccounts");
    assert!(
        listed
            .iter()
            .any(|a| a.address.eq_ignore_ascii_case(&second.to_string()))
    );

    // It receives: its balance is its own, the first's stays as it was.
    stack.demo.fund(second).await.expect("funded");
    ada.refresh_balances().await.expect("refreshed");
    let balances = ada.get_balance(None).await.expect("balances");
    let coin_of = |who: Address| {
        balances
            .iter()
            .find(|b| b.address.eq_ignore_ascii_case(&who.to_string()))
            .map(|b| b.balance.clone())
    };
    assert_eq!(coin_of(second).as_deref(), Some("10"));
    assert_eq!(coin_of(first).as_deref(), Some("0"));

    // It sends, signed with its own key: exactly the amount and the fee leave it.
    let (before, _) = chain_balances(&stack, second).await;
    let hash = send_now(&ada, form(coin(second), bob, "0.5")).await;
    let mined = settled(&ada, &hash).await;
    assert_eq!(mined.status, TransactionStatus::Mined);
    assert!(
        mined.address.eq_ignore_ascii_case(&second.to_string()),
        "{mined:?}"
    );
    let fee = wei(mined.fee.as_deref().expect("fee"), 18);
    assert_eq!(
        chain_balances(&stack, second).await.0,
        before - wei("0.5", 18) - fee
    );
    assert_eq!(chain_balances(&stack, bob).await.0, wei("0.5", 18));
    assert!(chain_balances(&stack, first).await.0.is_zero());

    // A token added by address for the second account is its own: its exact
    // balance there, nothing of it listed for the first.
    let supply = alloy::primitives::U256::from(10u64).pow(alloy::primitives::U256::from(21));
    let fresh = stack
        .demo
        .deploy_token("Fresh Coin", "FRSH", 9, supply)
        .await
        .expect("deployed");
    stack
        .demo
        .send_token(
            fresh,
            second,
            alloy::primitives::U256::from(1_234_567_890_123u64),
        )
        .await
        .expect("sent");
    let contract = fresh.to_checksum(None);
    let preview = ada
        .preview_token("anvil", &contract, Some(second))
        .await
        .expect("looked up");
    assert_eq!(
        preview.balance, "1234567890123",
        "the second account's, in base units"
    );
    ada.add_token("anvil", &contract, "FRSH", 9, Some(second))
        .await
        .expect("added");
    let balances = ada.get_balance(None).await.expect("balances");
    let holds_fresh = |who: Address| {
        balances
            .iter()
            .find(|b| b.address.eq_ignore_ascii_case(&who.to_string()))
            .and_then(|b| b.tokens.iter().find(|t| t.symbol == "FRSH"))
            .map(|t| t.balance.clone())
    };
    assert_eq!(holds_fresh(second).as_deref(), Some("1234.567890123"));
    assert_eq!(holds_fresh(first), None);

    // Renamed; and a device restored from the phrase finds both accounts, and
    // signs for the second.
    ada.rename_account(second, "Rent").await.expect("renamed");
    let other = restored(&stack, &words).await;
    let found = other.wallet_accounts().await.expect("accounts");
    assert_eq!(
        found
            .iter()
            .map(|a| (a.index, a.label.as_str()))
            .collect::<Vec<_>>(),
        vec![(0, "Account 1"), (1, "Rent")]
    );
    let signer = other
        .unlock("135792", second)
        .await
        .expect("the second key");
    assert_eq!(signer.address(), second);
}

pub async fn an_account_added_on_another_device_shows_once_the_pin_confirms_it(backend: Backend) {
    let stack = stack(backend).await;
    // Ada's wallet on this device, with the service keeping its backup; her
    // second device restores from it (the same PIN) and adds an account.
    let here = device(&stack).await;
    drop(stack.sign_in("ada@example.com", here.1.clone()).await);
    let ada = here.0;
    ada.init(stack.sdk_config()).await.expect("initialised");
    ada.register(PIN, true).await.expect("registered");
    let first: Address = ada.wallet_accounts().await.expect("accounts")[0]
        .address
        .parse()
        .expect("an address");
    let (other, _) = device(&stack).await;
    other.init(stack.sdk_config()).await.expect("initialised");
    other
        .login_with_email("ada@example.com", "correct1horse")
        .await
        .expect("logged in");
    other.restore_from_backup(PIN).await.expect("restored");
    let added = other.add_account(PIN, "Savings").await.expect("added");
    let second: Address = added[1].address.parse().expect("an address");

    // This device lists only what it derived; the new one waits for the PIN,
    // and is not counted as refused.
    let listed = ada.get_accounts(None, false).await.expect("accounts");
    assert!(
        listed
            .iter()
            .all(|a| a.address.eq_ignore_ascii_case(&first.to_string())),
        "{listed:?}"
    );
    let status = ada.key_status();
    assert_eq!(
        (status.unconfirmed_accounts, status.refused_accounts),
        (1, 0)
    );
    assert_eq!(ada.wallet_accounts().await.expect("accounts").len(), 1);

    let confirmed = ada.confirm_accounts(PIN).await.expect("confirmed");
    assert_eq!(
        confirmed
            .iter()
            .map(|a| (a.index, a.label.as_str()))
            .collect::<Vec<_>>(),
        vec![(0, "Account 1"), (1, "Savings")]
    );
    assert_eq!(ada.key_status().unconfirmed_accounts, 0);
    let signer = ada.unlock(PIN, second).await.expect("the second key");
    assert_eq!(signer.address(), second);
}

/// A device of Ada's with an empty keychain, not yet started.
async fn device(stack: &Stack) -> (Widget, Arc<dyn TokenStore>) {
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    let login = Login::new(stack.app_id().await, &stack.app_key, store.clone());
    let w = Widget::new(Arc::new(login), store.clone())
        .with_kdf(KdfStrength::Test)
        .with_networks(stack.service.network_table());
    (w, store)
}
