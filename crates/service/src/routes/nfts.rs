//! Operations 3 and 4: a wallet's NFTs, and their refresh from the chain.

use axum::Json;
use axum::extract::State;
use satchel_api::{NftsResponse, WalletQuery};

use super::{Query, owned_wallet};
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::{indexer, views};

/// Retrieve NFT information, as last read from the chain.
#[utoipa::path(
    get,
    path = "/v1/nft",
    params(WalletQuery),
    responses(
        (status = 200, body = NftsResponse),
        (status = 401, body = satchel_api::ApiErrorBody),
        (status = 403, body = satchel_api::ApiErrorBody),
        (status = 404, body = satchel_api::ApiErrorBody),
    ),
    security(("appKey" = [], "appDomain" = [], "sdkType" = [], "accessToken" = []))
)]
pub async fn get_nfts(
    State(state): State<AppState>,
    user: AuthUser,
    Query(query): Query<WalletQuery>,
) -> ApiResult<Json<NftsResponse>> {
    owned_wallet(&state, &user, &query).await?;
    list(&state, &query.wallet_id).await
}

/// Refresh NFT information: re-reads holdings and metadata from the chain.
#[utoipa::path(
    get,
    path = "/v1/nft/refresh",
    params(WalletQuery),
    responses(
        (status = 200, body = NftsResponse),
        (status = 401, body = satchel_api::ApiErrorBody),
        (status = 403, body = satchel_api::ApiErrorBody),
        (status = 404, body = satchel_api::ApiErrorBody),
        (status = 429, body = satchel_api::ApiErrorBody),
        (status = 502, body = satchel_api::ApiErrorBody),
    ),
    security(("appKey" = [], "appDomain" = [], "sdkType" = [], "accessToken" = []))
)]
pub async fn refresh_nfts(
    State(state): State<AppState>,
    user: AuthUser,
    Query(query): Query<WalletQuery>,
) -> ApiResult<Json<NftsResponse>> {
    owned_wallet(&state, &user, &query).await?;
    state
        .limiter
        .check(&format!("nft:{}", query.wallet_id))
        .map_err(|wait| {
            ApiError::too_many_requests(format!(
                "NFTs refreshed too often; try again in {} s",
                wait.as_secs().max(1)
            ))
        })?;
    indexer::refresh_nfts(&state, &query.wallet_id).await?;
    list(&state, &query.wallet_id).await
}

async fn list(state: &AppState, wallet_id: &str) -> ApiResult<Json<NftsResponse>> {
    let rows = state.db.wallet_nfts(wallet_id).await?;
    Ok(Json(NftsResponse {
        nfts: rows.into_iter().map(views::nft).collect(),
    }))
}
