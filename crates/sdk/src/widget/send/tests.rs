use super::*;
use quotes::QUOTES_KEPT;
use requests::cancelled;
use tokio::sync::oneshot;

#[test]
fn addresses_need_their_checksum_when_mixed_case() {
    let good = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    assert!(check_address(good).is_ok());
    assert!(check_address(&good.to_lowercase()).is_ok());
    assert!(check_address(&format!("0x{}", good[2..].to_uppercase())).is_ok());
    let typo = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92267";
    let e = check_address(typo).expect_err("a typo");
    assert!(e.message.contains("checksum"), "{}", e.message);
    let flipped = "0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    assert!(check_address(flipped).is_err(), "one letter's case changed");
    for bad in [
        "",
        "0x",
        "f39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        "0x123",
        "0xzz9Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        "vitalik.eth",
    ] {
        assert!(check_address(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn a_newer_send_cancels_the_waiting_one_and_only_its_own_id_settles_it() {
    let mut sends = Sends::default();
    let (first, mut first_rx) = oneshot::channel();
    sends.waiting = Some((1, first));
    let (second, mut second_rx) = oneshot::channel();
    if let Some((_, earlier)) = sends.waiting.replace((2, second)) {
        let _ = earlier.send(Err(cancelled()));
    }
    let first_result = first_rx.try_recv().expect("settled");
    assert!(
        first_result
            .expect_err("cancelled")
            .is(ServiceErrorCode::UserCancelled)
    );
    sends.settle(
        1,
        Ok(SendResult {
            tx_id: "0x1".into(),
        }),
    );
    assert!(
        second_rx.try_recv().is_err(),
        "an old id does not settle the new one"
    );
    sends.settle(
        2,
        Ok(SendResult {
            tx_id: "0x2".into(),
        }),
    );
    assert_eq!(
        second_rx.try_recv().expect("settled").expect("ok").tx_id,
        "0x2"
    );
}

fn stored(id: &str, from: Address, nonce: u64) -> StoredQuote {
    StoredQuote {
        id: id.to_owned(),
        made: Instant::now(),
        account_id: String::new(),
        chain_id: 1,
        from,
        nonce,
        gas_limit: 21_000,
        to: alloy::primitives::TxKind::Call(Address::ZERO),
        value: U256::ZERO,
        input: Bytes::new(),
        fees: Vec::new(),
        high_fees: Vec::new(),
        replaces: false,
    }
}

#[test]
fn quotes_are_bounded_and_taken_once() {
    let mut sends = Sends::default();
    for n in 0..20 {
        sends.keep(stored(&n.to_string(), Address::ZERO, 0));
    }
    assert_eq!(sends.quotes.len(), QUOTES_KEPT);
    assert!(sends.take("0").is_none(), "the oldest went");
    assert!(sends.take("19").is_some());
    assert!(sends.take("19").is_none(), "taken once");
}

#[test]
fn a_fee_far_above_the_base_fee_or_a_quarter_of_the_amount_needs_a_yes() {
    const GWEI: u128 = 1_000_000_000;
    let fee = |max_fee: u128| U256::from(21_000u64) * U256::from(max_fee);
    let eth = U256::from(10u64).pow(U256::from(18));
    // The service's own levels at a 20 gwei base fee and a 1 gwei tip: none.
    for (cap, tip) in [(23 * GWEI, GWEI), (42 * GWEI, GWEI), (62 * GWEI, 2 * GWEI)] {
        assert_eq!(high_fee(cap, tip, 20 * GWEI, fee(cap), Some(eth)), None);
    }
    // A cap above four times the base fee plus twice the tip, or a tip above
    // both the base fee and 5 gwei.
    assert_eq!(
        high_fee(83 * GWEI, GWEI, 20 * GWEI, fee(83 * GWEI), Some(eth)),
        Some(HighFee::AboveBaseFee)
    );
    assert_eq!(
        high_fee(30 * GWEI, 25 * GWEI, 20 * GWEI, fee(30 * GWEI), None),
        Some(HighFee::AboveBaseFee)
    );
    // A tip above 5 gwei is usual when the base fee is higher still.
    assert_eq!(
        high_fee(400 * GWEI, 6 * GWEI, 100 * GWEI, fee(400 * GWEI), None),
        None
    );
    // A fee above a quarter of the coin sent; a token send (no coin amount) and
    // a cancel (nothing sent) have no such share.
    let small = fee(42 * GWEI) * U256::from(4) - U256::from(1);
    assert_eq!(
        high_fee(42 * GWEI, GWEI, 20 * GWEI, fee(42 * GWEI), Some(small)),
        Some(HighFee::ShareOfAmount)
    );
    assert_eq!(
        high_fee(
            42 * GWEI,
            GWEI,
            20 * GWEI,
            fee(42 * GWEI),
            Some(small + U256::from(1))
        ),
        None,
        "exactly a quarter"
    );
    assert_eq!(
        high_fee(42 * GWEI, GWEI, 20 * GWEI, fee(42 * GWEI), None),
        None
    );
    assert_eq!(
        high_fee(42 * GWEI, GWEI, 20 * GWEI, fee(42 * GWEI), Some(U256::ZERO)),
        None
    );
}

#[test]
fn a_page_made_before_its_nonce_was_sent_takes_the_next_one() {
    let (ada, bob) = (Address::repeat_byte(0xad), Address::repeat_byte(0xb0));
    let mut sends = Sends::default();
    // Two pages made at once, both quoted at nonce 5.
    let first = stored("first", ada, 5);
    let second = stored("second", ada, 5);
    let speed_up = StoredQuote {
        replaces: true,
        ..stored("speed-up", ada, 5)
    };
    let other_chain = StoredQuote {
        chain_id: 2,
        ..stored("elsewhere", ada, 5)
    };
    let bobs = stored("bob", bob, 5);
    assert_eq!(sends.nonce_for(&first), 5);
    sends.sent(1, ada, 5);
    assert_eq!(sends.nonce_for(&second), 6, "the next, not a replacement");
    sends.sent(1, ada, 6);
    assert_eq!(sends.nonce_for(&stored("third", ada, 5)), 5, "made after");
    let queued_earlier = StoredQuote {
        made: first.made,
        ..stored("queued", ada, 6)
    };
    assert_eq!(sends.nonce_for(&queued_earlier), 7);
    assert_eq!(sends.nonce_for(&speed_up), 5, "a replacement keeps its own");
    assert_eq!(sends.nonce_for(&other_chain), 5, "another chain's count");
    assert_eq!(sends.nonce_for(&bobs), 5, "another account's count");
    // An older nonce noted later never lowers what was sent.
    sends.sent(1, ada, 3);
    assert_eq!(sends.nonce_for(&queued_earlier), 7);
}

#[test]
fn the_nonces_sent_are_kept_for_a_bounded_number_of_accounts() {
    let mut sends = Sends::default();
    for n in 0..1_000u32 {
        let from = Address::left_padding_from(&n.to_be_bytes());
        let quote = stored("q", from, 0);
        sends.sent(1, from, 0);
        assert_eq!(sends.nonce_for(&quote), 1, "the newest is remembered");
        assert!(sends.last_sent_len() <= quotes::SIGNERS_KEPT);
    }
}
