//! The HTTP surface: the spec's four GET operations under `/v1`, identity and
//! sessions, wallet registration and PIN, sending, the OpenAPI document, a health check,
//! and JSON errors for everything else.

mod accounts;
pub(crate) mod caller;
mod cors;
mod email_links;
mod external;
mod identity;
mod nfts;
mod pin;
mod prices;
mod relay;
mod tokens;
mod transactions;
mod updates;
mod wallet_accounts;

use axum::Router;
use axum::extract::FromRequestParts;
use axum::http::StatusCode;
use axum::routing::get;
use satchel_api::{RestErrorCode, WalletQuery};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult};
use crate::identity::AuthUser;
use crate::state::AppState;

/// The operations, each routed and documented from its `#[utoipa::path]` (so a
/// route and its OpenAPI entry cannot drift), in the order the document lists them.
fn operations() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        // The spec's operations 1 to 4, in its order.
        .routes(routes!(accounts::get_accounts))
        .routes(routes!(accounts::refresh_balance))
        .routes(routes!(nfts::get_nfts))
        .routes(routes!(nfts::refresh_nfts))
        // Tokens added by contract address, beyond the spec.
        .routes(routes!(
            tokens::read_token,
            tokens::add_token,
            tokens::remove_token
        ))
        .routes(routes!(tokens::list_approvals))
        .routes(routes!(prices::list_prices))
        // Identity and sessions, which the spec leaves to the design.
        .routes(routes!(identity::app_info))
        .routes(routes!(identity::sign_up))
        .routes(routes!(identity::resend))
        .routes(routes!(email_links::verify_page, email_links::verify))
        .routes(routes!(identity::email_login))
        .routes(routes!(
            email_links::password_reset_page,
            email_links::password_reset
        ))
        .routes(routes!(email_links::password_reset_confirm))
        .routes(routes!(external::oauth_token))
        .routes(routes!(external::id_token))
        .routes(routes!(external::access_token))
        .routes(routes!(external::send_verify_email))
        .routes(routes!(external::verify_link_page, external::verify_link))
        .routes(routes!(external::resume))
        .routes(routes!(identity::refresh_identity))
        .routes(routes!(identity::service_login))
        .routes(routes!(identity::refresh_service))
        .routes(routes!(identity::current_user))
        .routes(routes!(identity::logout))
        .routes(routes!(identity::register))
        // Wallet keys: the challenge a device signs, and the wallet's PIN.
        .routes(routes!(pin::challenge))
        .routes(routes!(pin::unlock_page, pin::unlock))
        .routes(routes!(pin::status, pin::change))
        .routes(routes!(pin::verify))
        .routes(routes!(pin::reset))
        .routes(routes!(pin::send_unlock_email))
        // A wallet's further accounts and their names, beyond the spec.
        .routes(routes!(wallet_accounts::add_account))
        .routes(routes!(wallet_accounts::rename_account))
        // Sending: prepared here, signed on the device, broadcast and followed here.
        .routes(routes!(transactions::prepare))
        .routes(routes!(transactions::prepare_call))
        .routes(routes!(transactions::list, transactions::broadcast))
        .routes(routes!(transactions::get_one))
        // The chain read for the desktop's provider (no node URL on the device).
        .routes(routes!(relay::rpc))
        .routes(routes!(relay::head))
        // The desktop app's updates (no app key: public files).
        .routes(routes!(updates::file))
        .routes(routes!(updates::latest))
}

/// The OpenAPI document of every operation, as `/v1/openapi.json` serves it.
pub fn openapi() -> utoipa::openapi::OpenApi {
    document(operations().into_openapi())
}

/// The document with what every operation of a kind shares filled in.
fn document(mut doc: utoipa::openapi::OpenApi) -> utoipa::openapi::OpenApi {
    use utoipa::Modify as _;
    SecurityHeaders.modify(&mut doc);
    CommonResponses.modify(&mut doc);
    doc
}

/// The whole service as a router, ready to serve or to call in a test.
pub fn router(state: AppState) -> Router {
    let (router, doc) = operations().split_for_parts();
    let doc = std::sync::Arc::new(document(doc));
    router
        .route("/.well-known/jwks.json", get(identity::jwks))
        .route(
            "/v1/openapi.json",
            get(move || {
                let doc = doc.clone();
                async move { axum::Json(doc.as_ref().clone()) }
            }),
        )
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
        // Preflights answered (and answers let read) for registered web domains.
        .layer(cors::layer(state.clone()))
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

/// The document's own parts; the operations come from [`operations`].
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Satchel wallet service",
        description = "Accounts, balances and NFTs of a Satchel wallet, and its PIN. Every /v1 \
                       operation but the links in e-mails and the desktop app's updates needs the app's key (X-API-KEY, \
                       security scheme appKey) and the header parameters X-API-DOMAIN and \
                       X-SDK-TYPE; the wallet operations also need Authorization: Bearer \
                       <accessToken>. Errors are {statusCode, code, message}."
    ),
    components(schemas(satchel_api::ApiErrorBody))
)]
struct ApiDoc;

/// The names of the security schemes an operation asks for.
fn schemes(operation: &utoipa::openapi::path::Operation) -> Vec<String> {
    operation
        .security
        .iter()
        .flatten()
        .filter_map(|requirement| serde_json::to_value(requirement).ok())
        .filter_map(|value| value.as_object().map(|o| o.keys().cloned().collect()))
        .flat_map(|names: Vec<String>| names)
        .collect()
}

/// The answers every operation of a kind can give, documented once: those of the
/// app headers (400, 401, 403) on every operation that takes them, with the
/// access token's 401, and those of a JSON body (400 when it is not the body
/// described, or not sent as `application/json`; 413 over [`BODY_LIMIT`]). An
/// operation that documents one of these statuses itself keeps its own
/// description, with these reasons added to it.
struct CommonResponses;

