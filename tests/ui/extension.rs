//! Every dapp finds Satchel: headless Chromium with Satchel Connector (the
//! extension, `extension/dist/chromium`) opens the example dapp in its
//! "discover" mode, where the page knows nothing of Satchel and takes the
//! wallet an extension announced by EIP-6963. Before the person links the
//! extension, the page finds Satchel and is told to link it; the person shows
//! a code in Satchel's Settings and types it into the extension's popup; the
//! page's connect then reaches Satchel's approval page under the page's own
//! origin (which the browser gave the extension, not the page), and the
//! account comes back to the page. Settings lists the linked browser. Before
//! all that, the port Satchel was given is held by another program: the window
//! says so, and the person moves the endpoint in Settings.

use satchel_devstack::{ExampleDapp, LocalStack, StackOptions};
use satchel_tests::desktop::{Desktop, screenshots};
use satchel_tests::extension_link::{browser_with_extension, follow_port, link};

use crate::connect::{PIN, into_the_wallet};
use crate::oauth::browser_tools_present;
use crate::{ONE_APP_AT_A_TIME, app_env, application};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dapp_that_knows_nothing_of_satchel_finds_it_through_the_linked_extension()
-> anyhow::Result<()> {
    if !browser_tools_present() {
        return Ok(());
    }
    let _alone = ONE_APP_AT_A_TIME.lock().await;
    let data = tempfile::tempdir()?;
    let stack = LocalStack::start(StackOptions::on_free_ports(data.path().join("stack"))).await?;
    // Another program (another wallet) holds the port Satchel is given.
    let other_program = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let taken = other_program.local_addr()?.port();
    // The page is given no endpoint: it must find Satchel by itself.
    let dapp = ExampleDapp::serve(0, &stack.demo, "http://127.0.0.1:9/").await?;
    let page = format!("{}/?wallet=discover", dapp.url);
    let mut env = app_env(&stack);
    env.push(("SATCHEL_PROVIDER_PORT", taken.to_string()));
    let (desktop, browser) = tokio::join!(Desktop::start(&env), browser_with_extension());
    let Some(desktop) = desktop? else {
        return Ok(());
    };
    let browser = browser?;
    let shots = screenshots(env!("CARGO_TARGET_TMPDIR"), "ui");
    let app = desktop.open(application(), &shots).await?;
    into_the_wallet(&app).await?;

    // The window says dapps cannot reach Satchel; Settings moves it.
    app.text_when("[data-testid='endpoint-off']", |t| {
        t.contains(&format!("port {taken} is taken"))
    })
    .await?;
    app.click("#nav-settings").await?;
    let port = satchel_devstack::free_port()?;
    app.type_into("[data-testid='endpoint-port']", &port.to_string())
        .await?;
    app.click("[data-testid='endpoint-move']").await?;
    app.text_when("[data-testid='endpoint-status']", |t| {
        t.contains(&format!("127.0.0.1:{port}"))
    })
    .await?;
    app.shot("43b-endpoint-moved").await?;
    app.click("#nav-wallet").await?;
    drop(other_program);

    follow_port(&browser, port).await?;

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
    link(&app, &browser, Some("44-extension-code")).await?;

    // A page that claims to be another site (in what it posts to the
    // extension) is still shown as itself.
    browser.open(&page).await?;
    browser
        .text_when("#wallets", |t| t.contains("Satchel (dev.satchel)"))
        .await?;
    browser
        .run(
            "window.postMessage({target: 'satchel-connector:page', id: 9001, method: 'eth_requestAccounts', \
             params: [], origin: 'https://victim.example', __frameOrigin: 'https://victim.example'}, location.origin);",
        )
        .await?;
    app.text_when("[data-testid='connect-origin']", |t| t == dapp.url)
        .await?;
    app.click("[data-testid='connect-cancel']").await?;
    app.until("the forged request's page to go", || async {
        app.count("[data-testid='connect-origin']")
            .await
            .map(|n| n == 0)
    })
    .await?;

    // The page connects: Satchel's page names the page's real origin.
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

/// The wagmi dapp (`examples/wagmi-dapp`), written for any wallet, used with
/// Satchel unchanged: it lists Satchel among the announced wallets, connects,
/// signs in with Ethereum, decodes a contract's custom error from a call read
/// through Satchel, mints; when Satchel stops the page is told (4900), and when
/// it starts again the page is connected again without a reload.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unmodified_wagmi_dapp_works_with_satchel_and_survives_its_restart() -> anyhow::Result<()>
{
    if !browser_tools_present() {
        return Ok(());
    }
    let _alone = ONE_APP_AT_A_TIME.lock().await;
    let data = tempfile::tempdir()?;
    let stack = LocalStack::start(StackOptions::on_free_ports(data.path().join("stack"))).await?;
    let port = satchel_devstack::free_port()?;
    let dapp = ExampleDapp::serve_wagmi(0, &stack.demo).await?;
    let mut env = app_env(&stack);
    env.push(("SATCHEL_PROVIDER_PORT", port.to_string()));
    let (desktop, browser) = tokio::join!(Desktop::start(&env), browser_with_extension());
    let Some(desktop) = desktop? else {
        return Ok(());
    };
    let browser = browser?;
    let shots = screenshots(env!("CARGO_TARGET_TMPDIR"), "ui");
    let app = desktop.open(application(), &shots).await?;
    into_the_wallet(&app).await?;
    follow_port(&browser, port).await?;
    link(&app, &browser, None).await?;

    // Satchel among the wallets; connecting names the page's own origin.
    browser.open(&dapp.url).await?;
    browser
        .click("#wallets button[data-rdns='dev.satchel']")
        .await?;
    app.text_when("[data-testid='connect-origin']", |t| t == dapp.url)
        .await?;
    app.click("[data-testid='connect-approve']").await?;
    let shown = browser
        .text_when("#account", |t| t.starts_with("0x"))
        .await?;
    let account: alloy::primitives::Address = shown.trim().parse()?;
    browser
        .screenshot(&shots.join("47-wagmi-dapp-connected.png"))
        .await?;

    // Sign-In with Ethereum for the page's host, with the PIN.
    browser.click("#sign-in").await?;
    let host = dapp.url.trim_start_matches("http://").to_owned();
    app.text_when("[data-testid='sign-in-domain']", |t| t.contains(&host))
        .await?;
    app.type_into("[data-testid='sign-pin']", PIN).await?;
    app.click("[data-testid='sign-approve']").await?;
    browser
        .text_when("#sign-in-result", |t| t.starts_with("signed in: "))
        .await?;

    // A read through Satchel that reverts: viem decodes the contract's error.
    browser.click("#read-missing").await?;
    browser
        .text_when("#read-result", |t| t == "reverted: NoSuchToken(999999)")
        .await?;

    // A mint: approved on Satchel's page, mined, the NFT the wallet's.
    let id = stack.demo.next_pal_id().await?;
    browser.click("#mint").await?;
    app.text_when("[data-testid='tx-changes']", |t| {
        t.contains(&format!("You receive NFT #{id}"))
    })
    .await?;
    app.type_into("[data-testid='sign-pin']", PIN).await?;
    app.click("[data-testid='sign-approve']").await?;
    browser
        .text_when("#mint-result", |t| t.starts_with("minted in block"))
        .await?;
    assert_eq!(stack.demo.pal_owner(id).await?, account);

    // A batch (EIP-5792): one page for both calls, sent one after another;
    // both on chain after, the page told the batch succeeded, not atomic.
    let id = stack.demo.next_pal_id().await?;
    browser.click("#batch").await?;
    app.text_when("[data-testid='connect-request']", |t| {
        t.contains("Transaction 2 of 2")
    })
    .await?;
    app.shot("48-wagmi-batch").await?;
    app.type_into("[data-testid='sign-pin']", PIN).await?;
    app.click("[data-testid='sign-approve']").await?;
    let told = browser
        .text_when("#batch-result", |t| {
            t.starts_with("batch ") || t.starts_with("refused")
        })
        .await?;
    assert_eq!(
        told,
        "batch success: 2 receipts, atomic false, atomic support unsupported"
    );
    let spender: alloy::primitives::Address =
        "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC".parse()?;
    assert_eq!(
        stack
            .demo
            .allowance(stack.demo.token18, account, spender)
            .await?,
        alloy::primitives::U256::from(2_000_000_000_000_000_000u128)
    );
    assert_eq!(stack.demo.pal_owner(id).await?, account);

    // A deployment (no `to`): Satchel's page says so and names the address
    // the contract will have, where the chain then makes it.
    browser.click("#deploy").await?;
    app.text_when("[data-testid='tx-summary']", |t| {
        t.contains("Deploy a new contract from 19 bytes of code")
    })
    .await?;
    let created = app
        .text_when("[data-testid='tx-new-contract']", |t| t.starts_with("0x"))
        .await?;
    app.shot("49-wagmi-deploy").await?;
    app.type_into("[data-testid='sign-pin']", PIN).await?;
    app.click("[data-testid='sign-approve']").await?;
    let deployed = browser
        .text_when("#deploy-result", |t| {
            t.starts_with("deployed at ") || t.starts_with("refused")
        })
        .await?;
    let created: String = created.split_whitespace().collect();
    assert_eq!(
        deployed.trim_start_matches("deployed at ").to_lowercase(),
        created.to_lowercase(),
        "the contract is where Satchel's page said"
    );
    // Activity names it as the device signed it: a deployment, not a send.
    // (Its label is clamped to two lines, which WebDriver's text leaves out.)
    app.until("Activity names the deployment", || async {
        let label = app
            .script(
                "return document.querySelector(\"[data-testid='activity-row'] .label > span\")?.textContent ?? ''",
            )
            .await?;
        Ok(label
            .as_str()
            .is_some_and(|t| t.starts_with("Deployed a contract at 0x")))
    })
    .await?;
    app.script(
        "document.querySelector(\"[data-testid='activity']\").scrollIntoView(); return true",
    )
    .await?;
    app.shot("50-activity-deployment").await?;

    // Satchel stops: the page is told (EIP-1193 disconnect, 4900).
    app.quit().await?;
    browser
        .text_when("#events", |t| t.lines().last() == Some("disconnected"))
        .await?;
    // It starts again: the extension reconnects, the page is connected again
    // and reads through it, without a reload.
    let app = desktop.open(application(), &shots).await?;
    browser
        .text_when("#events", |t| {
            t.lines().last() == Some(&format!("connected {account}"))
        })
        .await?;
    browser.click("#read-missing").await?;
    browser
        .text_when("#read-result", |t| t == "reverted: NoSuchToken(999999)")
        .await?;
    browser.close().await;
    app.quit().await?;
    Ok(())
}
