//! The person's own tokens in the desktop app: a token no configuration names
//! (deployed by the test) is looked up by its address on the Add token page,
//! added, and shown with its exact balance; an application's wallet_watchAsset
//! opens the same facts on an approval page, and a suggestion that lies about
//! the token is refused. Then approvals: an allowance and an operator the
//! wallet gave are listed and revoked, gone on chain and from the page. First,
//! the wallet's values at the demo price feeds, and a feed moved on chain.

use alloy::primitives::{Address, B256, Bytes, U256};
use alloy::sol_types::SolCall as _;
use satchel_devstack::{LocalStack, StackOptions};
use satchel_tests::desktop::{Desktop, screenshots};
use serde_json::json;

use crate::connect::{PIN, call, call_from, into_the_wallet};
use crate::{ONE_APP_AT_A_TIME, app_env, application};

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

    // What the faucet's 10 ETH, 1,250.5 DEMO and 420.25 DUSD are worth at the
    // demo feeds' prices ($3,000, $1.25, $1): each to the cent, and the total.
    app.text_when("[data-testid='wallet-total']", |t| t == "$31,983.37")
        .await?;
    assert_eq!(
        app.text_now("[data-testid='value-DEMO']").await.as_deref(),
        Some("$1,563.12")
    );
    app.shot("67-wallet-values").await?;
    // The ETH feed moves on chain: the page shows the new value once the
    // service's price cache time has passed (read again as the window comes
    // back to the front).
    stack.demo.set_price("ETH", "usd", "3100").await?;
    app.until("the total follows the moved feed", || async {
        app.script("window.dispatchEvent(new Event('focus'))")
            .await?;
        Ok(app
            .text_now("[data-testid='wallet-total']")
            .await
            .as_deref()
            == Some("$32,983.37"))
    })
    .await?;
    assert_eq!(
        app.text_now("[data-testid='value-ETH']").await.as_deref(),
        Some("$31,000.00")
    );

    // A local program connects, which tells the test the wallet's address.
    let http = reqwest::Client::new();
    let asking = {
        let http = http.clone();
        tokio::spawn(async move { call(&http, port, "eth_requestAccounts", json!([])).await })
    };
    app.click("[data-testid='connect-approve']").await?;
    let address: Address = asking.await??["result"][0]
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
    // No feed prices it: no value, and no total while it is held and shown.
    app.text_when("[data-testid='wallet-no-total']", |t| t.contains("FRSH"))
        .await?;
    assert_eq!(app.count("[data-testid='value-FRSH']").await?, 0);
    app.shot("61-added-token-in-wallet").await?;

    // An application suggests another token; the page shows the contract's own
    // facts and the person adds it.
    let other = stack
        .demo
        .deploy_token("Other Coin", "OTHR", 18, supply)
        .await?;
    let suggest = |symbol: &'static str, decimals: u64, contract: Address| {
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

    a_second_account_is_added_and_paid_from_the_first(&app, &stack, &http, port).await?;
    approvals_are_listed_and_revoked(&app, &stack, &http, port, address).await?;
    app.quit().await?;
    Ok(())
}

/// Chooses the account at `address` in the wallet's switcher.
async fn switch_to(app: &satchel_tests::desktop::App, address: &str) -> anyhow::Result<()> {
    app.find("#account-switch").await?;
    app.script(&format!(
        "const s = document.getElementById('account-switch');
         s.value = '{}';
         s.dispatchEvent(new Event('change', {{ bubbles: true }}));",
        address.to_lowercase()
    ))
    .await?;
    Ok(())
}

