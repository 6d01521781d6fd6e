//! The device trusts only what it derived or signed (issue 22): a service that
//! lies, a proxy in front of the real one rewriting its answers, gets nothing
//! shown, received into or sent from that the device's own key does not back.

use std::sync::Arc;

use satchel_sdk::vault::KdfStrength;
use satchel_sdk::{AccountRef, Login, MemoryStore, TokenStore, Widget};
use satchel_tests::{Backend, LyingService, Stack};
use serde_json::Value;

const PIN: &str = "246810";
/// Where the lying service would have Ada's money go.
const ATTACKER: &str = "0x00000000000000000000000000000000000bad00";

async fn widget_on(stack: &Stack, url: url::Url, store: Arc<dyn TokenStore>) -> Widget {
    let login = Login::new(stack.app_id().await, &stack.app_key, store.clone());
    let widget = Widget::new(Arc::new(login), store).with_kdf(KdfStrength::Test);
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
