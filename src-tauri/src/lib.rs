//! The Satchel desktop shell: the widget window, the tray and the command list.
//! Every command is a thin call into `satchel-sdk`; no wallet logic lives here.

mod commands;
pub mod config;
mod thumbnails;

#[cfg(test)]
mod tests;

use std::sync::Arc;

use satchel_sdk::{KeyringStore, Login, ServiceConfig, Thumbnails, Widget};
use tauri::menu::{Menu, MenuItem};
use tauri::tray::TrayIconBuilder;
use tauri::{AppHandle, Manager, Runtime};

use crate::config::AppConfig;

fn show_main(app: &AppHandle) {
    if let Some(window) = app.get_webview_window("main") {
        let _ = window.show();
        let _ = window.unminimize();
        let _ = window.set_focus();
    }
}

fn tray(app: &tauri::App) -> tauri::Result<()> {
    let open = MenuItem::with_id(app, "open", "Open Satchel", true, None::<&str>)?;
    let close = MenuItem::with_id(app, "close", "Close window", true, None::<&str>)?;
    let quit = MenuItem::with_id(app, "quit", "Quit", true, None::<&str>)?;
    let menu = Menu::with_items(app, &[&open, &close, &quit])?;
    let mut builder = TrayIconBuilder::with_id("satchel")
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
            }
            "quit" => app.exit(0),
            _ => {}
        })
        .build(app)?;
    Ok(())
}

/// The widget's commands, over `widget`: all the page may call.
pub fn with_commands<R: Runtime>(
    builder: tauri::Builder<R>,
    widget: Arc<Widget>,
) -> tauri::Builder<R> {
    builder
        .manage(widget)
        .invoke_handler(tauri::generate_handler![
            commands::getStatus,
            commands::getAppInfo,
            commands::getCurrentServiceUser,
            commands::loginWithUI,
            commands::loginWithEmailAndPassword,
            commands::signUpWithEmailAndPassword,
            commands::resendVerification,
            commands::register,
            commands::openWidget,
            commands::closeWidget,
            commands::logout,
            commands::getAccounts,
            commands::getBalance,
            commands::refreshBalance,
            commands::getNFTs,
            commands::getRefreshWait,
            commands::finalize,
            commands::markShown,
            commands::openNftLink,
        ])
}

/// Starts the desktop app.
pub fn run() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let config = match AppConfig::from_env() {
        Ok(config) => config,
        Err(e) => {
            eprintln!(
                "Satchel cannot start: {e}. Start it with scripts/run.sh, or set the SATCHEL_* variables (README)."
            );
            std::process::exit(2);
        }
    };
    let store = Arc::new(KeyringStore::new(&config.keychain));
    let login = Arc::new(Login::new(&config.app_id, &config.app_key, store.clone()));
    let widget = Arc::new(Widget::new(login, store));
    let service = ServiceConfig::new(config.service_url.clone(), &config.domain);

    #[allow(clippy::expect_used)] // nothing to recover: the app cannot start
    with_commands(tauri::Builder::default(), widget.clone())
        .plugin(tauri_plugin_single_instance::init(|app, _args, _cwd| {
            show_main(app)
        }))
        // Rust side only: the window is granted none of its commands.
        .plugin(tauri_plugin_opener::init())
        .register_asynchronous_uri_scheme_protocol(
            thumbnails::SCHEME,
            |context, request, responder| {
                let widget = context.app_handle().state::<Arc<Widget>>().inner().clone();
                let path = request.uri().path().to_owned();
                tauri::async_runtime::spawn(async move {
                    responder.respond(thumbnails::respond(&widget, &path).await);
                });
            },
        )
        .setup(move |app| {
            widget.set_thumbnails(Thumbnails::new(
                app.path().app_cache_dir()?.join("thumbnails"),
            )?);
            if let Err(e) = tray(app) {
                tracing::warn!(error = %e, "no tray icon");
            }
            // The page asks getStatus until the widget leaves `initializing`.
            tauri::async_runtime::spawn(async move {
                if let Err(e) = widget.init(service).await {
                    tracing::warn!(code = ?e.code, "the widget did not initialise");
                }
            });
            Ok(())
        })
        .run(tauri::generate_context!())
        .expect("error while running Satchel");
}
