//! Operations 3 and 4: a wallet's NFTs (`GET /v1/nft`), and their refresh from the
//! chain (`GET /v1/nft/refresh`).

use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use satchel_api::{NFTS_GROUPED_MEDIA_TYPE, NftsGrouped, NftsResponse, WalletQuery};

use super::{Query, owned_wallet};
use crate::assets::refresh::{self, RenderedListing};
use crate::error::{ApiError, ApiResult};
use crate::identity::AuthUser;
use crate::limits::LimitKey;
use crate::state::AppState;

/// Retrieve NFT information, as last read from the chain. Beyond the spec: an
/// `Accept` naming `application/vnd.satchel.nfts-grouped+json` has the list
/// grouped by collection.
#[utoipa::path(
    get,
    path = "/v1/nft",
    params(WalletQuery),
    responses(
        (status = 200, content(
            (NftsResponse = "application/json"),
            (NftsGrouped = "application/vnd.satchel.nfts-grouped+json"),
        )),
        (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: userId is not the caller's, or the wallet is another user's"),
        (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such wallet"),
    ),
    security(("appKey" = [], "accessToken" = []))
)]
pub async fn get_nfts(
    State(state): State<AppState>,
    user: AuthUser,
    headers: HeaderMap,
    Query(query): Query<WalletQuery>,
) -> ApiResult<Response> {
    owned_wallet(&state, &user, &query).await?;
    let wallet_id = &query.wallet_id;
    let shape = Shape::asked(&headers);
    let body = match shape {
        Shape::Spec => state.db.nft_listing(wallet_id).await?,
        Shape::Grouped => match state.db.grouped_nft_listing(wallet_id).await? {
            Some(Some(grouped)) => Some(grouped),
            // Rendered before the grouped listing was kept.
            Some(None) => Some(
                refresh::render_nft_listing(&state, wallet_id)
                    .await?
                    .grouped,
            ),
            None => None,
        },
    };
    Ok(shape.answer(body.unwrap_or_else(|| shape.empty().to_owned())))
}

/// Refresh NFT information: re-reads holdings and metadata from the chain.
/// Answers in the shape `Accept` asks for, as `GET /v1/nft` does.
#[utoipa::path(
    get,
    path = "/v1/nft/refresh",
    params(WalletQuery),
    responses(
        (status = 200, content(
            (NftsResponse = "application/json"),
            (NftsGrouped = "application/vnd.satchel.nfts-grouped+json"),
        )),
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
    headers: HeaderMap,
    Query(query): Query<WalletQuery>,
) -> ApiResult<Response> {
    owned_wallet(&state, &user, &query).await?;
    state
        .limits
        .take(LimitKey::Nfts {
            wallet_id: &query.wallet_id,
        })
        .await
        .map_err(|wait| ApiError::rate_limited("NFTs refreshed too often", wait))?;
    let RenderedListing { spec, grouped } = refresh::refresh_nfts(&state, &query.wallet_id).await?;
    let shape = Shape::asked(&headers);
    Ok(shape.answer(match shape {
        Shape::Spec => spec,
        Shape::Grouped => grouped,
    }))
}

/// The shape a request asks its NFT list in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// The spec's (`application/json`, and any `Accept` not naming the other).
    Spec,
    /// [`NftsGrouped`].
    Grouped,
}

impl Shape {
    fn asked(headers: &HeaderMap) -> Self {
        let names_grouped = headers
            .get_all(header::ACCEPT)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .filter_map(|range| range.split(';').next())
            .any(|media| media.trim().eq_ignore_ascii_case(NFTS_GROUPED_MEDIA_TYPE));
        if names_grouped {
            Shape::Grouped
        } else {
            Shape::Spec
        }
    }

    /// The list of a wallet whose NFTs were never refreshed.
    fn empty(self) -> &'static str {
        match self {
            Shape::Spec => r#"{"nfts":[]}"#,
            Shape::Grouped => r#"{"collections":[],"nfts":[]}"#,
        }
    }

    fn answer(self, body: String) -> Response {
        let media = match self {
            Shape::Spec => "application/json",
            Shape::Grouped => NFTS_GROUPED_MEDIA_TYPE,
        };
        (
            // One address, two shapes: a cache must tell them apart.
            [(header::CONTENT_TYPE, media), (header::VARY, "accept")],
            body,
        )
            .into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT, value.parse().expect("a header value"));
        headers
    }

    #[test]
    fn the_grouped_shape_is_given_only_when_accept_names_it() {
        assert_eq!(Shape::asked(&HeaderMap::new()), Shape::Spec);
        assert_eq!(Shape::asked(&accept("application/json")), Shape::Spec);
        assert_eq!(Shape::asked(&accept("*/*")), Shape::Spec);
        assert_eq!(
            Shape::asked(&accept("application/vnd.satchel.nfts-grouped+json-not")),
            Shape::Spec
        );
        assert_eq!(
            Shape::asked(&accept(NFTS_GROUPED_MEDIA_TYPE)),
            Shape::Grouped
        );
        assert_eq!(
            Shape::asked(&accept(
                "Application/VND.satchel.nfts-grouped+json; q=1, application/json;q=0.5"
            )),
            Shape::Grouped
        );
    }

    #[test]
    fn the_empty_lists_are_the_shapes_of_their_types() {
        let spec: NftsResponse = serde_json::from_str(Shape::Spec.empty()).expect("spec");
        assert!(spec.nfts.is_empty());
        let grouped: NftsGrouped = serde_json::from_str(Shape::Grouped.empty()).expect("grouped");
        assert_eq!(grouped, NftsGrouped::default());
    }
}
