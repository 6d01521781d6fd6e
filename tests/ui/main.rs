//! The desktop app as a person meets it: the real `satchel` binary driven through
//! tauri-driver and WebKitWebDriver under Xvfb, against a local stack of its own
//! (anvil with the demo contracts, the service on SQLite, the faucet), with the
//! wallet key in the real Secret Service keychain. Each step saves a screenshot in
//! `target/tmp/ui-screenshots/`. The OAuth logins through the stack's demo
//! "Google" and "Discord" are in `oauth.rs`.

mod assets;
mod connect;
mod dapp;
mod embed;
mod extension;
mod oauth;
mod program;

use std::path::{Path, PathBuf};

use satchel_devstack::{LocalStack, StackOptions, verification_link};

use satchel_tests::desktop::{App, Desktop, screenshots};

const EMAIL: &str = "ada@example.com";
const PASSWORD: &str = "correct1horse";
const PIN: &str = "246810";

fn application() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_satchel"))
}

/// The app allows one running copy per session bus (the single-instance
/// plugin): a second one started beside it hands over to the first and exits. The
/// tests share the bus of `dbus-run-session`, so each holds this while its app
/// runs.
static ONE_APP_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The app's environment for the local stack, with a keychain of its own (new
/// each call: a new device), never a person's.
fn app_env(stack: &LocalStack) -> Vec<(&'static str, String)> {
    let mut env = stack.app_env_vars();
    env.push((
        "SATCHEL_KEYCHAIN_SERVICE",
        format!(
            "dev.satchel.wallet.uitest.{}",
            uuid::Uuid::new_v4().simple()
        ),
    ));
    env
}

async fn log_in(app: &App, email: Option<&str>) -> anyhow::Result<()> {
    if let Some(email) = email {
        app.type_into("#login-email", email).await?;
    }
    app.type_into("#login-password", PASSWORD).await?;
    app.click("#login-submit").await
}

async fn log_out(app: &App) -> anyhow::Result<()> {
    app.click("#nav-settings").await?;
    app.text_when("#settings-email", |t| t == EMAIL).await?;
    app.click("#settings-logout").await?;
    app.find("#login-email").await?;
    Ok(())
}

/// The demo funds the faucet gives every new wallet, as the wallet page shows them.
async fn sees_the_demo_balances(app: &App) -> anyhow::Result<()> {
    app.text_when("[data-testid='balance-ETH']", |t| t == "10")
        .await?;
    sees_the_demo_balances_but_ether(app).await
}

/// The demo funds after 0.5 ETH and its fee were sent.
async fn sees_the_balances_after_the_send(app: &App) -> anyhow::Result<()> {
    app.text_when("[data-testid='balance-ETH']", |t| t.starts_with("9.49"))
        .await?;
    sees_the_demo_balances_but_ether(app).await
}

