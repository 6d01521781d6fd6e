//! What the NFT gallery leaves out: collections the person hid, and NFTs that
//! look like spam (an airdrop from a stranger) unless the person chose to show
//! their collection. The choices are kept on this device per user, as
//! `network:contract` (lowercase; a contract is a collection or a token, never
//! both).

use std::collections::HashSet;

use alloy::primitives::Address;
use satchel_api::NftOrigin;
use serde::{Deserialize, Serialize};

use super::Widget;
use crate::error::SdkError;
use crate::widget::user_files::UserFiles;

/// The most collections one person hides, and shows despite the spam
/// judgement; past it, hiding (or showing) another is refused.
pub const MAX_HIDDEN: usize = 1_000;

/// The person's choices about collections in the gallery.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CollectionChoices {
    /// Collections hidden by the person, whatever came of them.
    pub hidden: Vec<String>,
    /// Collections the person chose to see although they look like spam.
    pub shown: Vec<String>,
}

/// The choices as files hold them: before there was `shown`, the file was the
/// hidden list alone.
#[derive(Deserialize)]
#[serde(untagged)]
enum StoredChoices {
    Choices {
        #[serde(default)]
        hidden: Vec<String>,
        #[serde(default)]
        shown: Vec<String>,
    },
    HiddenOnly(Vec<String>),
}

impl<'de> Deserialize<'de> for CollectionChoices {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        StoredChoices::deserialize(d).map(Self::from)
    }
}

impl From<StoredChoices> for CollectionChoices {
    fn from(stored: StoredChoices) -> Self {
        let (mut hidden, mut shown) = match stored {
            StoredChoices::Choices { hidden, shown } => (hidden, shown),
            StoredChoices::HiddenOnly(hidden) => (hidden, Vec::new()),
        };
        hidden.truncate(MAX_HIDDEN);
        shown.truncate(MAX_HIDDEN);
        Self { hidden, shown }
    }
}

/// The collection choices, one file per person.
pub(crate) type HiddenCollections = UserFiles<CollectionChoices>;

fn invalid(message: impl Into<String>) -> SdkError {
    SdkError::service(satchel_api::ServiceErrorCode::InvalidParameters, message)
}

/// Whether an NFT that came as `origin` is likely spam: it did, the
/// transaction that brought it was sent by a stranger (not one of `known`: the
/// person's own accounts and saved addresses), and its collection is not one
/// the app vouches for. An NFT the person minted or bought (their account sent
/// the transaction) or that someone they saved sent is not.
///
/// Only the transaction's sender counts: the `Transfer` event's `from` is
/// whatever the contract writes, so a phishing contract can log the person
/// (`Transfer(victim, victim, id)`) or a saved address as the sender. An
/// arrival whose transaction sender the service did not give is a stranger's;
/// one whose arrival the service did not see is not judged.
///
/// The arrival is the service's word: a lying service can only show spam (as
/// without this judgement) or hide what the person can show again.
pub(crate) fn likely_spam(
    origin: Option<&NftOrigin>,
    vouched: bool,
    known: &HashSet<Address>,
) -> bool {
    let Some(origin) = origin else {
        return false;
    };
    let sent_by_someone_known = origin
        .sent_by
        .as_deref()
        .and_then(|a| a.parse::<Address>().ok())
        .is_some_and(|a| known.contains(&a));
    !vouched && !sent_by_someone_known
}

/// `list` with `key`, bounded.
fn with(mut list: Vec<String>, key: &str) -> Result<Vec<String>, SdkError> {
    if !list.iter().any(|k| k == key) {
        if list.len() >= MAX_HIDDEN {
            return Err(invalid(format!(
                "at most {MAX_HIDDEN} collections are hidden or shown by choice"
            )));
        }
        list.push(key.to_owned());
    }
    Ok(list)
}

impl Widget {
    /// The key a collection is hidden under: one of the app's networks and an
    /// address.
    fn collection_key(&self, network: &str, contract: &str) -> Result<String, SdkError> {
        if self.networks.network(network).is_none() {
            return Err(invalid(format!(
                "{network} is not one of this app's networks"
            )));
        }
        let contract: Address = contract
            .parse()
            .map_err(|_| invalid("the collection's contract is not an address"))?;
        Ok(format!("{network}:{contract:#x}"))
    }

    /// Whether the app's network table vouches for the collection `contract`
    /// on `network`.
    pub(crate) fn vouched_collection(&self, network: &str, contract: &str) -> bool {
        let Ok(contract) = contract.parse::<Address>() else {
            return false;
        };
        self.networks
            .network(network)
            .is_some_and(|n| n.collections.contains(&contract))
    }

