//! The wallet key as a person depends on it, against the real service: the PIN
//! proven to the service (a copied keychain entry is useless without it), the
//! recovery phrase shown and confirmed, the PIN changed, and the wallet restored
//! on a second, empty keychain from the phrase or from the service's backup.

use std::sync::Arc;

use alloy::primitives::Address;
use alloy::signers::SignerSync as _;
use satchel_api::{LoginStatus, ServiceErrorCode, ServiceLifeCycle};
use satchel_sdk::keychain::wallet_entry;
use satchel_sdk::vault::{KdfStrength, PinKey, SealedMnemonic, new_share};
use satchel_sdk::{ErrorCode, KeyState, Login, MemoryStore, SdkErrorCode, TokenStore, Widget};
use satchel_tests::{Backend, Stack};

const PIN: &str = "246810";

async fn widget(stack: &Stack, store: Arc<dyn TokenStore>) -> Widget {
    let login = Login::new(stack.app_id().await, &stack.app_key, store.clone());
    let widget = Widget::new(Arc::new(login), store)
        .with_kdf(KdfStrength::Test)
        .with_networks(stack.service.network_table());
    widget.init(stack.sdk_config()).await.expect("initialised");
    widget
}

/// Ada, signed up, with a wallet made on the device behind `store`.
async fn registered(stack: &Stack, store: Arc<dyn TokenStore>, backup: bool) -> (Widget, Address) {
    drop(stack.sign_in("ada@example.com", store.clone()).await);
    let w = widget(stack, store).await;
    w.register(PIN, backup).await.expect("registered");
    let address = w.get_accounts(None, false).await.expect("accounts")[0]
        .address
        .parse()
        .expect("address");
    (w, address)
}

/// A second device: Ada logs in on an empty keychain.
async fn second_device(stack: &Stack) -> (Widget, Arc<dyn TokenStore>) {
    second_device_on(stack, Arc::new(MemoryStore::default())).await
}

/// A second device whose (empty) keychain is `store`.
async fn second_device_on(
    stack: &Stack,
    store: Arc<dyn TokenStore>,
) -> (Widget, Arc<dyn TokenStore>) {
    let w = widget(stack, store.clone()).await;
    w.login_with_email("ada@example.com", "correct1horse")
        .await
        .expect("logged in");
    assert_eq!(w.key_status().state, KeyState::Missing);
    (w, store)
}

fn is(e: &satchel_sdk::SdkError, code: SdkErrorCode) -> bool {
    e.code == ErrorCode::Sdk(code)
}

/// The restored key signs a message whose recovered signer is the wallet.
async fn signs_as(w: &Widget, pin: &str, address: Address) {
    let signer = w.unlock(pin, address).await.expect("unlocked");
    let signature = signer.sign_message_sync(b"hello").expect("signed");
    assert_eq!(
        signature
            .recover_address_from_msg(b"hello")
            .expect("recovered"),
        address
    );
}

pub async fn a_copied_keychain_entry_is_useless_without_the_service(backend: Backend) {
    let stack = Stack::start(backend).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    let (w, _) = registered(&stack, store.clone(), false).await;
    let user_id = w
        .current_user()
        .and_then(|u| u.user_info)
        .expect("user")
        .user_id;
    let entry = store
        .load(&wallet_entry(&stack.app_id().await, &user_id))
        .expect("keychain")
        .expect("the wallet's entry");
    let sealed: SealedMnemonic = serde_json::from_str(&entry).expect("json");
    // With the right PIN but without the share the service keeps, nothing opens;
    // and the entry holds no share to find.
    let k = PinKey::derive(PIN, &sealed.kdf).expect("k");
    assert!(sealed.open(&k, &new_share()).is_err());
    assert!(!entry.contains("share"), "{entry}");
    assert!(!entry.contains(&k.proof()), "no proof to test PINs against");
    // Through the service, the right PIN opens it and a wrong one is counted.
    let first: alloy::primitives::Address = sealed.address.parse().expect("an address");
    let e = w.unlock("000000", first).await.expect_err("wrong PIN");
    assert!(is(&e, SdkErrorCode::WrongPin), "{e:?}");
    assert_eq!(w.pin_status().await.expect("status").tries_left, 4);
    w.unlock(PIN, first).await.expect("the right PIN");
    assert_eq!(w.pin_status().await.expect("status").tries_left, 5);
}

