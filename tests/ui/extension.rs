//! Every dapp finds Satchel: headless Chromium with Satchel Connector (the
//! extension, `extension/dist/chromium`) opens the example dapp in its
//! "discover" mode, where the page knows nothing of Satchel and takes the
//! wallet an extension announced by EIP-6963. Before the person links the
//! extension, the page finds Satchel and is told to link it; the person shows
//! a code in Satchel's Settings and types it into the extension's popup; the
//! page's connect then reaches Satchel's approval page under the page's own
//! origin (which the browser gave the extension, not the page), and the
//! account comes back to the page. Settings lists the linked browser.

use std::path::PathBuf;

use satchel_devstack::{Browser, ExampleDapp, LocalStack, StackOptions};
use satchel_tests::desktop::{Desktop, screenshots};

use crate::connect::into_the_wallet;
use crate::oauth::browser_tools_present;
use crate::{ONE_APP_AT_A_TIME, app_env, application};

/// The id Chromium gives the extension: derived from the development key in
/// its manifest (`extension/dev-key.pub.b64`), so it is the same everywhere.
const EXTENSION_ID: &str = "codbncmilehhbbmpfkfhobodieagnmca";

fn extension_build() -> anyhow::Result<PathBuf> {
    let build = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("extension/dist/chromium");
    anyhow::ensure!(
        build.join("manifest.json").is_file(),
        "the extension is not built: npm --prefix extension run build (scripts/setup.sh does)"
    );
    Ok(build.canonicalize()?)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dapp_that_knows_nothing_of_satchel_finds_it_through_the_linked_extension()
-> anyhow::Result<()> {
    if !browser_tools_present() {
        return Ok(());
    }
    let extension = extension_build()?;
    let _alone = ONE_APP_AT_A_TIME.lock().await;
    let data = tempfile::tempdir()?;
    let stack = LocalStack::start(StackOptions::on_free_ports(data.path().join("stack"))).await?;
    let port = satchel_devstack::free_port()?;
    // The page is given no endpoint: it must find Satchel by itself.
    let dapp = ExampleDapp::serve(0, &stack.demo, "http://127.0.0.1:9/").await?;
    let page = format!("{}/?wallet=discover", dapp.url);
    let mut env = app_env(&stack);
    env.push(("SATCHEL_PROVIDER_PORT", port.to_string()));
    let load = format!("--load-extension={}", extension.display());
    let only = format!("--disable-extensions-except={}", extension.display());
    let flags = [load.as_str(), only.as_str()];
    let (desktop, browser) = tokio::join!(Desktop::start(&env), Browser::start_with(&flags));
    let Some(desktop) = desktop? else {
        return Ok(());
    };
    let browser = browser?;
    let shots = screenshots(env!("CARGO_TARGET_TMPDIR"), "ui");
    let app = desktop.open(application(), &shots).await?;
    into_the_wallet(&app).await?;

    // The extension follows Satchel's port (a setting in its popup).
    let popup = format!("chrome-extension://{EXTENSION_ID}/src/popup.html");
    browser.open(&popup).await?;
    browser.click("#advanced summary").await?;
    browser.type_into("#port", &port.to_string()).await?;
    browser.click("#save-port").await?;
    browser
        .text_when("[data-testid='status']", |t| {
            t.contains("Link this browser")
        })
        .await?;

    // Found by EIP-6963 before any link; asking is told to link.
    browser.open(&page).await?;
    browser
        .text_when("#wallets", |t| t.contains("Satchel (dev.satchel)"))
        .await?;
    browser.click("#connect").await?;
    let refused = browser
        .text_when("#account", |t| t.starts_with("4100"))
        .await?;
    assert!(refused.contains("not linked"), "{refused}");

    // Linking: Settings shows a code; the person types it into the popup.
    app.click("#nav-settings").await?;
    app.click("[data-testid='extension-link']").await?;
    let code = app
        .text_when("[data-testid='extension-code']", |t| t.len() == 9)
        .await?;
    app.shot("44-extension-code").await?;
    browser.open(&popup).await?;
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

    // The page connects: Satchel's page names the page's real origin.
    browser.open(&page).await?;
    browser
        .text_when("#wallets", |t| t.contains("Satchel (dev.satchel)"))
        .await?;
    browser.click("#connect").await?;
    app.text_when("[data-testid='connect-origin']", |t| t == dapp.url)
        .await?;
    app.shot("45-extension-connect").await?;
    app.click("[data-testid='connect-approve']").await?;
    let account = browser
        .text_when("#account", |t| t.starts_with("0x"))
        .await?;
    assert_eq!(account.trim().len(), 42, "{account}");
    browser
        .text_when("#events", |t| t.contains("accountsChanged"))
        .await?;
    browser
        .screenshot(&shots.join("46-extension-dapp-page.png"))
        .await?;
    browser.close().await;
    app.quit().await?;
    Ok(())
}
