//! What the widget's page tells its host: what it has shown.
#![allow(non_snake_case)] // command names are the page's

use tauri::{AppHandle, Runtime};

use crate::SatchelExt as _;

/// The page reports what it has shown, for the desktop benchmark: `shown <what>`
/// on standard output when `SATCHEL_PERF_MARKS=1`, else nothing.
#[tauri::command]
pub fn markShown(what: String) {
    if std::env::var("SATCHEL_PERF_MARKS").as_deref() == Ok("1") {
        println!("shown {what}");
    }
}

/// The page has painted its first screen (whichever it is): the host's hook
/// runs now, after the start rather than in its way (the Satchel app builds
/// its tray icon here: its ~11 ms on the main thread held up the page's files
/// and script when built earlier; measured). Once; a later call does nothing.
#[tauri::command]
pub fn firstPageShown<R: Runtime>(app: AppHandle<R>) {
    app.satchel().first_page_shown(&app);
}