pub async fn the_phrase_is_shown_behind_the_pin_and_its_confirmation_kept(backend: Backend) {
    let stack = Stack::start(backend).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    let (w, address) = registered(&stack, store.clone(), false).await;
    assert!(
        !w.key_status().phrase_confirmed,
        "a reminder until confirmed"
    );
    let e = w
        .show_recovery_phrase("135790")
        .await
        .expect_err("wrong PIN");
    assert!(is(&e, SdkErrorCode::WrongPin));
    let words = w.show_recovery_phrase(PIN).await.expect("the words");
    assert_eq!(words.len(), 12);
    let phrase = satchel_sdk::vault::Phrase::parse(&words.join(" ")).expect("valid");
    assert_eq!(phrase.address, address, "the words are this wallet's");
    w.confirm_recovery_phrase().await.expect("confirmed");
    // The private key, behind the same PIN, is this wallet's.
    let e = w
        .export_private_key("135790", address)
        .await
        .expect_err("wrong PIN");
    assert!(is(&e, SdkErrorCode::WrongPin));
    let key = w.export_private_key(PIN, address).await.expect("the key");
    let signer: alloy::signers::local::PrivateKeySigner = key.parse().expect("a key");
    assert_eq!(signer.address(), address, "the key is this wallet's");
    let again = widget(&stack, store).await;
    assert!(again.key_status().phrase_confirmed, "kept across a restart");
}

pub async fn a_changed_pin_opens_the_key_and_the_old_one_does_not(backend: Backend) {
    let stack = Stack::start(backend).await;
    // The device's key in the OS keychain, as the app keeps it.
    let Some(store) = satchel_tests::keychain_store() else {
        return;
    };
    let (w, address) = registered(&stack, store.clone(), true).await;
    let e = w
        .change_pin("000000", "135790")
        .await
        .expect_err("wrong old PIN");
    assert!(is(&e, SdkErrorCode::WrongPin));
    w.change_pin(PIN, "135790").await.expect("changed");
    assert!(is(
        &w.unlock(PIN, address).await.expect_err("old PIN"),
        SdkErrorCode::WrongPin
    ));
    signs_as(&w, "135790", address).await;
    // The backup follows the new PIN.
    let (other, _) = second_device(&stack).await;
    other
        .restore_from_backup("135790")
        .await
        .expect("restored with the new PIN");
}

pub async fn a_wallet_is_restored_from_its_phrase_on_an_empty_keychain(backend: Backend) {
    let stack = Stack::start(backend).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    let (w, address) = registered(&stack, store, false).await;
    let words = w
        .show_recovery_phrase(PIN)
        .await
        .expect("the words")
        .join(" ");

    let (other, other_store) = second_device(&stack).await;
    let user_id = other
        .current_user()
        .and_then(|u| u.user_info)
        .expect("user")
        .user_id;
    let entry = wallet_entry(&stack.app_id().await, &user_id);
    // Not a phrase, and another wallet's phrase: refused, nothing stored.
    let e = other
        .restore_from_phrase("apple banana cherry", "246813")
        .await
        .expect_err("no phrase");
    assert!(e.is(ServiceErrorCode::InvalidParameters), "{e:?}");
    let stranger = satchel_sdk::vault::Phrase::generate()
        .expect("phrase")
        .words()
        .join(" ");
    let e = other
        .restore_from_phrase(&stranger, "246813")
        .await
        .expect_err("not this wallet's");
    assert!(e.is(ServiceErrorCode::InvalidParameters), "{e:?}");
    assert!(e.message.contains("not this wallet"), "{}", e.message);
    assert_eq!(other_store.load(&entry), Ok(None), "nothing stored");
    assert_eq!(other.get_status(), ServiceLifeCycle::LoginBeforeRegister);

    // The phrase as a person types it: extra spaces and capitals.
    let typed = format!("  {}  ", words.to_uppercase().replace(' ', "   "));
    let user = other
        .restore_from_phrase(&typed, "246813")
        .await
        .expect("restored");
    assert_eq!(user.user_status.login_status, LoginStatus::Complete);
    assert_eq!(other.get_status(), ServiceLifeCycle::Login);
    assert_eq!(other.key_status().state, KeyState::OnDevice);
    assert!(other.key_status().phrase_confirmed);
    signs_as(&other, "246813", address).await;
}

