//! The commands the widget's pages call, named as the spec's widget SDK and login
//! library methods. Each is a thin call into `satchel-sdk`; errors reach the page as
//! `{code, message}`. No command returns a token or a key.
#![allow(non_snake_case)] // command names are the spec's method names

use std::sync::Arc;

use satchel_api::ServiceErrorCode;
use satchel_api::{
    AccountBalanceInfo, AppInfo, PinStatus, ServiceAccount, ServiceLifeCycle, ServiceNft,
    ServiceUser,
};
use satchel_sdk::{
    AccountRef, ActivityEntry, AddressCheck, ConfirmSend, ExternalLoginOutcome, KeyStatus,
    LoginOptions, LoginProviderChoice, OrUnknown, ReceiveInfo, Refresh, RegisterEmailPrompt,
    ReplaceAction, SdkError, SendForm, SendQuote, SendRequest, SendResult, TxData, Widget,
};
use serde::{Deserialize, Serialize};
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State, WebviewWindow};

use crate::connection::Connection;
use crate::updates::Updates;

type Result<T> = std::result::Result<T, SdkError>;
type WidgetState<'a> = State<'a, Arc<Widget>>;

#[tauri::command]
pub fn getStatus(widget: WidgetState<'_>) -> ServiceLifeCycle {
    widget.get_status()
}

/// Sends the life cycle now and at every change, until the page goes away.
#[tauri::command]
pub fn watchStatus(widget: WidgetState<'_>, on_event: Channel<ServiceLifeCycle>) {
    let mut changes = widget.watch_status();
    tauri::async_runtime::spawn(async move {
        loop {
            let status = *changes.borrow_and_update();
            if on_event.send(status).is_err() {
                return; // the page is gone
            }
            if changes.changed().await.is_err() {
                return; // the widget is gone
            }
        }
    });
}

/// What the app key allows (`GET /v1/app`); the page asks at start, and an
/// error (no configuration, no answer) names the service URL tried, which the
/// offline page shows.
#[tauri::command]
pub async fn getAppInfo(
    widget: WidgetState<'_>,
    connection: State<'_, Arc<Connection>>,
) -> Result<AppInfo> {
    connection.app_info(&widget).await
}

/// The logged-in user (tokens left out), or `null`.
#[tauri::command]
pub fn getCurrentServiceUser(widget: WidgetState<'_>) -> Option<ServiceUser> {
    widget.current_user()
}

/// loginWithUI: the user when someone is logged in, without showing the
/// widget; otherwise shows the widget's login page and resolves with the user
/// once they log in, or `UserCancelled` when the widget is closed.
///
/// `providers` (`[{provider, clientId}]`) are the OAuth buttons the login page
/// shows (an empty list: e-mail only; left out: every provider the app
/// registered), each one the app allows (`InvalidLoginProvider` otherwise);
/// `email` fills in the e-mail field.
#[tauri::command]
pub async fn loginWithUI<R: Runtime>(
    widget: WidgetState<'_>,
    window: WebviewWindow<R>,
    providers: Option<Vec<LoginProviderChoice>>,
    email: Option<String>,
) -> Result<ServiceUser> {
    if let Some(user) = widget.current_user() {
        return Ok(user);
    }
    widget.choose_login(providers, email).await?;
    let _ = window.show();
    let _ = window.set_focus();
    widget.login_with_ui().await
}

/// What the login page offers: OAuth buttons and the e-mail form.
#[tauri::command]
pub async fn getLoginOptions(widget: WidgetState<'_>) -> Result<LoginOptions> {
    widget.login_options().await
}

/// loginWithOauthProvider: the system browser, a loopback redirect, then the
/// user (logged in to the service; its tokens stay in the keychain), or
/// `{registerEmail: {provider}}` when the account has no e-mail yet. Errors:
/// 'Invalid provider', 'User canceled', 'Internal error'.
#[tauri::command]
pub async fn loginWithOauthProvider(
    widget: WidgetState<'_>,
    provider: String,
    with_logout: Option<bool>,
) -> Result<ExternalLoginOutcome> {
    widget.login_with_oauth(&provider, with_logout).await
}

