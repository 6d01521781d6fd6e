//! The widget's life cycle: its status, the app's configuration, opening and
//! closing the window, finalize.
#![allow(non_snake_case)] // command names are the spec's method names

use std::time::Duration;

use satchel_api::{AccountBalanceInfo, AppInfo, ServiceLifeCycle, ServiceUser};
use satchel_sdk::LanguageRequest;
use serde::Serialize;
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime};

use super::{Page, Result, Start, forward_watch};
use satchel_desktop::application;

#[tauri::command]
pub fn getStatus(widget: Page) -> ServiceLifeCycle {
    widget.get_status()
}

/// Sends the life cycle now and at every change, until the page goes away.
#[tauri::command]
pub fn watchStatus(widget: Page, on_event: Channel<ServiceLifeCycle>) {
    forward_watch(widget.watch_status(), on_event, Start::Now, |status| {
        Some(*status)
    });
}

/// What the app key allows (`GET /v1/app`); the page asks at start, and an
/// error (no configuration, no answer) names the service URL tried, which the
/// offline page shows.
#[tauri::command]
pub async fn getAppInfo(widget: Page) -> Result<AppInfo> {
    widget.connection().app_info(&widget).await
}

/// How long the start waits for the balances of someone logged in before the
/// page opens without them (the wallet page then shows them as they come).
const START_BALANCES_WAIT: Duration = Duration::from_millis(300);

/// What the page opens its first screen with, in one call.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct AppStart {
    /// The app's settings (`GET /v1/app`).
    app: AppInfo,
    /// The life cycle, past initialising.
    status: ServiceLifeCycle,
    /// Who is logged in, if anyone.
    #[serde(skip_serializing_if = "Option::is_none")]
    user: Option<ServiceUser>,
    /// Their balances, when logged in and read within 300 ms (`START_BALANCES_WAIT`).
    #[serde(skip_serializing_if = "Option::is_none")]
    balances: Option<Vec<AccountBalanceInfo>>,
}

/// The start in one call, so the page's first render can be its first screen:
/// the app's settings (which initialise the widget if the app's own start has
/// not), then the life cycle and the user it settled on, and, for someone
/// logged in, the balances the app read ahead while the window loaded. An
/// error is `getAppInfo`'s: it names the service URL tried.
#[tauri::command]
pub async fn getStart(widget: Page) -> Result<AppStart> {
    let app = widget.connection().app_info(&widget).await?;
    let (status, user) = (widget.get_status(), widget.current_user());
    let balances = if status == ServiceLifeCycle::Login {
        // A failed or slow read is the wallet page's to show, not the start's.
        tokio::time::timeout(START_BALANCES_WAIT, widget.get_balance(None))
            .await
            .ok()
            .and_then(std::result::Result::ok)
    } else {
        None
    };
    Ok(AppStart {
        app,
        status,
        user,
        balances,
    })
}

/// openWidget: shows the widget's window (made on first use) when someone is
/// logged in; `false` (and nothing shown) otherwise. Asynchronous: a window
/// made from a synchronous command (on the main thread) hangs on Windows.
#[tauri::command]
pub async fn openWidget<R: Runtime>(widget: Page, app: AppHandle<R>) -> Result<bool> {
    Ok(application::open_widget(&widget, &widget.window(&app)))
}

/// closeWidget: hides the widget's window; a `loginWithUI` or `send` waiting
/// on it hears `UserCancelled`.
#[tauri::command]
pub fn closeWidget<R: Runtime>(widget: Page, app: AppHandle<R>) -> bool {
    application::close_widget(&widget, &widget.window(&app))
}

/// changeLanguage: the widget's pages speak `language` (`en`, `ko`, `ja`) from
/// now; `asDefault` (init's `defaultLanguage`) only when the person has not
/// chosen one in Settings.
#[tauri::command]
pub fn changeLanguage(widget: Page, language: String, as_default: Option<bool>) -> Result<()> {
    widget.change_language(&language, as_default.unwrap_or(false))
}

/// Sends the language an application asked for, now and at every change.
#[tauri::command]
pub fn watchLanguage(widget: Page, on_event: Channel<LanguageRequest>) {
    forward_watch(widget.watch_language(), on_event, Start::Now, |request| {
        request.clone()
    });
}

/// Tells the widget's page each time its window is closed (by the person or
/// `closeWidget`): the window is kept, hidden, and its next open shows what a
/// new window would.
#[tauri::command]
pub fn watchClosed(widget: Page, on_event: Channel<u64>) {
    forward_watch(
        widget.watch_closed(),
        on_event,
        Start::NextChange,
        |times| Some(*times),
    );
}

#[tauri::command]
pub async fn finalize(widget: Page) -> Result<()> {
    widget.finalize().await;
    Ok(())
}
