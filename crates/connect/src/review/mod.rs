//! What the person is shown for a request that uses the key (a message, typed
//! data, a transaction), derived here from
//! the request itself, together with exactly what the key would sign: the page
//! never shows one thing while the key signs another. A review that must not be
//! signed carries its refusal, which the page shows in red and the shell
//! enforces whatever the page answers.

pub mod asset;
pub mod calls;
pub mod message;
pub mod permit;
pub mod seaport;
pub mod siwe;
pub mod transaction;
pub mod typed;

use alloy::primitives::Address;
use serde_json::Value;

use crate::rpc::ProviderError;

/// The signing account a request names: one of the addresses the origin sees
/// (`4100` for any other).
pub(crate) fn account_param(
    param: Option<&Value>,
    accounts: &[Address],
) -> Result<Address, ProviderError> {
    let account: Address = param
        .and_then(Value::as_str)
        .and_then(|a| a.parse().ok())
        .ok_or_else(|| ProviderError::invalid_params("expected the signing account's address"))?;
    if accounts.contains(&account) {
        Ok(account)
    } else {
        Err(ProviderError::unauthorized())
    }
}
