//! A wallet's further accounts: the device derives the phrase's next address
//! (`m/44'/60'/0'/0/i`) and proves it holds its key with a signature of a
//! challenge, as at registration; the service adds it on every network. And an
//! account's name.

use axum::http::StatusCode;
use satchel_api::rules::{MAX_ACCOUNTS, account_index, account_label};
use satchel_api::{AccountLabel, AccountsResponse, AddAccount, RestErrorCode};

use super::checks::{own_wallet, parse_signature, signed_by, signed_outcome};
use super::register::{accounts_for, parse_address};
use crate::assets::views::{self, lower_hex};
use crate::db::{AccountAdded, DbError, SignedChallenge};
use crate::error::{ApiError, ApiResult};
use crate::identity::AuthUser;
use crate::sending::checked_address;
use crate::state::AppState;

fn label_of(text: &str) -> ApiResult<String> {
    account_label(text).map_err(|message| ApiError::bad_request(format!("label: {message}")))
}

fn full() -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        RestErrorCode::TooManyRequests,
        format!("a wallet keeps at most {MAX_ACCOUNTS} accounts"),
    )
}

fn not_next(count: u32) -> ApiError {
    ApiError::bad_request(format!(
        "addressPath: the wallet's next account is m/44'/60'/0'/0/{count}"
    ))
}

/// Adds the wallet's next account on every network, and gives the wallet's
/// accounts after it. A malformed field, a path that is not the next index, a
/// refused nonce or a wrong signer is a 400 and adds nothing; an address the
/// wallet has is 409; a full wallet 429.
pub async fn add(
    state: &AppState,
    user: &AuthUser,
    wallet_id: &str,
    body: AddAccount,
) -> ApiResult<AccountsResponse> {
    own_wallet(state, user, wallet_id).await?;
    let address = parse_address(&body.address)?;
    let index = account_index(&body.address_path).ok_or_else(|| {
        ApiError::bad_request("addressPath must be m/44'/60'/0'/0/i, the wallet's next index")
    })?;
    let label = label_of(&body.label)?;
    let signature = parse_signature(&body.signature)?;
    if index >= MAX_ACCOUNTS {
        return Err(full());
    }
    let challenge = SignedChallenge {
        user_id: &user.user_id,
        nonce: &body.nonce,
        signer_ok: signed_by(&signature, &user.user_id, &body.nonce, &address),
    };
    let rows = accounts_for(&state.settings, &address, &body.address_path, &label);
    let added = state
        .db
        .add_account(wallet_id, index, &rows, challenge)
        .await;
    state.forget_wallet(wallet_id);
    match added {
        Ok(AccountAdded::Done) => {}
        Ok(AccountAdded::Refused(outcome)) => signed_outcome(outcome, &address)?,
        Ok(AccountAdded::NotNext(count)) if count >= MAX_ACCOUNTS => return Err(full()),
        Ok(AccountAdded::NotNext(count)) => return Err(not_next(count)),
        Err(DbError::Conflict) => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                RestErrorCode::Conflict,
                "that address is one of the wallet's accounts already",
            ));
        }
        Err(e) => return Err(e.into()),
    }
    let (accounts, tokens) = state.db.wallet_accounts(wallet_id).await?;
    state.learn_wallet_tokens(&accounts, &tokens).await?;
    Ok(AccountsResponse {
        wallet_id: wallet_id.to_owned(),
        accounts: views::accounts_list(&accounts, &tokens, |name| state.network(name)),
    })
}

/// Names the wallet's account at `address` on every network.
pub async fn rename(
    state: &AppState,
    user: &AuthUser,
    wallet_id: &str,
    address: &str,
    body: AccountLabel,
) -> ApiResult<()> {
    own_wallet(state, user, wallet_id).await?;
    let address = checked_address(address).ok_or_else(|| {
        ApiError::bad_request("`address` is not an address, or its checksum is wrong")
    })?;
    let label = label_of(&body.label)?;
    let changed = state
        .db
        .rename_account(wallet_id, &lower_hex(&address), &label)
        .await?;
    state.forget_wallet(wallet_id);
    if changed == 0 {
        return Err(ApiError::not_found("account"));
    }
    Ok(())
}
