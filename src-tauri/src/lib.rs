//! The Satchel desktop app: one host of Satchel's widget plugin
//! (`tauri-plugin-satchel`, which owns the widget's window, pages, state and
//! commands), plus what only the installed app has: its settings (the
//! environment, a settings file, values baked in at build time), the tray, the
//! updater and the local provider for dapps and programs on `127.0.0.1:1248`.
//! No wallet logic lives here.

mod tray;
mod updates;

#[cfg(test)]
mod tests;

use satchel_desktop::config::{self, AppConfig, ConfigError};
use satchel_sdk::timing::Step;
use tauri::Runtime;
use tauri_plugin_satchel::SatchelExt as _;

use crate::updates::Updates;

/// Lists the app's own commands once: the handler, and [`COMMANDS`], which a
/// test compares with the window's permission (`permissions/app.toml`).
macro_rules! app_commands {
    ($($name:ident),* $(,)?) => {
        /// The names of the app's own commands (beside the plugin's).
        pub const COMMANDS: &[&str] = &[$(stringify!($name)),*];

        fn handler<R: Runtime>() -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$(updates::$name),*]
        }
    };
}

app_commands![getUpdate, installUpdate];

/// The widget plugin as the Satchel app configures it.
pub fn widget_plugin<R: Runtime>(
    config: Result<AppConfig, ConfigError>,
) -> tauri_plugin_satchel::Builder<R> {
    tauri_plugin_satchel::Builder::new()
        .config(config)
        // The app's window is the widget: shown at start.
        .open_at_start()
        // The address book, hidden collections and connected dapps, where
        // the app has always kept them.
        .data_dir(data_dir())
        .on_first_page(tray::build_once)
}

/// The widget plugin and the app's own commands: all the widget's page may call.
pub fn with_widget<R: Runtime>(
    builder: tauri::Builder<R>,
    plugin: tauri_plugin_satchel::Builder<R>,
) -> tauri::Builder<R> {
    builder
        .plugin(plugin.build())
        .manage(Updates::default())
        .invoke_handler(handler())
}

/// The app's data folder (Tauri's app_data_dir: ~/.local/share/dev.satchel.wallet
/// on Linux).
fn data_dir() -> std::path::PathBuf {
    dirs::data_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join(config::IDENTIFIER)
}

/// Starts the desktop app.
pub fn run() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let configuring = Step::start("start: configuration");
    // An incomplete configuration still starts the app: its offline page says
    // which service it would use and what is missing.
    let loaded = AppConfig::load();
    if let Err(e) = &loaded {
        eprintln!(
            "Satchel has no service to use: {e}. Set the SATCHEL_* variables or write {} (docs/desktop-app.md: Installing).",
            config::settings_path()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| config::SETTINGS_FILE.into())
        );
    }
    let updates = loaded
        .as_ref()
        .ok()
        .and_then(|c| Some((c.service_url.clone(), c.updater_pubkey.clone()?)));
    let provider_port = loaded.as_ref().map_or(0, |c| c.provider_port);
    drop(configuring);

    #[allow(clippy::expect_used)] // nothing to recover: the app cannot start
    // The wallet page's first balances are read while the window loads.
    let plugin = widget_plugin(loaded).initialise_at_start();
    with_widget(tauri::Builder::default(), plugin)
        .plugin(tauri_plugin_single_instance::init(|app, _args, _cwd| {
            // Off the main thread: a window made there may hang (Windows).
            let app = app.clone();
            tauri::async_runtime::spawn(async move { app.satchel().show(&app) });
        }))
        // Rust side only, like the opener: the window is granted none of its
        // commands; Settings asks through getUpdate and installUpdate.
        .plugin(tauri_plugin_updater::Builder::new().build())
        // Rust side only: the window is granted none of its commands.
        .plugin(tauri_plugin_opener::init())
        .setup(move |app| {
            let _setup = Step::start("start: the app's setup");
            if provider_port != 0 {
                let dapps = app.satchel().dapps().clone();
                let from_variable = std::env::var_os(config::PROVIDER_PORT).is_some();
                let port = dapps.port_at_start(provider_port, from_variable);
                tauri::async_runtime::spawn(async move { dapps.serve(port).await });
            }
            if let Some((service_url, pubkey)) = updates {
                updates::watch(app.handle().clone(), service_url, pubkey);
            }
            Ok(())
        })
        .run(tauri::generate_context!())
        .expect("error while running Satchel");
}
