//! The app around the widget: updates and the benchmark's marks.
#![allow(non_snake_case)] // command names are the spec's method names

use satchel_api::ServiceErrorCode;
use satchel_sdk::SdkError;
use tauri::{AppHandle, Runtime, State};

use super::Result;
use crate::updates::Updates;

/// The page reports what it has shown, for the desktop benchmark: `shown <what>`
/// on standard output when `SATCHEL_PERF_MARKS=1`, else nothing.
#[tauri::command]
pub fn markShown(what: String) {
    if std::env::var("SATCHEL_PERF_MARKS").as_deref() == Ok("1") {
        println!("shown {what}");
    }
}

/// The page has painted its first screen (whichever it is): the tray icon is
/// built now, after the start rather than in its way (built in the setup, or
/// when the page had loaded, its ~11 ms on the main thread held up the page's
/// files and script; measured). Once; a later call does nothing.
#[tauri::command]
pub fn firstPageShown<R: Runtime>(app: AppHandle<R>) {
    crate::tray::build_once(&app);
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
