//! The Satchel desktop shell: windows, tray and the command list. Every command is a
//! thin call into `satchel-sdk`; no wallet logic lives here.

/// Starts the desktop app.
pub fn run() {
    #[allow(clippy::expect_used)] // nothing to recover: the app cannot start
    tauri::Builder::default()
        .run(tauri::generate_context!())
        .expect("error while running Satchel");
}
