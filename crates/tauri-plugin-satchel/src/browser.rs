//! The person's own browser, for OAuth logins (RFC 8252: never a webview of
//! ours). `SATCHEL_BROWSER` names a program to run with the URL instead of the
//! system's default browser (the UI tests use it to hand the URL to a headless
//! Chromium; a person may use it to pick a browser).

use satchel_sdk::OpenUrl;

pub struct SystemBrowser;

impl OpenUrl for SystemBrowser {
    fn open_url(&self, url: &str) -> Result<(), String> {
        match std::env::var_os("SATCHEL_BROWSER").filter(|p| !p.is_empty()) {
            Some(program) => std::process::Command::new(&program)
                .arg(url)
                .spawn()
                .map(|_| ())
                .map_err(|e| format!("{} did not start: {e}", program.to_string_lossy())),
            None => tauri_plugin_opener::open_url(url, None::<&str>)
                .map_err(|e| format!("no browser opened: {e}")),
        }
    }
}
