use super::*;

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

#[test]
fn quotes_are_bounded_and_taken_once() {
    let mut sends = Sends::default();
    for n in 0..20 {
        sends.keep(StoredQuote {
            id: n.to_string(),
            made: Instant::now(),
            account_id: String::new(),
            chain_id: 1,
            from: Address::ZERO,
            nonce: 0,
            gas_limit: 21_000,
            to: Address::ZERO,
            value: U256::ZERO,
            input: Bytes::new(),
            fees: Vec::new(),
        });
    }
    assert_eq!(sends.quotes.len(), QUOTES_KEPT);
    assert!(sends.take("0").is_none(), "the oldest went");
    assert!(sends.take("19").is_some());
    assert!(sends.take("19").is_none(), "taken once");
}
