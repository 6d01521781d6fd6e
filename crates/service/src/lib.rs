//! The Satchel wallet service: the REST interface of `service-spec.md` over a
//! database (SQLite or PostgreSQL) and the networks' JSON-RPC nodes.
//!
//! [`serve`] runs it on a listener until a shutdown future resolves, so the binary,
//! the local stack and the tests all start it the same way.

pub mod admin;
pub mod auth;
pub mod cache;
pub mod chain_refresh;
pub mod config;
pub mod db;
pub mod error;
pub mod identity;
pub mod login_failures;
pub mod mail;
pub mod pin;
pub mod refresh_limits;
pub mod routes;
pub mod sending;
pub mod state;
pub mod tokens;
pub mod views;
pub mod wallets;

use std::future::Future;
use std::time::{SystemTime, UNIX_EPOCH};

pub use config::Settings;
pub use state::AppState;
use tower_http::trace::TraceLayer;

/// The whole service with its request log: the router [`serve`] runs.
pub fn app(state: AppState) -> axum::Router {
    routes::router(state).layer(
        // Logs method, path and status; never headers, where the tokens travel.
        TraceLayer::new_for_http().make_span_with(|req: &axum::http::Request<_>| {
            tracing::info_span!("request", method = %req.method(), path = %req.uri().path())
        }),
    )
}

/// Unix seconds now: the service's one clock for stored times and token claims.
pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or_default()
}

/// Serves the REST interface on `listener` until `shutdown` resolves.
pub async fn serve(
    state: AppState,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let _background = Background::start(&state);
    serve_router(app(state), listener, shutdown).await
}

/// The service's work besides answering requests: following pending
/// transactions to the block, and reading the signing keys again (a rotation on
/// another instance). Stops when dropped.
pub struct Background(Vec<tokio::task::JoinHandle<()>>);

impl Background {
    pub fn start(state: &AppState) -> Self {
        Self(vec![
            tokio::spawn(sending::follow_forever(state.clone())),
            tokio::spawn(tokens::reload_forever(state.clone())),
        ])
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        for task in &self.0 {
            task.abort();
        }
    }
}

/// Serves `router` (the service's [`app`], perhaps with layers of the caller's)
/// on `listener` until `shutdown` resolves.
pub async fn serve_router(
    router: axum::Router,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    // With the peer's address, which the login limits count by.
    axum::serve(
        listener,
        router.into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await
}
