//! Operations 3 and 4: a wallet's NFTs (`GET /v1/nft`), and their refresh from the
//! chain (`GET /v1/nft/refresh`).

use axum::extract::State;
use satchel_api::{NftsResponse, WalletQuery};

use super::{Query, RawJson, owned_wallet};
use crate::assets::refresh;
use crate::error::{ApiError, ApiResult};
use crate::identity::AuthUser;
use crate::limits::LimitKey;
use crate::state::AppState;

/// Retrieve NFT information, as last read from the chain.
#[utoipa::path(
    get,
    path = "/v1/nft",
    params(WalletQuery),
    responses(
        (status = 200, body = NftsResponse),
        (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: userId is not the caller's, or the wallet is another user's"),
        (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such wallet"),
    ),
    security(("appKey" = [], "accessToken" = []))
)]
pub async fn get_nfts(
    State(state): State<AppState>,
    user: AuthUser,
    Query(query): Query<WalletQuery>,
) -> ApiResult<RawJson> {
    owned_wallet(&state, &user, &query).await?;
    let body = state.db.nft_listing(&query.wallet_id).await?;
    Ok(RawJson(body.unwrap_or_else(|| EMPTY.to_owned()).into()))
}

/// The list of a wallet whose NFTs were never refreshed.
const EMPTY: &str = r#"{"nfts":[]}"#;

/// Refresh NFT information: re-reads holdings and metadata from the chain.
#[utoipa::path(
    get,
    path = "/v1/nft/refresh",
    params(WalletQuery),
    responses(
        (status = 200, body = NftsResponse),
        (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: userId is not the caller's, or the wallet is another user's"),
        (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such wallet"),
        (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: the wallet's NFTs were refreshed too often in the last minute"),
        (status = 502, body = satchel_api::ApiErrorBody, description = "UpstreamUnavailable: the network's node failed"),
    ),
    security(("appKey" = [], "accessToken" = []))
)]
pub async fn refresh_nfts(
    State(state): State<AppState>,
    user: AuthUser,
    Query(query): Query<WalletQuery>,
) -> ApiResult<RawJson> {
    owned_wallet(&state, &user, &query).await?;
    state
        .limits
        .take(LimitKey::Nfts {
            wallet_id: &query.wallet_id,
        })
        .await
        .map_err(|wait| ApiError::rate_limited("NFTs refreshed too often", wait))?;
    let body = refresh::refresh_nfts(&state, &query.wallet_id).await?;
    Ok(RawJson(body.into()))
}
