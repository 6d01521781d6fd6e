//! Satchel embedded in a program that is not a Tauri app: `examples/node-host`
//! (Pixel Quest's command line, `@satchel/widget` over the endpoint transport)
//! uses the installed Satchel app through its local endpoint. Satchel asks the
//! person once; the program's app gets its own window, its own user and wallet
//! and its own keychain entries (read back from the Secret Service), and its
//! logout leaves Satchel's own person logged in.

use std::path::Path;
use std::process::Stdio;

use satchel_devstack::{LocalStack, StackOptions};
use satchel_sdk::{KeyringStore, TokenStore as _};
use satchel_tests::desktop::{Desktop, screenshots};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, BufReader};

use super::connect::{PIN, call, into_the_wallet};
use super::{ONE_APP_AT_A_TIME, app_env, application, writes_down_and_checks_the_phrase};

/// The Satchel app's identifier: a program's widget keeps its entries under
/// `<identifier>.satchel.<appId>`.
const SATCHEL_IDENTIFIER: &str = "dev.satchel.wallet";
const QUEST_DOMAIN: &str = "dev.example.pixelquest";
const QUEST_EMAIL: &str = "quester@example.com";
const QUEST_PASSWORD: &str = "quest1horse";

/// The example program, as a developer runs it (`node index.mjs`), its steps'
/// JSON lines read as they come.
struct Program {
    child: tokio::process::Child,
    lines: tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
}

impl Program {
    fn start(port: u16, app_id: &str, app_key: &str, args: &[&str]) -> anyhow::Result<Self> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/node-host");
        let mut child = tokio::process::Command::new("node")
            .arg(dir.join("index.mjs"))
            .args(args)
            .current_dir(&dir)
            .env("SATCHEL_ENDPOINT", format!("http://127.0.0.1:{port}"))
            .env("PIXEL_QUEST_APP_ID", app_id)
            .env("PIXEL_QUEST_APP_KEY", app_key)
            .env("PIXEL_QUEST_DOMAIN", QUEST_DOMAIN)
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| anyhow::anyhow!("no output"))?;
        Ok(Self {
            child,
            lines: BufReader::new(stdout).lines(),
        })
    }

    /// The program's next step; an `error` step fails the test with its code.
    async fn step(&mut self, name: &str) -> anyhow::Result<Value> {
        let line =
            tokio::time::timeout(std::time::Duration::from_secs(120), self.lines.next_line())
                .await
                .map_err(|_| anyhow::anyhow!("the program said nothing of {name}"))??
                .ok_or_else(|| anyhow::anyhow!("the program ended before {name}"))?;
        let step: Value = serde_json::from_str(&line)?;
        anyhow::ensure!(
            step["step"] == name,
            "expected {name}, the program said {line}"
        );
        Ok(step)
    }

    async fn ends_well(mut self) -> anyhow::Result<()> {
        let status = self.child.wait().await?;
        anyhow::ensure!(status.success(), "the program ended with {status}");
        Ok(())
    }
}

