//! Satchel as another program's wallet: the app serves the local provider
//! (`SATCHEL_PROVIDER_PORT`), a program on this computer asks to connect with
//! plain JSON-RPC, the person approves on Satchel's page, the program reads
//! the chain through the service's relay, and Settings' Disconnect ends it.

use satchel_devstack::{DEMO_EMAIL, DEMO_PASSWORD, LocalStack, StackOptions};
use satchel_tests::desktop::{App, Desktop, screenshots};
use serde_json::{Value, json};

use crate::{ONE_APP_AT_A_TIME, app_env, application};

const PIN: &str = "135790";

/// A JSON-RPC call as a local program makes it (no `Origin`); its answer.
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

async fn into_the_wallet(app: &App) -> anyhow::Result<()> {
    app.type_into("#login-email", DEMO_EMAIL).await?;
    app.type_into("#login-password", DEMO_PASSWORD).await?;
    app.click("#login-submit").await?;
    app.type_into("#register-pin", PIN).await?;
    app.type_into("#register-pin-again", PIN).await?;
    app.click("#register-submit").await?;
    app.click("#phrase-skip").await?;
    app.text_when("[data-testid='balance-ETH']", |t| t == "10")
        .await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_on_this_computer_connects_with_the_persons_yes_and_reads_the_chain()
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

    let http = reqwest::Client::new();
    // Not connected: the chain, but no accounts and no reads.
    assert_eq!(
        call(&http, port, "eth_chainId", json!([])).await?["result"],
        "0x7a69"
    );
    assert_eq!(
        call(&http, port, "eth_accounts", json!([])).await?["result"],
        json!([])
    );
    assert_eq!(
        call(&http, port, "eth_blockNumber", json!([])).await?["error"]["code"],
        4100
    );

    // It asks; Satchel's page says who, and the person connects.
    let asking = {
        let http = http.clone();
        tokio::spawn(async move { call(&http, port, "eth_requestAccounts", json!([])).await })
    };
    app.text_when("[data-testid='connect-origin']", |t| {
        t == "A program on this computer"
    })
    .await?;
    app.shot("30-connect-request").await?;
    app.click("[data-testid='connect-approve']").await?;
    let answer = asking.await??;
    let accounts = answer["result"].as_array().cloned().unwrap_or_default();
    assert_eq!(accounts.len(), 1, "{answer}");
    let address = accounts[0].as_str().unwrap_or_default().to_owned();
    app.text_when("[data-testid='balance-ETH']", |t| t == "10")
        .await?;

    // Reads go to the dev chain through the service's relay: the wallet's 10 ETH
    // from the faucet, as the chain itself has them.
    let balance = call(&http, port, "eth_getBalance", json!([address, "latest"])).await?;
    assert_eq!(balance["result"], "0x8ac7230489e80000", "10 ETH: {balance}");

    // Settings lists it; Disconnect ends it.
    app.click("#nav-settings").await?;
    app.text_when("[data-testid='connected-app']", |t| {
        t.contains("A program on this computer")
    })
    .await?;
    app.shot("31-connected-apps").await?;
    app.click("[data-testid='connected-app-disconnect']")
        .await?;
    app.text_when("[data-testid='connected-apps']", |t| {
        t.contains("No site or program is connected")
    })
    .await?;
    assert_eq!(
        call(&http, port, "eth_accounts", json!([])).await?["result"],
        json!([])
    );

    // Asked again and rejected: 4001, nothing connected.
    let asking = {
        let http = http.clone();
        tokio::spawn(async move { call(&http, port, "eth_requestAccounts", json!([])).await })
    };
    app.find("[data-testid='connect-request']").await?;
    app.click("[data-testid='connect-cancel']").await?;
    assert_eq!(asking.await??["error"]["code"], 4001);
    assert_eq!(
        call(&http, port, "eth_accounts", json!([])).await?["result"],
        json!([])
    );
    app.quit().await?;
    Ok(())
}
