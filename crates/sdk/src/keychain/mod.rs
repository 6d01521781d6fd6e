//! Everything this device keeps secret, kept in one place: the OS keychain
//! (Secret Service on Linux, Keychain on macOS, Credential Manager on Windows) in
//! the app, memory in unit tests. A keychain that is missing or locked is an error,
//! never a fallback to a file.
//!
//! The entries: the login session per app and service (`session.rs`), and per app
//! and user the sealed wallet keys and the transactions this device signed
//! (`wallet_keys.rs`). This module is the store they go through.

use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{SdkError, blocking};

pub(crate) mod session;
mod wallet_keys;

pub(crate) use wallet_keys::KeyVault;
pub use wallet_keys::{SignedTransaction, next_entry, pending_entry, signed_entry, wallet_entry};

/// A keychain failure the UI can explain.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    #[error("the system keychain is not available or is locked: {0}")]
    Unavailable(String),
    #[error("the keychain entry is damaged: {0}")]
    Corrupt(String),
}

/// Stateless persist / retrieve / delete of small secrets by key. A missing entry
/// reads as `None`; deleting a missing entry is not an error.
pub trait TokenStore: Send + Sync {
    fn load(&self, key: &str) -> Result<Option<String>, StoreError>;
    fn save(&self, key: &str, value: &str) -> Result<(), StoreError>;
    fn delete(&self, key: &str) -> Result<(), StoreError>;
}

/// The OS keychain, entries namespaced by the app's identifier.
#[derive(Debug, Clone)]
pub struct KeyringStore {
    service: String,
}

impl KeyringStore {
    /// `service` names the app in the keychain, e.g. `dev.satchel.wallet`.
    pub fn new(service: impl Into<String>) -> Self {
        Self {
            service: service.into(),
        }
    }

    fn entry(&self, key: &str) -> Result<keyring::Entry, StoreError> {
        keyring::Entry::new(&self.service, key).map_err(unavailable)
    }
}

fn unavailable(e: keyring::Error) -> StoreError {
    StoreError::Unavailable(e.to_string())
}

impl TokenStore for KeyringStore {
    fn load(&self, key: &str) -> Result<Option<String>, StoreError> {
        match self.entry(key)?.get_password() {
            Ok(value) => Ok(Some(value)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(keyring::Error::BadEncoding(_)) => Err(StoreError::Corrupt("not text".into())),
            Err(e) => Err(unavailable(e)),
        }
    }

    fn save(&self, key: &str, value: &str) -> Result<(), StoreError> {
        self.entry(key)?.set_password(value).map_err(unavailable)
    }

    fn delete(&self, key: &str) -> Result<(), StoreError> {
        match self.entry(key)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(unavailable(e)),
        }
    }
}

/// Tokens in memory, for tests.
#[derive(Debug, Default)]
pub struct MemoryStore {
    entries: Mutex<HashMap<String, String>>,
}

impl MemoryStore {
    /// Whether nothing is kept (a refused login must leave it so).
    pub fn is_empty(&self) -> bool {
        self.entries.lock().is_empty()
    }
}

impl TokenStore for MemoryStore {
    fn load(&self, key: &str) -> Result<Option<String>, StoreError> {
        Ok(self.entries.lock().get(key).cloned())
    }

    fn save(&self, key: &str, value: &str) -> Result<(), StoreError> {
        self.entries.lock().insert(key.to_owned(), value.to_owned());
        Ok(())
    }

    fn delete(&self, key: &str) -> Result<(), StoreError> {
        self.entries.lock().remove(key);
        Ok(())
    }
}

/// Reads the JSON value kept under `key`, off the async runtime. A value that is
/// not the expected JSON is a damaged entry, not a missing one.
pub(crate) async fn load_json<T: DeserializeOwned + Send + 'static>(
    store: &Arc<dyn TokenStore>,
    key: &str,
) -> Result<Option<T>, SdkError> {
    let (store, key) = (store.clone(), key.to_owned());
    let text = blocking(move || store.load(&key).map_err(SdkError::keychain)).await?;
    text.map(|text| {
        serde_json::from_str(&text)
            .map_err(|e| SdkError::keychain(StoreError::Corrupt(e.to_string())))
    })
    .transpose()
}

/// Keeps `value` as JSON under `key`, or with `None` deletes the entry.
pub(crate) async fn save_json<T: Serialize>(
    store: &Arc<dyn TokenStore>,
    key: &str,
    value: Option<&T>,
) -> Result<(), SdkError> {
    let text = value
        .map(serde_json::to_string)
        .transpose()
        .map_err(SdkError::unknown)?;
    let (store, key) = (store.clone(), key.to_owned());
    blocking(move || {
        match text {
            Some(text) => store.save(&key, &text),
            None => store.delete(&key),
        }
        .map_err(SdkError::keychain)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memory_store_reads_missing_as_none_and_deletes_idempotently() {
        let store = MemoryStore::default();
        assert_eq!(store.load("k"), Ok(None));
        store.save("k", "v").expect("saved");
        assert_eq!(store.load("k"), Ok(Some("v".into())));
        store.delete("k").expect("deleted");
        store.delete("k").expect("deleting again is fine");
        assert_eq!(store.load("k"), Ok(None));
    }
}