/// The demo tokens, unchanged by an ether send.
async fn sees_the_demo_balances_but_ether(app: &App) -> anyhow::Result<()> {
    app.text_when("[data-testid='balance-DEMO']", |t| t == "1,250.5")
        .await?;
    app.text_when("[data-testid='balance-DUSD']", |t| t == "420.25")
        .await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_signs_up_registers_sees_their_wallet_and_stays_logged_in() -> anyhow::Result<()> {
    let _alone = ONE_APP_AT_A_TIME.lock().await;
    let data = tempfile::tempdir()?;
    let stack = LocalStack::start(StackOptions::on_free_ports(data.path().join("stack"))).await?;
    let Some(desktop) = Desktop::start(&app_env(&stack)).await? else {
        return Ok(());
    };
    let shots = screenshots(env!("CARGO_TARGET_TMPDIR"), "ui");

    // Sign up.
    let app = desktop.open(application(), &shots).await?;
    app.find("#login-email").await?;
    app.shot("01-login").await?;
    // Forgot password: the page asks for the e-mail and says a link is on its
    // way (whether or not the address has an account).
    app.click("#login-forgot").await?;
    app.type_into("#forgot-email", EMAIL).await?;
    app.shot("01b-forgot-password").await?;
    app.click("#forgot-submit").await?;
    app.text_when("#forgot-sent", |t| t.contains(EMAIL)).await?;
    app.shot("01c-forgot-password-sent").await?;
    app.click("#forgot-back").await?;
    app.find("#login-email").await?;
    // An application asks for loginWithUI while no one is logged in: it waits
    // while the person signs up and logs in on the login page.
    app.script(
        "window.__loginResult = null;
         window.__TAURI_INTERNALS__.invoke('plugin:satchel|loginWithUI', {}).then(
           u => { window.__loginResult = { ok: u }; },
           e => { window.__loginResult = { err: e }; });
         return true",
    )
    .await?;
    app.click("#login-create").await?;
    app.type_into("#signup-email", EMAIL).await?;
    app.type_into("#signup-password", PASSWORD).await?;
    app.type_into("#signup-confirm", PASSWORD).await?;
    app.shot("02-sign-up").await?;
    app.click("#signup-submit").await?;
    app.text_when("#check-body", |t| t.contains(EMAIL)).await?;
    app.shot("03-check-email").await?;

    // Verify through the link in the e-mail, as a person clicks it.
    let link = verification_link(&stack.outbox(), EMAIL).expect("a verification e-mail");
    let (verified, _) = satchel_devstack::open_link(&reqwest::Client::new(), &link).await?;
    assert_eq!(verified, 200, "the link's button verifies the address");

    // Log in: the e-mail is filled in already.
    app.click("#check-verified").await?;
    app.text_when("#login-email", |_| true).await?;
    log_in(&app, None).await?;

    // The application's loginWithUI answers with the person who logged in.
    app.until("loginWithUI resolves with the user", || async {
        let email = app
            .script("return window.__loginResult?.ok?.userInfo?.email ?? ''")
            .await?;
        Ok(email == EMAIL)
    })
    .await?;

    // Register with a PIN.
    app.type_into("#register-pin", PIN).await?;
    app.type_into("#register-pin-again", PIN).await?;
    app.shot("04-register").await?;
    app.click("#register-submit").await?;

    // Right after the wallet is made: the recovery phrase, written down and
    // checked by picking three of its words.
    let words = writes_down_and_checks_the_phrase(&app).await?;
    let phrase = satchel_sdk::vault::Phrase::parse(&words.join(" "))?;
    let address = phrase.address.to_checksum(None);
    let private_key = phrase.signer()?.to_bytes().to_string();

    // The wallet with the demo balances, refreshed on arrival; then the cooldown.
    sees_the_demo_balances(&app).await?;
    let refresh = app
        .text_when("#wallet-refresh", |t| t.starts_with("Refresh in"))
        .await?;
    assert!(
        !app.is_enabled("#wallet-refresh").await?,
        "refresh is off during its cooldown ({refresh})"
    );
    app.text_when("#wallet-updated", |t| t.starts_with("Updated"))
        .await?;
    shows_the_address(&app, &address).await?;
    assert_eq!(
        app.count("#phrase-reminder").await?,
        0,
        "confirmed: no reminder"
    );
    app.shot("05-wallet").await?;

    // Receive: the full address and a QR code a scanner reads as the payment URI.
    app.click("#receive-anvil").await?;
    app.text_when("#receive-address", |t| t == address).await?;
    app.until("the QR code is drawn", || async {
        let drawn = app
            .script(
                "const i = document.querySelector('#receive-qr');
                 return !!i && i.complete && i.naturalWidth > 0",
            )
            .await?;
        Ok(drawn == serde_json::Value::Bool(true))
    })
    .await?;
    app.shot("05b-receive").await?;
    let scanned = reads_qr(&shots.join("05b-receive.png"))?;
    assert_eq!(scanned, format!("ethereum:{address}@31337"));
    app.click(".header .link-button").await?;
    sees_the_demo_balances(&app).await?;

    sends_ether_and_follows_it_to_the_block(&app, &stack, &address).await?;

    // The NFTs, with thumbnails the app made.
    app.click("#nav-nfts").await?;
    app.until("four NFTs are listed", || async {
        Ok(app.count(".tile").await? == 4)
    })
    .await?;
    app.until("every thumbnail is drawn", || async {
        let drawn = app
            .script(
                // Drawn at the size shown: 192 px, 384 on a 2x screen.
                "const size = devicePixelRatio > 1 ? 384 : 192;
                 return [...document.querySelectorAll('.tile img')]
                   .every(i => i.complete && i.naturalWidth === size)
                   && document.querySelectorAll('.tile img').length === 4",
            )
            .await?;
        Ok(drawn == serde_json::Value::Bool(true))
    })
    .await?;
    app.text_when(".grid", |t| t.contains("×3")).await?;
    app.text_when("#nfts-refresh", |t| t.starts_with("Refresh in"))
        .await?;
    app.shot("06-nfts").await?;
    app.click(".tile").await?;
    app.text_when(".detail", |t| t.contains("anvil")).await?;
    app.until("the large picture is drawn", || async {
        let drawn = app
            .script(
                "const i = document.querySelector('.detail .thumb img');
                 return !!i && i.complete && i.naturalWidth === 640",
            )
            .await?;
        Ok(drawn == serde_json::Value::Bool(true))
    })
    .await?;
    app.shot("07-nft-detail").await?;
    app.click(".header .link-button").await?;
    app.find(".grid").await?;

    // Log out, and back in: the key is on this device, so straight to the wallet.
    log_out(&app).await?;
    app.shot("08-logged-out").await?;
    log_in(&app, Some(EMAIL)).await?;
    app.find("[data-testid='balance-ETH']").await?;
    app.quit().await?;

    // A restart finds the session in the keychain: no login.
    let app = desktop.open(application(), &shots).await?;
    sees_the_balances_after_the_send(&app).await?;
    app.shot("09-after-restart").await?;

    // Dark, as chosen in Settings, on every page.
    app.click("#nav-settings").await?;
    app.click("#theme-dark").await?;
    app.click("#nav-wallet").await?;
    sees_the_balances_after_the_send(&app).await?;
    app.shot("11-wallet-dark").await?;

    // Log out again; the next start asks for a login, still in the chosen theme.
    log_out(&app).await?;
    app.quit().await?;
    let app = desktop.open(application(), &shots).await?;
    app.find("#login-email").await?;
    assert_eq!(
        app.script("return document.documentElement.dataset.theme")
            .await?,
        "dark"
    );
    app.shot("12-restart-after-logout").await?;
    app.quit().await?;
    let first_home = desktop.home().to_owned();
    // The phrase and the private key (six PIN digits could turn up in any binary
    // file by chance, so the PIN is left to the redacted Debug unit tests).
    let secrets = [words.join(" "), words.join("\n"), private_key.clone()];
    no_secret_in_files(&first_home, &secrets)?;
    drop(desktop);

    // A new device: an empty keychain. Logging in finds the wallet but not its
    // key; the recovery phrase brings the same wallet back under a new PIN.
    let Some(desktop) = Desktop::start(&app_env(&stack)).await? else {
        return Ok(());
    };
    let app = desktop.open(application(), &shots).await?;
    log_in(&app, Some(EMAIL)).await?;
    app.find("#restore-phrase").await?;
    app.shot("13-restore").await?;
    app.type_into("#restore-phrase", &words.join(" ")).await?;
    app.type_into("#restore-pin", "135790").await?;
    app.type_into("#restore-pin-again", "135790").await?;
    app.shot("14-restore-filled").await?;
    app.click("#restore-submit").await?;
    sees_the_balances_after_the_send(&app).await?;
    shows_the_address(&app, &address).await?;
    app.shot("15-restored").await?;
    app.quit().await?;
    no_secret_in_files(desktop.home(), &secrets)?;
    no_secret_in_files(&data.path().join("stack"), &secrets)?;

    drop(desktop);
    stack.stop().await
}

/// Anvil's second development account: a recipient outside the wallet.
const RECIPIENT: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

async fn anvil(stack: &LocalStack, method: &str, params: serde_json::Value) -> anyhow::Result<()> {
    anvil_answer(stack, method, params).await.map(drop)
}

/// What anvil answers `method` with.
async fn anvil_answer(
    stack: &LocalStack,
    method: &str,
    params: serde_json::Value,
) -> anyhow::Result<serde_json::Value> {
    let answer: serde_json::Value = reqwest::Client::new()
        .post(stack.anvil.url.clone())
        .json(&serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}))
        .send()
        .await?
        .json()
        .await?;
    anyhow::ensure!(answer.get("error").is_none(), "{method}: {answer}");
    Ok(answer["result"].clone())
}

