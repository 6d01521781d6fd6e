//! Login sessions in the real OS keychain (the Secret Service, gnome-keyring under
//! `dbus-run-session` in the test command), read back by a fresh process.

mod oauth;

use std::process::Command;
use std::sync::Arc;

use satchel_sdk::{KeyringStore, TokenStore};
use satchel_tests::{Backend, Stack};

/// Whether a Secret Service answers; without one the tests fail, unless
/// `SATCHEL_SKIP_KEYCHAIN=1` skips them.
fn keychain(service: &str) -> Option<KeyringStore> {
    let store = KeyringStore::new(service);
    match store
        .save("probe", "1")
        .and_then(|()| store.delete("probe"))
    {
        Ok(()) => Some(store),
        Err(e) => {
            satchel_devstack::missing_dependency(
                "KEYCHAIN",
                &format!("no Secret Service keychain answers ({e})"),
            );
            None
        }
    }
}

fn probe(stack: &Stack, service: &str, app_id: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_session-probe"))
        .args([
            service,
            app_id,
            &stack.app_key,
            stack.service.base_url.as_str(),
            &stack.domain,
        ])
        .output()
        .expect("the probe runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_in_the_keychain_is_found_by_a_fresh_process_until_logout() {
    let service = format!("dev.satchel.test.{}", uuid::Uuid::new_v4().simple());
    let Some(store) = keychain(&service) else {
        return;
    };
    let store = Arc::new(store);
    let stack = Stack::start(Backend::Sqlite).await;
    let app_id = stack.app_id().await;
    let login = stack.sign_in("ada@example.com", store.clone()).await;
    let user_id = login
        .session()
        .await
        .expect("keychain")
        .expect("a session")
        .user_id;

    assert_eq!(
        probe(&stack, &service, &app_id),
        user_id,
        "a restarted app is still logged in"
    );
    let key = format!(
        "session:{app_id}@{}",
        stack.service.base_url.origin().ascii_serialization()
    );
    let stored = store.load(&key).expect("keychain").expect("the entry");
    assert!(
        stored.contains("accessToken"),
        "the tokens are in the keychain entry"
    );

    assert!(login.logout().await.expect("logged out"));
    assert_eq!(
        store.load(&key).expect("keychain"),
        None,
        "logout removes the entry"
    );
    assert_eq!(probe(&stack, &service, &app_id), "none");
}

/// The app's start reads several entries at once (session, keys, the signed
/// transactions), each on a blocking thread of its own: every caller is
/// served, and the keychain still answers after.
#[test]
fn many_callers_at_once_are_all_served() {
    const CALLERS: usize = 8;
    const ROUNDS: usize = 12;
    let service = format!("dev.satchel.test.{}", uuid::Uuid::new_v4().simple());
    let Some(store) = keychain(&service) else {
        return;
    };
    let callers: Vec<_> = (0..CALLERS)
        .map(|caller| {
            let service = service.clone();
            std::thread::spawn(move || {
                for round in 0..ROUNDS {
                    let key = format!("caller-{caller}");
                    let value = format!("{caller}:{round}");
                    // A store of its own each time, so nothing is remembered
                    // and every call reaches the keychain.
                    KeyringStore::new(&service).save(&key, &value)?;
                    let read = KeyringStore::new(&service).load(&key)?;
                    assert_eq!(read.as_deref(), Some(value.as_str()));
                    KeyringStore::new(&service).delete(&key)?;
                    let gone = KeyringStore::new(&service).load(&key)?;
                    assert_eq!(gone, None, "deleted");
                }
                Ok::<_, satchel_sdk::StoreError>(())
            })
        })
        .collect();
    for caller in callers {
        caller
            .join()
            .expect("the caller ran")
            .expect("the keychain served it");
    }
    store
        .save("after", "1")
        .expect("the keychain still answers");
    store.delete("after").expect("deleted");
}
