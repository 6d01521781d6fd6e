//! The webview's memory cache. WebKitGTK's default cache model (a web browser's)
//! keeps the decoded pictures of pages left behind, up to a share of the
//! machine's memory (512 MiB with 16 GiB or more): scrolling through a wallet of
//! 10,000 NFTs filled it with thumbnails no longer on screen. Satchel shows one
//! page of its own, whose thumbnails the app keeps on disk (`satchel:` protocol),
//! so the webview keeps no memory cache ("document viewer"): what leaves the
//! screen is freed, and what comes back is read again from the app.

/// Sets the webview of `window` to keep no memory cache.
pub fn without_memory_cache<R: tauri::Runtime>(
    window: &tauri::WebviewWindow<R>,
) -> tauri::Result<()> {
    window.with_webview(|webview| {
        #[cfg(target_os = "linux")]
        {
            use webkit2gtk::{CacheModel, WebContextExt as _, WebViewExt as _};
            if let Some(context) = webview.inner().context() {
                context.set_cache_model(CacheModel::DocumentViewer);
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = webview;
    })
}
