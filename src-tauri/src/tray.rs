//! The tray icon: open the window, close it (the app keeps running), quit.

use tauri::menu::{Menu, MenuItem};
use tauri::tray::TrayIconBuilder;
use tauri::{AppHandle, Runtime};
use tauri_plugin_satchel::SatchelExt as _;

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
            "open" => {
                // Off the main thread: a window made there may hang (Windows).
                let app = app.clone();
                tauri::async_runtime::spawn(async move { app.satchel().show(&app) });
            }
            // The app keeps running; whatever waited on the widget is cancelled.
            "close" => app.satchel().close(app),
            "quit" => {
                // finalize: the widget lets go of its connection and state.
                let widget = app.satchel().widget().clone();
                tauri::async_runtime::block_on(widget.finalize());
                app.exit(0)
            }
            _ => {}
        })
        .build(app)?;
    Ok(())
}
