//! A dapp in a real browser uses Satchel as its wallet, end to end: headless
//! Chromium opens the example dapp (examples/dapp: viem over
//! @satchel/provider), which connects, signs in with Ethereum, signs a permit
//! and mints an NFT, each approved by the person on Satchel's own page
//! (driven through tauri-driver). The sign-in's signature recovers to the
//! wallet, another site's sign-in is refused, the permit holds on chain, the
//! NFT is the wallet's and the transaction in Activity; after Disconnect in
//! Settings the dapp is told (accountsChanged []) and sees no account.

use alloy::primitives::{Address, Signature, U256};
use satchel_devstack::demo::Permit;
use satchel_devstack::{Browser, ExampleDapp, LocalStack, StackOptions};
use satchel_tests::desktop::{Desktop, screenshots};
use serde_json::{Value, json};

use crate::connect::{PIN, activity_lists, into_the_wallet};
use crate::oauth::browser_tools_present;
use crate::{ONE_APP_AT_A_TIME, app_env, application};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dapp_in_a_browser_connects_signs_sends_and_is_disconnected() -> anyhow::Result<()> {
    if !browser_tools_present() {
        return Ok(());
    }
    let _alone = ONE_APP_AT_A_TIME.lock().await;
    let data = tempfile::tempdir()?;
    let stack = LocalStack::start(StackOptions::on_free_ports(data.path().join("stack"))).await?;
    let port = satchel_devstack::free_port()?;
    let provider_url = format!("http://127.0.0.1:{port}");
    let dapp = ExampleDapp::serve(0, &stack.demo, &provider_url).await?;
    let mut env = app_env(&stack);
    env.push(("SATCHEL_PROVIDER_PORT", port.to_string()));
    let (desktop, browser) = tokio::join!(Desktop::start(&env), Browser::start());
    let Some(desktop) = desktop? else {
        return Ok(());
    };
    let browser = browser?;
    let shots = screenshots(env!("CARGO_TARGET_TMPDIR"), "ui");
    let app = desktop.open(application(), &shots).await?;
    into_the_wallet(&app).await?;
    let page_shot = |name: &str| shots.join(format!("{name}.png"));

    // Connect: the dapp's origin on Satchel's page, the account in the dapp.
    browser.open(&dapp.url).await?;
    browser.click("#connect").await?;
    app.text_when("[data-testid='connect-origin']", |t| t == dapp.url)
        .await?;
    app.shot("40-dapp-connect").await?;
    app.click("[data-testid='connect-approve']").await?;
    let shown = browser
        .text_when("#account", |t| t.starts_with("0x"))
        .await?;
    let account: Address = shown.trim().parse()?;

    // Sign-In with Ethereum for the dapp's own host: signed with the PIN; the
    // signature recovers to the wallet.
    browser.click("#sign-in").await?;
    let host = dapp.url.trim_start_matches("http://").to_owned();
    app.text_when("[data-testid='sign-in-domain']", |t| t.contains(&host))
        .await?;
    app.shot("41-dapp-sign-in").await?;
    app.type_into("[data-testid='sign-pin']", PIN).await?;
    app.click("[data-testid='sign-approve']").await?;
    browser
        .text_when("#sign-in-result", |t| t.starts_with("signed in: "))
        .await?;
    let message = browser
        .attribute("#sign-in-result", "data-message")
        .await?
        .unwrap_or_default();
    let signature: Signature = browser
        .attribute("#sign-in-result", "data-signature")
        .await?
        .unwrap_or_default()
        .parse()?;
    assert!(message.starts_with(&format!("{host} wants you to sign in")));
    assert_eq!(
        signature.recover_address_from_msg(message.as_bytes())?,
        account
    );

    // A sign-in for another site: refused on Satchel's page; the dapp gets 4001.
    browser.click("#sign-in-foreign").await?;
    app.text_when("[data-testid='sign-refusal']", |t| {
        t.contains("evil.example")
    })
    .await?;
    app.click("[data-testid='sign-reject']").await?;
    browser
        .text_when("#sign-in-result", |t| t.starts_with("refused: 4001"))
        .await?;

    // A permit for the demo token, signed with the PIN; the token takes it.
    browser.click("#permit").await?;
    app.text_when("[data-testid='permit-allowance']", |t| t == "1.5 DEMO")
        .await?;
    app.type_into("[data-testid='sign-pin']", PIN).await?;
    app.click("[data-testid='sign-approve']").await?;
    browser
        .text_when("#permit-result", |t| t.starts_with("permit signed"))
        .await?;
    let signature: Signature = browser
        .attribute("#permit-result", "data-signature")
        .await?
        .unwrap_or_default()
        .parse()?;
    let spender: Address = browser
        .attribute("#permit-result", "data-spender")
        .await?
        .unwrap_or_default()
        .parse()?;
    let permit = Permit {
        owner: account,
        spender,
        value: U256::from(1_500_000_000_000_000_000u128),
        deadline: U256::from(4_000_000_000u64),
    };
    let token = stack.demo.token18;
    stack.demo.submit_permit(token, permit, &signature).await?;
    assert_eq!(
        stack.demo.allowance(token, account, spender).await?,
        permit.value
    );

    // A mint: the page shows the NFT arriving; sent with the PIN, the dapp
    // sees it mined, the NFT is the wallet's, the transaction in Activity.
    let id = stack.demo.next_pal_id().await?;
    browser.click("#mint").await?;
    app.text_when("[data-testid='tx-changes']", |t| {
        t.contains(&format!("You receive NFT #{id}"))
    })
    .await?;
    app.shot("42-dapp-mint").await?;
    app.type_into("[data-testid='sign-pin']", PIN).await?;
    app.click("[data-testid='sign-approve']").await?;
    browser
        .text_when("#mint-result", |t| t.starts_with("minted in block"))
        .await?;
    assert_eq!(stack.demo.pal_owner(id).await?, account);
    let hash = browser
        .attribute("#mint-result", "data-hash")
        .await?
        .unwrap_or_default();
    app.click("#nav-wallet").await?;
    activity_lists(&app, &hash).await?;
    browser.screenshot(&page_shot("43-dapp-page")).await?;

    // Disconnect in Settings: the dapp is told, and sees no account.
    app.click("#nav-settings").await?;
    app.text_when("[data-testid='connected-site']", |t| t.contains(&host))
        .await?;
    app.click("[data-testid='connected-site-disconnect']")
        .await?;
    browser
        .text_when("#events", |t| t.contains("accountsChanged []"))
        .await?;
    let accounts: Value = reqwest::Client::new()
        .post(format!("{provider_url}/"))
        .header("origin", &dapp.url)
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "eth_accounts"}))
        .send()
        .await?
        .json()
        .await?;
    assert_eq!(accounts["result"], json!([]));
    browser.close().await;
    app.quit().await?;
    Ok(())
}