/// Accounts → Add account, named, behind the PIN: the wallet shows the new
/// account, empty; its Receive page gives its address; the first account sends
/// it 0.5 ETH, and the new account shows it once mined, on chain exactly.
async fn a_second_account_is_added_and_paid_from_the_first(
    app: &satchel_tests::desktop::App,
    stack: &LocalStack,
    http: &reqwest::Client,
    port: u16,
) -> anyhow::Result<()> {
    app.click("#nav-wallet").await?;
    app.find("#account-switch").await?;
    let first = app
        .script("return document.getElementById('account-switch').value")
        .await?
        .as_str()
        .unwrap_or_default()
        .to_owned();
    app.click("#accounts-manage").await?;
    app.click("#account-add").await?;
    app.type_into("#account-add-label", "Savings").await?;
    app.type_into("#account-add-pin", PIN).await?;
    app.click("#account-add-pin-submit").await?;
    app.text_when("[data-testid='account-added']", |t| t.contains("Savings"))
        .await?;
    app.shot("70-account-added").await?;
    app.click(".subpage [aria-label='Back']").await?;
    // The wallet shows the new account, with nothing in it yet.
    app.until("the wallet shows the new account", || async {
        let chosen = app
            .script("const s = document.getElementById('account-switch'); return s.options[s.selectedIndex].text")
            .await?;
        Ok(chosen.as_str().is_some_and(|t| t.starts_with("Savings")))
    })
    .await?;
    app.text_when("[data-testid='balance-ETH']", |t| t == "0")
        .await?;
    app.click("#receive-anvil").await?;
    let second = app.text_when("#receive-address", |t| t.len() == 42).await?;
    app.shot("71-receive-to-account-2").await?;
    app.click(".subpage [aria-label='Back']").await?;
    let second_address: Address = second.parse()?;

    // Account 1 pays it.
    switch_to(app, &first).await?;
    app.text_when("[data-testid='balance-ETH']", |t| t != "0")
        .await?;
    app.click("#send-anvil").await?;
    app.type_into("[data-testid='send-to']", &second).await?;
    app.type_into("[data-testid='send-amount']", "0.5").await?;
    app.click("[data-testid='send-review']").await?;
    app.type_into("#send-pin", PIN).await?;
    app.click("#send-pin-submit").await?;
    app.until("the payment is mined", || async {
        let status = app
            .script("return document.querySelector(\"[data-testid='send-status']\")?.dataset.status ?? ''")
            .await?;
        Ok(status == "mined")
    })
    .await?;
    app.click("[data-testid='send-view-activity']").await?;
    switch_to(app, &second).await?;
    app.text_when("[data-testid='balance-ETH']", |t| t == "0.5")
        .await?;
    app.shot("72-account-2-paid").await?;
    use alloy::providers::{Provider as _, ProviderBuilder};
    let chain = ProviderBuilder::new().connect_http(stack.anvil.url.clone());
    assert_eq!(
        chain.get_balance(second_address).await?,
        U256::from(500_000_000_000_000_000u64)
    );
    // A web page connects while Savings shows: the page offers both accounts
    // with Savings ticked, and the site is shown Savings only.
    let asking = {
        let http = http.clone();
        tokio::spawn(async move {
            call_from(
                &http,
                port,
                Some("https://savings.example"),
                "eth_requestAccounts",
                json!([]),
            )
            .await
        })
    };
    app.find("[data-testid='connect-accounts']").await?;
    app.until("the shown account is ticked", || async {
        Ok(app
            .script("const b = document.getElementById('connect-account-1'); return !!b && b.checked && !document.getElementById('connect-account-0').checked")
            .await?
            == json!(true))
    })
    .await?;
    app.shot("73-connect-choose-accounts").await?;
    app.click("[data-testid='connect-approve']").await?;
    let seen = asking.await??;
    assert_eq!(
        seen["result"],
        json!([second_address.to_checksum(None)]),
        "{seen}"
    );

    // Back to the first account, which the approvals below are the program's.
    switch_to(app, &first).await?;
    Ok(())
}

