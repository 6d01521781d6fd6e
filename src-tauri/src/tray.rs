//! The tray icon: open the window, close it (the app keeps running), quit.

use std::sync::Arc;
use tauri::menu::{Menu, MenuItem};
use tauri::tray::TrayIconBuilder;

use satchel_sdk::Widget;
use tauri::{AppHandle, Manager, Runtime};

/// The widget was closed (a `loginWithUI` waiting for a login is cancelled).
pub fn closed<R: tauri::Runtime>(app: &AppHandle<R>) {
    app.state::<Arc<Widget>>().close_widget();
    // An application's request waiting for the person is rejected (4001).
    app.state::<Arc<crate::apps::Apps>>().reject_all();
}

/// Brings the widget window to the front.
pub fn show_main<R: Runtime>(app: &AppHandle<R>) {
    if let Some(window) = app.get_webview_window("main") {
        let _ = window.show();
        let _ = window.unminimize();
        let _ = window.set_focus();
    }
}

/// The tray's id: built once, when the page's first screen has been shown.
const TRAY_ID: &str = "satchel";

/// Builds the tray icon unless it is there already. Called once the page has
/// shown its first screen (`firstPageShown`): its few milliseconds on the main
/// thread, which also serves the page's files, are then off the start's way.
pub fn build_once<R: Runtime>(app: &AppHandle<R>) {
    if app.tray_by_id(TRAY_ID).is_some() {
        return;
    }
    let _step = satchel_sdk::timing::Step::start("tray icon");
    if let Err(e) = build(app) {
        tracing::warn!(error = %e, "no tray icon");
    }
}

fn build<R: Runtime>(app: &AppHandle<R>) -> tauri::Result<()> {
    let open = MenuItem::with_id(app, "open", "Open Satchel", true, None::<&str>)?;
    let close = MenuItem::with_id(app, "close", "Close window", true, None::<&str>)?;
    let quit = MenuItem::with_id(app, "quit", "Quit", true, None::<&str>)?;
    let menu = Menu::with_items(app, &[&open, &close, &quit])?;
    let mut builder = TrayIconBuilder::with_id(TRAY_ID)
        .menu(&menu)
        .tooltip("Satchel");
    if let Some(icon) = app.default_window_icon() {
        builder = builder.icon(icon.clone());
    }
    builder
        .on_menu_event(|app, event| match event.id().as_ref() {
            "open" => show_main(app),
            "close" => {
                if let Some(window) = app.get_webview_window("main") {
                    let _ = window.hide();
                }
                closed(app);
            }
            "quit" => {
                // finalize: the widget lets go of its connection and state.
                let widget = app.state::<Arc<Widget>>().inner().clone();
                tauri::async_runtime::block_on(widget.finalize());
                app.exit(0)
            }
            _ => {}
        })
        .build(app)?;
    Ok(())
}
