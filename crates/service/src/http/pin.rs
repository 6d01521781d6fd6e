//! Wallet keys (`satchel_api::keys`): the challenge a device signs, and a wallet's
//! PIN: its status, the share for the right proof, a new PIN, a reset with the
//! wallet's key, and the e-mail link that lifts a lock.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Html;
use satchel_api::{PinChange, PinProof, PinRelease, PinReset, PinStatus, WalletChallenge};
use serde::Deserialize;

use super::email_links::{button_page, page};
use super::{Json, Path, Query};
use crate::db::Unlock;
use crate::error::ApiResult;
use crate::identity::AuthUser;
use crate::state::AppState;
use crate::wallets::pin;

type Reply<T> = ApiResult<axum::Json<T>>;

/// A nonce to sign with the wallet's key (register, PIN reset): single use, for
/// 10 minutes; a user's 5 newest work.
#[utoipa::path(post, path = "/v1/wallets/challenge",
    responses((status = 200, body = WalletChallenge)),
    security(("appKey" = [], "accessToken" = [])))]
pub async fn challenge(State(state): State<AppState>, user: AuthUser) -> Reply<WalletChallenge> {
    Ok(axum::Json(pin::challenge(&state, &user.user_id).await?))
}

/// How to derive the PIN key, tries left, pause and lock, and whether a backup is
/// kept.
#[utoipa::path(get, path = "/v1/wallets/{walletId}/pin",
    params(("walletId" = String, Path, description = "the user's wallet")),
    responses((status = 200, body = PinStatus),
              (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: the wallet is another user's"),
              (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such wallet, or it has no PIN at the service")),
    security(("appKey" = [], "accessToken" = [])))]
pub async fn status(
    State(state): State<AppState>,
    user: AuthUser,
    Path(wallet_id): Path<String>,
) -> Reply<PinStatus> {
    Ok(axum::Json(pin::status(&state, &user, &wallet_id).await?))
}

/// The wallet's share (and backup) for the right PIN proof. Every proof is
/// counted before it is compared; 5 wrong in a row start a growing pause, 10
/// lock the PIN until the e-mail link is opened or the PIN is reset.
#[utoipa::path(post, path = "/v1/wallets/{walletId}/pin/verify", request_body = PinProof,
    params(("walletId" = String, Path, description = "the user's wallet")),
    responses((status = 200, body = PinRelease),
              (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidParameters: the proof is not base64 of 32 bytes"),
              (status = 403, body = satchel_api::ApiErrorBody, description = "WrongPin: a wrong proof (the message says how many tries are left); Forbidden: the wallet is another user's"),
              (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such wallet, or it has no PIN at the service"),
              (status = 423, body = satchel_api::ApiErrorBody, description = "PinLocked: 10 wrong proofs in a row; the e-mail link or a reset lifts the lock"),
              (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: paused after wrong proofs (the message says for how many seconds); even a right proof waits")),
    security(("appKey" = [], "accessToken" = [])))]
pub async fn verify(
    State(state): State<AppState>,
    user: AuthUser,
    Path(wallet_id): Path<String>,
    Json(body): Json<PinProof>,
) -> Reply<PinRelease> {
    Ok(axum::Json(
        pin::verify(&state, &user, &wallet_id, &body).await?,
    ))
}

/// A new PIN, proven by the old PIN's proof (counted like a verify). The share
/// stays (`pin.share` must be the current one); `backup` replaces the kept backup
/// when given.
#[utoipa::path(put, path = "/v1/wallets/{walletId}/pin", request_body = PinChange,
    params(("walletId" = String, Path, description = "the user's wallet")),
    responses((status = 204, description = "the new PIN is in force"),
              (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidParameters: malformed proof, PIN material or backup, or a share that is not the wallet's"),
              (status = 403, body = satchel_api::ApiErrorBody, description = "WrongPin: the old proof is wrong; Forbidden: the wallet is another user's"),
              (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such wallet, or it has no PIN at the service"),
              (status = 423, body = satchel_api::ApiErrorBody, description = "PinLocked"),
              (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: paused after wrong proofs")),
    security(("appKey" = [], "accessToken" = [])))]
pub async fn change(
    State(state): State<AppState>,
    user: AuthUser,
    Path(wallet_id): Path<String>,
    Json(body): Json<PinChange>,
) -> ApiResult<StatusCode> {
    pin::change(&state, &user, &wallet_id, body).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A new PIN and share for the person who proves with the wallet's key (from the
/// recovery phrase) that the wallet is theirs: a signature of a challenge. Lifts
/// any pause or lock; `backup` replaces the kept backup, or clears it when absent.
#[utoipa::path(post, path = "/v1/wallets/{walletId}/pin/reset", request_body = PinReset,
    params(("walletId" = String, Path, description = "the user's wallet")),
    responses((status = 204, description = "the new PIN and share are in force"),
              (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidParameters: malformed PIN material, backup or signature; a nonce that is unknown, another user's, used or expired; a signature not by the wallet's key (the message says which)"),
              (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: the wallet is another user's"),
              (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such wallet")),
    security(("appKey" = [], "accessToken" = [])))]
pub async fn reset(
    State(state): State<AppState>,
    user: AuthUser,
    Path(wallet_id): Path<String>,
    Json(body): Json<PinReset>,
) -> ApiResult<StatusCode> {
    pin::reset(&state, &user, &wallet_id, body).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// E-mails the user a link (single use, 24 hours) that lifts the lock after 10
/// wrong proofs.
#[utoipa::path(post, path = "/v1/wallets/{walletId}/pin/unlock-email",
    params(("walletId" = String, Path, description = "the user's wallet")),
    responses((status = 204, description = "the e-mail is sent"),
              (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidParameters: the PIN is not locked, or the user has no e-mail address"),
              (status = 403, body = satchel_api::ApiErrorBody, description = "Forbidden: the wallet is another user's"),
              (status = 404, body = satchel_api::ApiErrorBody, description = "NotFound: no such wallet, or it has no PIN at the service"),
              (status = 429, body = satchel_api::ApiErrorBody, description = "TooManyRequests: asked for too often"),
              (status = 502, body = satchel_api::ApiErrorBody, description = "FailedSendEmail")),
    security(("appKey" = [], "accessToken" = [])))]
pub async fn send_unlock_email(
    State(state): State<AppState>,
    user: AuthUser,
    Path(wallet_id): Path<String>,
) -> ApiResult<StatusCode> {
    pin::send_unlock_email(&state, &user, &wallet_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The token of an unlock link: the link's query, and the form its page posts.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct UnlockQuery {
    token: String,
}

/// The link in the unlock e-mail: a page that asks to confirm. Opening the link
/// changes nothing, so a mail scanner that follows links cannot lift the lock.
#[utoipa::path(get, path = "/v1/wallets/pin/unlock",
    params(("token" = String, Query, description = "the token of the e-mailed link")),
    responses((status = 200, description = "an HTML page with the button that lifts the lock", content_type = "text/html"),
              (status = 400, body = satchel_api::ApiErrorBody, description = "InvalidParameters: the link has no token")))]
pub async fn unlock_page(Query(query): Query<UnlockQuery>) -> Html<String> {
    Html(button_page(
        "Unlock your PIN?",
        "Only if you asked Satchel for this e-mail.",
        "/v1/wallets/pin/unlock",
        "Unlock my PIN",
        &query.token,
    ))
}

/// The page's button: lifts the PIN lock and says so.
#[utoipa::path(post, path = "/v1/wallets/pin/unlock",
    request_body(content = UnlockQuery, content_type = "application/x-www-form-urlencoded", description = "the page's form: the link's token"),
    responses((status = 200, description = "an HTML page: the PIN is unlocked", content_type = "text/html"),
              (status = 400, description = "an HTML page: the link was used already or has expired (or the form is not the page's)", content_type = "text/html"),
              (status = 423, description = "an HTML page: too many wrong PINs since the last right one; only the recovery phrase sets a new PIN", content_type = "text/html")))]
pub async fn unlock(
    State(state): State<AppState>,
    form: Result<axum::Form<UnlockQuery>, axum::extract::rejection::FormRejection>,
) -> ApiResult<(StatusCode, Html<String>)> {
    // A post that is not the page's form (not form-encoded, no token) opens no
    // link: the same page as a used one, never axum's plain-text rejection.
    let outcome = match form {
        Ok(axum::Form(form)) => pin::use_unlock_link(&state, &form.token).await?,
        Err(_) => Unlock::LinkDoesNotWork,
    };
    let (status, title, text) = match outcome {
        Unlock::Lifted { .. } => (
            StatusCode::OK,
            "PIN unlocked",
            "Your wallet's PIN is unlocked. Go back to the app and enter it.",
        ),
        Unlock::RecoveryRequired => (
            StatusCode::LOCKED,
            "Only your recovery phrase can unlock it now",
            "The PIN was entered wrongly too many times since it was last right. In the app, \
             set a new PIN with your recovery phrase.",
        ),
        Unlock::LinkDoesNotWork => (
            StatusCode::BAD_REQUEST,
            "This link does not work",
            "The link was used already or has expired. Ask the app to send a new one.",
        ),
    };
    Ok((status, Html(page(title, text))))
}