/// The program has the wallet approve a spender for all its DEMO and an
/// operator for all its Pals (each on its page, with the PIN); Settings →
/// Approvals lists both, unlimited in red; each is revoked with the PIN, and is
/// gone on chain and from the page.
async fn approvals_are_listed_and_revoked(
    app: &satchel_tests::desktop::App,
    stack: &LocalStack,
    http: &reqwest::Client,
    port: u16,
    owner: Address,
) -> anyhow::Result<()> {
    let spender = Address::repeat_byte(0x5e);
    let operator = Address::repeat_byte(0x0b);
    let approve = approveCall {
        spender,
        amount: U256::MAX,
    }
    .abi_encode();
    let operate = setApprovalForAllCall {
        operator,
        approved: true,
    }
    .abi_encode();
    for (contract, data) in [(stack.demo.token18, approve), (stack.demo.pals, operate)] {
        let http = http.clone();
        let tx = json!([{"from": owner, "to": contract, "data": Bytes::from(data)}]);
        let sending =
            tokio::spawn(async move { call(&http, port, "eth_sendTransaction", tx).await });
        app.type_into("[data-testid='sign-pin']", PIN).await?;
        app.click("[data-testid='sign-approve']").await?;
        let answer = sending.await??;
        let hash: B256 = answer["result"]
            .as_str()
            .ok_or_else(|| anyhow::anyhow!("not sent: {answer}"))?
            .parse()?;
        mined(app, stack, hash).await?;
    }
    assert_eq!(
        stack
            .demo
            .allowance(stack.demo.token18, owner, spender)
            .await?,
        U256::MAX
    );

    app.click("#nav-settings").await?;
    app.click("#settings-approvals").await?;
    app.until("both approvals are listed", || async {
        Ok(app.count("[data-testid='approval']").await? == 2)
    })
    .await?;
    app.text_when(
        "[data-testid='approval'][data-kind='allowance'] [data-testid='approval-amount']",
        |t| t == "Unlimited",
    )
    .await?;
    app.shot("64-approvals").await?;

    for kind in ["allowance", "operator"] {
        app.click(&format!(
            "[data-testid='approval'][data-kind='{kind}'] [data-testid='approval-revoke']"
        ))
        .await?;
        app.find("[data-testid='revoke-pin']").await?;
        if kind == "allowance" {
            app.shot("65-revoke-review").await?;
        }
        // The service's honest fee is never flagged, though the dev chain's
        // base fee has sunk to hundredths of a gwei by now (issue 45, item 3).
        assert_eq!(
            app.count("[data-testid='revoke-accept-high-fee']").await?,
            0,
            "an honest fee was flagged as unusually high"
        );
        app.type_into("[data-testid='revoke-pin']", PIN).await?;
        app.click("[data-testid='revoke-submit']").await?;
        app.find("[data-testid='approval-revoking']").await?;
        let demo = &stack.demo;
        app.until("the revocation holds on chain", || async {
            Ok(match kind {
                "allowance" => demo
                    .allowance(demo.token18, owner, spender)
                    .await?
                    .is_zero(),
                _ => !demo.is_operator(demo.pals, owner, operator).await?,
            })
        })
        .await?;
        // The page follows the revocation: mined, the list is read again and
        // the approval is gone from it.
        let left = usize::from(kind == "allowance");
        app.until("the revoked approval is gone from the page", || async {
            Ok(app.count("[data-testid='approval']").await? == left)
        })
        .await?;
    }
    app.find("[data-testid='approvals-empty']").await?;
    app.shot("66-approvals-revoked").await?;
    Ok(())
}

async fn mined(
    app: &satchel_tests::desktop::App,
    stack: &LocalStack,
    hash: B256,
) -> anyhow::Result<()> {
    use alloy::providers::{Provider as _, ProviderBuilder};
    let chain = ProviderBuilder::new().connect_http(stack.anvil.url.clone());
    app.until("the transaction is mined", || async {
        Ok(chain.get_transaction_receipt(hash).await?.is_some())
    })
    .await
}

alloy::sol! {
    function approve(address spender, uint256 amount) external returns (bool);
    function setApprovalForAll(address operator, bool approved) external;
}