/// Ends an OAuth login waiting for the browser ('User canceled').
#[tauri::command]
pub fn cancelOauth(widget: WidgetState<'_>) {
    widget.cancel_oauth();
}

/// loginWithIdToken: an id token of the app's backend and its `sign`.
#[tauri::command]
pub async fn loginWithIdToken(
    widget: WidgetState<'_>,
    token: String,
    sign: String,
) -> Result<ExternalLoginOutcome> {
    widget.login_with_id_token(&token, &sign).await
}

/// loginWithAccessToken: a naver, discord or facebook access token and its `sign`.
#[tauri::command]
pub async fn loginWithAccessToken(
    widget: WidgetState<'_>,
    provider: String,
    token: String,
    sign: String,
) -> Result<ExternalLoginOutcome> {
    widget
        .login_with_access_token(&provider, &token, &sign)
        .await
}

/// getSignForLogin: secp256k1 over SHA-256 of the message, RFC 6979, `r || s`
/// hex. Meant for an app's backend; here for completeness of the login library.
#[tauri::command]
pub fn getSignForLogin(priv_key: String, message: String) -> Result<String> {
    satchel_sdk::get_sign_for_login(&priv_key, &message)
}

/// sendVerifyEmail for the login refused for want of an e-mail (its token stays
/// in the app).
#[tauri::command]
pub async fn sendVerifyEmail(widget: WidgetState<'_>, email: String) -> Result<bool> {
    widget.send_verify_email(&email).await
}

/// The refused login again once its e-mail is verified: the user
/// (`RequiredEmailVerified` before).
#[tauri::command]
pub async fn resumeLogin(widget: WidgetState<'_>) -> Result<ServiceUser> {
    widget.resume_login().await
}

/// registerUserEmail: shows the e-mail registration for the account of these
/// tokens and resolves with the user once it is done, or `UserCancelled` when
/// the widget is closed.
#[tauri::command]
pub async fn registerUserEmail<R: Runtime>(
    widget: WidgetState<'_>,
    window: WebviewWindow<R>,
    provider: String,
    id_token: Option<String>,
    access_token: Option<String>,
) -> Result<ServiceUser> {
    let _ = window.show();
    let _ = window.set_focus();
    widget
        .register_user_email(
            &provider,
            id_token.as_deref().unwrap_or_default(),
            access_token.as_deref().unwrap_or_default(),
        )
        .await
}

/// Follows registerUserEmail calls: the page opens its e-mail registration.
#[tauri::command]
pub fn watchRegisterEmailRequests(widget: WidgetState<'_>, on_event: Channel<RegisterEmailPrompt>) {
    let mut requests = widget.watch_register_email_requests();
    requests.mark_unchanged();
    tauri::async_runtime::spawn(async move {
        while requests.changed().await.is_ok() {
            let request = *requests.borrow_and_update();
            if let Some(request) = request
                && on_event.send(request).is_err()
            {
                break;
            }
        }
    });
}

#[tauri::command]
pub async fn loginWithEmailAndPassword(
    widget: WidgetState<'_>,
    email: String,
    password: String,
) -> Result<ServiceUser> {
    widget.login_with_email(&email, &password).await
}

#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct SignUpOutcome {
    verification_sent: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    user: Option<ServiceUser>,
}

#[tauri::command]
pub async fn signUpWithEmailAndPassword(
    widget: WidgetState<'_>,
    email: String,
    password: String,
) -> Result<SignUpOutcome> {
    let user = widget.sign_up_with_email(&email, &password).await?;
    Ok(SignUpOutcome {
        verification_sent: user.is_none(),
        user,
    })
}