impl CommonResponses {
    // The reasons of a 400 `InvalidParameters`, joined into one description.
    const BAD_HEADERS: &str = "X-API-DOMAIN or X-SDK-TYPE is missing, X-SDK-TYPE is \
                               malformed, or X-API-DOMAIN is empty for an app not registered \
                               for localhost alone";
    const BAD_BODY: &str = "the body is not the JSON described, or not sent as application/json";
    const BAD_PATH: &str = "a path parameter is not UTF-8 once decoded";
    const BAD_QUERY: &str = "a query parameter is missing";
    const NO_APP: &str = "InvalidAppKey: X-API-KEY is missing or is no app's key";
    const NO_USER: &str = "InvalidToken: the access token is missing, not valid, expired or \
                           another app's; InvalidLoginSession: its session has ended";
    const DOMAIN: &str = "InvalidDomain: X-API-DOMAIN is not registered for the app key";
    const TOO_LARGE: &str = "InvalidParameters: the body is larger than 64 KiB";
}

impl utoipa::Modify for CommonResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder};
        for (path, item) in openapi.paths.paths.iter_mut() {
            let operations = [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.delete,
                &mut item.patch,
            ];
            for operation in operations.into_iter().flatten() {
                let schemes = schemes(operation);
                let app = schemes.iter().any(|s| s == "appKey");
                let user = schemes.iter().any(|s| s == "accessToken");
                let json_body = operation
                    .request_body
                    .as_ref()
                    .is_some_and(|body| body.content.contains_key("application/json"));
                let path_params = path.contains('{');
                let query_params =
                    operation.parameters.iter().flatten().any(|p| {
                        matches!(p.parameter_in, utoipa::openapi::path::ParameterIn::Query)
                    });
                let bad: Vec<&str> = [
                    (app, Self::BAD_HEADERS),
                    (json_body, Self::BAD_BODY),
                    (app && path_params, Self::BAD_PATH),
                    (app && query_params, Self::BAD_QUERY),
                ]
                .into_iter()
                .filter_map(|(applies, reason)| applies.then_some(reason))
                .collect();
                let mut reasons: Vec<(&str, String)> = Vec::new();
                if !bad.is_empty() {
                    reasons.push(("400", format!("InvalidParameters: {}", bad.join("; "))));
                }
                if app {
                    reasons.push(("401", Self::NO_APP.to_owned()));
                    reasons.push(("403", Self::DOMAIN.to_owned()));
                }
                if user {
                    reasons.push(("401", Self::NO_USER.to_owned()));
                }
                if json_body {
                    reasons.push(("413", Self::TOO_LARGE.to_owned()));
                }
                for (status, reason) in reasons {
                    match operation.responses.responses.get_mut(status) {
                        Some(RefOr::T(response)) => {
                            if !response.description.contains(&reason) {
                                if !response.description.is_empty() {
                                    response.description.push_str("; ");
                                }
                                response.description.push_str(&reason);
                            }
                        }
                        Some(RefOr::Ref(_)) => {}
                        None => {
                            let error = ResponseBuilder::new()
                                .description(reason)
                                .content(
                                    "application/json",
                                    ContentBuilder::new()
                                        .schema(Some(Ref::from_schema_name("ApiErrorBody")))
                                        .build(),
                                )
                                .build();
                            operation
                                .responses
                                .responses
                                .insert(status.to_owned(), RefOr::T(error));
                        }
                    }
                }
            }
        }
    }
}

/// The credentials (the app's key, the user's access token) as security schemes,
/// and the two other app headers as the parameters they are: on every operation
/// that takes the key, X-API-DOMAIN (a missing one is 400, one not registered for
/// the key 403) and X-SDK-TYPE (400 when missing or malformed).
struct SecurityHeaders;

impl SecurityHeaders {
    fn app_headers() -> [utoipa::openapi::path::Parameter; 2] {
        use utoipa::openapi::Required;
        use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        // What the service takes: visible ASCII, spaces and tabs (around the value
        // they do not count), nothing else (`crate::auth`).
        let header = |name: &str, description: &str, pattern: &str| {
            ParameterBuilder::new()
                .name(name)
                .parameter_in(ParameterIn::Header)
                .required(Required::True)
                .description(Some(description))
                .schema(Some(
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .pattern(Some(pattern)),
                ))
                .build()
        };
        [
            header(
                "X-API-DOMAIN",
                "The domain the app calls from, registered for its key (else 403 \
                 InvalidDomain). Empty only for an app registered for localhost alone \
                 (else 400).",
                r"^[\t -~]*$",
            ),
            header(
                "X-SDK-TYPE",
                "<platform>_rest_api, e.g. desktop_rest_api: lowercase letters, digits, `_` \
                 and `-`, at most 64",
                r"^[\t ]*[a-z0-9_-]{1,64}[\t ]*$",
            ),
        ]
    }
}

impl utoipa::Modify for SecurityHeaders {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{
            ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme,
        };
        for item in openapi.paths.paths.values_mut() {
            let operations = [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.delete,
                &mut item.patch,
            ];
            for operation in operations.into_iter().flatten() {
                if schemes(operation).iter().any(|s| s == "appKey") {
                    let parameters = operation.parameters.get_or_insert_with(Vec::new);
                    for header in Self::app_headers() {
                        if !parameters.iter().any(|p| p.name == header.name) {
                            parameters.push(header);
                        }
                    }
                }
            }
        }
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "appKey",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::new("X-API-KEY"))),
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

#[cfg(test)]
mod tests;
