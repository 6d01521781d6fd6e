//! The person's saved addresses (a name for each), kept on this device per
//! user in the app's data folder (`address-book/<user id>.json`), with export
//! and import as CSV (`name,address`); and what the send review warns of about
//! a recipient: a first transfer (amber), an address that looks like a saved or
//! recent one but is not it (address poisoning), a token's own contract, or a
//! contract that is not a token (red).
//!
//! Not secret (it holds no key), but private: it stays on the device.

use alloy::primitives::Address;
use serde::{Deserialize, Serialize};

use super::Widget;
use crate::error::SdkError;
use crate::widget::send::check_address;
use crate::widget::user_files::UserFiles;

/// The most addresses one person keeps; saving past it is refused.
pub const MAX_SAVED: usize = 500;
/// The longest name, in characters.
pub const MAX_NAME: usize = 64;
/// The largest CSV taken at once, in bytes.
pub const MAX_IMPORT: usize = 256 * 1024;
/// The recent recipients the review compares with.
pub const RECENT: usize = 20;

/// A saved address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SavedAddress {
    /// EIP-55.
    pub address: String,
    pub name: String,
}

/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ImportOutcome {
    pub added: u32,
    pub renamed: u32,
    /// Lines not taken (1-based), with why.
    pub refused: Vec<String>,
}

/// What the send review warns of about a recipient.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum RecipientWarning {
    /// Nothing was sent to it from this wallet before, and it is not saved (amber).
    FirstTransfer,
    /// It shares its first and last four hex digits with a saved or recent
    /// address but is not it: the mark of address poisoning (red).
    LookAlike {
        /// The address it imitates.
        of: String,
        /// Its name, when saved.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        name: Option<String>,
    },
    /// It is a token's own contract: what is sent there is lost (red).
    TokenContract,
    /// It is a contract that is not a token the app knows (red).
    ContractNotToken,
}

impl RecipientWarning {
    /// Red: the page asks the person to confirm they checked before the PIN.
    pub fn is_danger(&self) -> bool {
        !matches!(self, Self::FirstTransfer)
    }
}

/// The address books, one per person.
pub(crate) type AddressBooks = UserFiles<Vec<SavedAddress>>;

fn invalid(message: impl Into<String>) -> SdkError {
    SdkError::service(satchel_api::ServiceErrorCode::InvalidParameters, message)
}

/// A name as kept: trimmed, single-line, not empty, bounded.
fn clean_name(name: &str) -> Result<String, SdkError> {
    let name: String = name
        .trim()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if name.is_empty() {
        return Err(invalid("give the address a name"));
    }
    if name.chars().count() > MAX_NAME {
        return Err(invalid(format!("a name is at most {MAX_NAME} characters")));
    }
    Ok(name)
}

/// Adds `address` as `name`, or renames it; whether it was new.
fn upsert(list: &mut Vec<SavedAddress>, address: Address, name: String) -> Result<bool, SdkError> {
    let address = address.to_checksum(None);
    if let Some(saved) = list.iter_mut().find(|s| s.address == address) {
        saved.name = name;
        return Ok(false);
    }
    if list.len() >= MAX_SAVED {
        return Err(invalid(format!(
            "the address book holds at most {MAX_SAVED} addresses"
        )));
    }
    list.push(SavedAddress { address, name });
    Ok(true)
}

/// Whether `a` looks like `b` to a person who checks the ends: the same first
/// and last four hex digits, and yet another address.
pub fn looks_like(a: &Address, b: &Address) -> bool {
    let (a, b) = (a.as_slice(), b.as_slice());
    a != b && a[..2] == b[..2] && a[18..] == b[18..]
}

impl Widget {
    /// The logged-in person's saved addresses, by name.
    pub fn saved_addresses(&self) -> Result<Vec<SavedAddress>, SdkError> {
        let (user_id, _) = self.require_login()?;
        let mut list = self.address_books.read(&user_id);
        list.truncate(MAX_SAVED);
        list.sort_by_key(|s| s.name.to_lowercase());
        Ok(list)
    }

    /// Saves `address` as `name` (or renames it); the list after.
    pub fn save_address(&self, address: &str, name: &str) -> Result<Vec<SavedAddress>, SdkError> {
        let (user_id, _) = self.require_login()?;
        let address = check_address(address)?;
        let name = clean_name(name)?;
        let mut list = self.address_books.read(&user_id);
        upsert(&mut list, address, name)?;
        self.address_books.write(&user_id, list)?;
        self.saved_addresses()
    }

    /// Forgets `address`; the list after.
    pub fn forget_address(&self, address: &str) -> Result<Vec<SavedAddress>, SdkError> {
        let (user_id, _) = self.require_login()?;
        let address = check_address(address)?.to_checksum(None);
        let mut list = self.address_books.read(&user_id);
        list.retain(|s| s.address != address);
        self.address_books.write(&user_id, list)?;
        self.saved_addresses()
    }

    /// The address book as CSV: `name,address`, a header first.
    pub fn export_address_book(&self) -> Result<String, SdkError> {
        let mut out = csv::Writer::from_writer(Vec::new());
        out.write_record(["name", "address"])
            .map_err(SdkError::unknown)?;
        for saved in self.saved_addresses()? {
            out.write_record([&saved.name, &saved.address])
                .map_err(SdkError::unknown)?;
        }
        String::from_utf8(out.into_inner().map_err(SdkError::unknown)?).map_err(SdkError::unknown)
    }

