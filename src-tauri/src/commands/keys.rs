//! The wallet's key: register with a PIN, the key's state on this device, the
//! recovery phrase, PIN change, restore and unlock.
#![allow(non_snake_case)] // command names are the spec's method names

use satchel_api::{PinStatus, ServiceUser};
use satchel_sdk::KeyStatus;

use super::{Result, WidgetState};

/// Makes the wallet with the PIN the person chose on the register page; with
/// `backup`, the service keeps the mnemonic sealed under the PIN and share.
#[tauri::command]
pub async fn register(
    widget: WidgetState<'_>,
    pin: String,
    backup: Option<bool>,
) -> Result<ServiceUser> {
    widget.register(&pin, backup.unwrap_or(false)).await
}

/// Whether this device holds the wallet's key, and whether the recovery phrase
/// was confirmed: the page explains a key elsewhere or not the wallet's, and
/// reminds of the phrase.
#[tauri::command]
pub fn getKeyState(widget: WidgetState<'_>) -> KeyStatus {
    widget.key_status()
}

/// Tries left, pause and lock of the wallet's PIN, and whether a backup is kept.
#[tauri::command]
pub async fn getPinStatus(widget: WidgetState<'_>) -> Result<PinStatus> {
    widget.pin_status().await
}

/// The recovery phrase's words, behind the PIN; shown on the page, kept nowhere.
#[tauri::command]
pub async fn showRecoveryPhrase(widget: WidgetState<'_>, pin: String) -> Result<Vec<String>> {
    widget.show_recovery_phrase(&pin).await
}

/// The account's private key (0x-hex), behind the PIN, for another wallet;
/// shown on the page once, kept nowhere.
#[tauri::command]
pub async fn exportPrivateKey(widget: WidgetState<'_>, pin: String) -> Result<String> {
    widget.export_private_key(&pin).await
}

#[tauri::command]
pub async fn confirmRecoveryPhrase(widget: WidgetState<'_>) -> Result<()> {
    widget.confirm_recovery_phrase().await
}

#[tauri::command]
pub async fn changePin(widget: WidgetState<'_>, old_pin: String, new_pin: String) -> Result<()> {
    widget.change_pin(&old_pin, &new_pin).await
}

#[tauri::command]
pub async fn restoreFromPhrase(
    widget: WidgetState<'_>,
    phrase: String,
    pin: String,
) -> Result<ServiceUser> {
    widget.restore_from_phrase(&phrase, &pin).await
}

#[tauri::command]
pub async fn restoreFromBackup(widget: WidgetState<'_>, pin: String) -> Result<ServiceUser> {
    widget.restore_from_backup(&pin).await
}

#[tauri::command]
pub async fn sendPinUnlockEmail(widget: WidgetState<'_>) -> Result<()> {
    widget.send_pin_unlock_email().await
}
