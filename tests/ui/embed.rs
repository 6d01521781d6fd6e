//! Satchel embedded in another application: `examples/tauri-host` (a game
//! launcher built as a developer builds it: the plugin's one line, the
//! plugin's default permission, `@satchel/widget` in its page), driven through
//! tauri-driver. Its page calls the spec's methods; the widget's pages open in
//! a window of their own, where the person signs up, registers and confirms a
//! purchase with their PIN; the host gets the user, the exact balances and
//! the transaction, and is refused what only the widget's pages may do.

use std::path::PathBuf;

use alloy::primitives::U256;
use satchel_devstack::{LocalStack, StackOptions, verification_link};
use satchel_tests::desktop::{App, Desktop, screenshots};

use super::{EMAIL, PASSWORD, PIN, chain_balance, log_in, writes_down_and_checks_the_phrase};

/// The example launcher's binary, built by the test command beside the app
/// (`cargo build --bin satchel-example-launcher`).
fn launcher() -> anyhow::Result<PathBuf> {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("../debug/satchel-example-launcher");
    anyhow::ensure!(
        path.exists(),
        "{} is not built: run cargo build --bin satchel-example-launcher (scripts/test.sh does)",
        path.display()
    );
    Ok(path)
}

/// The shop's address in the launcher's page ("Buy" sends it 0.01 ETH).
const SHOP: &str = "0x000000000000000000000000000000000000dEaD";

/// The host's environment: the local stack's service and app, and a keychain
/// of its own (new each call: a new device).
fn host_env(stack: &LocalStack) -> Vec<(&'static str, String)> {
    let mut env = stack.app_env_vars();
    env.push((
        "SATCHEL_KEYCHAIN_SERVICE",
        format!(
            "dev.satchel.example.launcher.uitest.{}",
            uuid::Uuid::new_v4().simple()
        ),
    ));
    env
}

/// Switches to the widget's window (its page's title is Satchel's).
async fn in_the_widget(app: &App) -> anyhow::Result<()> {
    app.switch_to_window_titled("Satchel").await
}

