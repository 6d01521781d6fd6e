//! ENS names on the device: a typed name (`alice.eth`) resolved to the address
//! a send goes to, and an address's primary name, shown only when it resolves
//! back to that address (a reverse record anyone can set says nothing alone).
//!
//! The registry is the one the app's network table names, never the service's
//! choice; the calls go through the service's read relay, as every chain read
//! of the device does, and their answers are decoded as hostile bytes
//! (`satchel_chain::ens`). A service that lies about a name can name another
//! address: the pages show the address beside the name, and a first send to an
//! address is told in amber as any other.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use alloy::primitives::{Address, Bytes};
use satchel_chain::ens;
use serde_json::json;

use super::Widget;
use super::send::invalid;
use crate::error::SdkError;

/// How long a primary name found (or found missing) is believed.
const NAME_LIFETIME: Duration = Duration::from_secs(5 * 60);
/// Primary names remembered at once (pages ask for a few addresses each).
pub(crate) const NAMES_KEPT: usize = 512;

/// Primary names by network and address, as last checked.
#[derive(Debug, Default)]
pub(crate) struct PrimaryNames {
    checked: HashMap<(String, Address), (Option<String>, Instant)>,
}

impl PrimaryNames {
    fn get(&self, network: &str, address: Address) -> Option<Option<String>> {
        let (name, at) = self.checked.get(&(network.to_owned(), address))?;
        (at.elapsed() < NAME_LIFETIME).then(|| name.clone())
    }

    fn keep(&mut self, network: &str, address: Address, name: Option<String>) {
        if self.checked.len() >= NAMES_KEPT {
            self.checked
                .retain(|_, (_, at)| at.elapsed() < NAME_LIFETIME);
            if self.checked.len() >= NAMES_KEPT {
                self.checked.clear();
            }
        }
        self.checked
            .insert((network.to_owned(), address), (name, Instant::now()));
    }
}

impl Widget {
    /// The address `name` resolves to on `network`, and the name in the form
    /// it was resolved (lower case).
    pub async fn resolve_name(
        &self,
        network: &str,
        name: &str,
    ) -> Result<(String, Address), SdkError> {
        let name = ens::normalize(name).map_err(|e| invalid(e.to_string()))?;
        let registry = self.ens_registry(network).ok_or_else(|| {
            invalid(format!(
                "names are not used on {network}: enter the address (0x…)"
            ))
        })?;
        let node = ens::namehash(&name);
        let resolver = self
            .ens_address(network, registry, ens::resolver_call(node))
            .await?
            .ok_or_else(|| invalid(format!("{name} is not a registered name")))?;
        let address = self
            .ens_address(network, resolver, ens::addr_call(node))
            .await?
            .ok_or_else(|| invalid(format!("{name} names no address")))?;
        Ok((name, address))
    }

    /// `address`'s primary name on `network`: its reverse record's name, only
    /// when that name resolves to `address`. `None` when it has none, or one
    /// that names another address.
    pub async fn primary_name(
        &self,
        network: &str,
        address: Address,
    ) -> Result<Option<String>, SdkError> {
        let Some(registry) = self.ens_registry(network) else {
            return Ok(None);
        };
        if let Some(known) = self.primary_names.lock().get(network, address) {
            return Ok(known);
        }
        let node = ens::reverse_node(address);
        let claimed = match self
            .ens_address(network, registry, ens::resolver_call(node))
            .await?
        {
            Some(resolver) => self
                .ens_read(network, resolver, ens::name_call(node))
                .await?
                .as_deref()
                .and_then(ens::decode_name),
            None => None,
        };
        let named = match claimed {
            Some(name) => match self.resolve_name(network, &name).await {
                Ok((_, forward)) if forward == address => Some(name),
                Ok(_) => None,
                // Registered nowhere, or to no address: not this one's.
                Err(e) if e.is(satchel_api::ServiceErrorCode::InvalidParameters) => None,
                Err(e) => return Err(e),
            },
            None => None,
        };
        self.primary_names
            .lock()
            .keep(network, address, named.clone());
        Ok(named)
    }

    /// `address`'s primary name on the first network of the app's table that
    /// names an ENS registry: for what has no network of its own (an address
    /// book entry).
    pub async fn primary_name_anywhere(
        &self,
        address: Address,
    ) -> Result<Option<String>, SdkError> {
        let network = self
            .networks
            .networks
            .iter()
            .find(|n| n.ens_registry.is_some())
            .map(|n| n.name.clone());
        match network {
            Some(network) => self.primary_name(&network, address).await,
            None => Ok(None),
        }
    }

    fn ens_registry(&self, network: &str) -> Option<Address> {
        self.networks.network(network)?.ens_registry
    }

    /// The address a `resolver` or `addr` call of `to` answers; `None` for
    /// none (the zero address, a revert, an answer that is not one).
    async fn ens_address(
        &self,
        network: &str,
        to: Address,
        data: Bytes,
    ) -> Result<Option<Address>, SdkError> {
        Ok(self
            .ens_read(network, to, data)
            .await?
            .as_deref()
            .and_then(ens::decode_address))
    }

    /// One `eth_call` of `to` through the relay: its answer's bytes, or `None`
    /// when the call reverted (no such record, no such contract).
    async fn ens_read(
        &self,
        network: &str,
        to: Address,
        data: Bytes,
    ) -> Result<Option<Vec<u8>>, SdkError> {
        let answer = self
            .relay_read(
                network,
                "eth_call",
                json!([{"to": to, "data": data}, "latest"]),
            )
            .await;
        match answer {
            Ok(value) => Ok(value
                .as_str()
                .and_then(|text| alloy::hex::decode(text).ok())),
            // Reverted: the node's "execution reverted" codes.
            Err(refusal) if matches!(refusal.code, 3 | -32000) => Ok(None),
            Err(refusal) => Err(SdkError::service(
                satchel_api::ServiceErrorCode::ApiRequestError,
                format!("names cannot be looked up now: {}", refusal.message),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primary_names_are_kept_bounded() {
        let mut names = PrimaryNames::default();
        for i in 0..2_000u32 {
            let address = Address::left_padding_from(&i.to_be_bytes());
            names.keep("anvil", address, Some(format!("n{i}.eth")));
            assert!(names.checked.len() <= NAMES_KEPT);
            assert_eq!(
                names.get("anvil", address),
                Some(Some(format!("n{i}.eth"))),
                "the newest is remembered"
            );
        }
        assert_eq!(names.get("other", Address::ZERO), None, "never checked");
    }
}
