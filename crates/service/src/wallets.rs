//! Registering a wallet: the device made the keys and sends one address and its
//! derivation path; the service creates the wallet with an account on every
//! configured network (EVM networks share the address) in one transaction.

use axum::http::StatusCode;
use satchel_api::RestErrorCode;
use satchel_chain::Address;

use crate::config::Settings;
use crate::db::{DbError, NewAccount};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::views::lower_hex;

/// The accounts a wallet with this address gets: one per configured network, each
/// tracking that network's tokens.
pub fn accounts_for(settings: &Settings, address: &Address, address_path: &str) -> Vec<NewAccount> {
    settings
        .networks
        .iter()
        .map(|network| NewAccount {
            network: network.name.clone(),
            address: lower_hex(address),
            address_path: address_path.to_owned(),
            label: "Account 1".to_owned(),
            tokens: network
                .tokens
                .iter()
                .map(|t| t.contract.to_ascii_lowercase())
                .collect(),
        })
        .collect()
}

/// A BIP-44 path on Ethereum's coin type: `m/44'/60'/...`.
fn is_evm_path(path: &str) -> bool {
    path.strip_prefix("m/44'/60'/").is_some_and(|rest| {
        rest.split('/').all(|part| {
            let digits = part.strip_suffix('\'').unwrap_or(part);
            !digits.is_empty() && digits.len() <= 10 && digits.bytes().all(|b| b.is_ascii_digit())
        })
    })
}

/// Creates the user's wallet; 409 when the user has one already.
pub async fn create(
    state: &AppState,
    user_id: &str,
    address: &str,
    address_path: &str,
) -> ApiResult<String> {
    let address: Address = address
        .parse()
        .map_err(|_| ApiError::bad_request(format!("{address} is not an EVM address")))?;
    if !is_evm_path(address_path) {
        return Err(ApiError::bad_request(
            "addressPath must be a BIP-44 path like m/44'/60'/0'/0/0",
        ));
    }
    match state
        .db
        .create_wallet(
            user_id,
            &accounts_for(&state.settings, &address, address_path),
        )
        .await
    {
        Ok(wallet_id) => Ok(wallet_id),
        Err(DbError::Conflict) => Err(ApiError::new(
            StatusCode::CONFLICT,
            RestErrorCode::Conflict,
            "this user has a wallet already",
        )),
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
