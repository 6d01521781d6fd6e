//! The baseline the desktop benchmark measures Satchel against: a Tauri window
//! showing one line of bundled text, built as the app is. It prints `shown` on
//! standard output when its page has loaded.

use tauri::webview::PageLoadEvent;

fn main() {
    #[allow(clippy::expect_used)] // a benchmark fixture: nothing to recover
    tauri::Builder::default()
        .on_page_load(|_webview, payload| {
            if payload.event() == PageLoadEvent::Finished {
                println!("shown page");
            }
        })
        .run(tauri::generate_context!())
        .expect("the minimal window runs");
}
