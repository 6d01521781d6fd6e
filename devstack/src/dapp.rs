//! The example dapp (`examples/dapp`, built into its `dist/`), served on
//! `localhost` with a `config.json` naming the demo contracts and Satchel's
//! endpoint: a page in a browser that uses the desktop app as its wallet.

use std::path::PathBuf;

use axum::Json;
use axum::Router;
use axum::routing::get;
use serde_json::json;
use tower_http::services::ServeDir;

use crate::demo::Demo;

/// The dapp's port in the local stack (Vite's own, so its URL reads familiar).
pub const DAPP_PORT: u16 = 5173;

/// The built dapp: `examples/dapp/dist`.
pub fn dapp_dist() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/dapp/dist")
}

/// The built wagmi dapp: `examples/wagmi-dapp/dist`.
pub fn wagmi_dapp_dist() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/wagmi-dapp/dist")
}

/// An example dapp, served until dropped.
pub struct ExampleDapp {
    /// `http://localhost:<port>`: the origin Satchel's pages show.
    pub url: String,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for ExampleDapp {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl ExampleDapp {
    /// Serves the built dapp on `127.0.0.1:port` (0: a free one) for the demo
    /// contracts of `demo`, using Satchel's endpoint at `provider_url`.
    pub async fn serve(port: u16, demo: &Demo, provider_url: &str) -> anyhow::Result<Self> {
        let config = json!({
            "chainId": crate::anvil::CHAIN_ID,
            "token": demo.token18,
            "tokenName": "Demo Token",
            "nft": demo.pals,
            "providerUrl": provider_url,
        });
        Self::serve_built(port, dapp_dist(), "examples/dapp", config).await
    }

    /// Serves the wagmi dapp on `127.0.0.1:port` (0: a free one) for the demo
    /// NFT of `demo`. It is given no endpoint: it finds its wallets itself.
    pub async fn serve_wagmi(port: u16, demo: &Demo) -> anyhow::Result<Self> {
        let config = json!({
            "chainId": crate::anvil::CHAIN_ID,
            "nft": demo.pals,
            "token": demo.token18,
        });
        Self::serve_built(port, wagmi_dapp_dist(), "examples/wagmi-dapp", config).await
    }

    async fn serve_built(
        port: u16,
        dist: PathBuf,
        source: &str,
        config: serde_json::Value,
    ) -> anyhow::Result<Self> {
        anyhow::ensure!(
            dist.join("index.html").is_file(),
            "{source} is not built: npm --prefix {source} run build (scripts/setup.sh does)"
        );
        let router = Router::new()
            .route("/config.json", get(move || async move { Json(config) }))
            .fallback_service(ServeDir::new(dist));
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
        let port = listener.local_addr()?.port();
        let task = tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, router).await {
                tracing::warn!("the example dapp stopped: {e}");
            }
        });
        Ok(Self {
            url: format!("http://localhost:{port}"),
            task,
        })
    }
}