pub async fn a_wallet_is_restored_from_the_backup_with_the_pin(backend: Backend) {
    let stack = Stack::start(backend).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    let (_, address) = registered(&stack, store, true).await;
    // The second device keeps what it restores in the OS keychain.
    let Some(keychain) = satchel_tests::keychain_store() else {
        return;
    };
    let (other, _) = second_device_on(&stack, keychain).await;
    assert!(other.pin_status().await.expect("status").has_backup);
    let restored_mails = |stack: &Stack| {
        stack
            .mail_subjects("ada@example.com")
            .into_iter()
            .filter(|s| s.contains("restored"))
            .count()
    };
    let e = other
        .restore_from_backup("000000")
        .await
        .expect_err("wrong PIN");
    assert!(is(&e, SdkErrorCode::WrongPin), "{e:?}");
    assert_eq!(restored_mails(&stack), 0, "nothing was released");
    other.restore_from_backup(PIN).await.expect("restored");
    assert_eq!(other.get_status(), ServiceLifeCycle::Login);
    // The owner hears of it, whoever knew the PIN.
    assert_eq!(restored_mails(&stack), 1);
    signs_as(&other, PIN, address).await;
    assert_eq!(restored_mails(&stack), 1, "signing asks for no backup");
}

pub async fn without_a_backup_only_the_phrase_restores(backend: Backend) {
    let stack = Stack::start(backend).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    registered(&stack, store, false).await;
    let (other, _) = second_device(&stack).await;
    assert!(!other.pin_status().await.expect("status").has_backup);
    let e = other.restore_from_backup(PIN).await.expect_err("no backup");
    assert!(e.is(ServiceErrorCode::InvalidParameters), "{e:?}");
    assert_eq!(other.get_status(), ServiceLifeCycle::LoginBeforeRegister);
}

pub async fn a_pin_changed_elsewhere_makes_this_copy_stale_and_counts_nothing(backend: Backend) {
    let stack = Stack::start(backend).await;
    // This device's copy in the OS keychain, read again by a restarted widget.
    let Some(store) = satchel_tests::keychain_store() else {
        return;
    };
    let (w, address) = registered(&stack, store.clone(), false).await;
    let words = w
        .show_recovery_phrase(PIN)
        .await
        .expect("the words")
        .join(" ");
    // Another device restores the wallet under a new PIN (and a new share).
    let (other, _) = second_device(&stack).await;
    other
        .restore_from_phrase(&words, "246813")
        .await
        .expect("restored");

    // This device's copy no longer opens: it says so, and tries no PIN with it.
    let w = widget(&stack, store).await;
    assert_eq!(w.key_status().state, KeyState::Stale);
    assert_eq!(w.get_status(), ServiceLifeCycle::LoginBeforeRegister);
    // Not even for the wallet's own address, with the PIN that opened it.
    let e = w
        .unlock(PIN, address)
        .await
        .expect_err("a stale copy is not used");
    assert!(e.is(ServiceErrorCode::InvalidLoginSession), "{e:?}");
    assert_eq!(
        w.pin_status().await.expect("status").tries_left,
        5,
        "nothing counted"
    );
    w.restore_from_phrase(&words, "975318")
        .await
        .expect("restored here too");
    signs_as(&w, "975318", address).await;
}

pub async fn the_pins_anyone_guesses_first_are_refused(backend: Backend) {
    let stack = Stack::start(backend).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
    drop(stack.sign_in("ada@example.com", store.clone()).await);
    let w = widget(&stack, store).await;
    for common in ["123456", "000000", "121212", "654321"] {
        let e = w.register(common, false).await.expect_err("a common PIN");
        assert!(e.message.contains("guess"), "{common}: {e:?}");
    }
    assert_eq!(
        w.get_status(),
        ServiceLifeCycle::LoginBeforeRegister,
        "nothing made"
    );
    w.register(PIN, false).await.expect("registered");
    let e = w.change_pin(PIN, "111111").await.expect_err("a common PIN");
    assert!(e.message.contains("guess"), "{e:?}");
    let first: Address = w
        .wallet_accounts()
        .await
        .expect("accounts")
        .first()
        .expect("the first")
        .address
        .parse()
        .expect("an address");
    w.unlock(PIN, first).await.expect("the PIN is as it was");
}
