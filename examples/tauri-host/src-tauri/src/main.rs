//! Pixel Launcher: a Tauri application that embeds Satchel's wallet widget.
//! The plugin is the one line below; its settings are `plugins.satchel` in
//! tauri.conf.json (here, against the local stack: the `SATCHEL_*` variables
//! of `.devstack/app.env`), and the page grants itself the plugin's default
//! permission in `capabilities/default.json`.

// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    #[allow(clippy::expect_used)] // nothing to recover: the app cannot start
    tauri::Builder::default()
        .plugin(tauri_plugin_satchel::init())
        .run(tauri::generate_context!())
        .expect("error while running the launcher");
}
