//! Satchel's wallet widget for any Tauri 2 application, in one line:
//!
//! ```ignore
//! tauri::Builder::default()
//!     .plugin(tauri_plugin_satchel::init())        // settings from tauri.conf.json's plugins.satchel
//!     .run(tauri::generate_context!())
//! ```
//!
//! The plugin owns the widget's state (`satchel-sdk`'s `Widget`), its commands
//! (`plugin:satchel|…`, named as the spec's widget SDK and login library
//! methods), the keychain entries (under the host's identifier and app id) and
//! the widget's window: Satchel's pages, embedded in the plugin and served by
//! its own URI scheme (`satchel:`), in a window of their own over the host's,
//! made when `openWidget`, `loginWithUI`, `send` or `registerUserEmail` first
//! needs it. The host's pages may call what its capability grants: the
//! plugin's `default` set is the methods the spec gives an application; the
//! widget's own window is granted the pages' set (`widget-pages`) at setup.
//! Every command is a thin call into `satchel-sdk`; nothing here decides
//! wallet logic.

mod browser;
mod builder;
mod commands;
mod hosted;
mod protocol;
mod settings;
mod webview;
mod window;

#[cfg(test)]
mod bindings;

use std::sync::Arc;

use satchel_connect::methods::Methods;
use satchel_desktop::{AppConfig, ConfigError, Connection, Dapps, Embedded};
use satchel_sdk::{KeyringStore, Login, Thumbnails, TokenStore, Widget};
use tauri::plugin::{Builder as PluginBuilder, TauriPlugin};
use tauri::{AppHandle, Manager, Runtime};

pub use builder::Builder;
pub(crate) use builder::make_widget;
pub use commands::{AppStart, RefreshWait, SignUpOutcome};
use hosted::GuestWindows;
pub use hosted::Hosted;
pub use settings::PluginSettings;
pub use window::GUEST_WINDOW_PREFIX;
pub use window::WIDGET_WINDOW;

/// Lists the plugin's commands once (generated from `build.rs`'s `COMMANDS`):
/// the handler, and [`COMMANDS`], which tests compare with the permissions and
/// the docs.
macro_rules! widget_commands {
    ($($name:ident),* $(,)?) => {
        /// The names of the plugin's commands (`plugin:satchel|<name>`).
        pub const COMMANDS: &[&str] = &[$(stringify!($name)),*];

        fn handler<R: Runtime>() -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$(commands::$name),*]
        }
    };
}
include!(concat!(env!("OUT_DIR"), "/commands.rs"));

/// The plugin's name: its commands are `plugin:satchel|…`, its permissions
/// `satchel:…`.
pub const NAME: &str = "satchel";

type Hook<R> = Box<dyn Fn(&AppHandle<R>) + Send + Sync>;

/// The widget as the host holds it: `app.satchel()`.
pub struct Satchel<R: Runtime> {
    /// The host's own widget, in the window `satchel-widget`.
    own: Arc<Hosted>,
    /// Programs' widgets (the Satchel app's local endpoint), each in its own
    /// window; at most `satchel_desktop::embedded::MAX_EMBEDDED`.
    guests: std::sync::Mutex<Vec<Arc<Hosted>>>,
    /// One widget window made at a time.
    making_window: std::sync::Mutex<()>,
    dapps: Arc<Dapps>,
    /// The host page's EIP-1193 provider (`getProvider('ethereum')`).
    provider: Arc<Methods<Dapps>>,
    on_first_page: Option<Hook<R>>,
}

impl<R: Runtime> Satchel<R> {
    /// The widget (the SDK's core): for a host's own Rust code.
    pub fn widget(&self) -> &Arc<Widget> {
        &self.own.widget
    }

    /// The prompt queue of dapps and programs; the Satchel app serves it on its
    /// local endpoint.
    pub fn dapps(&self) -> &Arc<Dapps> {
        &self.dapps
    }

    /// Shows the widget's window, making it on first use.
    pub fn show(&self, app: &AppHandle<R>) {
        self.own.show(app);
    }

    /// Hides the widget's window and does what closing it does.
    pub fn close(&self, app: &AppHandle<R>) {
        self.own.hide(app);
        self.closed(&self.own);
    }

    fn guests(&self) -> std::sync::MutexGuard<'_, Vec<Arc<Hosted>>> {
        self.guests
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The widget whose window is `label`, if it is one of the plugin's.
    pub(crate) fn hosted(&self, label: &str) -> Option<Arc<Hosted>> {
        if label == self.own.label {
            return Some(self.own.clone());
        }
        self.guests().iter().find(|g| g.label == label).cloned()
    }

    /// The widget a webview's commands reach: a program's widget in its
    /// window, the host's own everywhere else (the host's pages included).
    pub(crate) fn hosted_for(&self, label: &str) -> Arc<Hosted> {
        self.hosted(label).unwrap_or_else(|| self.own.clone())
    }

    pub(crate) fn guest_of_app(&self, app_id: &str) -> Option<Arc<Hosted>> {
        self.guests().iter().find(|g| g.app_id == app_id).cloned()
    }

    pub(crate) fn guest_count(&self) -> usize {
        self.guests().len()
    }

    pub(crate) fn add_guest(&self, guest: Arc<Hosted>) {
        self.guests().push(guest);
    }

    pub(crate) fn remove_guest(&self, app_id: &str) -> Option<Arc<Hosted>> {
        let mut guests = self.guests();
        let at = guests.iter().position(|g| g.app_id == app_id)?;
        Some(guests.remove(at))
    }

    /// Initialises the widget now, and reads a logged-in person's balances
    /// while the window loads (the page follows the life cycle through
    /// `watchStatus`).
    fn initialise_ahead(&self) {
        let (widget, connection) = (self.own.widget.clone(), self.own.connection.clone());
        tauri::async_runtime::spawn(async move {
            if let Err(e) = connection.init(&widget).await {
                tracing::warn!(code = ?e.code, message = %e.message, "the widget did not initialise");
                return;
            }
            if let Err(e) = widget.read_balances_ahead().await {
                tracing::info!(code = ?e.code, message = %e.message, "balances not read ahead");
            }
        });
    }

    pub(crate) fn first_page_shown(&self, app: &AppHandle<R>) {
        if let Some(hook) = &self.on_first_page {
            hook(app);
        }
    }

    /// A widget's window was closed: a `loginWithUI` or `send` waiting on it
    /// hears `UserCancelled`, and (the host's own) a dapp's request waiting
    /// for the person is rejected (4001).
    fn closed(&self, hosted: &Hosted) {
        hosted.widget.close_widget();
        if hosted.label == self.own.label {
            self.dapps.reject_all();
        }
    }
}

/// `app.satchel()`: the plugin's state, from any manager (app, window, webview).
pub trait SatchelExt<R: Runtime> {
    fn satchel(&self) -> &Satchel<R>;
}

impl<R: Runtime, T: Manager<R>> SatchelExt<R> for T {
    fn satchel(&self) -> &Satchel<R> {
        self.state::<Satchel<R>>().inner()
    }
}

/// The plugin with its settings from the host's `tauri.conf.json`
/// (`plugins.satchel`: `appId`, `appKey`, `serviceUrl`, `domain`, `networks`).
pub fn init<R: Runtime>() -> TauriPlugin<R, Option<PluginSettings>> {
    Builder::new().build()
}
