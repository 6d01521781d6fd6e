//! The keychain entries of wallet keys: per app and user, the confirmed key, a key
//! made at register and not yet confirmed, and a key sealed under a new PIN that
//! the service has not confirmed yet.

use std::sync::Arc;

use super::{TokenStore, load_json, save_json};
use crate::error::SdkError;
use crate::vault::{PendingWallet, SealedMnemonic};

/// The keychain entry of `user_id`'s confirmed wallet key in `app_id`.
pub fn wallet_entry(app_id: &str, user_id: &str) -> String {
    format!("wallet:{app_id}:{user_id}")
}

/// The keychain entry of a wallet key made for `user_id` whose registration the
/// service has not confirmed yet.
pub fn pending_entry(app_id: &str, user_id: &str) -> String {
    format!("wallet-pending:{app_id}:{user_id}")
}

/// The keychain entry of a key sealed under a new PIN that the service has not
/// confirmed yet.
pub fn next_entry(app_id: &str, user_id: &str) -> String {
    format!("wallet-next:{app_id}:{user_id}")
}

/// The keychain entry of the transactions this device signed for `user_id`.
pub fn signed_entry(app_id: &str, user_id: &str) -> String {
    format!("signed:{app_id}:{user_id}")
}

/// How many signed transactions are kept: far more than an account keeps
/// pending (the service takes at most 16 at once).
const SIGNED_KEPT: usize = 64;

/// A transaction this device signed: its hash and its EIP-2718 bytes (hex).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SignedTransaction {
    pub hash: String,
    pub raw: String,
}

/// Where the sealed keys of this app's users are kept: per app and user, one
/// confirmed key, and at most one key made but not yet confirmed by the service.
/// A key is confirmed only once the service has the same address, so a retried
/// registration reuses the pending key and can never replace a confirmed one.
pub(crate) struct KeyVault {
    store: Arc<dyn TokenStore>,
    app_id: String,
    /// One read-and-write of an entry at a time: two at once (a PIN change and
    /// an added account, two sends) would each write what it read, and the
    /// later would drop the earlier's change.
    writes: tokio::sync::Mutex<()>,
}

impl KeyVault {
    pub(crate) fn new(store: Arc<dyn TokenStore>, app_id: &str) -> Self {
        Self {
            store,
            app_id: app_id.to_owned(),
            writes: tokio::sync::Mutex::new(()),
        }
    }

    /// The confirmed sealed key of `user_id`'s wallet on this device, if any. An
    /// entry this version cannot read (an older Satchel's, sealed under the PIN
    /// alone) counts as no key: the person restores the wallet, which replaces it.
    pub(crate) async fn load(&self, user_id: &str) -> Result<Option<SealedMnemonic>, SdkError> {
        let entry: Option<serde_json::Value> =
            load_json(&self.store, &wallet_entry(&self.app_id, user_id)).await?;
        Ok(entry.and_then(
            |value| match serde_json::from_value::<SealedMnemonic>(value) {
                Ok(sealed) if sealed.version == 2 => Some(sealed),
                _ => {
                    tracing::warn!("a wallet key entry of another format is ignored");
                    None
                }
            },
        ))
    }

    /// A new PIN's sealing, kept beside the key until the service has the new PIN
    /// (so a lost answer to a PIN change never leaves a key nothing opens).
    pub(crate) async fn load_next(
        &self,
        user_id: &str,
    ) -> Result<Option<SealedMnemonic>, SdkError> {
        load_json(&self.store, &next_entry(&self.app_id, user_id)).await
    }

    pub(crate) async fn save_next(
        &self,
        user_id: &str,
        sealed: Option<&SealedMnemonic>,
    ) -> Result<(), SdkError> {
        save_json(&self.store, &next_entry(&self.app_id, user_id), sealed).await
    }

    /// The new PIN's sealing becomes the key.
    pub(crate) async fn promote_next(
        &self,
        user_id: &str,
        sealed: &SealedMnemonic,
    ) -> Result<(), SdkError> {
        self.save(user_id, sealed).await?;
        self.save_next(user_id, None).await
    }

    /// Forgets a pending key that is not the wallet's (another registration won).
    pub(crate) async fn drop_pending(&self, user_id: &str) -> Result<(), SdkError> {
        save_json::<PendingWallet>(&self.store, &pending_entry(&self.app_id, user_id), None).await
    }

