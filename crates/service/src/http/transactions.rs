//! Sending (`crate::sending`): prepare a transfer, broadcast one the device
//! signed, and the wallet's activity.

use axum::extract::State;
use satchel_api::{
    BroadcastRequest, PrepareCallRequest, PrepareRequest, PreparedCall, PreparedTransaction,
    TransactionList, TransactionRecord, WalletQuery,
};

use super::{Json, Path, Query, owned_wallet};
use crate::error::{ApiError, ApiResult};
use crate::identity::AuthUser;
use crate::limits::LimitKey;
use crate::sending;
use crate::state::AppState;

/// Prepare a transfer: nonce, EIP-1559 fees (slow, normal, fast), gas from an
/// estimate that simulates it. One that would revert, or cost more than the
/// account holds, is refused with the reason.
#[utoipa::path(
    post,
    path = "/v1/transactions/prepare",
    request_body = PrepareRequest,
    responses(
        (status = 200, body = PreparedTransaction),
        (status = 400, body = satchel_api::ApiErrorBody, description = "a bad address or amount (InvalidParameters), or TransactionWouldFail with the reason"),
        (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: the account, or the transaction replaced, is another user's"),
        (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such account, or no such transaction to replace"),
        (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: this user asked too often (user_requests_per_minute)"),
        (status = 502, body = satchel_api::ApiErrorBody, description = "UpstreamUnavailable: the network's node failed"),
    ),
    security(("appKey" = [], "accessToken" = []))
)]
pub async fn prepare(
    State(state): State<AppState>,
    user: AuthUser,
    Json(request): Json<PrepareRequest>,
) -> ApiResult<axum::Json<PreparedTransaction>> {
    per_user(&state, &user)?;
    Ok(axum::Json(sending::prepare(&state, &user, &request).await?))
}

/// Prepare any transaction from one of the caller's accounts (a contract call,
/// an approval, an NFT transfer): nonce, fee levels, gas, and what it would move
/// to and from the account (the node's simulation; absent when the node cannot
/// simulate). One that would revert, or cost more than the account holds, is
/// refused with the reason.
#[utoipa::path(
    post,
    path = "/v1/transactions/prepare-call",
    request_body = PrepareCallRequest,
    responses(
        (status = 200, body = PreparedCall),
        (status = 400, body = satchel_api::ApiErrorBody, description = "a bad address, value or data (InvalidParameters), or TransactionWouldFail with the reason"),
        (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: the account is another user's"),
        (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such account"),
        (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: this user asked too often (user_requests_per_minute)"),
        (status = 502, body = satchel_api::ApiErrorBody, description = "UpstreamUnavailable: the network's node failed"),
    ),
    security(("appKey" = [], "accessToken" = []))
)]
pub async fn prepare_call(
    State(state): State<AppState>,
    user: AuthUser,
    Json(request): Json<PrepareCallRequest>,
) -> ApiResult<axum::Json<PreparedCall>> {
    per_user(&state, &user)?;
    Ok(axum::Json(
        sending::prepare_call(&state, &user, &request).await?,
    ))
}

/// Broadcast a transaction the device signed (EIP-2718 bytes of an EIP-1559
/// transaction). Its sender must be the caller's account and its chain the
/// account's network's; a deployment is refused. One with a pending one's nonce
/// and higher fees replaces it.
#[utoipa::path(
    post,
    path = "/v1/transactions",
    request_body = BroadcastRequest,
    responses(
        (status = 200, body = TransactionRecord),
        (status = 400, body = satchel_api::ApiErrorBody, description = "not a signed transfer for the account's network (InvalidParameters), or the node refused it (TransactionWouldFail)"),
        (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: the account is another user's, or the transaction is signed by another key"),
        (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such account"),
        (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: the account has max_pending_per_account transactions waiting (a replacement of one still goes)"),
        (status = 502, body = satchel_api::ApiErrorBody, description = "UpstreamUnavailable: the network's node failed"),
    ),
    security(("appKey" = [], "accessToken" = []))
)]
pub async fn broadcast(
    State(state): State<AppState>,
    user: AuthUser,
    Json(request): Json<BroadcastRequest>,
) -> ApiResult<axum::Json<TransactionRecord>> {
    Ok(axum::Json(
        sending::broadcast(&state, &user, &request).await?,
    ))
}

/// The wallet's activity, newest first (at most 100): the transfers it sent, with
/// their status, and the token transfers it received.
#[utoipa::path(
    get,
    path = "/v1/transactions",
    params(WalletQuery),
    responses(
        (status = 200, body = TransactionList),
        (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: userId is not the caller's, or the wallet is another user's"),
        (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such wallet"),
        (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: this user asked too often (user_requests_per_minute)"),
    ),
    security(("appKey" = [], "accessToken" = []))
)]
pub async fn list(
    State(state): State<AppState>,
    user: AuthUser,
    Query(query): Query<WalletQuery>,
) -> ApiResult<axum::Json<TransactionList>> {
    per_user(&state, &user)?;
    owned_wallet(&state, &user, &query).await?;
    Ok(axum::Json(TransactionList {
        transactions: sending::activity(&state, &query.wallet_id).await?,
    }))
}

/// One transfer the caller's wallet sent, its receipt read again while pending.
#[utoipa::path(
    get,
    path = "/v1/transactions/{txHash}",
    params(("txHash" = String, Path, description = "the transaction's hash")),
    responses(
        (status = 200, body = TransactionRecord),
        (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: another user's transaction"),
        (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such transaction"),
        (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: this user asked too often (user_requests_per_minute)"),
    ),
    security(("appKey" = [], "accessToken" = []))
)]
pub async fn get_one(
    State(state): State<AppState>,
    user: AuthUser,
    Path(tx_hash): Path<String>,
) -> ApiResult<axum::Json<TransactionRecord>> {
    per_user(&state, &user)?;
    Ok(axum::Json(
        sending::transaction(&state, &user, &tx_hash).await?,
    ))
}

/// Counts a read or quote of `user`'s against their per-minute allowance.
pub(super) fn per_user(state: &AppState, user: &AuthUser) -> ApiResult<()> {
    state
        .limits
        .check(LimitKey::UserRequests {
            user_id: &user.user_id,
        })
        .map_err(|wait| ApiError::rate_limited("too many requests for this user", wait))
}
