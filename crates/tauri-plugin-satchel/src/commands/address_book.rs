//! The person's saved addresses: list, save (or rename), forget, and CSV out
//! and in. Kept on this device, in the app's data folder.
#![allow(non_snake_case)] // command names are the page's

use satchel_sdk::{ImportOutcome, SavedAddress};

use super::{Page, Result};

#[tauri::command]
pub fn getSavedAddresses(widget: Page) -> Result<Vec<SavedAddress>> {
    widget.saved_addresses()
}

/// Saves `address` as `name`, or renames it; the list after.
#[tauri::command]
pub fn saveAddress(widget: Page, address: String, name: String) -> Result<Vec<SavedAddress>> {
    widget.save_address(&address, &name)
}

#[tauri::command]
pub fn forgetAddress(widget: Page, address: String) -> Result<Vec<SavedAddress>> {
    widget.forget_address(&address)
}

/// The address book as CSV (`name,address`).
#[tauri::command]
pub fn exportAddressBook(widget: Page) -> Result<String> {
    widget.export_address_book()
}

/// Takes CSV lines of `name,address`; says what it added, renamed and refused.
#[tauri::command]
pub fn importAddressBook(widget: Page, csv: String) -> Result<ImportOutcome> {
    widget.import_address_book(&csv)
}

/// The addresses the wallet sent to lately (EIP-55), newest first.
#[tauri::command]
pub async fn getRecentRecipients(widget: Page) -> Result<Vec<String>> {
    Ok(widget
        .recent_recipients()
        .await?
        .into_iter()
        .map(|a| a.to_checksum(None))
        .collect())
}
