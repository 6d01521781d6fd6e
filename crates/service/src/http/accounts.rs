//! Operations 1 and 2: a wallet's accounts (`GET /v1/account`), and an account's
//! balance refresh (`GET /v1/accountbalance/{accountId}/balance`).

use axum::Json;
use axum::extract::State;
use satchel_api::{AccountsResponse, BalanceResponse, WalletQuery};

use super::{Path, Query, RawJson};
use crate::assets::{balances, views};
use crate::db::{KeptBody, WalletFound, WalletRead};
use crate::error::{ApiError, ApiResult};
use crate::http::caller::AuthToken;
use crate::identity::AuthUser;
use crate::state::{AppState, WalletView};

/// Retrieve account information.
#[utoipa::path(
    get,
    path = "/v1/account",
    params(WalletQuery),
    responses(
        (status = 200, body = AccountsResponse),
        (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: userId is not the caller's, or the wallet is another user's"),
        (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such wallet"),
    ),
    security(("appKey" = [], "accessToken" = []))
)]
pub async fn get_accounts(
    State(state): State<AppState>,
    token: AuthToken,
    Query(query): Query<WalletQuery>,
) -> ApiResult<RawJson> {
    if query.user_id != token.user_id() {
        token.check_session(&state).await?;
        return Err(ApiError::forbidden());
    }
    let view = match state.cached_wallet_view(&query.wallet_id) {
        Some(view) => {
            token.check_session(&state).await?;
            view
        }
        // Not read lately: the session is checked in the same read as the wallet.
        None => {
            let (live, found) = state
                .db
                .wallet_for_session(
                    &query.wallet_id,
                    token.session_id(),
                    token.user_id(),
                    &state.accounts_rendered_by,
                )
                .await?;
            token.found_live(&state, live)?;
            let found = found.ok_or_else(|| ApiError::not_found("wallet"))?;
            if found.owner() != token.user_id() {
                return Err(ApiError::forbidden());
            }
            let view = match found {
                WalletFound::Kept { owner, body } => WalletView {
                    owner,
                    accounts_body: body.into(),
                },
                WalletFound::Rows(wallet) => {
                    render_and_keep(&state, &query.wallet_id, wallet).await?
                }
            };
            state.remember_wallet_view(&query.wallet_id, view)
        }
    };
    if view.owner != token.user_id() {
        return Err(ApiError::forbidden());
    }
    Ok(RawJson(view.accounts_body.clone()))
}

/// Renders a wallet's `GET /v1/account` body and has it kept with the wallet,
/// for the reads after this one until the wallet changes.
async fn render_and_keep(
    state: &AppState,
    wallet_id: &str,
    wallet: WalletRead,
) -> ApiResult<WalletView> {
    // Tokens added on another instance are learned first (no query when all
    // are known).
    state
        .learn_wallet_tokens(&wallet.accounts, &wallet.tokens)
        .await?;
    let accounts =
        views::accounts_list(&wallet.accounts, &wallet.tokens, |name| state.network(name));
    let body = serde_json::to_string(&AccountsResponse {
        wallet_id: wallet_id.to_owned(),
        accounts,
    })
    .map_err(ApiError::internal)?;
    let accounts_body = axum::body::Bytes::from(body.clone());
    // Written back after the answer, in a batch (what cannot be kept is
    // rendered again by the next read).
    state.kept_bodies.keep(KeptBody {
        wallet_id: wallet_id.to_owned(),
        version: wallet.version,
        body,
    });
    Ok(WalletView {
        owner: wallet.owner,
        accounts_body,
    })
}

/// Refresh account balance: reads the node now and stores the result.
#[utoipa::path(
    get,
    path = "/v1/accountbalance/{accountId}/balance",
    params(("accountId" = String, Path, description = "accountId from operation 1")),
    responses(
        (status = 200, body = BalanceResponse),
        (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: the account is another user's"),
        (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such account"),
        (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: the account's balance was refreshed too often in the last minute"),
        (status = 502, body = satchel_api::ApiErrorBody, description = "UpstreamUnavailable: the network's node failed"),
    ),
    security(("appKey" = [], "accessToken" = []))
)]
pub async fn refresh_balance(
    State(state): State<AppState>,
    user: AuthUser,
    Path(account_id): Path<String>,
) -> ApiResult<Json<BalanceResponse>> {
    Ok(Json(
        balances::refresh_account_balance(&state, &user.user_id, &account_id).await?,
    ))
}
