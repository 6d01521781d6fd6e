//! The widget's window: Satchel's pages, served by the plugin's own scheme,
//! in a window of their own over the host's. Made when first needed (so the
//! plugin costs a host nothing until the widget is used), hidden when closed,
//! and granted the pages' commands (`satchel:widget-pages`) by a capability
//! the plugin adds at setup for this window alone.

use tauri::ipc::CapabilityBuilder;
use tauri::{AppHandle, Manager, Runtime, WebviewUrl, WebviewWindowBuilder};

use crate::protocol;

/// The widget window's label.
pub const WIDGET_WINDOW: &str = "satchel-widget";

/// The pages' address: `satchel://localhost/` (`http://satchel.localhost/`
/// where the webview takes custom schemes that way: Windows, Android).
fn pages_url() -> url::Url {
    let url = if cfg!(any(windows, target_os = "android")) {
        format!("http://{}.localhost/index.html", protocol::SCHEME)
    } else {
        format!("{}://localhost/index.html", protocol::SCHEME)
    };
    url.parse()
        .unwrap_or_else(|_| unreachable!("a constant URL"))
}

/// Grants the widget's window, and it alone, the pages' commands.
pub fn grant_pages<R: Runtime>(app: &AppHandle<R>) -> tauri::Result<()> {
    app.add_capability(
        CapabilityBuilder::new("satchel-widget-pages")
            .window(WIDGET_WINDOW)
            .permission(format!("{}:widget-pages", crate::NAME)),
    )
}

/// Shows the widget's window, making it first if it is not there yet.
pub fn show<R: Runtime>(app: &AppHandle<R>) {
    let window = match app.get_webview_window(WIDGET_WINDOW) {
        Some(window) => window,
        None => match make(app) {
            Ok(window) => window,
            Err(e) => {
                tracing::error!(error = %e, "the widget's window could not be made");
                return;
            }
        },
    };
    let _ = window.show();
    let _ = window.unminimize();
    let _ = window.set_focus();
}

/// Hides the widget's window, if there is one.
pub fn hide<R: Runtime>(app: &AppHandle<R>) {
    if let Some(window) = app.get_webview_window(WIDGET_WINDOW) {
        let _ = window.hide();
    }
}

fn make<R: Runtime>(app: &AppHandle<R>) -> tauri::Result<tauri::WebviewWindow<R>> {
    let _step = satchel_sdk::timing::Step::start("widget window");
    let window =
        WebviewWindowBuilder::new(app, WIDGET_WINDOW, WebviewUrl::CustomProtocol(pages_url()))
            .title("Satchel")
            .inner_size(400.0, 700.0)
            .min_inner_size(360.0, 600.0)
            .resizable(true)
            .center()
            .build()?;
    if let Err(e) = crate::webview::without_memory_cache(&window) {
        tracing::warn!(error = %e, "the widget's webview keeps its memory cache");
    }
    Ok(window)
}