    /// Keeps `sealed` as `user_id`'s wallet key, replacing any, but never
    /// forgetting what the entry knows of the same phrase: accounts derived
    /// since `sealed` was read (an account added while a PIN change was under
    /// way) and a phrase confirmed as written down.
    pub(crate) async fn save(
        &self,
        user_id: &str,
        sealed: &SealedMnemonic,
    ) -> Result<(), SdkError> {
        let _one_writer = self.writes.lock().await;
        let mut sealed = sealed.clone();
        if let Some(kept) = self.load(user_id).await?
            && kept.is_for(&sealed.address)
        {
            // The same phrase derives the same address at each index, so the
            // longer list is the shorter one and more.
            if kept.more.len() > sealed.more.len() && kept.more.starts_with(&sealed.more) {
                sealed.more = kept.more;
            }
            sealed.phrase_confirmed |= kept.phrase_confirmed;
        }
        save_json(
            &self.store,
            &wallet_entry(&self.app_id, user_id),
            Some(&sealed),
        )
        .await
    }

    /// The key made for `user_id` and not yet confirmed, if any.
    pub(crate) async fn load_pending(
        &self,
        user_id: &str,
    ) -> Result<Option<PendingWallet>, SdkError> {
        load_json(&self.store, &pending_entry(&self.app_id, user_id)).await
    }

    pub(crate) async fn save_pending(
        &self,
        user_id: &str,
        pending: &PendingWallet,
    ) -> Result<(), SdkError> {
        save_json(
            &self.store,
            &pending_entry(&self.app_id, user_id),
            Some(pending),
        )
        .await
    }

    /// The service has the pending key's address: it becomes the wallet's key, and
    /// the pending entry (with its share and proof) is gone.
    pub(crate) async fn confirm(
        &self,
        user_id: &str,
        sealed: &SealedMnemonic,
    ) -> Result<(), SdkError> {
        self.save(user_id, sealed).await?;
        save_json::<PendingWallet>(&self.store, &pending_entry(&self.app_id, user_id), None).await
    }

    /// Keeps a transaction this device signed (the newest [`SIGNED_KEPT`]), so a
    /// speed-up or cancel is built from what the device signed, not from what
    /// the service says it was.
    pub(crate) async fn remember_signed(
        &self,
        user_id: &str,
        signed: SignedTransaction,
    ) -> Result<(), SdkError> {
        let _one_writer = self.writes.lock().await;
        let entry = signed_entry(&self.app_id, user_id);
        let mut kept: Vec<SignedTransaction> =
            load_json(&self.store, &entry).await?.unwrap_or_default();
        kept.retain(|t| !t.hash.eq_ignore_ascii_case(&signed.hash));
        kept.push(signed);
        let excess = kept.len().saturating_sub(SIGNED_KEPT);
        kept.drain(..excess);
        save_json(&self.store, &entry, Some(&kept)).await
    }

    /// The transaction `hash` if this device signed it (and still keeps it).
    pub(crate) async fn signed(
        &self,
        user_id: &str,
        hash: &str,
    ) -> Result<Option<SignedTransaction>, SdkError> {
        let kept = self.all_signed(user_id).await?;
        Ok(kept.into_iter().find(|t| t.hash.eq_ignore_ascii_case(hash)))
    }

    /// The transactions this device signed for `user_id` and still keeps.
    pub(crate) async fn all_signed(
        &self,
        user_id: &str,
    ) -> Result<Vec<SignedTransaction>, SdkError> {
        Ok(load_json(&self.store, &signed_entry(&self.app_id, user_id))
            .await?
            .unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keychain::MemoryStore;

    fn sealed(more: &[&str], phrase_confirmed: bool) -> SealedMnemonic {
        serde_json::from_value(serde_json::json!({
            "version": 2,
            "kdf": {"salt": "AAAAAAAAAAAAAAAAAAAAAA==", "mCost": 8192, "tCost": 1, "pCost": 1},
            "nonce": "00",
            "ciphertext": "00",
            "address": "0x1111111111111111111111111111111111111111",
            "phraseConfirmed": phrase_confirmed,
            "more": more,
        }))
        .expect("a sealed key")
    }

    #[tokio::test]
    async fn a_write_of_an_older_copy_keeps_the_accounts_added_since() {
        let vault = KeyVault::new(Arc::new(MemoryStore::default()), "app");
        let read_by_a_pin_change = sealed(&["0xa1"], false);
        vault
            .save("u", &sealed(&["0xa1", "0xa2"], true))
            .await
            .expect("the add's write");
        // The PIN change writes its new sealing of what it read before the add.
        let mut resealed = read_by_a_pin_change.clone();
        resealed.nonce = "01".into();
        vault.save("u", &resealed).await.expect("the PIN's write");
        let kept = vault.load("u").await.expect("read").expect("a key");
        assert_eq!(kept.nonce, "01", "the new sealing");
        assert_eq!(kept.more, ["0xa1", "0xa2"], "the added account stays");
        assert!(kept.phrase_confirmed);

        // Another wallet's key replaces the entry whole.
        let mut other = sealed(&[], false);
        other.address = "0x2222222222222222222222222222222222222222".into();
        vault.save("u", &other).await.expect("written");
        let kept = vault.load("u").await.expect("read").expect("a key");
        assert!(kept.more.is_empty());
        assert!(!kept.phrase_confirmed);
    }
}
