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
use zeroize::Zeroizing;

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
///
/// What this process read or wrote is remembered: the app is its entries' one
/// writer (a second instance is refused), and each keychain call is a round of
/// its own (on Linux a new D-Bus connection and an encrypted Secret Service
/// session), which a start made several times for the same entries.
#[derive(Debug, Clone)]
pub struct KeyringStore {
    service: String,
    remembered: Arc<Mutex<Remembered>>,
}

impl KeyringStore {
    /// `service` names the app in the keychain, e.g. `dev.satchel.wallet`.
    pub fn new(service: impl Into<String>) -> Self {
        Self {
            service: service.into(),
            remembered: Arc::default(),
        }
    }

    /// Runs one call on `key`'s entry, never beside another of this process's
    /// (see [`ONE_CALL_AT_A_TIME`]).
    fn with_entry<T>(
        &self,
        key: &str,
        call: impl FnOnce(&keyring::Entry) -> keyring::Result<T>,
    ) -> Result<keyring::Result<T>, StoreError> {
        let entry = keyring::Entry::new(&self.service, key).map_err(unavailable)?;
        let _turn = ONE_CALL_AT_A_TIME.lock();
        Ok(call(&entry))
    }

    fn load_from_keychain(&self, key: &str) -> Result<Option<String>, StoreError> {
        match self.with_entry(key, keyring::Entry::get_password)? {
            Ok(value) => Ok(Some(value)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(keyring::Error::BadEncoding(_)) => Err(StoreError::Corrupt("not text".into())),
            Err(e) => Err(unavailable(e)),
        }
    }
}

/// This process asks the keychain one thing at a time. On Linux each call opens
/// a D-Bus connection and a Secret Service session of its own, and
/// gnome-keyring has been seen to abort on bursts of concurrent session
/// openings ("assertion 'client' failed", GNOME/gnome-keyring#196), after
/// which the waiting calls end "Message recipient disconnected" (as one did
/// once in CI, four tests using the keychain at once). A call takes
/// milliseconds and what was read is remembered, so the queue stays short; a
/// call that waits on the person unlocking the keychain holds the others,
/// which need the same unlock.
static ONE_CALL_AT_A_TIME: Mutex<()> = parking_lot::const_mutex(());

fn unavailable(e: keyring::Error) -> StoreError {
    StoreError::Unavailable(e.to_string())
}

impl TokenStore for KeyringStore {
    fn load(&self, key: &str) -> Result<Option<String>, StoreError> {
        let read_after = {
            let remembered = self.remembered.lock();
            if let Some(value) = remembered.get(key) {
                return Ok(value);
            }
            remembered.writes
        };
        let value = self.load_from_keychain(key)?;
        self.remembered
            .lock()
            .read(key, read_after, value.as_deref());
        Ok(value)
    }

    fn save(&self, key: &str, value: &str) -> Result<(), StoreError> {
        let written = self
            .with_entry(key, |entry| entry.set_password(value))?
            .map_err(unavailable);
        self.remembered
            .lock()
            .wrote(key, written.is_ok().then_some(Some(value)));
        written
    }

    fn delete(&self, key: &str) -> Result<(), StoreError> {
        let deleted = match self.with_entry(key, keyring::Entry::delete_credential)? {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(unavailable(e)),
        };
        self.remembered
            .lock()
            .wrote(key, deleted.is_ok().then_some(None));
        deleted
    }
}

/// The keychain's entries as this process last read or wrote them (`None`:
/// no entry), at most [`Remembered::ENTRIES`] of them (a session and a few
/// keys per user; past that it starts over). Never printed.
#[derive(Default)]
struct Remembered {
    entries: HashMap<String, Option<Zeroizing<String>>>,
    /// Writes so far: a read that a write overlapped is not remembered.
    writes: u64,
}

impl std::fmt::Debug for Remembered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Remembered")
            .field("entries", &self.entries.len())
            .finish()
    }
}

impl Remembered {
    const ENTRIES: usize = 64;

    /// The entry when it is remembered: `Some(None)` for no entry.
    fn get(&self, key: &str) -> Option<Option<String>> {
        self.entries
            .get(key)
            .map(|value| value.as_ref().map(|v| v.to_string()))
    }

    /// A read of the keychain that started after `writes` writes found `value`.
    fn read(&mut self, key: &str, writes: u64, value: Option<&str>) {
        if writes == self.writes {
            self.remember(key, value);
        }
    }

    /// A write of `key` ended: `Some(value)` when it took (`Some(None)`: the
    /// entry is gone), `None` when it failed and the entry is unknown.
    fn wrote(&mut self, key: &str, outcome: Option<Option<&str>>) {
        self.writes += 1;
        match outcome {
            Some(value) => self.remember(key, value),
            None => {
                self.entries.remove(key);
            }
        }
    }

    fn remember(&mut self, key: &str, value: Option<&str>) {
        if self.entries.len() >= Self::ENTRIES && !self.entries.contains_key(key) {
            self.entries.clear();
        }
        self.entries
            .insert(key.to_owned(), value.map(|v| Zeroizing::new(v.to_owned())));
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

    /// The entries' keys.
    pub fn keys(&self) -> Vec<String> {
        self.entries.lock().keys().cloned().collect()
    }

    /// What `key` holds.
    pub fn get(&self, key: &str) -> Option<String> {
        self.entries.lock().get(key).cloned()
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
    fn the_keychain_is_read_once_per_entry_and_writes_win_over_reads_they_overlap() {
        let mut remembered = Remembered::default();
        assert_eq!(remembered.get("session"), None, "not read yet");
        let writes = remembered.writes;
        remembered.read("session", writes, Some("s1"));
        assert_eq!(remembered.get("session"), Some(Some("s1".into())));
        remembered.read("key", writes, None);
        assert_eq!(remembered.get("key"), Some(None), "no entry, remembered");

        // A read that started before a write finds what it found, but the
        // write is what is remembered.
        let before = remembered.writes;
        remembered.wrote("session", Some(Some("s2")));
        remembered.read("session", before, Some("s1"));
        assert_eq!(remembered.get("session"), Some(Some("s2".into())));

        // A deletion is remembered as no entry; a failed write as unknown.
        remembered.wrote("session", Some(None));
        assert_eq!(remembered.get("session"), Some(None));
        remembered.wrote("session", None);
        assert_eq!(remembered.get("session"), None, "read again next time");
    }

    #[test]
    fn remembered_entries_stay_bounded() {
        let mut remembered = Remembered::default();
        for i in 0..1_000 {
            remembered.read(&format!("k{i}"), 0, Some("sealed-secret"));
            assert!(remembered.entries.len() <= Remembered::ENTRIES);
        }
        assert_eq!(remembered.get("k999"), Some(Some("sealed-secret".into())));
        assert!(
            !format!("{remembered:?}").contains("sealed-secret"),
            "never printed"
        );
    }

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
