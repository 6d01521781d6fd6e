//! Registering a wallet: the device made the keys and sends one address and its
//! derivation path, a signature of a challenge by that address's key, and the PIN
//! material the service keeps ([`crate::pin`]); the service creates the wallet
//! with an account on every configured network (EVM networks share the address)
//! and its PIN material in one transaction.

use axum::http::StatusCode;
use satchel_api::{RegisterRequest, RestErrorCode};
use satchel_chain::Address;

use crate::assets::views::lower_hex;
use crate::config::Settings;
use crate::db::{DbError, NewAccount, NewWalletKey, SignedChallenge, new_id};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::wallets::checks;

/// The rows of an account with this address: one per configured network, each
/// tracking that network's tokens.
pub fn accounts_for(
    settings: &Settings,
    address: &Address,
    address_path: &str,
    label: &str,
) -> Vec<NewAccount> {
    settings
        .networks
        .iter()
        .map(|network| NewAccount {
            network: network.name.clone(),
            address: lower_hex(address),
            address_path: address_path.to_owned(),
            label: label.to_owned(),
            tokens: network
                .tokens
                .iter()
                .map(|t| t.contract.to_ascii_lowercase())
                .collect(),
        })
        .collect()
}

/// The first account's name.
const FIRST_LABEL: &str = "Account 1";

/// A BIP-44 path on Ethereum's coin type: `m/44'/60'/...`.
fn is_evm_path(path: &str) -> bool {
    path.strip_prefix("m/44'/60'/").is_some_and(|rest| {
        rest.split('/').all(|part| {
            let digits = part.strip_suffix('\'').unwrap_or(part);
            !digits.is_empty() && digits.len() <= 10 && digits.bytes().all(|b| b.is_ascii_digit())
        })
    })
}

pub(super) fn parse_address(address: &str) -> ApiResult<Address> {
    address
        .parse()
        .map_err(|_| ApiError::bad_request(format!("{address} is not an EVM address")))
}

fn check_path(address_path: &str) -> ApiResult<()> {
    if is_evm_path(address_path) {
        Ok(())
    } else {
        Err(ApiError::bad_request(
            "addressPath must be a BIP-44 path like m/44'/60'/0'/0/0",
        ))
    }
}

fn has_wallet_already() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        RestErrorCode::Conflict,
        "this user has a wallet already",
    )
}

/// `POST /v1/wallets`: creates the user's wallet with its PIN material, when the
/// request's nonce is a challenge of this user's (used up here) and its signature
/// is by `address`'s key. A malformed field, a refused nonce or a wrong signer is
/// a 400 and creates nothing; a user with a wallet already gets 409 (whatever the
/// nonce, so a retried registration learns that it went through).
pub async fn register(state: &AppState, user_id: &str, body: RegisterRequest) -> ApiResult<String> {
    let address = parse_address(&body.address)?;
    check_path(&body.address_path)?;
    let pin = checks::check_pin(&body.pin, "pin")?;
    let backup = checks::check_backup(body.backup)?;
    let signature = checks::parse_signature(&body.signature)?;
    if state.db.user_wallet(user_id).await?.is_some() {
        return Err(has_wallet_already());
    }
    let wallet_id = new_id();
    let key = NewWalletKey {
        address: lower_hex(&address),
        pin: pin.stored(&state.pin_keys, &wallet_id),
        backup,
    };
    let challenge = SignedChallenge {
        user_id,
        nonce: &body.nonce,
        signer_ok: checks::signed_by(&signature, user_id, &body.nonce, &address),
    };
    let accounts = accounts_for(&state.settings, &address, &body.address_path, FIRST_LABEL);
    match state
        .db
        .register_wallet(&wallet_id, &accounts, challenge, &key)
        .await
    {
        Ok(outcome) => checks::signed_outcome(outcome, &address).map(|()| wallet_id),
        Err(DbError::Conflict) => Err(has_wallet_already()),
        Err(e) => Err(e.into()),
    }
}

/// Creates the user's wallet without PIN material (the operator's `admin
/// create-wallet`, the tests and the benchmark); 409 when the user has one already.
pub async fn create(
    state: &AppState,
    user_id: &str,
    address: &str,
    address_path: &str,
) -> ApiResult<String> {
    let address = parse_address(address)?;
    check_path(address_path)?;
    match state
        .db
        .create_wallet(
            user_id,
            &accounts_for(&state.settings, &address, address_path, FIRST_LABEL),
        )
        .await
    {
        Ok(wallet_id) => Ok(wallet_id),
        Err(DbError::Conflict) => Err(has_wallet_already()),
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evm_paths() {
        assert!(is_evm_path("m/44'/60'/0'/0/0"));
        assert!(is_evm_path("m/44'/60'/1'/0/12"));
        assert!(!is_evm_path("m/44'/0'/0'/0/0"));
        assert!(!is_evm_path("m/44'/60'/x/0"));
        assert!(!is_evm_path("m/44'/60'/"));
    }
}
