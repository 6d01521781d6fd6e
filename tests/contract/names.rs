//! ENS names on the local stack's registry (`devstack/contracts/DemoEns.sol`):
//! a send to `alice.eth` arrives at Alice's address, and an address is shown by
//! its primary name only when that name resolves back to it.

use alloy::primitives::Address;
use satchel_api::ServiceErrorCode;
use satchel_chain::Chain;
use satchel_sdk::SendForm;
use satchel_tests::Backend;
use std::time::Duration;

use crate::sending::{coin, person, send_now, settled, stack, wei};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_send_to_a_name_arrives_at_the_address_it_resolves_to() {
    let stack = stack(Backend::Sqlite).await;
    let (ada, ada_address) = person(&stack, "ada@example.com").await;
    stack.demo.fund(ada_address).await.expect("funded");
    let alice = stack.demo.ens.alice;
    let chain = Chain::http(stack.anvil.url.clone(), Duration::from_secs(5)).expect("chain");
    let before = chain.balances(alice, &[]).await.expect("balance").native;

    // As typed: upper case folds to the one form resolved.
    let checked = ada
        .check_recipient(&coin(ada_address), " Alice.ETH ")
        .await
        .expect("resolved");
    assert_eq!(checked.address, alice.to_checksum(None));
    assert_eq!(checked.name.as_deref(), Some("alice.eth"));
    assert!(!checked.is_self);

    let form = SendForm {
        account: coin(ada_address),
        to: "alice.eth".into(),
        amount: "0.5".into(),
    };
    let quote = ada.prepare_send(&form).await.expect("quoted");
    assert_eq!(quote.to, alice.to_checksum(None));
    assert_eq!(quote.recipient_name.as_deref(), Some("alice.eth"));
    let hash = send_now(&ada, form).await;
    settled(&ada, &hash).await;
    let after = chain.balances(alice, &[]).await.expect("balance").native;
    assert_eq!(after - before, wei("0.5", 18), "Alice got it");

    // Names that lead nowhere, or that Satchel does not take, are refused
    // before anything is quoted.
    for (typed, says) in [
        ("nobody.eth", "not a registered name"),
        ("аlice.eth", "labels of a to z"), // a Cyrillic "а"
        ("alice..eth", "labels of a to z"),
    ] {
        let refused = ada
            .check_recipient(&coin(ada_address), typed)
            .await
            .expect_err(typed);
        assert!(
            refused.is(ServiceErrorCode::InvalidParameters) && refused.message.contains(says),
            "{typed}: {refused:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_is_named_only_by_a_name_that_resolves_back_to_it() {
    let stack = stack(Backend::Sqlite).await;
    let (ada, _) = person(&stack, "ada@example.com").await;
    let ens = stack.demo.ens;
    assert_eq!(
        ada.primary_name("anvil", ens.alice)
            .await
            .expect("looked up"),
        Some("alice.eth".into())
    );
    // Bob's reverse record claims alice.eth, which resolves to Alice.
    assert_eq!(
        ada.primary_name("anvil", ens.bob).await.expect("looked up"),
        None,
        "a reverse record alone names nothing"
    );
    // An address book entry has no network: the first network with a
    // registry answers.
    assert_eq!(
        ada.primary_name_anywhere(ens.alice)
            .await
            .expect("looked up"),
        Some("alice.eth".into())
    );
    // bob.eth itself is Bob's: a send to it goes to him.
    let (_, bob) = ada
        .resolve_name("anvil", "bob.eth")
        .await
        .expect("resolved");
    assert_eq!(bob, ens.bob);
    // No reverse record at all.
    assert_eq!(
        ada.primary_name("anvil", Address::repeat_byte(0x42))
            .await
            .expect("looked up"),
        None
    );
}
