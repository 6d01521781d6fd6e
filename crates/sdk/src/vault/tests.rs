//! The sealing, the PIN key and the accounts a phrase derives.

use super::*;

#[test]
fn a_sealed_phrase_opens_with_its_pin_and_share_only() {
    let phrase = Phrase::generate().expect("phrase");
    assert_eq!(phrase.words().len(), 12);
    let pin = PinKey::new_pin("123456", KdfStrength::Test).expect("k");
    let share = new_share();
    let sealed = phrase.seal(&pin, &share).expect("sealed");
    let opened = sealed.open(&pin, &share).expect("opens");
    assert_eq!(opened.address, phrase.address);

    let wrong_pin = PinKey::derive("654321", &sealed.kdf).expect("k");
    assert!(sealed.open(&wrong_pin, &share).is_err(), "wrong PIN");
    assert!(sealed.open(&pin, &new_share()).is_err(), "wrong share");
    assert_ne!(wrong_pin.proof(), pin.proof());
    assert_eq!(
        PinKey::derive("123456", &sealed.kdf).expect("k").proof(),
        pin.proof(),
        "the proof is the same for the same PIN and salt"
    );
}

#[test]
fn a_backup_is_the_same_sealing() {
    let phrase = Phrase::generate().expect("phrase");
    let pin = PinKey::new_pin("123456", KdfStrength::Test).expect("k");
    let share = new_share();
    let sealed = phrase.seal(&pin, &share).expect("sealed");
    let restored = SealedMnemonic::from_backup(
        &sealed.backup().expect("backup"),
        sealed.kdf.clone(),
        &sealed.address,
    )
    .expect("from backup");
    assert_eq!(
        restored.open(&pin, &share).expect("opens").address,
        phrase.address
    );
}

#[test]
fn the_well_known_test_mnemonic_derives_the_well_known_address() {
    let phrase = Phrase::parse("  Test test test test test test test test test test test JUNK ")
        .expect("valid");
    assert_eq!(
        phrase.address.to_checksum(None),
        "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
    );
    assert!(
        Phrase::parse("test test test test test test test test test test test test").is_err(),
        "bad checksum"
    );
    assert!(Phrase::parse("hello world").is_err());
}

#[test]
fn further_accounts_are_taken_only_as_the_phrase_derives_them() {
    let phrase = Phrase::parse("test test test test test test test test test test test junk")
        .expect("valid");
    let pin = PinKey::new_pin("123456", KdfStrength::Test).expect("k");
    let mut sealed = phrase.seal(&pin, &new_share()).expect("sealed");
    let second = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    let third = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
    assert_eq!(
        phrase.signer_at(1).expect("k").address().to_checksum(None),
        second
    );
    // The service lists the third with a path that is not its own, and a
    // stranger's address at index 3: only what the phrase makes is taken.
    let listed = vec![
        (third.to_lowercase(), account_path(3)),
        (second.to_lowercase(), account_path(1)),
        (third.to_owned(), account_path(2)),
    ];
    assert!(sealed.learn(&phrase, &listed).expect("learned"));
    assert_eq!(sealed.more, vec![second.to_owned(), third.to_owned()]);
    assert_eq!(sealed.index_of(&third.to_lowercase()), Some(2));
    assert_eq!(sealed.index_of(&phrase.address.to_string()), Some(0));
    assert!(!sealed.learn(&phrase, &listed).expect("nothing new"));
    let stranger = vec![(
        "0x0000000000000000000000000000000000000bad".to_owned(),
        account_path(3),
    )];
    assert!(!sealed.learn(&phrase, &stranger).expect("nothing taken"));
    assert!(!sealed.holds("0x0000000000000000000000000000000000000bad"));
    // Kept across a round trip through the keychain's JSON; an old entry
    // without the list reads as the first account alone.
    let json = serde_json::to_string(&sealed).expect("json");
    assert_eq!(
        serde_json::from_str::<SealedMnemonic>(&json).expect("back"),
        sealed
    );
    sealed.more.clear();
    assert!(
        !serde_json::to_string(&sealed)
            .expect("json")
            .contains("more")
    );
}

#[test]
fn secrets_do_not_print() {
    let phrase = Phrase::generate().expect("phrase");
    let first = phrase.words()[0].clone();
    assert!(!format!("{phrase:?}").contains(&format!("\"{first}")));
    let pin = PinKey::new_pin("123456", KdfStrength::Test).expect("k");
    assert_eq!(format!("{pin:?}"), "PinKey { <redacted> }");
}
