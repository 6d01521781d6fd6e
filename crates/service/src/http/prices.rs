//! Beyond the spec: the prices of the networks' coins and tokens, from the
//! Chainlink feeds the configuration names.

use axum::extract::State;
use satchel_api::{PricesQuery, PricesResponse};

use super::Query;
use crate::error::ApiResult;
use crate::identity::AuthUser;
use crate::state::AppState;

/// The latest price of each coin and configured token with a feed in the
/// currency, read from the feeds at most once per `price_cache_secs`.
#[utoipa::path(
    get,
    path = "/v1/prices",
    params(PricesQuery),
    responses(
        (status = 200, body = PricesResponse),
        (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidParameters: `currency` is not a lowercase three-letter code"),
    ),
    security(("appKey" = [], "accessToken" = []))
)]
pub async fn list_prices(
    State(state): State<AppState>,
    _user: AuthUser,
    Query(query): Query<PricesQuery>,
) -> ApiResult<axum::Json<PricesResponse>> {
    Ok(axum::Json(state.prices(query.currency.as_deref()).await?))
}
