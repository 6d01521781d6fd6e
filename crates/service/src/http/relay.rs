//! The read relay over HTTP: `POST /v1/rpc/{network}` with one JSON-RPC call or
//! a batch, for a logged-in user, counted against their allowance call by call.

use axum::extract::State;
use serde_json::Value;

use super::{Json, Path, Query};
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
    let cost = relay::cost_of(&body).ok_or_else(|| {
        ApiError::bad_request(format!(
            "send one JSON-RPC call or a batch of 1 to {} calls",
            relay::MAX_BATCH
        ))
    })?;
    count_calls(&state, &user, cost)?;
    Ok(axum::Json(relay::relay(network, body).await))
}

/// Takes `cost` of the user's relayed calls (`rpc_calls_per_minute`): a
/// plain read is 1, a gas estimate 10, each call of a simulation 2.
fn count_calls(state: &AppState, user: &AuthUser, cost: usize) -> ApiResult<()> {
    for _ in 0..cost {
        state
            .limits
            .check(LimitKey::RpcCalls {
                user_id: &user.user_id,
            })
            .map_err(|wait| ApiError::rate_limited("too many calls for this user", wait))?;
    }
    Ok(())
}

/// Longest a `head` request waits for a block: under the SDK's request timeout
/// (20 s), so a quiet chain's waiter is answered, not cut off.
const HEAD_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// The query of `GET /v1/rpc/{network}/head`.
#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HeadQuery {
    /// The number of the newest block the caller was told; absent: the newest
    /// block at once.
    pub after: Option<u64>,
}

/// The network's newest block header (as `eth_getBlockByNumber("latest",
/// false)`, without its transaction list) as soon as it is past `after`, or
/// the newest after 10 s without one: what the desktop's `newHeads`
/// subscribers are told, from one reader of the node per network. Counted as
/// one relayed call.
#[utoipa::path(get, path = "/v1/rpc/{network}/head",
    params(("network" = String, Path, description = "the network's name, as `GET /v1/app` lists it"), HeadQuery),
    responses(
        (status = 200, description = "the newest block's header", body = Object),
        (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such network"),
        (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: this user's calls per minute (rpc_calls_per_minute), or 10,000 clients waiting"),
        (status = 502, body = satchel_api::ApiErrorBody, description = "UpstreamUnavailable: the node did not tell its newest block"),
    ),
    security(("appKey" = [], "accessToken" = [])))]
pub async fn head(
    State(state): State<AppState>,
    user: AuthUser,
    Path(network): Path<String>,
    Query(query): Query<HeadQuery>,
) -> ApiResult<axum::Json<Value>> {
    let network = state
        .network(&network)
        .ok_or_else(|| ApiError::not_found("network"))?;
    count_calls(&state, &user, 1)?;
    if network.heads.waiters() >= crate::heads::MAX_WAITERS {
        return Err(ApiError::too_many_requests(
            "too many clients wait for blocks; try again in 1 s",
        ));
    }
    let head = network
        .heads
        .next(
            &network.chain,
            network.config.head_poll(),
            query.after,
            HEAD_WAIT,
        )
        .await
        .ok_or_else(|| ApiError::upstream(&network.config.name, "no newest block"))?;
    Ok(axum::Json(Value::clone(&head.header)))
}