/// A hex quantity of an answer, as a number.
fn quantity(value: &serde_json::Value) -> anyhow::Result<alloy::primitives::U256> {
    let text = value.as_str().unwrap_or_default();
    Ok(alloy::primitives::U256::from_str_radix(
        text.trim_start_matches("0x"),
        16,
    )?)
}

/// An address's ether on the chain, in wei.
async fn chain_balance(
    stack: &LocalStack,
    address: &str,
) -> anyhow::Result<alloy::primitives::U256> {
    quantity(
        &anvil_answer(
            stack,
            "eth_getBalance",
            serde_json::json!([address, "latest"]),
        )
        .await?,
    )
}

/// Send from the wallet page: the form with its fee and total, the review with
/// the PIN, the transaction pending (the chain holds it) and then mined in the
/// activity, and the new balance. Then an application's `send`, pre-filled and
/// closed by the person: it answers UserCancelled.
async fn sends_ether_and_follows_it_to_the_block(
    app: &App,
    stack: &LocalStack,
    address: &str,
) -> anyhow::Result<()> {
    app.click("#send-anvil").await?;
    app.type_into("[data-testid='send-to']", RECIPIENT).await?;
    app.type_into("[data-testid='send-amount']", "0.5").await?;
    app.text_when("[data-testid='send-fee']", |t| t.contains("ETH"))
        .await?;
    app.text_when("[data-testid='send-total']", |t| t.contains("0.5"))
        .await?;
    app.shot("05c-send").await?;
    app.click("[data-testid='send-review']").await?;
    app.text_when("[data-testid='send-confirm-summary']", |t| {
        t.contains("0.5") && t.contains("ETH")
    })
    .await?;
    app.type_into("#send-pin", PIN).await?;
    app.shot("05d-confirm").await?;
    let (sender_before, recipient_before) = (
        chain_balance(stack, address).await?,
        chain_balance(stack, RECIPIENT).await?,
    );
    // The chain holds the next block, so the pending state can be seen.
    anvil(stack, "evm_setAutomine", serde_json::json!([false])).await?;
    app.click("#send-pin-submit").await?;
    app.until("the send is pending", || async {
        let status = app
            .script("return document.querySelector(\"[data-testid='send-status']\")?.dataset.status ?? ''")
            .await?;
        Ok(status == "pending")
    })
    .await?;
    let hash = app
        .text_when("[data-testid='send-hash']", |t| t.starts_with("0x"))
        .await?;
    app.shot("05e-pending").await?;
    anvil(stack, "evm_mine", serde_json::json!([])).await?;
    anvil(stack, "evm_setAutomine", serde_json::json!([true])).await?;
    app.until("the send is mined", || async {
        let status = app
            .script("return document.querySelector(\"[data-testid='send-status']\")?.dataset.status ?? ''")
            .await?;
        Ok(status == "mined")
    })
    .await?;
    app.click("[data-testid='send-view-activity']").await?;
    app.until("the activity shows it mined", || async {
        let found = app
            .script(&format!(
                "const r = document.querySelector(\"[data-testid='activity-row'][data-hash='{}']\");
                 return !!r && r.dataset.status === 'mined'",
                hash.replace(char::is_whitespace, "")
            ))
            .await?;
        Ok(found == serde_json::Value::Bool(true))
    })
    .await?;
    // Exactly 0.5 ETH left the wallet with the fee the receipt names, exactly
    // 0.5 ETH arrived, and the wallet page shows the chain's balance to the wei
    // (its full value; refreshed by the service when it saw the block).
    let hash = hash.replace(char::is_whitespace, "");
    let receipt = anvil_answer(
        stack,
        "eth_getTransactionReceipt",
        serde_json::json!([hash]),
    )
    .await?;
    let fee = quantity(&receipt["gasUsed"])? * quantity(&receipt["effectiveGasPrice"])?;
    let half: alloy::primitives::U256 = alloy::primitives::utils::parse_units("0.5", 18)?.into();
    let sender_after = chain_balance(stack, address).await?;
    assert_eq!(
        sender_after,
        sender_before - half - fee,
        "the sender paid 0.5 ETH and the fee"
    );
    assert_eq!(
        chain_balance(stack, RECIPIENT).await?,
        recipient_before + half,
        "the recipient got 0.5 ETH"
    );
    let shown = satchel_chain::units::format_units(sender_after, 18);
    app.until(
        "the wallet shows the chain's balance to the wei",
        || async {
            let title = app
                .script(
                    "return document.querySelector(\"[data-testid='balance-ETH']\")?.title ?? ''",
                )
                .await?;
            Ok(title == serde_json::Value::String(shown.clone()))
        },
    )
    .await?;
    app.shot("05f-activity").await?;

    // An application calls send(account, txData): the form opens filled in,
    // here with an ENS name, which the form shows resolved (the local stack's
    // registry names alice.eth).
    app.script(&format!(
        "window.__sendResult = null;
         window.__TAURI_INTERNALS__.invoke('plugin:satchel|send', {{
           account: {{ network: 'anvil', address: '{address}' }},
           txData: {{ to: 'alice.eth', amount: '0.25' }},
         }}).then(r => {{ window.__sendResult = {{ ok: r }}; }},
                  e => {{ window.__sendResult = {{ err: e }}; }});
         return true"
    ))
    .await?;
    app.until("the form opens with the application's values", || async {
        let filled = app
            .script(
                "const a = document.querySelector(\"[data-testid='send-amount']\");
                 const t = document.querySelector(\"[data-testid='send-to']\");
                 return !!a && a.value === '0.25' && !!t && t.value === 'alice.eth'",
            )
            .await?;
        Ok(filled == serde_json::Value::Bool(true))
    })
    .await?;
    let alice = stack.demo.ens.alice.to_checksum(None);
    app.text_when("[data-testid='send-to-name']", |t| {
        t.starts_with("alice.eth is this address:")
            && t.replace(char::is_whitespace, "").ends_with(&alice)
    })
    .await?;
    // The quote's figures push the buttons down when they arrive: wait for them,
    // as a person reads them before choosing, so Cancel is where it is clicked.
    app.until("the quote is shown", || {
        app.is_enabled("[data-testid='send-review']")
    })
    .await?;
    app.shot("05g-send-from-app").await?;
    app.click("[data-testid='send-cancel']").await?;
    app.until("the application hears UserCancelled", || async {
        let code = app
            .script("return window.__sendResult?.err?.code ?? ''")
            .await?;
        Ok(code == "UserCancelled")
    })
    .await?;
    sees_the_balances_after_the_send(app).await
}

/// The phrase flow after register: shows the twelve words, answers the three
/// questions with them, and returns them.
async fn writes_down_and_checks_the_phrase(app: &App) -> anyhow::Result<Vec<String>> {
    app.find("#phrase-show").await?;
    app.shot("04a-phrase-intro").await?;
    app.click("#phrase-show").await?;
    let mut words = Vec::new();
    for i in 1..=12 {
        words.push(
            app.text_when(&format!("#phrase-word-{i}"), |t| !t.is_empty())
                .await?,
        );
    }
    let probe = app.script("return JSON.stringify({h: document.documentElement.scrollHeight, bh: document.body.scrollHeight, ih: innerHeight, iw: innerWidth, fixed: [...document.querySelectorAll('*')].filter(e => ['fixed','sticky'].includes(getComputedStyle(e).position)).map(e => e.className), anim: [...document.querySelectorAll('*')].filter(e => getComputedStyle(e).animationName !== 'none').map(e => e.className)})").await?;
    eprintln!("probe: {probe}");
    app.shot("04b-recovery-phrase").await?;
    app.click("#phrase-continue").await?;
    let mut asked = String::new();
    for _ in 0..3 {
        let previous = asked.clone();
        asked = app
            .text_when("#phrase-heading", |t| {
                t != previous && t.chars().any(|c| c.is_ascii_digit())
            })
            .await?;
        let n: usize = asked
            .chars()
            .filter(char::is_ascii_digit)
            .collect::<String>()
            .parse()?;
        let word = &words[n - 1];
        let picked = app
            .script(&format!(
                "const b = [...document.querySelectorAll('.choices button')]
                   .find(b => b.textContent.trim() === '{word}');
                 if (b) b.click();
                 return !!b"
            ))
            .await?;
        assert_eq!(picked, serde_json::Value::Bool(true), "word {n} is offered");
    }
    app.find("#phrase-confirmed").await?;
    app.shot("04c-phrase-confirmed").await?;
    app.click("#phrase-done").await?;
    Ok(words)
}

/// The text of the one QR code in a screenshot, as a scanner reads it.
fn reads_qr(png: &Path) -> anyhow::Result<String> {
    let picture = image::open(png)?.to_luma8();
    let mut prepared = rqrr::PreparedImage::prepare(picture);
    let grids = prepared.detect_grids();
    anyhow::ensure!(
        grids.len() == 1,
        "{} QR codes in {}",
        grids.len(),
        png.display()
    );
    Ok(grids[0].decode()?.1)
}

/// The wallet page names the account by its address, shortened as `0x1234…abcd`.
async fn shows_the_address(app: &App, address: &str) -> anyhow::Result<()> {
    let short = format!("{}…{}", &address[..6], &address[address.len() - 4..]);
    app.text_when(".network .address", |t| t == short).await?;
    Ok(())
}

/// No file under `dir` (the app's folders and web storage, the stack's database
/// and outbox) holds a secret: only the keychain does.
fn no_secret_in_files(dir: &Path, secrets: &[String]) -> anyhow::Result<()> {
    let mut folders = vec![dir.to_owned()];
    let mut searched = 0;
    while let Some(folder) = folders.pop() {
        let entries: Vec<PathBuf> = std::fs::read_dir(&folder)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        for path in entries {
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let bytes = std::fs::read(&path)?;
            searched += 1;
            for secret in secrets {
                let found = bytes.windows(secret.len()).any(|w| w == secret.as_bytes());
                assert!(!found, "{} holds a secret", path.display());
            }
        }
    }
    assert!(searched > 0, "nothing searched under {}", dir.display());
    Ok(())
}