/// Switches back to the launcher's own page.
async fn in_the_launcher(app: &App) -> anyhow::Result<()> {
    app.switch_to_window_titled("Pixel Launcher").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tauri_app_embeds_the_widget_its_person_signs_up_and_buys_with_their_pin()
-> anyhow::Result<()> {
    let launcher = launcher()?;
    let data = tempfile::tempdir()?;
    let stack = LocalStack::start(StackOptions::on_free_ports(data.path().join("stack"))).await?;
    let Some(desktop) = Desktop::start(&host_env(&stack)).await? else {
        return Ok(());
    };
    let shots = screenshots(env!("CARGO_TARGET_TMPDIR"), "embed");
    let app = desktop.open(&launcher, &shots).await?;

    // The launcher starts with its own window only: the plugin costs nothing
    // until the widget is used.
    app.find("#connect").await?;
    assert_eq!(
        app.window_count().await?,
        1,
        "no widget window before it is needed"
    );
    app.shot("01-launcher").await?;

    // The launcher's page may call the spec's methods, and none of the widget's
    // pages' own: no PIN, no key export, no confirming a send.
    // Nothing is asked of the service until the widget is used.
    assert_eq!(
        app.invoke("getStatus", serde_json::json!({})).await?,
        Ok(serde_json::json!("not_initialized"))
    );
    for (command, args) in [
        ("showRecoveryPhrase", serde_json::json!({"pin": PIN})),
        (
            "exportPrivateKey",
            serde_json::json!({"pin": PIN, "account": SHOP}),
        ),
        ("confirmSend", serde_json::json!({"confirm": {}})),
        ("register", serde_json::json!({"pin": PIN, "backup": false})),
    ] {
        let refused = app.invoke(command, args).await?;
        let error = refused.expect_err(command).to_string();
        assert!(
            error.contains("not allowed"),
            "{command} was not refused by the permissions: {error}"
        );
    }

    // Connect: init and loginWithUI open the widget's window over the launcher.
    app.click("#connect").await?;
    in_the_widget(&app).await?;
    assert_eq!(app.window_count().await?, 2, "the widget's own window");
    app.click("#login-create").await?;
    app.type_into("#signup-email", EMAIL).await?;
    app.type_into("#signup-password", PASSWORD).await?;
    app.type_into("#signup-confirm", PASSWORD).await?;
    app.shot("02-widget-sign-up").await?;
    app.click("#signup-submit").await?;
    app.text_when("#check-body", |t| t.contains(EMAIL)).await?;
    let link = verification_link(&stack.outbox(), EMAIL).expect("a verification e-mail");
    let (verified, _) = satchel_devstack::open_link(&reqwest::Client::new(), &link).await?;
    assert_eq!(verified, 200, "the link's button verifies the address");
    app.click("#check-verified").await?;
    app.text_when("#login-email", |_| true).await?;
    log_in(&app, None).await?;

    // The PIN is chosen in the widget; the launcher's register() waits for it.
    app.type_into("#register-pin", PIN).await?;
    app.type_into("#register-pin-again", PIN).await?;
    app.shot("03-widget-register").await?;
    app.click("#register-submit").await?;
    let words = writes_down_and_checks_the_phrase(&app).await?;
    let phrase = satchel_sdk::vault::Phrase::parse(&words.join(" "))?;
    let address = phrase.address.to_checksum(None);
    app.shot("04-widget-wallet").await?;

    // The launcher has the user, the wallet's address and its exact figures.
    in_the_launcher(&app).await?;
    app.text_when("#address", |t| t.eq_ignore_ascii_case(&address))
        .await?;
    let on_chain = chain_balance(&stack, &address).await?;
    assert_eq!(
        on_chain,
        U256::from(10u64) * U256::from(10u64).pow(U256::from(18u64))
    );
    app.text_when("#balance", |t| t == "10").await?;
    app.text_when("#nft-count", |t| t.parse::<usize>().is_ok_and(|n| n > 0))
        .await?;
    assert_eq!(
        app.invoke("getStatus", serde_json::json!({})).await?,
        Ok(serde_json::json!("login"))
    );
    app.shot("05-launcher-connected").await?;

    the_launchers_provider_connects_and_signs_on_the_widgets_pages(&app, &address).await?;

    // Buy: the widget's send page opens filled in; the person confirms it
    // with the PIN there, and the launcher gets the transaction's hash.
    let shop_before = chain_balance(&stack, SHOP).await?;
    app.click("#buy").await?;
    in_the_widget(&app).await?;
    app.until("the send page opens with the launcher's values", || async {
        let filled = app
            .script(
                "const a = document.querySelector(\"[data-testid='send-amount']\");
                 const t = document.querySelector(\"[data-testid='send-to']\");
                 return !!a && a.value === '0.01' && !!t && t.value.toLowerCase() === '0x000000000000000000000000000000000000dead'",
            )
            .await?;
        Ok(filled == serde_json::Value::Bool(true))
    })
    .await?;
    app.until("the quote is shown", || {
        app.is_enabled("[data-testid='send-review']")
    })
    .await?;
    app.click("[data-testid='send-review']").await?;
    app.type_into("#send-pin", PIN).await?;
    app.shot("06-widget-confirm-purchase").await?;
    app.click("#send-pin-submit").await?;
    in_the_launcher(&app).await?;
    let bought = app
        .text_when("#status", |t| t.starts_with("Bought: 0x"))
        .await?;
    let tx_id = bought.trim_start_matches("Bought: ").to_owned();
    assert_eq!(tx_id.len(), 66, "a transaction hash: {tx_id}");
    let shop_after = chain_balance(&stack, SHOP).await?;
    assert_eq!(
        shop_after - shop_before,
        U256::from(10u64).pow(U256::from(16u64)),
        "the shop got 0.01 ETH to the wei"
    );
    app.shot("07-launcher-bought").await?;

    // closeWidget hides the window; the next open shows the wallet's first
    // page again, not the purchase's page the person left it on.
    in_the_widget(&app).await?;
    app.find("[data-testid='send-done']").await?;
    in_the_launcher(&app).await?;
    assert_eq!(
        app.invoke("closeWidget", serde_json::json!({})).await?,
        Ok(serde_json::json!(true))
    );
    in_the_widget(&app).await?;
    app.until_hidden_showing("[data-testid='balance-ETH']")
        .await?;
    in_the_launcher(&app).await?;
    assert_eq!(
        app.invoke("openWidget", serde_json::json!({})).await?,
        Ok(serde_json::json!(true))
    );
    in_the_widget(&app).await?;
    app.until("the widget shows its wallet page again", || async {
        Ok(app.script("return document.visibilityState").await? == "visible")
    })
    .await?;
    app.text_when("[data-testid='balance-ETH']", |t| !t.is_empty())
        .await?;
    in_the_launcher(&app).await?;

    // changeLanguage from the launcher: the widget's pages speak Japanese.
    assert_eq!(
        app.invoke("changeLanguage", serde_json::json!({"language": "ja"}))
            .await?,
        Ok(serde_json::Value::Null)
    );
    in_the_widget(&app).await?;
    app.until("the widget's pages speak Japanese", || async {
        Ok(app.script("return document.documentElement.lang").await? == "ja")
    })
    .await?;
    in_the_launcher(&app).await?;
    let refused = app
        .invoke("changeLanguage", serde_json::json!({"language": "xx"}))
        .await?;
    assert!(
        refused.is_err_and(|e| e.to_string().contains("InvalidParameters")),
        "a language the widget does not speak is refused"
    );

    // Log out, then finalize: before_login, then not_initialized.
    app.click("#logout").await?;
    app.text_when("#status", |t| t == "Logged out").await?;
    assert_eq!(
        app.invoke("getStatus", serde_json::json!({})).await?,
        Ok(serde_json::json!("before_login"))
    );
    assert_eq!(
        app.invoke("finalize", serde_json::json!({})).await?,
        Ok(serde_json::Value::Null)
    );
    assert_eq!(
        app.invoke("getStatus", serde_json::json!({})).await?,
        Ok(serde_json::json!("not_initialized"))
    );
    app.quit().await
}

/// Starts an EIP-1193 request of the launcher's page (`getProvider('ethereum')`'s
/// command) without waiting: its answer lands in `window.__answers[key]`.
async fn start_request(
    app: &App,
    key: &str,
    method: &str,
    params: serde_json::Value,
) -> anyhow::Result<()> {
    app.script(&format!(
        "window.__answers ??= {{}};
         window.__TAURI_INTERNALS__.invoke('plugin:satchel|request', {{ method: {method:?}, params: {params} }})
           .then((ok) => window.__answers[{key:?}] = {{ ok }}, (err) => window.__answers[{key:?}] = {{ err }});
         return true"
    ))
    .await?;
    Ok(())
}

/// The answer of a request `start_request` made, once it has come.
async fn answer_of(app: &App, key: &str) -> anyhow::Result<serde_json::Value> {
    let read = format!("return (window.__answers ?? {{}})[{key:?}] ?? null");
    app.until(&format!("the answer to {key}"), || async {
        Ok(!app.script(&read).await?.is_null())
    })
    .await?;
    app.script(&read).await
}

/// The launcher's page as a dapp of its own widget: it connects with the
/// person's yes and has a message signed, each on the widget's own page.
async fn the_launchers_provider_connects_and_signs_on_the_widgets_pages(
    app: &App,
    address: &str,
) -> anyhow::Result<()> {
    let request = |method: &str| {
        app.invoke(
            "request",
            serde_json::json!({"method": method, "params": []}),
        )
    };
    assert_eq!(
        request("eth_chainId").await?,
        Ok(serde_json::json!("0x7a69"))
    );
    assert_eq!(request("eth_accounts").await?, Ok(serde_json::json!([])));

    start_request(app, "connect", "eth_requestAccounts", serde_json::json!([])).await?;
    in_the_widget(app).await?;
    app.text_when("[data-testid='connect-origin']", |t| {
        t == "A program on this computer"
    })
    .await?;
    app.shot("05b-widget-connect").await?;
    app.click("[data-testid='connect-approve']").await?;
    in_the_launcher(app).await?;
    let connected = answer_of(app, "connect").await?;
    assert!(
        connected["ok"][0]
            .as_str()
            .is_some_and(|a| a.eq_ignore_ascii_case(address)),
        "the wallet's address: {connected}"
    );

    let message = "0x6869206c61756e63686572"; // "hi launcher"
    start_request(
        app,
        "sign",
        "personal_sign",
        serde_json::json!([message, address]),
    )
    .await?;
    in_the_widget(app).await?;
    app.text_when("[data-testid='connect-request']", |t| {
        t.contains("hi launcher")
    })
    .await?;
    app.type_into("#sign-pin", PIN).await?;
    app.shot("05c-widget-sign").await?;
    app.click("[data-testid='sign-approve']").await?;
    in_the_launcher(app).await?;
    let signed = answer_of(app, "sign").await?;
    let signature: alloy::primitives::Signature = signed["ok"]
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("no signature: {signed}"))?
        .parse()?;
    let signer = signature.recover_address_from_msg("hi launcher")?;
    assert!(
        signer.to_checksum(None).eq_ignore_ascii_case(address),
        "signed by the wallet's key"
    );
    Ok(())
}
