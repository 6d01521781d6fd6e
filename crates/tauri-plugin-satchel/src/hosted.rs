//! The widgets the plugin hosts, each with its window: the host's own (its
//! app id, window `satchel-widget`) and, in the Satchel app, one per program
//! that embeds Satchel through the local endpoint (`satchel_init`: that
//! program's app id, its own keychain service, data folder and window
//! `satchel-guest-<n>`). A page's commands reach the widget of the window it
//! is in ([`crate::commands::Page`]); the host's own pages reach its own.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use satchel_desktop::application::WidgetWindow;
use satchel_desktop::{AppConfig, Connection, Guest, GuestHost};
use satchel_sdk::{KeyringStore, SdkError, Widget};
use tauri::{AppHandle, Manager, Runtime};

use crate::window::{self, GUEST_WINDOW_PREFIX, WIDGET_WINDOW, WindowOf};
use crate::{SatchelExt as _, settings};

/// Programs' widgets at once: those in use (`MAX_EMBEDDED`) and as many
/// waiting for the person's yes.
const MAX_GUESTS: usize = 2 * satchel_desktop::embedded::MAX_EMBEDDED;

/// A widget and the window its pages are shown in.
pub struct Hosted {
    pub(crate) label: String,
    pub(crate) app_id: String,
    pub(crate) widget: Arc<Widget>,
    pub(crate) connection: Arc<Connection>,
    /// Whether the plugin made this window (a window of the label it did not
    /// make is never the widget's).
    pub(crate) made: AtomicBool,
}

impl Hosted {
    pub(crate) fn new(
        label: String,
        app_id: &str,
        widget: Arc<Widget>,
        connection: Arc<Connection>,
    ) -> Self {
        Self {
            label,
            app_id: app_id.to_owned(),
            widget,
            connection,
            made: AtomicBool::new(false),
        }
    }

    pub(crate) fn is_made(&self) -> bool {
        self.made.load(Ordering::SeqCst)
    }

    /// Shows its window, making it first when it is not there.
    pub(crate) fn show<R: Runtime>(&self, app: &AppHandle<R>) {
        window::show(app, &self.window_of(&self.title()));
    }

    /// Hides its window, if it is there.
    pub(crate) fn hide<R: Runtime>(&self, app: &AppHandle<R>) {
        window::hide(app, &self.window_of(&self.title()));
    }

    /// A program's widget says whose it is: its app id, beside Satchel's name.
    fn title(&self) -> String {
        if self.label == WIDGET_WINDOW {
            "Satchel".to_owned()
        } else {
            format!("Satchel · {}", self.app_id)
        }
    }

    fn window_of<'a>(&'a self, title: &'a str) -> WindowOf<'a> {
        WindowOf {
            label: &self.label,
            title,
            made: &self.made,
        }
    }

    pub fn widget(&self) -> &Arc<Widget> {
        &self.widget
    }

    pub fn connection(&self) -> &Arc<Connection> {
        &self.connection
    }

    /// The window, as the application methods show and hide it.
    pub(crate) fn window<R: Runtime>(self: &Arc<Self>, app: &AppHandle<R>) -> HostedWindow<R> {
        HostedWindow {
            app: app.clone(),
            hosted: self.clone(),
        }
    }
}

/// A hosted widget's window.
pub(crate) struct HostedWindow<R: Runtime> {
    app: AppHandle<R>,
    hosted: Arc<Hosted>,
}

impl<R: Runtime> WidgetWindow for HostedWindow<R> {
    fn show(&self) {
        self.hosted.show(&self.app);
    }

    fn hide(&self) {
        self.hosted.hide(&self.app);
    }
}

/// Makes programs' widgets for the local endpoint (`satchel-desktop`'s
/// `Embedded`), each under the host's identifier and the program's app id.
pub(crate) struct GuestWindows<R: Runtime> {
    pub(crate) app: AppHandle<R>,
    pub(crate) next: AtomicU64,
}

impl<R: Runtime> GuestHost for GuestWindows<R> {
    fn guest(&self, config: AppConfig) -> Result<Guest, SdkError> {
        let satchel = self.app.satchel();
        let known = satchel.guest_of_app(&config.app_id);
        let hosted = match known {
            Some(hosted) => hosted,
            None if satchel.guest_count() >= MAX_GUESTS => {
                return Err(SdkError::service(
                    satchel_api::ServiceErrorCode::ApiRequestError,
                    format!("Satchel serves the widget to at most {MAX_GUESTS} apps at once"),
                ));
            }
            None => {
                let unavailable = |e: &dyn std::fmt::Display| {
                    SdkError::service(
                        satchel_api::ServiceErrorCode::ApiRequestError,
                        format!("the widget could not be made: {e}"),
                    )
                };
                let identifier = &self.app.config().identifier;
                let keychain = settings::keychain_for(identifier, &config.app_id);
                let data_dir = self
                    .app
                    .path()
                    .app_data_dir()
                    .map_err(|e| unavailable(&e))?
                    .join("satchel")
                    .join(&config.app_id);
                let app_id = config.app_id.clone();
                let config = Ok(config);
                let (widget, connection) = crate::make_widget(
                    &self.app,
                    &config,
                    Arc::new(KeyringStore::new(&keychain)),
                    data_dir,
                )
                .map_err(|e| unavailable(&e))?;
                let n = self.next.fetch_add(1, Ordering::SeqCst);
                let hosted = Arc::new(Hosted::new(
                    format!("{GUEST_WINDOW_PREFIX}{n}"),
                    &app_id,
                    widget,
                    connection,
                ));
                satchel.add_guest(hosted.clone());
                hosted
            }
        };
        Ok(Guest {
            app_id: hosted.app_id.clone(),
            widget: hosted.widget.clone(),
            connection: hosted.connection.clone(),
            window: Arc::new(hosted.window(&self.app)),
        })
    }

    fn release(&self, app_id: &str) {
        if let Some(hosted) = self.app.satchel().remove_guest(app_id)
            && let Some(window) = self.app.get_webview_window(&hosted.label)
        {
            let _ = window.destroy();
        }
    }
}
