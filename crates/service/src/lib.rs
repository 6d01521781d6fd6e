//! The Satchel wallet service: the REST interface of `service-spec.md` over a
//! database (SQLite or PostgreSQL) and the networks' JSON-RPC nodes.
//!
//! [`serve`] runs it on a listener until a shutdown future resolves, so the binary,
//! the local stack and the tests all start it the same way.

// From the bottom up, and no file imports in a circle (the workspace's tests/architecture):
// the foundations (clock to mail) use nothing above them; the state is made of
// them and of the identity concern's own foundations (tokens, providers, login
// failures); the concerns' operations take the state; `http` routes to them.
// The background tasks take what they need, not the whole state where they
// can. Public where the binary, the local stack or the tests use them.
pub mod admin;
pub mod assets;
pub(crate) mod cache;
pub mod clock;
pub mod config;
pub mod crypto;
pub mod db;
pub(crate) mod error;
pub(crate) mod heads;
pub mod http;
pub mod identity;
pub(crate) mod limits;
pub(crate) mod mail;
pub(crate) mod relay;
pub(crate) mod sending;
pub(crate) mod state;
pub(crate) mod updates;
pub(crate) mod wallets;

use std::future::Future;

/// mimalloc rather than glibc's malloc: a request allocates and frees many small
/// objects on whichever worker thread runs it, and glibc's malloc and free were
/// 16% of a loaded scale run's profile. Declared here, so every program that
/// runs the service (its binary, the local stack, the tests and benchmarks)
/// runs it on the same allocator.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub use config::Settings;
pub use state::AppState;
use tower_http::trace::TraceLayer;

/// The whole service with its request log: the router [`serve`] runs.
pub fn app(state: AppState) -> axum::Router {
    http::router(state).layer(
        // Logs method, path and status; never headers, where the tokens travel.
        TraceLayer::new_for_http().make_span_with(|req: &axum::http::Request<_>| {
            tracing::info_span!("request", method = %req.method(), path = %req.uri().path())
        }),
    )
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
            tokio::spawn(identity::tokens::reload_forever(
                state.keys.clone(),
                state.db.clone(),
                state.pin_keys.clone(),
                state.settings.token_lifetime_secs(),
            )),
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