#[tauri::command]
pub async fn resendVerification(widget: WidgetState<'_>, email: String) -> Result<()> {
    widget.login().resend_verification(&email).await
}

/// E-mails a link that sets a new password; the same answer whether or not the
/// address has a login.
#[tauri::command]
pub async fn sendPasswordResetEmail(widget: WidgetState<'_>, email: String) -> Result<()> {
    widget.login().send_password_reset_email(&email).await
}

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

/// receive: what the receive page shows for one of the user's accounts (and
/// token); the QR code comes through the `satchel:` protocol.
#[tauri::command]
pub async fn receive(widget: WidgetState<'_>, account: AccountRef) -> Result<ReceiveInfo> {
    widget.receive(&account).await
}

/// send: opens the send page for one of the user's accounts (its coin, or the
/// token at `account.contract`), filled from `txData`, and resolves with the
/// transaction's hash once the person confirms it with the PIN, or with
/// `UserCancelled` when they close the page (or another `send` takes its place).
#[tauri::command]
pub async fn send<R: Runtime>(
    widget: WidgetState<'_>,
    window: WebviewWindow<R>,
    account: AccountRef,
    tx_data: Option<TxData>,
) -> Result<SendResult> {
    let (_, done) = widget.begin_send(&account, tx_data).await?;
    let _ = window.show();
    let _ = window.set_focus();
    done.await.unwrap_or_else(|_| {
        Err(SdkError::service(
            ServiceErrorCode::UserCancelled,
            "the send was cancelled",
        ))
    })
}

/// Sends each application `send` as it comes, for the page to open its form.
#[tauri::command]
pub fn watchSendRequests(widget: WidgetState<'_>, on_event: Channel<SendRequest>) {
    let mut requests = widget.watch_send_requests();
    tauri::async_runtime::spawn(async move {
        loop {
            let request = requests.borrow_and_update().clone();
            if let Some(request) = request
                && on_event.send(request).is_err()
            {
                return; // the page is gone
            }
            if requests.changed().await.is_err() {
                return;
            }
        }
    });
}

/// The person left the send page: the application's `send` gets `UserCancelled`.
#[tauri::command]
pub fn cancelSend(widget: WidgetState<'_>, request_id: u64) {
    widget.cancel_send(request_id);
}

/// Checks a recipient as it is typed (EIP-55 checksum, the account itself).
#[tauri::command]
pub fn checkAddress(
    widget: WidgetState<'_>,
    account: AccountRef,
    to: String,
) -> Result<AddressCheck> {
    widget.check_recipient(&account, &to)
}

/// The review of a send: fees (slow, normal, fast), totals, balances after,
/// simulated by the service. An empty amount quotes the fees (for Max).
#[tauri::command]
pub async fn prepareSend(widget: WidgetState<'_>, form: SendForm) -> Result<SendQuote> {
    widget.prepare_send(&form).await
}

/// The review of a speed-up or cancel of a pending transaction.
#[tauri::command]
pub async fn prepareReplacement(
    widget: WidgetState<'_>,
    tx_hash: String,
    action: ReplaceAction,
) -> Result<SendQuote> {
    widget.prepare_replacement(&tx_hash, action).await
}

/// Signs the reviewed quote with the key the PIN opens and broadcasts it.
#[tauri::command]
pub async fn confirmSend(widget: WidgetState<'_>, confirm: ConfirmSend) -> Result<ActivityEntry> {
    widget.confirm_send(confirm).await
}

/// The wallet's sent transactions and received token transfers, newest first.
#[tauri::command]
pub async fn getActivity(widget: WidgetState<'_>) -> Result<Vec<ActivityEntry>> {
    widget.get_activity().await
}

#[tauri::command]
pub fn openWidget<R: Runtime>(widget: WidgetState<'_>, window: WebviewWindow<R>) -> bool {
    let opened = widget.open_widget();
    if opened {
        let _ = window.show();
        let _ = window.set_focus();
    }
    opened
}

