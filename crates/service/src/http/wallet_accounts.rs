//! Beyond the spec: a wallet's further accounts (the next of its phrase, proven
//! by a signature of its key) and their names.

use axum::extract::State;
use axum::http::StatusCode;
use satchel_api::{AccountLabel, AccountsResponse, AddAccount};

use super::{Json, Path};
use crate::error::ApiResult;
use crate::identity::AuthUser;
use crate::state::AppState;
use crate::wallets::accounts;

/// Adds the wallet's next account on every network; the wallet's accounts after
/// it, as operation 1 lists them.
#[utoipa::path(post, path = "/v1/wallets/{walletId}/accounts", request_body = AddAccount,
    params(("walletId" = String, Path, description = "the user's wallet")),
    responses((status = 200, body = AccountsResponse),
              (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidParameters: malformed address, label or signature; a path that is not the wallet's next index; a nonce that is unknown, another user's, used or expired; a signature not by the address's key"),
              (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: the wallet is another user's"),
              (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such wallet"),
              (status = 409, body = satchel_api::ApiErrorBody, description = "Conflict: the address is one of the wallet's accounts already"),
              (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: the wallet has as many accounts as it may")),
    security(("appKey" = [], "accessToken" = [])))]
pub async fn add_account(
    State(state): State<AppState>,
    user: AuthUser,
    Path(wallet_id): Path<String>,
    Json(body): Json<AddAccount>,
) -> ApiResult<axum::Json<AccountsResponse>> {
    Ok(axum::Json(
        accounts::add(&state, &user, &wallet_id, body).await?,
    ))
}

/// Names one of the wallet's accounts, on every network.
#[utoipa::path(put, path = "/v1/wallets/{walletId}/accounts/{address}/label", request_body = AccountLabel,
    params(("walletId" = String, Path, description = "the user's wallet"),
           ("address" = String, Path, description = "the account's address")),
    responses((status = 204, description = "the account has its new name"),
              (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidParameters: not an address, or a name that is empty, too long or has a control character"),
              (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: the wallet is another user's"),
              (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such wallet, or no such account in it")),
    security(("appKey" = [], "accessToken" = [])))]
pub async fn rename_account(
    State(state): State<AppState>,
    user: AuthUser,
    Path((wallet_id, address)): Path<(String, String)>,
    Json(body): Json<AccountLabel>,
) -> ApiResult<StatusCode> {
    accounts::rename(&state, &user, &wallet_id, &address, body).await?;
    Ok(StatusCode::NO_CONTENT)
}
