//! A real OpenID provider on loopback: `devstack/oidc/provider.mjs` (the npm
//! package `oidc-provider`) in a child process, stopped when dropped. One
//! provider serves two confidential clients: one stands in for Google (OpenID
//! Connect, the id_token is read) and one for Discord (OAuth 2, userinfo is called
//! with the access token). Its login page takes any password; the accounts are
//! `demo` (demo@satchel.dev), `ada` (ada@satchel.dev), `noemail` and any other
//! name (a subject without an e-mail).

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context as _;
use rand::RngCore as _;
use serde::Deserialize;
use tokio::io::{AsyncBufReadExt as _, BufReader};
use tokio::process::{Child, Command};
use url::Url;

use crate::startup::{Startup, wait_until_ready};

/// How long one start of the provider may take to listen: a bound on a hang, not
/// a wait (it answers as soon as it prints its address, 0.4-0.9 s here). Node
/// loading oidc-provider on two cores busy with the desktop tests once took over
/// 30 s, and once a start printed nothing for 90 s while another started at once;
/// a start that hangs is stopped and the provider started again.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// How many times the provider is started before giving up.
const START_ATTEMPTS: u32 = 3;

/// A client registered at the provider (`client_secret_basic`, authorization
/// code with PKCE S256, redirect `http://127.0.0.1:<any port>/callback`).
#[derive(Debug, Clone)]
pub struct OAuthClient {
    pub client_id: String,
    pub client_secret: String,
}

/// The provider's endpoints, as its discovery document gives them.
#[derive(Debug, Clone, Deserialize)]
pub struct ProviderEndpoints {
    pub issuer: String,
    #[serde(rename = "authorization_endpoint")]
    pub authorize_url: Url,
    #[serde(rename = "token_endpoint")]
    pub token_url: Url,
    #[serde(rename = "userinfo_endpoint")]
    pub userinfo_url: Url,
    #[serde(rename = "jwks_uri")]
    pub jwks_url: Url,
}

/// The running provider.
pub struct OidcProvider {
    /// `http://127.0.0.1:<port>` (the `iss` of its id tokens is this without the
    /// trailing slash: see [`ProviderEndpoints::issuer`]).
    pub issuer: Url,
    /// The client standing in for Google (OpenID Connect).
    pub google: OAuthClient,
    /// The client standing in for Discord (OAuth 2 with userinfo).
    pub discord: OAuthClient,
    child: Child,
}

/// Where the provider's script is.
pub fn provider_script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("oidc/provider.mjs")
}

fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::thread_rng().fill_bytes(&mut buf);
    hex::encode(buf)
}

fn client(name: &str) -> OAuthClient {
    OAuthClient {
        client_id: format!("satchel-{name}-{}", random_hex(4)),
        client_secret: random_hex(24),
    }
}

impl OidcProvider {
    /// Starts the provider on a free loopback port with two new clients (random
    /// secrets) and waits until it listens. Needs `node` and the npm packages of
    /// `devstack/` (`scripts/setup.sh`, or `npm --prefix devstack install`).
    pub async fn start() -> anyhow::Result<Self> {
        let devstack = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        anyhow::ensure!(
            devstack
                .join("node_modules/oidc-provider/package.json")
                .is_file(),
            "the npm package oidc-provider is not installed in {}: run scripts/setup.sh (or `npm --prefix devstack install`)",
            devstack.display()
        );
        let google = client("google");
        let discord = client("discord");
        let mut attempt = 1;
        loop {
            match Self::start_once(&devstack, &google, &discord).await {
                Ok(Some((issuer, child))) => {
                    return Ok(Self {
                        issuer,
                        google,
                        discord,
                        child,
                    });
                }
                Ok(None) if attempt < START_ATTEMPTS => {
                    eprintln!(
                        "oidc-provider: did not listen within {START_TIMEOUT:?} (start {attempt} of {START_ATTEMPTS}); starting it again"
                    );
                    attempt += 1;
                }
                Ok(None) => anyhow::bail!(
                    "the OpenID provider did not listen within {START_TIMEOUT:?}, {START_ATTEMPTS} times"
                ),
                Err(error) => return Err(error),
            }
        }
    }

    /// One start: the issuer and the listening child, or `None` when it did not
    /// listen in time (it is stopped); an error when it exited by itself (a
    /// broken set-up: not retried).
    async fn start_once(
        devstack: &std::path::Path,
        google: &OAuthClient,
        discord: &OAuthClient,
    ) -> anyhow::Result<Option<(Url, Child)>> {
        let mut child = Command::new("node")
            .arg(provider_script())
            .current_dir(devstack)
            .env("PORT", "0")
            .env("GOOGLE_CLIENT_ID", &google.client_id)
            .env("GOOGLE_CLIENT_SECRET", &google.client_secret)
            .env("DISCORD_CLIENT_ID", &discord.client_id)
            .env("DISCORD_CLIENT_SECRET", &discord.client_secret)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .context("cannot start `node` for the OpenID provider (is Node.js installed?)")?;

        // Its error output goes to ours; the first lines are kept for the error
        // below if it stops before listening.
        let early_errors = Arc::new(Mutex::new(Vec::<String>::new()));
        let stderr = child.stderr.take().context("the provider's error output")?;
        let forward = tokio::spawn({
            let early_errors = early_errors.clone();
            async move {
                let mut lines = BufReader::new(stderr).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    eprintln!("oidc-provider: {line}");
                    let mut kept = early_errors.lock().unwrap_or_else(|e| e.into_inner());
                    if kept.len() < 20 {
                        kept.push(line);
                    }
                }
            }
        });

        let stdout = child.stdout.take().context("the provider's output")?;
        let startup = wait_until_ready(stdout, START_TIMEOUT, |line| {
            Ok(line
                .strip_prefix("listening ")
                .map(|url| url.trim().to_owned()))
        })
        .await?;
        let issuer = match startup {
            Startup::Ready(issuer) => issuer,
            Startup::TimedOut => {
                // Dropping the child stops it (`kill_on_drop`).
                let _ = child.kill().await;
                return Ok(None);
            }
            Startup::Ended(_) => {
                let status = child.wait().await?;
                // Its error output ends with it.
                let _ = tokio::time::timeout(Duration::from_secs(5), forward).await;
                let errors = early_errors
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .join("\n");
                anyhow::bail!("the OpenID provider exited before it listened ({status}): {errors}");
            }
        };
        let issuer = issuer.parse().context("the provider's issuer")?;
        Ok(Some((issuer, child)))
    }

    /// The endpoints from `/.well-known/openid-configuration`.
    pub async fn endpoints(&self) -> anyhow::Result<ProviderEndpoints> {
        let url = self.issuer.join("/.well-known/openid-configuration")?;
        let endpoints = reqwest::get(url)
            .await?
            .error_for_status()?
            .json::<ProviderEndpoints>()
            .await
            .context("the provider's discovery document")?;
        Ok(endpoints)
    }

    /// Stops the provider now.
    pub async fn stop(&mut self) -> anyhow::Result<()> {
        self.child.kill().await?;
        Ok(())
    }
}
