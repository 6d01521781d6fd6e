//! The demo "Google" and "Discord" in the running app: the login page's provider
//! buttons, the page that waits for the browser, its Cancel, and a login through
//! the local stack's OpenID provider in a headless Chromium standing in for the
//! person's browser. The app opens "the system browser" through `SATCHEL_BROWSER`,
//! here a script that writes the URL down for the test to hand to Chromium.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::{ONE_APP_AT_A_TIME, app_env, application};
use satchel_devstack::{Browser, LocalStack, StackOptions};
use satchel_tests::desktop::{App, Desktop, PATIENCE, screenshots};

/// The OpenID provider's account the test logs in as: a person the stack has no
/// user for yet (`demo` is the stack's demo person), with an e-mail address.
const LOGIN: &str = "ada";
const LOGIN_EMAIL: &str = "ada@satchel.dev";

/// Whether chromium, chromedriver and node are here; without them the test fails
/// unless `SATCHEL_SKIP_BROWSER=1`.
pub(crate) fn browser_tools_present() -> bool {
    match satchel_devstack::browser::missing_tools() {
        None => true,
        Some(why) => {
            satchel_devstack::missing_dependency("BROWSER", &why);
            false
        }
    }
}

/// A stand-in for the system browser: a script that appends the URL it is run
/// with to `urls`.
fn url_recorder(dir: &Path, urls: &Path) -> anyhow::Result<PathBuf> {
    use std::os::unix::fs::PermissionsExt as _;
    let script = dir.join("open-url");
    let quoted = urls.display().to_string().replace('\'', r"'\''");
    std::fs::write(
        &script,
        format!("#!/bin/sh\nprintf '%s\\n' \"$1\" >> '{quoted}'\n"),
    )?;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))?;
    Ok(script)
}