/// Whether the Secret Service holds the wallet key of `user` of `app` under `service`.
fn holds_wallet_key(service: &str, app: &str, user: &str) -> anyhow::Result<bool> {
    // The entry's name as the SDK writes it (`keychain/wallet_keys.rs`).
    let entry = KeyringStore::new(service).load(&format!("wallet:{app}:{user}"))?;
    Ok(entry.is_some())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_that_is_not_a_tauri_app_uses_the_installed_satchel_for_its_own_app()
-> anyhow::Result<()> {
    let _alone = ONE_APP_AT_A_TIME.lock().await;
    let data = tempfile::tempdir()?;
    let stack = LocalStack::start(StackOptions::on_free_ports(data.path().join("stack"))).await?;
    // Pixel Quest is an app of its own at the service, with a person of its own.
    let (quest_app, quest_key) = stack
        .another_app("Pixel Quest", QUEST_DOMAIN, QUEST_EMAIL, QUEST_PASSWORD)
        .await?;
    let port = satchel_devstack::free_port()?;
    let mut env = app_env(&stack);
    env.push(("SATCHEL_PROVIDER_PORT", port.to_string()));
    let own_keychain = env
        .iter()
        .find(|(name, _)| *name == "SATCHEL_KEYCHAIN_SERVICE")
        .map(|(_, value)| value.clone())
        .ok_or_else(|| anyhow::anyhow!("the app's keychain"))?;
    let Some(desktop) = Desktop::start(&env).await? else {
        return Ok(());
    };
    let shots = screenshots(env!("CARGO_TARGET_TMPDIR"), "program");
    let app = desktop.open(application(), &shots).await?;
    // Satchel's own person is logged in, with a wallet of their own.
    into_the_wallet(&app).await?;

    // A program that has not been allowed gets 4100 for the widget's methods.
    let http = reqwest::Client::new();
    let refused = call(&http, port, "satchel_getAccounts", json!([])).await?;
    assert_eq!(refused["error"]["code"], 4100, "{refused}");

    // A wrong key is refused by the service before anyone is asked, and
    // Satchel's own app id is never a program's.
    let init =
        |app: &str, key: &str| json!([{"appId": app, "appKey": key, "domain": QUEST_DOMAIN}]);
    let wrong = call(&http, port, "satchel_init", init(&quest_app, "sk_wrong")).await?;
    assert_eq!(wrong["error"]["data"]["code"], "InvalidAppKey", "{wrong}");
    let own = call(
        &http,
        port,
        "satchel_init",
        init(&stack.app_id, &stack.app_key),
    )
    .await?;
    assert_eq!(own["error"]["data"]["code"], "InvalidAppKey", "{own}");
    assert!(
        app.text_now("[data-testid='connect-request']")
            .await
            .is_none()
    );

    // Its first init: Satchel's window asks the person, naming the app.
    let mut program = Program::start(port, &quest_app, &quest_key, &[])?;
    app.text_when("[data-testid='embed-app']", |t| t == quest_app)
        .await?;
    app.text_when("[data-testid='embed-name']", |t| t == "Pixel Quest")
        .await?;
    app.text_when("[data-testid='connect-origin']", |t| {
        t == "A program on this computer"
    })
    .await?;
    app.text_when("[data-testid='embed-domain']", |t| t == QUEST_DOMAIN)
        .await?;
    app.shot("01-a-program-asks").await?;
    app.click("[data-testid='embed-allow']").await?;
    assert_eq!(program.step("init").await?["status"], "before_login");

    // loginWithUI opens Pixel Quest's own window, where its person logs in and
    // chooses a PIN; Satchel's own window stays Satchel's.
    app.switch_to_window_showing("#login-email").await?;
    assert_eq!(app.window_count().await?, 2, "a window of its own");
    app.type_into("#login-email", QUEST_EMAIL).await?;
    app.type_into("#login-password", QUEST_PASSWORD).await?;
    app.shot("02-its-own-login").await?;
    app.click("#login-submit").await?;
    app.type_into("#register-pin", PIN).await?;
    app.type_into("#register-pin-again", PIN).await?;
    app.click("#register-submit").await?;
    let words = writes_down_and_checks_the_phrase(&app).await?;
    let address = satchel_sdk::vault::Phrase::parse(&words.join(" "))?
        .address
        .to_checksum(None);
    app.shot("03-its-own-wallet").await?;

    let login = program.step("login").await?;
    assert_eq!(login["email"], QUEST_EMAIL);
    assert_eq!(login["status"], "login");
    let quest_user = login["userId"].as_str().unwrap_or_default().to_owned();
    let wallet = program.step("wallet").await?;
    let accounts = wallet["accounts"].as_array().cloned().unwrap_or_default();
    // Its coin account and the network table's two tokens, all of one address.
    assert_eq!(accounts.len(), 3, "{wallet}");
    assert!(
        accounts[0]["address"]
            .as_str()
            .is_some_and(|a| a.eq_ignore_ascii_case(&address)),
        "the phrase's own address: {wallet}"
    );
    assert_eq!(wallet["balances"][0]["balance"], "10", "{wallet}");

    // Each app's keys under its own keychain service, never the other's.
    let quest_keychain = format!("{SATCHEL_IDENTIFIER}.satchel.{}", quest_app);
    assert!(holds_wallet_key(&quest_keychain, &quest_app, &quest_user)?);
    assert!(!holds_wallet_key(&own_keychain, &quest_app, &quest_user)?);
    assert!(holds_wallet_key(
        &own_keychain,
        &stack.app_id,
        &stack.demo_user_id
    )?);
    assert!(!holds_wallet_key(
        &quest_keychain,
        &stack.app_id,
        &stack.demo_user_id
    )?);

    program.ends_well().await?;

    // Run again, it is not asked again: its person is still logged in. It logs
    // out and finalizes; Satchel's own person is still in.
    let mut again = Program::start(port, &quest_app, &quest_key, &["--logout"])?;
    assert_eq!(again.step("init").await?["status"], "login");
    assert_eq!(again.step("login").await?["userId"], quest_user.as_str());
    again.step("wallet").await?;
    assert_eq!(again.step("logout").await?["status"], "before_login");
    again.ends_well().await?;
    assert_eq!(
        app.window_count().await?,
        1,
        "its window went with finalize"
    );
    app.switch_to_window_showing("[data-testid='balance-ETH']")
        .await?;
    app.text_when("[data-testid='balance-ETH']", |t| t == "10")
        .await?;
    let finalized = call(&http, port, "satchel_getStatus", json!([])).await?;
    assert_eq!(finalized["error"]["code"], 4100, "{finalized}");
    app.quit().await
}
