//! The wallet's key: register with a PIN, the key's state on this device, the
//! recovery phrase, PIN change, restore and unlock.
#![allow(non_snake_case)] // command names are the spec's method names

use alloy::primitives::Address;
use satchel_api::{PinStatus, ServiceUser};
use satchel_sdk::{KeyStatus, WalletAccount};

use tauri::{AppHandle, Runtime};

use super::{Page, Result};
use satchel_desktop::application;

/// Makes the wallet with the PIN the person chose on the register page; with
/// `backup`, the service keeps the mnemonic sealed under the PIN and share.
#[tauri::command]
pub async fn register(widget: Page, pin: String, backup: Option<bool>) -> Result<ServiceUser> {
    widget.register(&pin, backup.unwrap_or(false)).await
}

/// register, as the spec gives it to an application: shows the widget's
/// registration page (the PIN is asked there, never by the application) and
/// resolves with the user once the person has registered, or `UserCancelled`
/// when the widget is closed. Only in `login_before_register`.
#[tauri::command]
pub async fn registerWithUI<R: Runtime>(widget: Page, app: AppHandle<R>) -> Result<ServiceUser> {
    application::register_with_ui(&widget, &widget.window(&app)).await
}

/// Whether this device holds the wallet's key, and whether the recovery phrase
/// was confirmed: the page explains a key elsewhere or not the wallet's, and
/// reminds of the phrase.
#[tauri::command]
pub fn getKeyState(widget: Page) -> KeyStatus {
    widget.key_status()
}

/// Tries left, pause and lock of the wallet's PIN, and whether a backup is kept.
#[tauri::command]
pub async fn getPinStatus(widget: Page) -> Result<PinStatus> {
    widget.pin_status().await
}

/// The recovery phrase's words, behind the PIN; shown on the page, kept nowhere.
#[tauri::command]
pub async fn showRecoveryPhrase(widget: Page, pin: String) -> Result<Vec<String>> {
    widget.show_recovery_phrase(&pin).await
}

/// `account`'s private key (0x-hex), behind the PIN, for another wallet;
/// shown on the page once, kept nowhere.
#[tauri::command]
pub async fn exportPrivateKey(widget: Page, pin: String, account: Address) -> Result<String> {
    widget.export_private_key(&pin, account).await
}

/// The wallet's accounts this device holds the key of, with their names.
#[tauri::command]
pub async fn getWalletAccounts(widget: Page) -> Result<Vec<WalletAccount>> {
    widget.wallet_accounts().await
}

/// Adds the wallet's next account (derived here behind the PIN, proven to the
/// service by its key); the accounts after.
#[tauri::command]
pub async fn addAccount(widget: Page, pin: String, label: String) -> Result<Vec<WalletAccount>> {
    widget.add_account(&pin, &label).await
}

/// Opens the phrase with the PIN to take in accounts added on another device;
/// the accounts after.
#[tauri::command]
pub async fn confirmAccounts(widget: Page, pin: String) -> Result<Vec<WalletAccount>> {
    widget.confirm_accounts(&pin).await
}

/// Names one of the wallet's accounts.
#[tauri::command]
pub async fn renameAccount(widget: Page, account: Address, label: String) -> Result<()> {
    widget.rename_account(account, &label).await
}

#[tauri::command]
pub async fn confirmRecoveryPhrase(widget: Page) -> Result<()> {
    widget.confirm_recovery_phrase().await
}

#[tauri::command]
pub async fn changePin(widget: Page, old_pin: String, new_pin: String) -> Result<()> {
    widget.change_pin(&old_pin, &new_pin).await
}

#[tauri::command]
pub async fn restoreFromPhrase(widget: Page, phrase: String, pin: String) -> Result<ServiceUser> {
    widget.restore_from_phrase(&phrase, &pin).await
}

#[tauri::command]
pub async fn restoreFromBackup(widget: Page, pin: String) -> Result<ServiceUser> {
    widget.restore_from_backup(&pin).await
}

#[tauri::command]
pub async fn sendPinUnlockEmail(widget: Page) -> Result<()> {
    widget.send_pin_unlock_email().await
}