    /// Takes a CSV of `name,address` lines (a header is skipped): each valid
    /// line is saved or renames its address; the others are listed with why.
    pub fn import_address_book(&self, csv_text: &str) -> Result<ImportOutcome, SdkError> {
        let (user_id, _) = self.require_login()?;
        if csv_text.len() > MAX_IMPORT {
            return Err(invalid(format!(
                "an import is at most {} KiB",
                MAX_IMPORT / 1024
            )));
        }
        let mut list = self.address_books.read(&user_id);
        let mut outcome = ImportOutcome {
            added: 0,
            renamed: 0,
            refused: Vec::new(),
        };
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(csv_text.as_bytes());
        for (line, record) in reader.records().enumerate() {
            let line = line + 1;
            let Ok(record) = record else {
                outcome.refused.push(format!("line {line}: not CSV"));
                continue;
            };
            let (name, address) = (record.get(0).unwrap_or(""), record.get(1).unwrap_or(""));
            if line == 1 && name.trim().eq_ignore_ascii_case("name") {
                continue;
            }
            let saved = check_address(address.trim())
                .and_then(|a| Ok((a, clean_name(name)?)))
                .and_then(|(a, n)| upsert(&mut list, a, n));
            match saved {
                Ok(true) => outcome.added += 1,
                Ok(false) => outcome.renamed += 1,
                Err(e) => outcome.refused.push(format!("line {line}: {}", e.message)),
            }
        }
        self.address_books.write(&user_id, list)?;
        Ok(outcome)
    }

    /// The addresses this wallet sent to lately, newest first, each once (a
    /// cancel's own address, contracts called and contracts deployed left out).
    pub async fn recent_recipients(&self) -> Result<Vec<Address>, SdkError> {
        let mut recent: Vec<Address> = Vec::new();
        for entry in self.get_activity().await? {
            let sent = entry.direction == satchel_api::TransactionDirection::Sent
                && !entry.is_cancel
                && matches!(
                    entry.kind,
                    super::send::ActivityKind::Transfer | super::send::ActivityKind::NftTransfer
                );
            if let (true, Ok(address)) = (sent, entry.counterparty.parse::<Address>())
                && !recent.contains(&address)
                && recent.len() < RECENT
            {
                recent.push(address);
            }
        }
        Ok(recent)
    }

    /// What the send review warns of about sending to `to` on `network`, where
    /// `is_contract` says whether code lives there.
    pub(crate) async fn recipient_warnings(
        &self,
        network: &str,
        to: Address,
        is_contract: bool,
    ) -> Vec<RecipientWarning> {
        let saved = self.saved_addresses().unwrap_or_default();
        let recent = self.recent_recipients().await.unwrap_or_default();
        let mut warnings = Vec::new();
        let token_contract = self
            .networks
            .network(network)
            .is_some_and(|n| n.tokens.iter().any(|t| t.contract == to));
        if token_contract {
            warnings.push(RecipientWarning::TokenContract);
        } else if is_contract {
            warnings.push(RecipientWarning::ContractNotToken);
        }
        let imitated = saved
            .iter()
            .filter_map(|s| Some((s.address.parse::<Address>().ok()?, Some(s.name.clone()))))
            .chain(recent.iter().map(|a| (*a, None)))
            .find(|(known, _)| looks_like(&to, known));
        if let Some((of, name)) = imitated {
            warnings.push(RecipientWarning::LookAlike {
                of: of.to_checksum(None),
                name,
            });
        }
        let known = recent.contains(&to)
            || saved
                .iter()
                .any(|s| s.address.parse::<Address>().ok() == Some(to));
        if !known && !is_contract {
            warnings.push(RecipientWarning::FirstTransfer);
        }
        warnings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_look_alike_shares_both_ends_and_is_another_address() {
        let saved: Address = "0x52908400098527886E0F7030069857D2E4169EE7"
            .parse()
            .expect("a");
        let poison: Address = "0x5290000000000000000000000000000000009Ee7"
            .parse()
            .expect("b");
        let other_end: Address = "0x5290000000000000000000000000000000009Ee8"
            .parse()
            .expect("c");
        assert!(looks_like(&poison, &saved));
        assert!(!looks_like(&saved, &saved), "itself is no look-alike");
        assert!(!looks_like(&other_end, &saved));
    }

    #[test]
    fn names_are_cleaned_and_bounded_and_the_book_is_bounded() {
        assert_eq!(clean_name("  Bob\nSmith ").expect("name"), "Bob Smith");
        assert!(clean_name("   ").is_err());
        assert!(clean_name(&"x".repeat(MAX_NAME + 1)).is_err());
        let mut list = Vec::new();
        for i in 0..MAX_SAVED {
            let address = Address::from_word(alloy::primitives::B256::from(
                alloy::primitives::U256::from(i + 1),
            ));
            assert!(upsert(&mut list, address, format!("n{i}")).expect("kept"));
        }
        let one_more = Address::repeat_byte(0xee);
        assert!(upsert(&mut list, one_more, "more".into()).is_err());
        // Renaming one already kept still works at the bound.
        let first = list[0].address.parse().expect("address");
        assert!(!upsert(&mut list, first, "renamed".into()).expect("renamed"));
    }
}
