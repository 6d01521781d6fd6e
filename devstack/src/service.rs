//! The service running in this process on a loopback port, stopped when dropped.

use std::net::SocketAddr;

use satchel_service::{AppState, Settings};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use url::Url;

pub struct RunningService {
    pub state: AppState,
    pub address: SocketAddr,
    pub base_url: Url,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
    _background: satchel_service::Background,
}

impl RunningService {
    /// The network table an app of this service ships: what its device signs
    /// for, whatever the service later answers.
    pub fn network_table(&self) -> satchel_chain::networks::NetworkTable {
        satchel_chain::networks::NetworkTable {
            networks: self
                .state
                .settings
                .networks
                .iter()
                .map(|n| n.known())
                .collect(),
        }
    }

    /// Binds `settings.bind` and serves in a background task. With port 0 a free
    /// port is picked and the public URL set to it.
    pub async fn start(settings: Settings) -> anyhow::Result<Self> {
        Self::start_with(settings, |router| router).await
    }

    /// As [`start`](Self::start), with the service's router wrapped by `wrap`
    /// (the local stack puts its faucet in front of it).
    pub async fn start_with(
        mut settings: Settings,
        wrap: impl FnOnce(axum::Router) -> axum::Router,
    ) -> anyhow::Result<Self> {
        let listener = tokio::net::TcpListener::bind(settings.bind).await?;
        if settings.bind.port() == 0 {
            settings.public_url = format!("http://{}/", listener.local_addr()?).parse()?;
        }
        Self::start_on_with(listener, settings, wrap).await
    }

    /// Serves on `listener` with the settings as they are.
    pub async fn start_on(
        listener: tokio::net::TcpListener,
        settings: Settings,
    ) -> anyhow::Result<Self> {
        Self::start_on_with(listener, settings, |router| router).await
    }

    /// Serves on `listener`, with the service's router wrapped by `wrap`.
    pub async fn start_on_with(
        listener: tokio::net::TcpListener,
        mut settings: Settings,
        wrap: impl FnOnce(axum::Router) -> axum::Router,
    ) -> anyhow::Result<Self> {
        let address = listener.local_addr()?;
        let base_url: Url = format!("http://{address}/").parse()?;
        settings.bind = address;
        let state = AppState::new(settings).await?;
        let background = satchel_service::Background::start(&state);
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(satchel_service::serve_router(
            wrap(satchel_service::app(state.clone())),
            listener,
            async move {
                let _ = stopped.await;
            },
        ));
        Ok(Self {
            state,
            address,
            base_url,
            stop: Some(stop),
            task: Some(task),
            _background: background,
        })
    }

    /// Stops serving and waits for open requests to finish.
    pub async fn shutdown(mut self) -> anyhow::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await??;
        }
        self.state.db.close().await;
        Ok(())
    }
}

impl Drop for RunningService {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}
