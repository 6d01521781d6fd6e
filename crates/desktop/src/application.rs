//! The spec's widget methods as an application calls them, written once: the
//! Tauri plugin's commands (`plugin:satchel|…`) and the local endpoint's
//! `satchel_*` methods (programs that are not Tauri apps) both call these. The
//! methods that need the person show the widget's window through
//! [`WidgetWindow`]; the PIN is only ever typed there, never handed in.

use satchel_api::{AccountBalanceInfo, ServiceAccount, ServiceLifeCycle, ServiceNft, ServiceUser};
use satchel_sdk::{AccountRef, LoginProviderChoice, SdkError, SendResult, TxData, Widget};
use serde::Deserialize;

/// The window a widget's pages are shown in.
pub trait WidgetWindow: Send + Sync {
    /// Shows it, making it first when it is not there.
    fn show(&self);
    /// Hides it, if it is there.
    fn hide(&self);
}

/// `getAccounts(options)`.
#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AccountOptions {
    pub networks: Option<Vec<String>>,
    pub with_eoa: Option<bool>,
}

/// `getNFTs(options)`.
#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NftOptions {
    pub refresh: Option<bool>,
    pub networks: Option<Vec<String>>,
}

/// loginWithUI: the user when someone is logged in, without showing the
/// widget; otherwise the widget's login page (with these OAuth buttons and
/// this e-mail filled in) and the user once they log in, or `UserCancelled`
/// when the widget is closed.
pub async fn login_with_ui(
    widget: &Widget,
    window: &dyn WidgetWindow,
    providers: Option<Vec<LoginProviderChoice>>,
    email: Option<String>,
) -> Result<ServiceUser, SdkError> {
    if let Some(user) = widget.current_user() {
        return Ok(user);
    }
    widget.choose_login(providers, email).await?;
    window.show();
    widget.login_with_ui().await
}

/// register, as the spec gives it to an application: the widget's
/// registration page (the PIN is asked there), and the user once registered.
pub async fn register_with_ui(
    widget: &Widget,
    window: &dyn WidgetWindow,
) -> Result<ServiceUser, SdkError> {
    if widget.get_status() == ServiceLifeCycle::LoginBeforeRegister {
        window.show();
    }
    widget.register_with_ui().await
}

/// openWidget: shows the widget when someone is logged in; `false` otherwise.
pub fn open_widget(widget: &Widget, window: &dyn WidgetWindow) -> bool {
    let opened = widget.open_widget();
    if opened {
        window.show();
    }
    opened
}

/// closeWidget: hides it; a `loginWithUI` or `send` waiting hears `UserCancelled`.
pub fn close_widget(widget: &Widget, window: &dyn WidgetWindow) -> bool {
    window.hide();
    widget.close_widget()
}

/// send: the send page for `account`, filled from `tx_data`, and the
/// transaction's hash once the person confirms it with the PIN.
pub async fn send(
    widget: &Widget,
    window: &dyn WidgetWindow,
    account: &AccountRef,
    tx_data: Option<TxData>,
) -> Result<SendResult, SdkError> {
    let (_, done) = widget.begin_send(account, tx_data).await?;
    window.show();
    done.await.unwrap_or_else(|_| {
        Err(SdkError::service(
            satchel_api::ServiceErrorCode::UserCancelled,
            "the send was cancelled",
        ))
    })
}

pub async fn get_accounts(
    widget: &Widget,
    options: Option<AccountOptions>,
) -> Result<Vec<ServiceAccount>, SdkError> {
    let options = options.unwrap_or_default();
    widget
        .get_accounts(
            options.networks.as_deref(),
            options.with_eoa.unwrap_or(false),
        )
        .await
}

pub async fn get_balance(
    widget: &Widget,
    accounts: Option<Vec<AccountRef>>,
) -> Result<Vec<AccountBalanceInfo>, SdkError> {
    widget.get_balance(accounts.as_deref()).await
}

pub async fn get_nfts(
    widget: &Widget,
    options: Option<NftOptions>,
) -> Result<Vec<ServiceNft>, SdkError> {
    let options = options.unwrap_or_default();
    widget
        .get_nfts(
            options.refresh.unwrap_or(false),
            options.networks.as_deref(),
        )
        .await
}
