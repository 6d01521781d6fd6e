//! The dev chain's faucet: a wallet registered with the local service gets what a
//! demo wallet shows (ether, both tokens, NFTs) before the registration answers, so
//! the first page a person sees after choosing a PIN already has something in it.

use alloy::primitives::Address;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::Demo;

/// The largest registration body read; a real one is at most a few kilobytes (the
/// service takes a backup of up to 2048 characters).
const MAX_BODY: usize = 64 * 1024;

/// The service's router with the faucet in front of wallet registration.
pub fn with_faucet(router: axum::Router, demo: Demo) -> axum::Router {
    router.layer(axum::middleware::from_fn_with_state(demo, fund_new_wallets))
}

async fn fund_new_wallets(State(demo): State<Demo>, request: Request, next: Next) -> Response {
    if request.method() != Method::POST || request.uri().path() != "/v1/wallets" {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
        return StatusCode::PAYLOAD_TOO_LARGE.into_response();
    };
    let address = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .and_then(|body| body.get("address")?.as_str()?.parse::<Address>().ok());
    let response = next
        .run(Request::from_parts(parts, Body::from(bytes)))
        .await;
    if let (true, Some(address)) = (response.status().is_success(), address) {
        match demo.fund(address).await {
            Ok(()) => tracing::info!(%address, "faucet: funded a new wallet"),
            Err(e) => tracing::warn!(%address, error = %e, "faucet: funding failed"),
        }
    }
    response
}
