//! The HTTP surface: the spec's four GET operations under `/v1`, identity and
//! sessions, wallet registration and PIN, sending, the OpenAPI document, a health check,
//! and JSON errors for everything else.

mod accounts;
mod auth;
mod nfts;
mod pin;
mod transactions;

use axum::Router;
use axum::extract::FromRequestParts;
use axum::http::StatusCode;
use axum::routing::{get, post, put};
use satchel_api::{RestErrorCode, WalletQuery};
use utoipa::OpenApi;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

/// The whole service as a router, ready to serve or to call in a test.
pub fn router(state: AppState) -> Router {
    Router::new()
        // The spec's operations 1 to 4, in its order.
        .route("/v1/account", get(accounts::get_accounts))
        .route(
            "/v1/accountbalance/{account_id}/balance",
            get(accounts::refresh_balance),
        )
        .route("/v1/nft", get(nfts::get_nfts))
        .route("/v1/nft/refresh", get(nfts::refresh_nfts))
        // Identity and sessions, which the spec leaves to the design.
        .route("/v1/app", get(auth::app_info))
        .route("/v1/auth/email/signup", post(auth::sign_up))
        .route("/v1/auth/email/resend", post(auth::resend))
        .route("/v1/auth/email/verify", get(auth::verify))
        .route("/v1/auth/email/login", post(auth::email_login))
        .route("/v1/auth/identity/refresh", post(auth::refresh_identity))
        .route("/v1/auth/service/login", post(auth::service_login))
        .route("/v1/auth/service/refresh", post(auth::refresh_service))
        .route("/v1/auth/service/user", get(auth::current_user))
        .route("/v1/auth/logout", post(auth::logout))
        .route("/v1/wallets", post(auth::register))
        // Wallet keys: the challenge a device signs, and the wallet's PIN.
        .route("/v1/wallets/challenge", post(pin::challenge))
        .route(
            "/v1/wallets/pin/unlock",
            get(pin::unlock_page).merge(post(pin::unlock)),
        )
        .route(
            "/v1/wallets/{wallet_id}/pin",
            get(pin::status).merge(put(pin::change)),
        )
        .route("/v1/wallets/{wallet_id}/pin/verify", post(pin::verify))
        .route("/v1/wallets/{wallet_id}/pin/reset", post(pin::reset))
        .route(
            "/v1/wallets/{wallet_id}/pin/unlock-email",
            post(pin::send_unlock_email),
        )
        // Sending: prepared here, signed on the device, broadcast and followed here.
        .route("/v1/transactions/prepare", post(transactions::prepare))
        .route(
            "/v1/transactions",
            get(transactions::list).merge(post(transactions::broadcast)),
        )
        .route("/v1/transactions/{tx_hash}", get(transactions::get_one))
        .route("/.well-known/jwks.json", get(auth::jwks))
        .route("/v1/openapi.json", get(openapi_json))
        .route("/health", get(|| async { "ok" }))
        .fallback(|| async { ApiError::not_found("route") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                RestErrorCode::NotFound,
                "method not allowed",
            )
        })
        // Every JSON body the service takes is small (a signed transfer is the
        // largest, under 32 KiB of hex): nothing larger is read.
        .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state)
}

/// The largest request body read, in bytes.
pub const BODY_LIMIT: usize = 64 * 1024;

/// Query extractor whose rejection is the service's JSON 400.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct Query<T>(pub T);

/// JSON body extractor whose rejection is the service's JSON 400.
#[derive(axum::extract::FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct Json<T>(pub T);

/// Path extractor whose rejection is the service's JSON 400.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct Path<T>(pub T);

/// A JSON body that is already serialised (a stored or cached rendering).
pub struct RawJson(pub axum::body::Bytes);

impl axum::response::IntoResponse for RawJson {
    fn into_response(self) -> axum::response::Response {
        (
            [(axum::http::header::CONTENT_TYPE, "application/json")],
            self.0,
        )
            .into_response()
    }
}

/// Checks that the wallet in the query is the caller's: `userId` must be the
/// caller's id and the wallet must exist and belong to them.
async fn owned_wallet(state: &AppState, user: &AuthUser, query: &WalletQuery) -> ApiResult<()> {
    if query.user_id != user.user_id {
        return Err(ApiError::forbidden());
    }
    match state.db.wallet_owner(&query.wallet_id).await? {
        None => Err(ApiError::not_found("wallet")),
        Some(owner) if owner != user.user_id => Err(ApiError::forbidden()),
        Some(_) => Ok(()),
    }
}

async fn openapi_json() -> axum::Json<utoipa::openapi::OpenApi> {
    axum::Json(ApiDoc::openapi())
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Satchel wallet service",
        description = "Accounts, balances and NFTs of a Satchel wallet, and its PIN. Every /v1 \
                       operation but the links in e-mails needs X-API-KEY, X-API-DOMAIN and \
                       X-SDK-TYPE; the wallet operations also need Authorization: Bearer \
                       <accessToken>. Errors are {statusCode, code, message}."
    ),
    paths(
        accounts::get_accounts,
        accounts::refresh_balance,
        nfts::get_nfts,
        nfts::refresh_nfts,
        auth::app_info,
        auth::sign_up,
        auth::resend,
        auth::email_login,
        auth::refresh_identity,
        auth::service_login,
        auth::refresh_service,
        auth::current_user,
        auth::logout,
        auth::register,
        pin::challenge,
        pin::status,
        pin::verify,
        pin::change,
        pin::reset,
        pin::send_unlock_email,
        pin::unlock_page,
        pin::unlock,
        transactions::prepare,
        transactions::broadcast,
        transactions::list,
        transactions::get_one,
    ),
    components(schemas(satchel_api::ApiErrorBody)),
    modifiers(&SecurityHeaders)
)]
pub struct ApiDoc;

struct SecurityHeaders;

impl utoipa::Modify for SecurityHeaders {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{
            ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme,
        };
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "appKey",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::new("X-API-KEY"))),
        );
        components.add_security_scheme(
            "appDomain",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::new("X-API-DOMAIN"))),
        );
        components.add_security_scheme(
            "sdkType",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::new("X-SDK-TYPE"))),
        );
        components.add_security_scheme(
            "accessToken",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .build(),
            ),
        );
    }
}
