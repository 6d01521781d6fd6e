//! Dapps and programs connected through the local provider: the approval
//! prompts the page shows and answers, and Settings' connected sites.
#![allow(non_snake_case)] // command names are the page's

use std::sync::Arc;

use satchel_sdk::{FeeSpeed, SdkError};
use tauri::State;
use tauri::ipc::Channel;

use super::{Page, Start, forward_watch};
use satchel_connect::LinkedExtension;
use satchel_desktop::dapps::{
    ConnectPrompt, ConnectedSite, Dapps, EndpointStatus, SendChoice, SiteSwitched,
};

type DappsState<'a> = State<'a, Arc<Dapps>>;

/// Sends the approval the page should show (the head of the queue, or `null`
/// when none waits) now and at every change. Only to the host's own widget: a
/// program's widget window never shows the requests made to the host's wallet.
#[tauri::command]
pub fn watchConnectRequests(
    page: Page,
    dapps: DappsState<'_>,
    on_event: Channel<Option<ConnectPrompt>>,
) {
    if !page.is_own() {
        return;
    }
    forward_watch(dapps.watch_prompts(), on_event, Start::Now, |prompt| {
        Some(prompt.clone())
    });
}

/// Tells the page each time a site or program switches its network
/// (`wallet_switchEthereumChain`), for the notice the window shows. Only to
/// the host's own widget, as its prompts are.
#[tauri::command]
pub fn watchSiteSwitches(page: Page, dapps: DappsState<'_>, on_event: Channel<SiteSwitched>) {
    if !page.is_own() {
        return;
    }
    forward_watch(
        dapps.watch_switches(),
        on_event,
        Start::NextChange,
        |switch| switch.clone(),
    );
}

/// The person's answer to an approval prompt, with their PIN where the key
/// signs; a wrong PIN (or a refused request) is the page's error to show, and
/// the prompt stays.
#[tauri::command]
pub async fn answerConnectRequest(
    dapps: DappsState<'_>,
    id: u64,
    approve: bool,
    pin: Option<String>,
    speed: Option<FeeSpeed>,
    accept_high_fee: Option<bool>,
    accounts: Option<Vec<String>>,
) -> Result<(), SdkError> {
    let send = speed.map(|speed| SendChoice {
        speed,
        accept_high_fee: accept_high_fee.unwrap_or(false),
    });
    dapps.answer(id, approve, pin, send, accounts).await
}

/// The applications the person connected, for Settings.
#[tauri::command]
pub fn getConnectedSites(dapps: DappsState<'_>) -> Vec<ConnectedSite> {
    dapps.connected()
}

/// Disconnects an application: its `eth_accounts` is `[]` from now.
#[tauri::command]
pub fn disconnectSite(dapps: DappsState<'_>, key: String) -> bool {
    dapps.disconnect(&key)
}

/// A one-time code that links Satchel's browser extension, for the person to
/// type into it. Only the host's own window may show one: a program's widget
/// window could otherwise link itself and speak for any site.
#[tauri::command]
pub fn linkBrowserExtension(page: Page, dapps: DappsState<'_>) -> Result<String, SdkError> {
    if !page.is_own() {
        return Err(SdkError::service(
            satchel_api::ServiceErrorCode::InvalidParameters,
            "only Satchel's own window links a browser extension",
        ));
    }
    Ok(dapps.extension_code())
}

/// The browser extensions the person linked, for Settings.
#[tauri::command]
pub fn getLinkedExtensions(dapps: DappsState<'_>) -> Vec<LinkedExtension> {
    dapps.linked_extensions()
}

/// Unlinks a browser extension: new sockets from it are refused.
#[tauri::command]
pub fn unlinkBrowserExtension(dapps: DappsState<'_>, extension: String) -> bool {
    dapps.unlink_extension(&extension)
}

/// Where the local endpoint listens, or why it cannot (its port taken), now
/// and at every change. Only to the host's own window.
#[tauri::command]
pub fn watchEndpoint(page: Page, dapps: DappsState<'_>, on_event: Channel<EndpointStatus>) {
    if !page.is_own() {
        return;
    }
    forward_watch(dapps.watch_endpoint(), on_event, Start::Now, |status| {
        Some(status.clone())
    });
}

/// Moves the local endpoint to another port (the person chose it in
/// Settings), kept for the next start; a taken port is refused, saying so.
#[tauri::command]
pub async fn moveEndpoint(
    page: Page,
    dapps: DappsState<'_>,
    port: u16,
) -> Result<EndpointStatus, SdkError> {
    if !page.is_own() {
        return Err(SdkError::service(
            satchel_api::ServiceErrorCode::InvalidParameters,
            "only Satchel's own window moves its endpoint",
        ));
    }
    dapps.move_endpoint(port).await
}
