//! The widget's windows: Satchel's pages, served by the plugin's own scheme,
//! in a window of their own over the host's. Made when first needed (so the
//! plugin costs a host nothing until the widget is used), hidden by
//! `closeWidget` and by the person's close alike (the host's own: kept for the
//! next open, which then shows it at once; its page goes back to where a new
//! one starts), and granted the pages' commands (`satchel:widget-pages`) by a capability
//! the plugin adds at setup for this window alone; the plugin's handler also
//! answers those commands only to this window it made (`is_widget_page`).

use std::sync::atomic::{AtomicBool, Ordering};

use tauri::ipc::CapabilityBuilder;
use tauri::{AppHandle, Manager, Runtime, Webview, WebviewUrl, WebviewWindowBuilder};

use crate::{SatchelExt as _, protocol};

/// The widget window's label.
pub const WIDGET_WINDOW: &str = "satchel-widget";

/// The label of a program's widget window: this and a number.
pub const GUEST_WINDOW_PREFIX: &str = "satchel-guest-";

/// A widget window as it is made: its label, its title, and whether the
/// plugin made it (a window of the label it did not make is never the widget's).
pub struct WindowOf<'a> {
    pub label: &'a str,
    pub title: &'a str,
    pub made: &'a AtomicBool,
}

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

/// Whether `url` is one of the widget's pages (the plugin's scheme).
pub fn is_pages_url(url: &url::Url) -> bool {
    let pages = pages_url();
    url.scheme() == pages.scheme() && url.host_str() == pages.host_str()
}

/// Whether `label` names one of the plugin's widget windows (the host's own
/// or a program's).
pub fn is_widget_label(label: &str) -> bool {
    label == WIDGET_WINDOW || label.starts_with(GUEST_WINDOW_PREFIX)
}

/// Grants the widget's windows, and them alone, the pages' commands.
pub fn grant_pages<R: Runtime>(app: &AppHandle<R>) -> tauri::Result<()> {
    app.add_capability(
        CapabilityBuilder::new("satchel-widget-pages")
            .window(WIDGET_WINDOW)
            .window(format!("{GUEST_WINDOW_PREFIX}*"))
            .permission(format!("{}:widget-pages", crate::NAME)),
    )
}

/// Whether `webview` is a widget's: a window the plugin made, showing the
/// plugin's own pages.
pub fn is_widget_page<R: Runtime>(webview: &Webview<R>) -> bool {
    let made = webview
        .try_state::<crate::Satchel<R>>()
        .and_then(|s| s.hosted(webview.label()))
        .is_some_and(|hosted| hosted.is_made());
    let ours = webview.url().is_ok_and(|url| is_pages_url(&url));
    made && webview.window().label() == webview.label() && ours
}

/// Shows a widget's window, making it first if it is not there yet. A
/// window of that label the plugin did not make is never shown as the widget.
pub fn show<R: Runtime>(app: &AppHandle<R>, hosted: &WindowOf<'_>) {
    let satchel = app.satchel();
    let window = {
        let _one = satchel
            .making_window
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match app.get_webview_window(hosted.label) {
            Some(_) if !hosted.made.load(Ordering::SeqCst) => {
                tracing::error!(
                    label = %hosted.label,
                    "a window of this name that the widget did not make is there: the widget is not shown in it"
                );
                return;
            }
            Some(window) => window,
            None => match make(app, hosted) {
                Ok(window) => {
                    hosted.made.store(true, Ordering::SeqCst);
                    window
                }
                Err(e) => {
                    tracing::error!(error = %e, "the widget's window could not be made");
                    return;
                }
            },
        }
    };
    let _ = window.show();
    let _ = window.unminimize();
    let _ = window.set_focus();
}

/// Hides a widget's window, if there is one.
pub fn hide<R: Runtime>(app: &AppHandle<R>, hosted: &WindowOf<'_>) {
    if let Some(window) = app.get_webview_window(hosted.label) {
        let _ = window.hide();
    }
}

/// A widget window's event. The person's close of the host's own widget
/// hides it, as `closeWidget` does: the next `openWidget` shows the page
/// already made instead of making a window and its webview again (185 ms, then
/// the page's own start). A program's window is closed: programs come and go,
/// and a hidden window kept for each would grow without bound.
pub fn on_widget_event<R: Runtime>(
    app: &AppHandle<R>,
    hosted: &crate::Hosted,
    event: &tauri::WindowEvent,
) {
    let satchel = app.satchel();
    match event {
        tauri::WindowEvent::CloseRequested { api, .. } => {
            if hosted.label == WIDGET_WINDOW {
                api.prevent_close();
                hosted.hide(app);
            }
            satchel.closed(hosted);
        }
        // Made again when next needed; till then a window of this label is
        // not the widget's.
        tauri::WindowEvent::Destroyed => hosted.made.store(false, Ordering::SeqCst),
        _ => {}
    }
}

/// A host window's event. Once the host's last window of its own is gone, the
/// hidden widget window goes too: a host that quits when its windows close
/// must not be kept running by a window nobody sees.
pub fn on_host_event<R: Runtime>(app: &AppHandle<R>, label: &str, event: &tauri::WindowEvent) {
    // A program's widget window (its widget already let go) is not the host's.
    if !matches!(event, tauri::WindowEvent::Destroyed) || is_widget_label(label) {
        return;
    }
    let windows = app.webview_windows();
    let hosts_left = windows
        .keys()
        .any(|other| other != label && !is_widget_label(other));
    if hosts_left {
        return;
    }
    for (other, window) in windows {
        if is_widget_label(&other) && !window.is_visible().unwrap_or(true) {
            let _ = window.destroy();
        }
    }
}

fn make<R: Runtime>(
    app: &AppHandle<R>,
    hosted: &WindowOf<'_>,
) -> tauri::Result<tauri::WebviewWindow<R>> {
    let _step = satchel_sdk::timing::Step::start("widget window");
    let window =
        WebviewWindowBuilder::new(app, hosted.label, WebviewUrl::CustomProtocol(pages_url()))
            .title(hosted.title)
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
