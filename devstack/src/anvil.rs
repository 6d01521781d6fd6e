//! An anvil dev chain in a child process, stopped when dropped.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use anyhow::Context as _;
use tokio::process::{Child, Command};
use url::Url;

/// The chain id anvil runs with.
pub const CHAIN_ID: u64 = 31337;

pub struct Anvil {
    child: Child,
    pub port: u16,
    pub url: Url,
}

/// Where anvil is: `SATCHEL_ANVIL`, else the binary the npm package
/// `@foundry-rs/anvil` installed under `devstack/node_modules`, else `anvil`.
pub fn anvil_binary() -> PathBuf {
    if let Some(path) = std::env::var_os("SATCHEL_ANVIL") {
        return path.into();
    }
    let arch = match std::env::consts::ARCH {
        "aarch64" => "arm64",
        _ => "amd64",
    };
    let os = match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        other => other,
    };
    let packaged = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("node_modules/@foundry-rs")
        .join(format!("anvil-{os}-{arch}"))
        .join("bin/anvil");
    if packaged.exists() {
        packaged
    } else {
        PathBuf::from("anvil")
    }
}

impl Anvil {
    /// Starts anvil on a free loopback port and waits until it answers.
    pub async fn spawn() -> anyhow::Result<Self> {
        Self::spawn_on(crate::free_port()?).await
    }

    /// Starts anvil on `port` and waits until it answers.
    pub async fn spawn_on(port: u16) -> anyhow::Result<Self> {
        let binary = anvil_binary();
        let child = Command::new(&binary)
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args(["--chain-id", &CHAIN_ID.to_string(), "--silent"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("cannot start {} (run scripts/setup.sh)", binary.display()))?;
        let url: Url = format!("http://127.0.0.1:{port}").parse()?;
        let mut anvil = Self { child, port, url };
        anvil.wait_ready().await?;
        Ok(anvil)
    }

    async fn wait_ready(&mut self) -> anyhow::Result<()> {
        let http = reqwest::Client::new();
        let body =
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": []});
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait()? {
                anyhow::bail!(
                    "anvil exited before it was ready ({status}); is port {} taken?",
                    self.port
                );
            }
            let ready = http.post(self.url.clone()).json(&body).send().await;
            if ready.is_ok_and(|r| r.status().is_success()) {
                return Ok(());
            }
            anyhow::ensure!(
                tokio::time::Instant::now() < deadline,
                "anvil did not answer within 30 s"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Stops the chain now, as a node that goes down would.
    pub async fn stop(&mut self) -> anyhow::Result<()> {
        self.child.kill().await?;
        Ok(())
    }
}
