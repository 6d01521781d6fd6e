//! NFT collections and tokens the person hid (spam, airdrops they did not ask
//! for): kept on this device per user, as `network:contract` (lowercase; a
//! contract is a collection or a token, never both); the NFT grid and the
//! wallet's token list leave them out until the person asks to see them.

use alloy::primitives::Address;

use super::Widget;
use crate::error::SdkError;
use crate::widget::user_files::UserFiles;

/// The most collections one person hides; hiding past it is refused.
pub const MAX_HIDDEN: usize = 1_000;

/// The hidden collections, one list per person.
pub(crate) type HiddenCollections = UserFiles<Vec<String>>;

fn invalid(message: impl Into<String>) -> SdkError {
    SdkError::service(satchel_api::ServiceErrorCode::InvalidParameters, message)
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

    /// The hidden collections (`network:contract`).
    pub fn hidden_collections(&self) -> Result<Vec<String>, SdkError> {
        let (user_id, _) = self.require_login()?;
        let mut hidden = self.hidden.read(&user_id);
        hidden.truncate(MAX_HIDDEN);
        Ok(hidden)
    }

    /// Hides a collection; the hidden ones after.
    pub fn hide_collection(&self, network: &str, contract: &str) -> Result<Vec<String>, SdkError> {
        let (user_id, _) = self.require_login()?;
        let key = self.collection_key(network, contract)?;
        let mut hidden = self.hidden_collections()?;
        if !hidden.contains(&key) {
            if hidden.len() >= MAX_HIDDEN {
                return Err(invalid(format!(
                    "at most {MAX_HIDDEN} collections are hidden"
                )));
            }
            hidden.push(key);
        }
        self.hidden.write(&user_id, hidden)
    }

    /// Shows a hidden collection again; the hidden ones after.
    pub fn show_collection(&self, network: &str, contract: &str) -> Result<Vec<String>, SdkError> {
        let (user_id, _) = self.require_login()?;
        let key = self.collection_key(network, contract)?;
        let mut hidden = self.hidden_collections()?;
        hidden.retain(|k| *k != key);
        self.hidden.write(&user_id, hidden)
    }
}
