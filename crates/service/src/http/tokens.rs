//! Beyond the spec: tokens added by contract address (read a contract's
//! facts, track it for an account, stop tracking it), and the approvals an
//! account gave.

use axum::extract::State;
use axum::http::StatusCode;
use satchel_api::{AddableToken, ApprovalsResponse};
use satchel_chain::Address;

use super::Path;
use super::transactions::per_user;
use crate::assets::{approvals, tokens};
use crate::error::{ApiError, ApiResult};
use crate::identity::AuthUser;
use crate::sending::{checked_address, own_account};
use crate::state::AppState;

fn contract_of(text: &str) -> ApiResult<Address> {
    checked_address(text).ok_or_else(|| {
        ApiError::bad_request("`contract` is not an address, or its checksum is wrong")
    })
}

/// What a token contract says of itself, and the account's balance of it, read
/// now; nothing is stored.
#[utoipa::path(
    get,
    path = "/v1/account/{accountId}/tokens/{contract}",
    params(
        ("accountId" = String, Path, description = "accountId from operation 1"),
        ("contract" = String, Path, description = "the token's contract address"),
    ),
    responses(
        (status = 200, body = AddableToken),
        (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidParameters: not an address, or not an ERC-20 token"),
        (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: the account is another user's"),
        (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such account"),
        (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: this user asked too often"),
        (status = 502, body = satchel_api::ApiErrorBody, description = "UpstreamUnavailable: the network's node failed"),
    ),
    security(("appKey" = [], "accessToken" = []))
)]
pub async fn read_token(
    State(state): State<AppState>,
    user: AuthUser,
    Path((account_id, contract)): Path<(String, String)>,
) -> ApiResult<axum::Json<AddableToken>> {
    let (account, network) = own_account(&state, &user, &account_id).await?;
    let contract = contract_of(&contract)?;
    per_user(&state, &user)?;
    let (_, token) = tokens::read_token(&state, network, &account, contract).await?;
    Ok(axum::Json(token))
}

/// Track a token for the account: operations 1 and 2 list it from now on.
#[utoipa::path(
    put,
    path = "/v1/account/{accountId}/tokens/{contract}",
    params(
        ("accountId" = String, Path, description = "accountId from operation 1"),
        ("contract" = String, Path, description = "the token's contract address"),
    ),
    responses(
        (status = 200, body = AddableToken),
        (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidParameters: not an address, or not an ERC-20 token"),
        (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: the account is another user's"),
        (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such account"),
        (status = 409, body = satchel_api::ApiErrorBody, description = "Conflict: the account tracks the token already"),
        (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: the account added as many tokens as it may, or the user asked too often"),
        (status = 502, body = satchel_api::ApiErrorBody, description = "UpstreamUnavailable: the network's node failed"),
    ),
    security(("appKey" = [], "accessToken" = []))
)]
pub async fn add_token(
    State(state): State<AppState>,
    user: AuthUser,
    Path((account_id, contract)): Path<(String, String)>,
) -> ApiResult<axum::Json<AddableToken>> {
    let (account, network) = own_account(&state, &user, &account_id).await?;
    let contract = contract_of(&contract)?;
    per_user(&state, &user)?;
    Ok(axum::Json(
        tokens::add_token(&state, network, &account, contract).await?,
    ))
}

/// Stop tracking a token the account added.
#[utoipa::path(
    delete,
    path = "/v1/account/{accountId}/tokens/{contract}",
    params(
        ("accountId" = String, Path, description = "accountId from operation 1"),
        ("contract" = String, Path, description = "the token's contract address"),
    ),
    responses(
        (status = 204, description = "the account no longer tracks the token"),
        (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidParameters: not an address"),
        (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: the account is another user's"),
        (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such account, or a token it did not add"),
    ),
    security(("appKey" = [], "accessToken" = []))
)]
pub async fn remove_token(
    State(state): State<AppState>,
    user: AuthUser,
    Path((account_id, contract)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    let (account, _) = own_account(&state, &user, &account_id).await?;
    let contract = contract_of(&contract)?;
    tokens::remove_token(&state, &account, contract).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The ERC-20 allowances and NFT operators the account gave, from its logs
/// (read on from where the last request stopped, a few windows at a time).
#[utoipa::path(
    get,
    path = "/v1/account/{accountId}/approvals",
    params(("accountId" = String, Path, description = "accountId from operation 1")),
    responses(
        (status = 200, body = ApprovalsResponse),
        (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: the account is another user's"),
        (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such account"),
        (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: this user asked too often"),
        (status = 502, body = satchel_api::ApiErrorBody, description = "UpstreamUnavailable: the network's node failed"),
    ),
    security(("appKey" = [], "accessToken" = []))
)]
pub async fn list_approvals(
    State(state): State<AppState>,
    user: AuthUser,
    Path(account_id): Path<String>,
) -> ApiResult<axum::Json<ApprovalsResponse>> {
    let (account, network) = own_account(&state, &user, &account_id).await?;
    per_user(&state, &user)?;
    Ok(axum::Json(
        approvals::approvals(&state, network, &account).await?,
    ))
}