    /// The collections the person hid, and those they show despite the spam
    /// judgement (`network:contract`).
    pub fn collection_choices(&self) -> Result<CollectionChoices, SdkError> {
        let (user_id, _) = self.require_login()?;
        Ok(self.hidden.read(&user_id))
    }

    /// Hides a collection; the choices after.
    pub fn hide_collection(
        &self,
        network: &str,
        contract: &str,
    ) -> Result<CollectionChoices, SdkError> {
        let (user_id, _) = self.require_login()?;
        let key = self.collection_key(network, contract)?;
        let mut choices = self.collection_choices()?;
        choices.hidden = with(choices.hidden, &key)?;
        choices.shown.retain(|k| *k != key);
        self.hidden.write(&user_id, choices)
    }

    /// Shows a collection: one the person hid, or one that looks like spam;
    /// the choices after.
    pub fn show_collection(
        &self,
        network: &str,
        contract: &str,
    ) -> Result<CollectionChoices, SdkError> {
        let (user_id, _) = self.require_login()?;
        let key = self.collection_key(network, contract)?;
        let mut choices = self.collection_choices()?;
        choices.hidden.retain(|k| *k != key);
        choices.shown = with(choices.shown, &key)?;
        self.hidden.write(&user_id, choices)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(from: Address, sent_by: Option<Address>) -> NftOrigin {
        NftOrigin {
            from: from.to_checksum(None),
            sent_by: sent_by.map(|a| a.to_checksum(None)),
            tx_hash: format!("0x{}", "ab".repeat(32)),
        }
    }

    #[test]
    fn spam_is_what_a_stranger_sent_of_a_collection_nobody_vouches_for() {
        let me = Address::repeat_byte(1);
        let friend = Address::repeat_byte(2);
        let stranger = Address::repeat_byte(9);
        let known: HashSet<Address> = [me, friend].into();
        // A stranger's airdrop: minted to the person, or sent from the stranger.
        assert!(likely_spam(
            Some(&origin(Address::ZERO, Some(stranger))),
            false,
            &known
        ));
        assert!(likely_spam(
            Some(&origin(stranger, Some(stranger))),
            false,
            &known
        ));
        assert!(likely_spam(Some(&origin(stranger, None)), false, &known));
        // Minted or bought by the person: their account sent the transaction.
        assert!(!likely_spam(
            Some(&origin(Address::ZERO, Some(me))),
            false,
            &known
        ));
        assert!(!likely_spam(
            Some(&origin(stranger, Some(me))),
            false,
            &known
        ));
        // Sent by a saved address, or between the person's accounts.
        assert!(!likely_spam(
            Some(&origin(friend, Some(friend))),
            false,
            &known
        ));
        assert!(!likely_spam(Some(&origin(me, Some(me))), false, &known));
        // The event's `from` is the contract's to write: a stranger's
        // transaction naming the person or a friend as the sender is spam.
        assert!(likely_spam(
            Some(&origin(me, Some(stranger))),
            false,
            &known
        ));
        assert!(likely_spam(
            Some(&origin(friend, Some(stranger))),
            false,
            &known
        ));
        assert!(likely_spam(Some(&origin(friend, None)), false, &known));
        // A collection the app vouches for; an arrival the service did not see.
        assert!(!likely_spam(
            Some(&origin(Address::ZERO, Some(stranger))),
            true,
            &known
        ));
        assert!(!likely_spam(None, false, &known));
        // A malformed address is nobody the person knows.
        let garbled = NftOrigin {
            from: "me".into(),
            sent_by: Some("0x01".into()),
            tx_hash: String::new(),
        };
        assert!(likely_spam(Some(&garbled), false, &known));
    }

    #[test]
    fn choices_read_the_old_hidden_list_and_stay_bounded() {
        let old: CollectionChoices =
            serde_json::from_str(r#"["anvil:0x01"]"#).expect("the old file");
        assert_eq!(old.hidden, ["anvil:0x01"]);
        assert!(old.shown.is_empty());
        let many: Vec<String> = (0..MAX_HIDDEN + 5).map(|i| format!("anvil:{i}")).collect();
        let read: CollectionChoices =
            serde_json::from_value(serde_json::json!({"hidden": many, "shown": many}))
                .expect("the file");
        assert_eq!(read.hidden.len(), MAX_HIDDEN);
        assert_eq!(read.shown.len(), MAX_HIDDEN);
        let full: Vec<String> = (0..MAX_HIDDEN).map(|i| format!("anvil:{i}")).collect();
        assert!(with(full.clone(), "anvil:new").is_err(), "past the bound");
        assert_eq!(
            with(full, "anvil:3").expect("already there").len(),
            MAX_HIDDEN
        );
    }
}
