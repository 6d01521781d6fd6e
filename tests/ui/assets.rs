//! The person's own tokens in the desktop app: a token no configuration names
//! (deployed by the test) is looked up by its address on the Add token page,
//! added, and shown with its exact balance; an application's wallet_watchAsset
//! opens the same facts on an approval page, and a suggestion that lies about
//! the token is refused.

use alloy::primitives::U256;
use satchel_devstack::{LocalStack, StackOptions};
use satchel_tests::desktop::{Desktop, screenshots};
use serde_json::{Value, json};

use crate::connect::into_the_wallet;
use crate::{ONE_APP_AT_A_TIME, app_env, application};

async fn call(
    http: &reqwest::Client,
    port: u16,
    method: &str,
    params: Value,
) -> anyhow::Result<Value> {
    Ok(http
        .post(format!("http://127.0.0.1:{port}/"))
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_added_by_address_shows_its_exact_balance_and_an_app_can_suggest_one()
-> anyhow::Result<()> {
    let _alone = ONE_APP_AT_A_TIME.lock().await;
    let data = tempfile::tempdir()?;
    let stack = LocalStack::start(StackOptions::on_free_ports(data.path().join("stack"))).await?;
    let port = satchel_devstack::free_port()?;
    let mut env = app_env(&stack);
    env.push(("SATCHEL_PROVIDER_PORT", port.to_string()));
    let Some(desktop) = Desktop::start(&env).await? else {
        return Ok(());
    };
    let shots = screenshots(env!("CARGO_TARGET_TMPDIR"), "ui");
    let app = desktop.open(application(), &shots).await?;
    into_the_wallet(&app).await?;

    // A local program connects, which tells the test the wallet's address.
    let http = reqwest::Client::new();
    let asking = {
        let http = http.clone();
        tokio::spawn(async move { call(&http, port, "eth_requestAccounts", json!([])).await })
    };
    app.click("[data-testid='connect-approve']").await?;
    let address: alloy::primitives::Address = asking.await??["result"][0]
        .as_str()
        .unwrap_or_default()
        .parse()?;

    // A token nobody configured, 1,234.567890123 of it (9 decimals) in the wallet.
    let supply = U256::from(10u64).pow(U256::from(21));
    let fresh = stack
        .demo
        .deploy_token("Fresh Coin", "FRSH", 9, supply)
        .await?;
    stack
        .demo
        .send_token(fresh, address, U256::from(1_234_567_890_123u64))
        .await?;

    app.click("#add-token-anvil").await?;
    app.type_into("#add-token-contract", &fresh.to_checksum(None))
        .await?;
    app.click("#add-token-look").await?;
    app.text_when("[data-testid='token-balance']", |t| t == "1,234.56789 FRSH")
        .await?;
    assert_eq!(
        app.text_now("[data-testid='token-name']").await.as_deref(),
        Some("Fresh Coin")
    );
    app.shot("60-add-token").await?;
    app.click("#add-token-add").await?;
    app.text_when("[data-testid='own-token-FRSH']", |t| {
        t.contains("Fresh Coin")
    })
    .await?;
    app.click(".subpage [aria-label='Back']").await?;
    // The exact balance, as the wallet page shows it (rounded) and holds it.
    app.text_when("[data-testid='balance-FRSH']", |t| t == "1,234.56789")
        .await?;
    let exact = app
        .script("return document.querySelector(\"[data-testid='balance-FRSH']\").title")
        .await?;
    assert_eq!(exact, "1234.567890123");
    app.shot("61-added-token-in-wallet").await?;

    // An application suggests another token; the page shows the contract's own
    // facts and the person adds it.
    let other = stack
        .demo
        .deploy_token("Other Coin", "OTHR", 18, supply)
        .await?;
    let suggest = |symbol: &'static str, decimals: u64, contract: alloy::primitives::Address| {
        let http = http.clone();
        tokio::spawn(async move {
            call(
                &http,
                port,
                "wallet_watchAsset",
                json!({"type": "ERC20", "options": {"address": contract, "symbol": symbol, "decimals": decimals}}),
            )
            .await
        })
    };
    let watching = suggest("OTHR", 18, other);
    app.text_when("[data-testid='token-symbol']", |t| t == "OTHR")
        .await?;
    app.shot("62-watch-asset").await?;
    app.click("[data-testid='watch-add']").await?;
    assert_eq!(watching.await??["result"], true);

    // One that calls a token by another's name is refused in red: 4001 on Reject.
    let liar = stack
        .demo
        .deploy_token("Not Dollars", "NOPE", 6, supply)
        .await?;
    let lying = suggest("USDC", 6, liar);
    app.text_when("[data-testid='sign-refusal']", |t| {
        t.contains("calls this token USDC")
    })
    .await?;
    app.shot("63-watch-asset-refused").await?;
    assert_eq!(app.count("[data-testid='watch-add']").await?, 0);
    app.click("[data-testid='sign-reject']").await?;
    assert_eq!(lying.await??["error"]["code"], 4001);

    // Listed already: true at once, nobody is asked.
    assert_eq!(suggest("OTHR", 18, other).await??["result"], true);
    app.quit().await?;
    Ok(())
}
