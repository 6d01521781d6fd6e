//! The networks an app trusts: chain ids, coins and token contracts from the
//! app's own configuration (baked in at build time or in its settings file),
//! never from the wallet service. The device signs for a chain and a token only
//! as this table names them, and an account the service lists that disagrees
//! with it (another chain, another contract, other decimals or symbol) is not
//! believed.

use alloy::primitives::Address;
use serde::{Deserialize, Serialize};

/// At most this many networks, and tokens on one network, in a table: it comes
/// from a file a person can write, and the device looks every account up in it.
pub const MAX_NETWORKS: usize = 64;
pub const MAX_TOKENS: usize = 512;
/// At most this many vouched-for NFT collections on one network.
pub const MAX_COLLECTIONS: usize = 1_024;

/// The networks an app was configured for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkTable {
    #[serde(default)]
    pub networks: Vec<KnownNetwork>,
}

/// One network as the app knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownNetwork {
    /// The network's name in the service's accounts, e.g. `ethereum`.
    pub name: String,
    pub chain_id: u64,
    /// The coin's symbol and decimals.
    pub symbol: String,
    pub decimals: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tokens: Vec<KnownToken>,
    /// NFT collections this app vouches for: never hidden as likely spam.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub collections: Vec<Address>,
    /// How old the coin's price may be before it is stale, in seconds: its
    /// feed's heartbeat (absent: [`DEFAULT_PRICE_STALE_SECS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_stale_secs: Option<u64>,
    /// The network's ENS registry (EIP-137): where names (`alice.eth`) are
    /// resolved; absent, names are not taken on this network.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ens_registry: Option<Address>,
}

/// A price's staleness bound when the table names none: a day, the longest
/// heartbeat Chainlink feeds commonly have.
pub const DEFAULT_PRICE_STALE_SECS: u64 = 24 * 60 * 60;

/// An ERC-20 token as the app knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownToken {
    pub contract: Address,
    pub symbol: String,
    pub decimals: u32,
    /// As [`KnownNetwork::price_stale_secs`], for the token's price.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_stale_secs: Option<u64>,
}

/// How an account the service listed disagrees with the table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Disagreement {
    #[error("the network {0} is not one this app knows")]
    UnknownNetwork(String),
    #[error("the token contract {0} is not one this app knows on its network")]
    UnknownToken(String),
    #[error("the service gives {what} {listed}, this app's table {known}")]
    Differs {
        what: &'static str,
        listed: String,
        known: String,
    },
}

impl NetworkTable {
    /// Checks a table read from configuration: bounded, names unique, decimals
    /// an amount can have (at most 77 digits fit in 256 bits).
    pub fn validate(&self) -> Result<(), String> {
        if self.networks.is_empty() {
            return Err("the network table names no network".into());
        }
        if self.networks.len() > MAX_NETWORKS {
            return Err(format!("more than {MAX_NETWORKS} networks"));
        }
        for (i, network) in self.networks.iter().enumerate() {
            let name = &network.name;
            if name.trim().is_empty() || network.symbol.trim().is_empty() {
                return Err(format!("network {} has no name or symbol", i + 1));
            }
            if self.networks[..i].iter().any(|n| &n.name == name) {
                return Err(format!("the network {name} is named twice"));
            }
            if network.chain_id == 0 || network.decimals > 77 {
                return Err(format!(
                    "the network {name} has no chain id or too many decimals"
                ));
            }
            if network.collections.len() > MAX_COLLECTIONS {
                return Err(format!(
                    "the network {name} names more than {MAX_COLLECTIONS} NFT collections"
                ));
            }
            if network.tokens.len() > MAX_TOKENS {
                return Err(format!(
                    "the network {name} has more than {MAX_TOKENS} tokens"
                ));
            }
            for (j, token) in network.tokens.iter().enumerate() {
                if token.decimals > 77 || token.symbol.trim().is_empty() {
                    return Err(format!(
                        "the token {} on {name} has no symbol or too many decimals",
                        token.contract
                    ));
                }
                if network.tokens[..j]
                    .iter()
                    .any(|t| t.contract == token.contract)
                {
                    return Err(format!(
                        "the token {} on {name} is named twice",
                        token.contract
                    ));
                }
            }
        }
        Ok(())
    }

    /// The network named `name`.
    pub fn network(&self, name: &str) -> Option<&KnownNetwork> {
        self.networks.iter().find(|n| n.name == name)
    }

    /// The symbol and decimals of a network's coin (`contract` `None`) or of one
    /// of its tokens, when the table knows them.
    pub fn asset(&self, network: &str, contract: Option<&str>) -> Option<(&str, u32)> {
        let known = self.network(network)?;
        match contract {
            None => Some((&known.symbol, known.decimals)),
            Some(contract) => {
                let address = contract.parse::<Address>().ok()?;
                let token = known.tokens.iter().find(|t| t.contract == address)?;
                Some((&token.symbol, token.decimals))
            }
        }
    }

    /// How old a price of the asset may be before it is stale: the table's
    /// bound for it (its feed's heartbeat), else [`DEFAULT_PRICE_STALE_SECS`].
    pub fn price_stale_secs(&self, network: &str, contract: Option<&str>) -> u64 {
        let known = self.network(network);
        let bound = match contract {
            None => known.and_then(|n| n.price_stale_secs),
            Some(contract) => {
                let address = contract.parse::<Address>().ok();
                known
                    .and_then(|n| n.tokens.iter().find(|t| Some(t.contract) == address))
                    .and_then(|t| t.price_stale_secs)
            }
        };
        bound.unwrap_or(DEFAULT_PRICE_STALE_SECS)
    }

