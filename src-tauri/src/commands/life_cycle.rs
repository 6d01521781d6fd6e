//! The widget's life cycle: its status, the app's configuration, opening and
//! closing the window, finalize.
#![allow(non_snake_case)] // command names are the spec's method names

use std::sync::Arc;

use satchel_api::{AppInfo, ServiceLifeCycle};
use tauri::ipc::Channel;
use tauri::{Runtime, State, WebviewWindow};

use super::{Result, Start, WidgetState, forward_watch};
use crate::connection::Connection;

#[tauri::command]
pub fn getStatus(widget: WidgetState<'_>) -> ServiceLifeCycle {
    widget.get_status()
}

/// Sends the life cycle now and at every change, until the page goes away.
#[tauri::command]
pub fn watchStatus(widget: WidgetState<'_>, on_event: Channel<ServiceLifeCycle>) {
    forward_watch(widget.watch_status(), on_event, Start::Now, |status| {
        Some(*status)
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
pub async fn finalize(widget: WidgetState<'_>) -> Result<()> {
    widget.finalize().await;
    Ok(())
}