/// The `n`th URL (from 1) the app opened in "the browser", once it is there.
async fn opened_url(urls: &Path, n: usize) -> anyhow::Result<String> {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let text = std::fs::read_to_string(urls).unwrap_or_default();
        // A line is complete once its newline is written.
        if let Some(line) = text.split_inclusive('\n').nth(n - 1)
            && line.ends_with('\n')
        {
            return Ok(line.trim_end().to_owned());
        }
        anyhow::ensure!(
            tokio::time::Instant::now() < deadline,
            "the app did not open URL {n} in the browser within {PATIENCE:?} ({} so far)",
            text.lines().count()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The value of the query parameter `name` of `url`.
fn query_param(url: &str, name: &str) -> Option<String> {
    url::Url::parse(url)
        .ok()?
        .query_pairs()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
}

/// The login page with its provider buttons and no note or error under them.
async fn on_the_login_page_without_a_note(app: &App) -> anyhow::Result<()> {
    app.find("[data-testid='login-provider-google']").await?;
    app.find("[data-testid='login-provider-discord']").await?;
    app.find("#login-email").await?;
    assert_eq!(app.count("[data-testid='login-oauth-error']").await?, 0);
    assert_eq!(app.count("[data-testid='login-oauth-notice']").await?, 0);
    assert_eq!(app.count(".error").await?, 0, "no error banner");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_logs_in_with_the_demo_google_in_their_browser() -> anyhow::Result<()> {
    if !browser_tools_present() {
        return Ok(());
    }
    let _alone = ONE_APP_AT_A_TIME.lock().await;
    let data = tempfile::tempdir()?;
    let stack = LocalStack::start(StackOptions::on_free_ports(data.path().join("stack"))).await?;
    let oidc = stack.oidc.as_ref().expect("the stack's OpenID provider");
    let urls = data.path().join("opened-urls");
    let mut env = app_env(&stack);
    env.push((
        "SATCHEL_BROWSER",
        url_recorder(data.path(), &urls)?.display().to_string(),
    ));
    // The person's browser starts beside the app.
    let (desktop, browser) = tokio::join!(Desktop::start(&env), Browser::start());
    let Some(desktop) = desktop? else {
        return Ok(());
    };
    let browser = browser?;
    let shots = screenshots(env!("CARGO_TARGET_TMPDIR"), "ui");
    let app = desktop.open(application(), &shots).await?;

    // The demo app's providers, above the e-mail form.
    on_the_login_page_without_a_note(&app).await?;
    app.shot("20-login-providers").await?;

    // Discord, cancelled while the app waits for the browser: the login page
    // again, quietly.
    app.click("[data-testid='login-provider-discord']").await?;
    app.find("[data-testid='oauth-wait']").await?;
    let discord = opened_url(&urls, 1).await?;
    assert!(discord.starts_with(oidc.issuer.as_str()), "{discord}");
    assert_eq!(
        query_param(&discord, "client_id"),
        Some(oidc.discord.client_id.clone())
    );
    app.click("[data-testid='oauth-cancel']").await?;
    on_the_login_page_without_a_note(&app).await?;

    // Google: the page waits while the person logs in in their browser.
    app.click("[data-testid='login-provider-google']").await?;
    app.text_when("[data-testid='oauth-wait']", |t| t.contains("Google"))
        .await?;
    app.shot("21-oauth-wait").await?;
    let google = opened_url(&urls, 2).await?;
    assert_eq!(
        query_param(&google, "client_id"),
        Some(oidc.google.client_id.clone())
    );
    let redirect = query_param(&google, "redirect_uri").unwrap_or_default();
    assert!(
        redirect.starts_with("http://127.0.0.1:") && redirect.ends_with("/callback"),
        "a loopback redirect: {redirect}"
    );
    let callback = browser.log_in_at_provider(&google, LOGIN).await?;
    assert!(
        query_param(callback.as_str(), "code").is_some(),
        "the provider answered a code"
    );

    // A new person: the app goes on to make their wallet.
    app.find("#register-pin").await?;
    app.script(
        "window.__user = null;
         window.__TAURI_INTERNALS__.invoke('plugin:satchel|getCurrentServiceUser').then(u => { window.__user = u; });
         return true",
    )
    .await?;
    app.until("the app's user is the Google login", || async {
        let user = app.script("return window.__user").await?;
        Ok(user["userInfo"]["email"] == LOGIN_EMAIL && user["userInfo"]["provider"] == "google")
    })
    .await?;
    app.shot("22-oauth-register").await?;

    browser.close().await;
    app.quit().await?;
    drop(desktop);
    stack.stop().await
}

/// A provider's access token as an application's backend gets one: the
/// authorization-code flow (PKCE) for the local provider's Discord client, the
/// browser logging in as `login`, the code exchanged at the token endpoint.
async fn discord_access_token(
    stack: &LocalStack,
    browser: &Browser,
    login: &str,
) -> anyhow::Result<String> {
    use base64::Engine as _;
    use sha2::Digest as _;

    let oidc = stack.oidc.as_ref().expect("the stack's OpenID provider");
    let endpoints = oidc.endpoints().await?;
    // Where the provider sends the browser back: any answer will do.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let redirect = format!("http://{}/callback", listener.local_addr()?);
    let callback = tokio::spawn(async move {
        use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
        while let Ok((mut stream, _)) = listener.accept().await {
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request).await;
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok")
                .await;
        }
    });
    let verifier = uuid::Uuid::new_v4().simple().to_string().repeat(2);
    let challenge = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(sha2::Sha256::digest(verifier.as_bytes()));
    let mut authorize = endpoints.authorize_url.clone();
    authorize
        .query_pairs_mut()
        .append_pair("response_type", "code")
        .append_pair("client_id", &oidc.discord.client_id)
        .append_pair("redirect_uri", &redirect)
        .append_pair("scope", "openid email")
        .append_pair("state", "backend-state")
        .append_pair("code_challenge", &challenge)
        .append_pair("code_challenge_method", "S256");
    let back = browser
        .log_in_at_provider(authorize.as_str(), login)
        .await?;
    callback.abort();
    let code = back
        .query_pairs()
        .find(|(k, _)| k == "code")
        .map(|(_, v)| v.into_owned())
        .ok_or_else(|| anyhow::anyhow!("no code in {back}"))?;
    let token: serde_json::Value = reqwest::Client::new()
        .post(endpoints.token_url.clone())
        .basic_auth(&oidc.discord.client_id, Some(&oidc.discord.client_secret))
        .form(&[
            ("grant_type", "authorization_code"),
            ("code", code.as_str()),
            ("redirect_uri", redirect.as_str()),
            ("code_verifier", verifier.as_str()),
        ])
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    token["access_token"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| anyhow::anyhow!("no access token in {token}"))
}

/// The login library's external-token methods as an application calls them:
/// through the app's own commands, from its page. A token of the app's backend
/// (`loginWithIdToken`) and a Discord access token (`loginWithAccessToken`),
/// each with the backend's `sign`, log in, and the widget moves on to making
/// the wallet; a sign by another key is refused with the spec's error and
/// changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_application_logs_in_with_its_backends_tokens_through_the_app() -> anyhow::Result<()> {
    if !browser_tools_present() {
        return Ok(());
    }
    let _alone = ONE_APP_AT_A_TIME.lock().await;
    let data = tempfile::tempdir()?;
    let stack = LocalStack::start(StackOptions::on_free_ports(data.path().join("stack"))).await?;
    let backend = stack
        .example_backend
        .as_ref()
        .expect("the stack's example backend");
    let env = app_env(&stack);
    let (desktop, browser) = tokio::join!(Desktop::start(&env), Browser::start());
    let Some(desktop) = desktop? else {
        return Ok(());
    };
    let browser = browser?;
    let shots = screenshots(env!("CARGO_TARGET_TMPDIR"), "ui");
    let app = desktop.open(application(), &shots).await?;
    app.find("#login-email").await?;

    // A sign made with another key: refused, and still no one logged in.
    let (token, _) = backend.login_token("app-user-7", Some("app-user-7@example.com"));
    let forged = satchel_api::login_sign::sign_for_login(&"22".repeat(32), &token)?;
    let refused = app
        .invoke(
            "loginWithIdToken",
            serde_json::json!({"token": token, "sign": forged}),
        )
        .await?
        .expect_err("another key's sign");
    assert!(refused["code"].is_string(), "{refused}");
    assert_eq!(
        app.invoke("getCurrentServiceUser", serde_json::json!({}))
            .await?,
        Ok(serde_json::Value::Null)
    );

    // The backend's id token and sign: logged in; the widget asks for a PIN.
    let sign = backend.sign(&token);
    let outcome = app
        .invoke(
            "loginWithIdToken",
            serde_json::json!({"token": token, "sign": sign}),
        )
        .await?
        .map_err(|e| anyhow::anyhow!("loginWithIdToken refused: {e}"))?;
    assert!(outcome.get("user").is_some(), "{outcome}");
    app.find("#register-pin").await?;
    app.shot("25-external-token-register").await?;
    app.invoke("logout", serde_json::json!({}))
        .await?
        .map_err(|e| anyhow::anyhow!("logout refused: {e}"))?;
    app.find("#login-email").await?;

    // A Discord access token the backend got, with its sign.
    let access_token = discord_access_token(&stack, &browser, LOGIN).await?;
    let sign = backend.sign(&access_token);
    let outcome = app
        .invoke(
            "loginWithAccessToken",
            serde_json::json!({"provider": "discord", "token": access_token, "sign": sign}),
        )
        .await?
        .map_err(|e| anyhow::anyhow!("loginWithAccessToken refused: {e}"))?;
    assert!(outcome.get("user").is_some(), "{outcome}");
    let user = app
        .invoke("getCurrentServiceUser", serde_json::json!({}))
        .await?
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    assert_eq!(user["userInfo"]["email"], LOGIN_EMAIL, "{user}");
    app.find("#register-pin").await?;
    browser.close().await;
    Ok(())
}
