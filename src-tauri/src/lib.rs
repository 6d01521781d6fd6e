//! The Satchel desktop shell: the widget window, the tray and the command list.
//! Every command is a thin call into `satchel-sdk`; no wallet logic lives here.

mod apps;
mod browser;
mod commands;
pub mod config;
mod connection;
mod protocol;
mod tray;
mod updates;
mod webview;

#[cfg(test)]
mod bindings;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use satchel_sdk::timing::Step;
use satchel_sdk::{KeyringStore, Login, Thumbnails, Widget};
use tauri::{Manager, Runtime};

use crate::apps::Apps;
use crate::config::AppConfig;
use crate::connection::Connection;
use crate::updates::Updates;

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
    getStart,
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
    exportPrivateKey,
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
    prepareNftSend,
    confirmSend,
    getActivity,
    openWidget,
    closeWidget,
    logout,
    getAccounts,
    getBalance,
    refreshBalance,
    getNFTs,
    getNftGrid,
    getNftDetail,
    getRefreshWait,
    finalize,
    markShown,
    firstPageShown,
    openNftLink,
    getUpdate,
    installUpdate,
    watchConnectRequests,
    answerConnectRequest,
    getConnectedApps,
    disconnectApp,
    getSavedAddresses,
    saveAddress,
    forgetAddress,
    exportAddressBook,
    importAddressBook,
    getRecentRecipients,
    getCollectionChoices,
    hideCollection,
    showCollection,
    getOwnTokens,
    previewToken,
    addToken,
    removeToken,
    getApprovals,
    prepareRevoke,
    getValues,
    getWalletAccounts,
    addAccount,
    renameAccount,
    confirmAccounts,
];

/// The widget's commands, over `widget` and its way to the service: all the
/// page may call.
pub fn with_commands<R: Runtime>(
    builder: tauri::Builder<R>,
    widget: Arc<Widget>,
    connection: Arc<Connection>,
    apps: Arc<Apps>,
) -> tauri::Builder<R> {
    builder
        .manage(widget)
        .manage(connection)
        .manage(apps)
        .manage(Updates::default())
        .invoke_handler(handler())
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
            "Satchel has no service to use: {e}. Set the SATCHEL_* variables or write {} (README: Installing).",
            config::settings_path()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| config::SETTINGS_FILE.into())
        );
    }
    let connection = Arc::new(Connection::new(&loaded));
    let (app_id, app_key, keychain) = match &loaded {
        Ok(c) => (c.app_id.as_str(), c.app_key.as_str(), c.keychain.as_str()),
        Err(_) => ("", "", config::IDENTIFIER),
    };
    let store = Arc::new(KeyringStore::new(keychain));
    let login = Arc::new(
        Login::new(app_id, app_key, store.clone()).with_browser(Arc::new(browser::SystemBrowser)),
    );
    let networks = loaded
        .as_ref()
        .map(|c| c.networks.clone())
        .unwrap_or_default();
    // The address book and hidden collections are kept in the app's data folder.
    let data_dir = dirs::data_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join(config::IDENTIFIER);
    let widget = Arc::new(
        Widget::new(login, store)
            .with_networks(networks)
            .with_data_dir(data_dir.clone()),
    );
    let updates = loaded
        .as_ref()
        .ok()
        .and_then(|c| Some((c.service_url.clone(), c.updater_pubkey.clone()?)));
    // Applications' connections are kept in the app's data folder (Tauri's
    // app_data_dir: ~/.local/share/dev.satchel.wallet on Linux).
    let connected_file = data_dir.join("connected-apps.json");
    let handle = Arc::new(std::sync::OnceLock::<tauri::AppHandle>::new());
    let apps = Arc::new(Apps::new(
        widget.clone(),
        Arc::new(satchel_connect::Permissions::open(&connected_file)),
        {
            let handle = handle.clone();
            move || {
                if let Some(app) = handle.get() {
                    tray::show_main(app);
                }
            }
        },
    ));
    let provider_port = loaded.as_ref().map_or(0, |c| c.provider_port);
    drop(configuring);

    #[allow(clippy::expect_used)] // nothing to recover: the app cannot start
    with_commands(
        tauri::Builder::default(),
        widget.clone(),
        connection.clone(),
        apps.clone(),
    )
        .plugin(tauri_plugin_single_instance::init(|app, _args, _cwd| {
            tray::show_main(app)
        }))
        // Rust side only, like the opener: the window is granted none of its
        // commands; Settings asks through getUpdate and installUpdate.
        .plugin(tauri_plugin_updater::Builder::new().build())
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
            let _setup = Step::start("start: the app's setup");
            let _ = handle.set(app.handle().clone());
            if provider_port != 0 {
                let apps = apps.clone();
                tauri::async_runtime::spawn(async move { apps.serve(provider_port).await });
            }
            widget.set_thumbnails(Thumbnails::new(
                app.path().app_cache_dir()?.join("thumbnails"),
            )?);
            if let Some(window) = app.get_webview_window("main") {
                webview::without_memory_cache(&window)?;
            }
            // The page follows the life cycle through watchStatus.
            tauri::async_runtime::spawn(async move {
                if let Err(e) = connection.init(&widget).await {
                    tracing::warn!(code = ?e.code, message = %e.message, "the widget did not initialise");
                    return;
                }
                // The wallet page's first balances, read while the window loads.
                if let Err(e) = widget.read_balances_ahead().await {
                    tracing::info!(code = ?e.code, message = %e.message, "balances not read ahead");
                }
            });
            if let Some((service_url, pubkey)) = updates {
                updates::watch(app.handle().clone(), service_url, pubkey);
            }
            Ok(())
        })
        .run(tauri::generate_context!())
        .expect("error while running Satchel");
}
