//! Sending: the send page's requests, recipient checks, quotes, the signed
//! broadcast, replacements and the activity list.
#![allow(non_snake_case)] // command names are the spec's method names

use satchel_sdk::{
    AccountRef, ActivityEntry, AddressCheck, ApprovalEntry, CallQuote, ConfirmSend, NftSendForm,
    ReplaceAction, RevokeForm, SendForm, SendQuote, SendRequest, SendResult, TxData,
};
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime};

use super::{Page, Result, Start, forward_watch};
use satchel_desktop::application;

/// send: opens the send page for one of the user's accounts (its coin, or the
/// token at `account.contract`), filled from `txData`, and resolves with the
/// transaction's hash once the person confirms it with the PIN, or with
/// `UserCancelled` when they close the page (or another `send` takes its place).
#[tauri::command]
pub async fn send<R: Runtime>(
    widget: Page,
    app: AppHandle<R>,
    account: AccountRef,
    tx_data: Option<TxData>,
) -> Result<SendResult> {
    application::send(&widget, &widget.window(&app), &account, tx_data).await
}

/// Sends each application `send` as it comes, for the page to open its form.
#[tauri::command]
pub fn watchSendRequests(widget: Page, on_event: Channel<SendRequest>) {
    forward_watch(
        widget.watch_send_requests(),
        on_event,
        Start::Now,
        |request| request.clone(),
    );
}

/// The person left the send page: the application's `send` gets `UserCancelled`.
#[tauri::command]
pub fn cancelSend(widget: Page, request_id: u64) {
    widget.cancel_send(request_id);
}

/// Checks a recipient as it is typed (EIP-55 checksum, the account itself),
/// or resolves the ENS name typed on the account's network.
#[tauri::command]
pub async fn checkAddress(widget: Page, account: AccountRef, to: String) -> Result<AddressCheck> {
    widget.check_recipient(&account, &to).await
}

/// `address`'s primary ENS name on `network` (none: the first network with a
/// registry), only when it resolves back to `address`; none otherwise.
#[tauri::command]
pub async fn primaryName(
    widget: Page,
    network: Option<String>,
    address: String,
) -> Result<Option<String>> {
    let address = satchel_sdk::check_address(&address)?;
    match network {
        Some(network) => widget.primary_name(&network, address).await,
        None => widget.primary_name_anywhere(address).await,
    }
}

/// The review of a send: fees (slow, normal, fast), totals, balances after,
/// simulated by the service. An empty amount quotes the fees (for Max).
#[tauri::command]
pub async fn prepareSend(widget: Page, form: SendForm) -> Result<SendQuote> {
    widget.prepare_send(&form).await
}

/// The review of a speed-up or cancel of a pending transaction.
#[tauri::command]
pub async fn prepareReplacement(
    widget: Page,
    tx_hash: String,
    action: ReplaceAction,
) -> Result<SendQuote> {
    widget.prepare_replacement(&tx_hash, action).await
}

/// Signs the reviewed quote with the key the PIN opens and broadcasts it.
/// Quotes the send of an NFT the person holds (ERC-721 or ERC-1155): the fee
/// options and what leaves; `confirmSend` signs it.
#[tauri::command]
pub async fn prepareNftSend(widget: Page, form: NftSendForm) -> Result<CallQuote> {
    widget.prepare_nft_send(&form).await
}

/// The approvals the person's accounts gave that hold now (each checked with
/// a call), newest first.
#[tauri::command]
pub async fn getApprovals(widget: Page) -> Result<Vec<ApprovalEntry>> {
    widget.approvals().await
}

/// Quotes the revocation of an approval (`approve(spender, 0)` or
/// `setApprovalForAll(operator, false)`); `confirmSend` signs it.
#[tauri::command]
pub async fn prepareRevoke(widget: Page, form: RevokeForm) -> Result<CallQuote> {
    widget.prepare_revoke(&form).await
}

#[tauri::command]
pub async fn confirmSend(widget: Page, confirm: ConfirmSend) -> Result<ActivityEntry> {
    widget.confirm_send(confirm).await
}

/// The wallet's sent transactions and received token transfers, newest first.
#[tauri::command]
pub async fn getActivity(widget: Page) -> Result<Vec<ActivityEntry>> {
    widget.get_activity().await
}