#[tauri::command]
pub fn closeWidget<R: Runtime>(widget: WidgetState<'_>, window: WebviewWindow<R>) -> bool {
    let _ = window.hide();
    widget.close_widget()
}

#[tauri::command]
pub async fn logout(widget: WidgetState<'_>) -> Result<()> {
    widget.logout().await
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct AccountOptions {
    networks: Option<Vec<String>>,
    with_eoa: Option<bool>,
}

#[tauri::command]
pub async fn getAccounts(
    widget: WidgetState<'_>,
    options: Option<AccountOptions>,
) -> Result<Vec<ServiceAccount>> {
    let options = options.unwrap_or_default();
    widget
        .get_accounts(
            options.networks.as_deref(),
            options.with_eoa.unwrap_or(false),
        )
        .await
}

#[tauri::command]
pub async fn getBalance(
    widget: WidgetState<'_>,
    accounts: Option<Vec<AccountRef>>,
) -> Result<Vec<AccountBalanceInfo>> {
    widget.get_balance(accounts.as_deref()).await
}

/// Re-reads every balance from the chain; refused within a minute of the last.
#[tauri::command]
pub async fn refreshBalance(widget: WidgetState<'_>) -> Result<Vec<AccountBalanceInfo>> {
    widget.refresh_balances().await
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct NftOptions {
    refresh: Option<bool>,
    networks: Option<Vec<String>>,
}

#[tauri::command]
pub async fn getNFTs(
    widget: WidgetState<'_>,
    options: Option<NftOptions>,
) -> Result<Vec<ServiceNft>> {
    let options = options.unwrap_or_default();
    widget
        .get_nfts(
            options.refresh.unwrap_or(false),
            options.networks.as_deref(),
        )
        .await
}

/// Seconds until balances and NFTs may be refreshed again.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RefreshWait {
    balances: u64,
    nfts: u64,
}

/// Rounded up, so a page that counts it down never asks a moment too early.
fn whole_seconds(wait: std::time::Duration) -> u64 {
    wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
}

#[tauri::command]
pub fn getRefreshWait(widget: WidgetState<'_>) -> RefreshWait {
    RefreshWait {
        balances: whole_seconds(widget.refresh_wait(Refresh::Balances)),
        nfts: whole_seconds(widget.refresh_wait(Refresh::Nfts)),
    }
}

#[tauri::command]
pub async fn finalize(widget: WidgetState<'_>) -> Result<()> {
    widget.finalize().await;
    Ok(())
}

/// Opens an NFT's external link in the system browser (the page asks the
/// person first). Only links of NFTs the widget has listed, only http(s).
#[tauri::command]
pub fn openNftLink<R: Runtime>(
    widget: WidgetState<'_>,
    app: tauri::AppHandle<R>,
    link: String,
) -> Result<()> {
    use tauri_plugin_opener::OpenerExt as _;
    let url = widget.nft_link(&link)?;
    app.opener()
        .open_url(url.as_str(), None::<&str>)
        .or_unknown()
}

/// The page reports what it has shown, for the desktop benchmark: `shown <what>`
/// on standard output when `SATCHEL_PERF_MARKS=1`, else nothing.
#[tauri::command]
pub fn markShown(what: String) {
    if std::env::var("SATCHEL_PERF_MARKS").as_deref() == Ok("1") {
        println!("shown {what}");
    }
}

/// The version of a downloaded, verified update waiting for a restart, or `null`.
#[tauri::command]
pub fn getUpdate(updates: State<'_, Updates>) -> Option<String> {
    updates.ready_version()
}

/// Installs the waiting update and restarts the app; `false` when none waits.
#[tauri::command]
pub fn installUpdate<R: Runtime>(app: AppHandle<R>, updates: State<'_, Updates>) -> Result<bool> {
    updates
        .install_and_restart(&app)
        .map_err(|e| SdkError::service(ServiceErrorCode::UnknownError, e))
}
