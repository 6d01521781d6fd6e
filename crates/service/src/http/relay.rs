//! The read relay over HTTP: `POST /v1/rpc/{network}` with one JSON-RPC call or
//! a batch, for a logged-in user, counted against their allowance call by call.

use axum::extract::State;
use serde_json::Value;

use super::{Json, Path};
use crate::error::{ApiError, ApiResult};
use crate::identity::AuthUser;
use crate::limits::LimitKey;
use crate::relay;
use crate::state::AppState;

/// Reads a network's node through the service (JSON-RPC 2.0, one call or a batch
/// of at most 20): only reads (`eth_call`, `eth_getBalance`, `eth_getLogs` over at
/// most the network's log window, ...), each answer at most 1 MiB. Errors of a
/// call are JSON-RPC error objects in a 200 answer (-32601 for a method not
/// relayed, -32005 past a limit).
#[utoipa::path(post, path = "/v1/rpc/{network}",
    params(("network" = String, Path, description = "the network's name, as `GET /v1/app` lists it")),
    request_body(content = Object, description = "a JSON-RPC 2.0 call, or an array of 1 to 20 of them"),
    responses(
        (status = 200, description = "the JSON-RPC answer (an array for a batch)", body = Object),
        (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidParameters: neither a call nor a batch of 1 to 20"),
        (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such network"),
        (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: this user's calls per minute (rpc_calls_per_minute)"),
    ),
    security(("appKey" = [], "accessToken" = [])))]
pub async fn rpc(
    State(state): State<AppState>,
    user: AuthUser,
    Path(network): Path<String>,
    Json(body): Json<Value>,
) -> ApiResult<axum::Json<Value>> {
    let network = state
        .network(&network)
        .ok_or_else(|| ApiError::not_found("network"))?;
    let calls = relay::calls_in(&body).ok_or_else(|| {
        ApiError::bad_request(format!(
            "send one JSON-RPC call or a batch of 1 to {} calls",
            relay::MAX_BATCH
        ))
    })?;
    for _ in 0..calls {
        state
            .limits
            .check(LimitKey::RpcCalls {
                user_id: &user.user_id,
            })
            .map_err(|wait| ApiError::rate_limited("too many calls for this user", wait))?;
    }
    Ok(axum::Json(relay::relay(network, body).await))
}
