//! The Satchel desktop shell: the widget window, the tray and the command list.
//! Every command is a thin call into `satchel-sdk`; no wallet logic lives here.

mod browser;
mod commands;
pub mod config;
mod protocol;
mod tray;

#[cfg(test)]
mod bindings;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use satchel_sdk::{KeyringStore, Login, ServiceConfig, Thumbnails, Widget};
use tauri::{Manager, Runtime};

use crate::config::AppConfig;

/// Lists the widget's commands once: the handler, and [`COMMANDS`], which a test
/// compares with the window's permission (`permissions/widget.toml`) and README.
macro_rules! widget_commands {
    ($($name:ident),* $(,)?) => {
        /// The names of the commands the widget's page may call.
        pub const COMMANDS: &[&str] = &[$(stringify!($name)),*];

        fn handler<R: Runtime>() -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$(commands::$name),*]
        }
    };
}

widget_commands![
    getStatus,
    watchStatus,
    getAppInfo,
    getCurrentServiceUser,
    loginWithUI,
    getLoginOptions,
    loginWithOauthProvider,
    cancelOauth,
    loginWithIdToken,
    loginWithAccessToken,
    getSignForLogin,
    sendVerifyEmail,
    resumeLogin,
    registerUserEmail,
    watchRegisterEmailRequests,
    loginWithEmailAndPassword,
    signUpWithEmailAndPassword,
    resendVerification,
    sendPasswordResetEmail,
    register,
    getKeyState,
    getPinStatus,
    showRecoveryPhrase,
    confirmRecoveryPhrase,
    changePin,
    restoreFromPhrase,
    restoreFromBackup,
    sendPinUnlockEmail,
    receive,
    send,
    watchSendRequests,
    cancelSend,
    checkAddress,
    prepareSend,
    prepareReplacement,
    confirmSend,
    getActivity,
    openWidget,
    closeWidget,
    logout,
    getAccounts,
    getBalance,
    refreshBalance,
    getNFTs,
    getRefreshWait,
    finalize,
    markShown,
    openNftLink,
];

/// The widget's commands, over `widget`: all the page may call.
pub fn with_commands<R: Runtime>(
    builder: tauri::Builder<R>,
    widget: Arc<Widget>,
) -> tauri::Builder<R> {
    builder.manage(widget).invoke_handler(handler())
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
    let login = Arc::new(
        Login::new(&config.app_id, &config.app_key, store.clone())
            .with_browser(Arc::new(browser::SystemBrowser)),
    );
    let widget = Arc::new(Widget::new(login, store));
    let service = ServiceConfig::new(config.service_url.clone(), &config.domain);

    #[allow(clippy::expect_used)] // nothing to recover: the app cannot start
    with_commands(tauri::Builder::default(), widget.clone())
        .plugin(tauri_plugin_single_instance::init(|app, _args, _cwd| {
            tray::show_main(app)
        }))
        // Rust side only: the window is granted none of its commands.
        .plugin(tauri_plugin_opener::init())
        .register_asynchronous_uri_scheme_protocol(
            protocol::SCHEME,
            |context, request, responder| {
                let widget = context.app_handle().state::<Arc<Widget>>().inner().clone();
                let path = request.uri().path().to_owned();
                tauri::async_runtime::spawn(async move {
                    responder.respond(protocol::respond(&widget, &path).await);
                });
            },
        )
        // Closing the window closes the widget (closeWidget): a loginWithUI that
        // waits for a login hears UserCancelled.
        .on_window_event(|window, event| {
            if let tauri::WindowEvent::CloseRequested { .. } = event {
                tray::closed(window.app_handle());
            }
        })
        .setup(move |app| {
            widget.set_thumbnails(Thumbnails::new(
                app.path().app_cache_dir()?.join("thumbnails"),
            )?);
            if let Err(e) = tray::build(app) {
                tracing::warn!(error = %e, "no tray icon");
            }
            // The page follows the life cycle through watchStatus.
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
