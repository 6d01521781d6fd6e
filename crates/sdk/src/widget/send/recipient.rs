//! Addresses as people type them: checked for their form and their EIP-55
//! checksum before anything is sent to them.

use alloy::primitives::Address;

use super::{AddressCheck, invalid};
use crate::error::SdkError;
use crate::widget::{AccountRef, Widget};

/// Checks a typed address: 40 hex digits after `0x`; mixed case must be its
/// EIP-55 checksum (a typo changes it), one case has none to check.
pub fn check_address(text: &str) -> Result<Address, SdkError> {
    let text = text.trim();
    let hex = text
        .strip_prefix("0x")
        .filter(|h| h.len() == 40 && h.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| invalid("not an address: 0x and 40 hexadecimal digits"))?;
    let address: Address = text
        .parse()
        .map_err(|_| invalid("not an address: 0x and 40 hexadecimal digits"))?;
    let one_case = hex == hex.to_lowercase() || hex == hex.to_uppercase();
    if !one_case && address.to_checksum(None) != text {
        return Err(invalid(
            "the address's checksum does not match: check it for a typo",
        ));
    }
    Ok(address)
}

impl Widget {
    /// Checks a recipient as it is typed: an address, or an ENS name resolved
    /// on the account's network.
    pub async fn check_recipient(
        &self,
        account: &AccountRef,
        to: &str,
    ) -> Result<AddressCheck, SdkError> {
        let (address, name) = self.recipient(&account.network, to).await?;
        let from: Address = account
            .address
            .parse()
            .map_err(|_| invalid("not one of your accounts"))?;
        Ok(AddressCheck {
            address: address.to_checksum(None),
            is_self: address == from,
            name,
        })
    }

    /// A typed recipient: an address (checked), or a name (`alice.eth`) and
    /// the address it resolves to on `network`.
    pub(crate) async fn recipient(
        &self,
        network: &str,
        to: &str,
    ) -> Result<(Address, Option<String>), SdkError> {
        if satchel_chain::ens::looks_like_name(to) {
            let (name, address) = self.resolve_name(network, to).await?;
            Ok((address, Some(name)))
        } else {
            Ok((check_address(to)?, None))
        }
    }
}