    /// Whether an entry of the service's account list (its network, token
    /// contract, symbol and decimals) is what this table says.
    pub fn check(
        &self,
        network: &str,
        contract: Option<&str>,
        symbol: &str,
        decimals: u32,
    ) -> Result<(), Disagreement> {
        if self.network(network).is_none() {
            return Err(Disagreement::UnknownNetwork(network.to_owned()));
        }
        let (known_symbol, known_decimals) = self
            .asset(network, contract)
            .ok_or_else(|| Disagreement::UnknownToken(contract.unwrap_or_default().to_owned()))?;
        if decimals != known_decimals {
            return Err(Disagreement::Differs {
                what: "decimals",
                listed: decimals.to_string(),
                known: known_decimals.to_string(),
            });
        }
        if symbol != known_symbol {
            return Err(Disagreement::Differs {
                what: "symbol",
                listed: symbol.to_owned(),
                known: known_symbol.to_owned(),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const USDC: &str = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";

    fn table() -> NetworkTable {
        NetworkTable {
            networks: vec![KnownNetwork {
                name: "ethereum".into(),
                chain_id: 1,
                symbol: "ETH".into(),
                decimals: 18,
                tokens: vec![KnownToken {
                    contract: USDC.parse().expect("address"),
                    symbol: "USDC".into(),
                    decimals: 6,
                    price_stale_secs: Some(86_400 + 600),
                }],
                collections: Vec::new(),
                ens_registry: None,
                price_stale_secs: Some(3_600 + 600),
            }],
        }
    }

    #[test]
    fn a_price_is_stale_past_its_own_feeds_bound_else_past_a_day() {
        let t = table();
        assert_eq!(t.price_stale_secs("ethereum", None), 4_200);
        assert_eq!(
            t.price_stale_secs("ethereum", Some(&USDC.to_lowercase())),
            87_000
        );
        let unknown = "0x00000000000000000000000000000000000000d0";
        assert_eq!(
            t.price_stale_secs("ethereum", Some(unknown)),
            DEFAULT_PRICE_STALE_SECS
        );
        assert_eq!(t.price_stale_secs("base", None), DEFAULT_PRICE_STALE_SECS);
        let parsed: NetworkTable = serde_json::from_value(serde_json::json!({"networks": [
            {"name": "ethereum", "chain_id": 1, "symbol": "ETH", "decimals": 18, "price_stale_secs": 4200}
        ]}))
        .expect("a table");
        assert_eq!(parsed.price_stale_secs("ethereum", None), 4_200);
    }

    #[test]
    fn an_entry_agrees_only_when_network_contract_symbol_and_decimals_are_the_tables() {
        let t = table();
        assert_eq!(t.check("ethereum", None, "ETH", 18), Ok(()));
        assert_eq!(t.check("ethereum", Some(USDC), "USDC", 6), Ok(()));
        let lower = USDC.to_ascii_lowercase();
        assert_eq!(
            t.check("ethereum", Some(&lower), "USDC", 6),
            Ok(()),
            "any case"
        );
        assert!(matches!(
            t.check("polygon", None, "ETH", 18),
            Err(Disagreement::UnknownNetwork(_))
        ));
        assert!(matches!(
            t.check(
                "ethereum",
                Some("0x0000000000000000000000000000000000000001"),
                "USDC",
                6
            ),
            Err(Disagreement::UnknownToken(_))
        ));
        assert!(matches!(
            t.check("ethereum", Some(USDC), "USDC", 18),
            Err(Disagreement::Differs {
                what: "decimals",
                ..
            })
        ));
        assert!(matches!(
            t.check("ethereum", None, "WETH", 18),
            Err(Disagreement::Differs { what: "symbol", .. })
        ));
        assert!(matches!(
            t.check("ethereum", Some("not an address"), "USDC", 6),
            Err(Disagreement::UnknownToken(_))
        ));
    }

    #[test]
    fn a_table_is_bounded_and_names_each_network_and_token_once() {
        assert_eq!(table().validate(), Ok(()));
        assert!(NetworkTable::default().validate().is_err(), "empty");
        let mut twice = table();
        twice.networks.push(twice.networks[0].clone());
        assert!(twice.validate().is_err());
        let mut token_twice = table();
        let token = token_twice.networks[0].tokens[0].clone();
        token_twice.networks[0].tokens.push(token);
        assert!(token_twice.validate().is_err());
        let mut many = table();
        many.networks = (0..=MAX_NETWORKS as u64)
            .map(|i| KnownNetwork {
                name: format!("n{i}"),
                chain_id: i + 1,
                ..table().networks[0].clone()
            })
            .collect();
        assert!(many.validate().is_err(), "more than {MAX_NETWORKS}");
        let mut decimals = table();
        decimals.networks[0].decimals = 78;
        assert!(decimals.validate().is_err());
        let mut collections = table();
        collections.networks[0].collections = vec![Address::ZERO; MAX_COLLECTIONS];
        assert!(
            collections.validate().is_ok(),
            "{MAX_COLLECTIONS} collections"
        );
        collections.networks[0].collections.push(Address::ZERO);
        assert!(collections.validate().is_err(), "one more");
    }
}
