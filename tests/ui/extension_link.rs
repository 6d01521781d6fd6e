//! Satchel Connector (the browser extension) in headless Chromium, linked to
//! Satchel as a person links it: the extension's end-to-end tests
//! (`tests/ui/extension.rs`) and the desktop benchmark's calls through it.

use std::path::{Path, PathBuf};

use satchel_devstack::Browser;

use crate::desktop::App;

/// The id Chromium gives the extension: derived from the development key in
/// its manifest (`extension/dev-key.pub.b64`), so it is the same everywhere.
pub const EXTENSION_ID: &str = "codbncmilehhbbmpfkfhobodieagnmca";

pub fn extension_build() -> anyhow::Result<PathBuf> {
    let build = Path::new(env!("CARGO_MANIFEST_DIR")).join("../extension/dist/chromium");
    anyhow::ensure!(
        build.join("manifest.json").is_file(),
        "the extension is not built: npm --prefix extension run build (scripts/setup.sh does)"
    );
    Ok(build.canonicalize()?)
}

/// Chromium with the extension loaded.
pub async fn browser_with_extension() -> anyhow::Result<Browser> {
    let extension = extension_build()?;
    let load = format!("--load-extension={}", extension.display());
    let only = format!("--disable-extensions-except={}", extension.display());
    Browser::start_with(&[load.as_str(), only.as_str()]).await
}

pub fn popup() -> String {
    format!("chrome-extension://{EXTENSION_ID}/src/popup.html")
}

/// Points the extension at Satchel's `port` (a setting in its popup).
pub async fn follow_port(browser: &Browser, port: u16) -> anyhow::Result<()> {
    browser.open(&popup()).await?;
    browser.click("#advanced summary").await?;
    browser.type_into("#port", &port.to_string()).await?;
    browser.click("#save-port").await?;
    browser
        .text_when("[data-testid='status']", |t| {
            t.contains("Link this browser")
        })
        .await?;
    Ok(())
}

/// Links the extension as the person does: Settings shows a code, typed
/// into the popup; Settings then lists the browser.
pub async fn link(app: &App, browser: &Browser, shot: Option<&str>) -> anyhow::Result<()> {
    app.click("#nav-settings").await?;
    app.click("[data-testid='extension-link']").await?;
    let code = app
        .text_when("[data-testid='extension-code']", |t| t.len() == 9)
        .await?;
    if let Some(shot) = shot {
        app.shot(shot).await?;
    }
    browser.open(&popup()).await?;
    browser.type_into("#code", &code).await?;
    browser.click("#link-button").await?;
    browser
        .text_when("[data-testid='link-result']", |t| t == "Linked.")
        .await?;
    browser
        .text_when("[data-testid='status']", |t| {
            t.starts_with("Linked to Satchel")
        })
        .await?;
    app.text_when("[data-testid='linked-extension']", |t| {
        t.contains("Chromium") && t.contains(EXTENSION_ID)
    })
    .await?;
    app.click("#nav-wallet").await
}
