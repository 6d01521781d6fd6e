//! The networks wallets get accounts on, and the tokens tracked on each.

use serde::{Deserialize, Serialize};
use url::Url;

/// One EVM network: its node, its coin and the tokens to track.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkConfig {
    /// The network name clients see, e.g. `ethereum`.
    pub name: String,
    pub chain_id: u64,
    pub rpc_url: Url,
    /// The coin's `coinId` in account entries.
    pub coin_id: i64,
    pub coin_name: String,
    pub symbol: String,
    /// Default: 18.
    #[serde(default = "NetworkConfig::default_decimals")]
    pub decimals: u32,
    #[serde(default)]
    pub icon_url: String,
    /// Identifier to look the coin up by (e.g. a price feed's id).
    #[serde(default)]
    pub ids: String,
    /// First block to look for NFT transfers in.
    #[serde(default)]
    pub nft_start_block: u64,
    /// Most blocks one `eth_getLogs` may span on this node. Default: 10,000.
    #[serde(default = "NetworkConfig::default_log_window")]
    pub log_window: u64,
    /// How often the newest block is read while a client waits for the next
    /// one (`GET /v1/rpc/{network}/head`), in ms: what a `newHeads`
    /// subscriber's delay is at most, against a node read that often while
    /// anyone waits. Default: 250; at least 20.
    #[serde(default = "NetworkConfig::default_head_poll_ms")]
    pub head_poll_ms: u64,
    /// The coin's price feeds by quote currency: lowercase ISO 4217 code to a
    /// Chainlink `AggregatorV3Interface` contract on this network (`usd = "0x…"`).
    #[serde(default, skip_serializing_if = "PriceFeeds::is_empty")]
    pub price_feeds: PriceFeeds,
    #[serde(default)]
    pub tokens: Vec<TokenConfig>,
    /// NFT collections (contract addresses) the operator vouches for: the app's
    /// network table names them, and its NFT gallery never hides them as spam.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nft_collections: Vec<String>,
    /// The network's ENS registry: the app's network table names it, and the
    /// device resolves names there through the read relay. The service itself
    /// resolves nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ens_registry: Option<String>,
    /// `tokens` by lowercase contract, made on first use.
    #[serde(skip)]
    pub tracked: TrackedTokens,
}

/// The tracked tokens of a network by lowercase contract, each with its
/// checksummed address: an account's hundred tokens are looked up in a map
/// rather than a hundred times through the list, and checksummed once.
#[derive(Debug, Clone, Default)]
pub struct TrackedTokens(std::sync::OnceLock<std::collections::HashMap<String, (usize, String)>>);

impl NetworkConfig {
    /// Checks one network as the operator wrote it: a first NFT scan that
    /// cannot start at a public chain's block 0, and contract addresses and
    /// price feed currencies that parse.
    pub(super) fn validate(&self) -> anyhow::Result<()> {
        // From block 0, a public chain's first NFT scan would read its whole
        // history; only a chain on this machine may start there by default.
        let local = match self.rpc_url.host() {
            Some(url::Host::Domain(name)) => name == "localhost",
            Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
            Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
            None => false,
        };
        anyhow::ensure!(
            local || self.nft_start_block > 0,
            "network {}: set nft_start_block (the block to look for NFT transfers from, e.g. the block the app launched at); 0 is only for a chain on this machine",
            self.name
        );
        let feeds_valid = |feeds: &PriceFeeds, of: &str| {
            for (currency, feed) in feeds {
                anyhow::ensure!(
                    is_currency_code(currency),
                    "network {}: {of}'s price feed currency {currency:?} is not a lowercase three-letter code (usd, eur)",
                    self.name
                );
                anyhow::ensure!(
                    feed.parse::<satchel_chain::Address>().is_ok(),
                    "network {}: {of}'s {currency} price feed has a malformed address",
                    self.name
                );
            }
            Ok(())
        };
        feeds_valid(&self.price_feeds, &self.symbol)?;
        if let Some(registry) = &self.ens_registry {
            anyhow::ensure!(
                registry.parse::<satchel_chain::Address>().is_ok(),
                "network {}: ens_registry is a malformed address",
                self.name
            );
        }
        for token in &self.tokens {
            anyhow::ensure!(
                token.contract.parse::<satchel_chain::Address>().is_ok(),
                "network {}: token {} has a malformed contract address",
                self.name,
                token.symbol
            );
            feeds_valid(&token.price_feeds, &token.symbol)?;
        }
        Ok(())
    }

    /// The network as an app of this service would trust it (its network
    /// table: chain id, coin, token contracts, symbols, decimals).
    pub fn known(&self) -> satchel_chain::networks::KnownNetwork {
        use satchel_chain::networks::{KnownNetwork, KnownToken};
        KnownNetwork {
            name: self.name.clone(),
            chain_id: self.chain_id,
            symbol: self.symbol.clone(),
            decimals: self.decimals,
            tokens: self
                .tokens
                .iter()
                .filter_map(|t| {
                    Some(KnownToken {
                        contract: t.contract.parse().ok()?,
                        symbol: t.symbol.clone(),
                        decimals: t.decimals,
                        price_stale_secs: None,
                    })
                })
                .collect(),
            collections: self
                .nft_collections
                .iter()
                .filter_map(|c| c.parse().ok())
                .collect(),
            price_stale_secs: None,
            ens_registry: self.ens_registry.as_deref().and_then(|r| r.parse().ok()),
        }
    }

    /// The tracked token whose contract is `contract` (any case), and its
    /// checksummed address.
    pub fn tracked_token(&self, contract: &str) -> Option<(&TokenConfig, &str)> {
        let by_contract = self.tracked.0.get_or_init(|| {
            let mut by_contract = std::collections::HashMap::with_capacity(self.tokens.len());
            for (i, token) in self.tokens.iter().enumerate() {
                // The first of two entries for one contract counts, as in the list.
                by_contract
                    .entry(token.contract.to_ascii_lowercase())
                    .or_insert_with(|| {
                        let checksummed = token
                            .contract
                            .parse::<satchel_chain::Address>()
                            .map(|a| a.to_checksum(None))
                            .unwrap_or_else(|_| token.contract.clone());
                        (i, checksummed)
                    });
            }
            by_contract
        });
        let (i, checksummed) = if contract.bytes().any(|b| b.is_ascii_uppercase()) {
            by_contract.get(&contract.to_ascii_lowercase())?
        } else {
            by_contract.get(contract)?
        };
        Some((&self.tokens[*i], checksummed))
    }

    // Per-field defaults here: a network has required fields, so it has no
    // `Default` to fill the rest from.
    fn default_decimals() -> u32 {
        18
    }
    fn default_log_window() -> u64 {
        10_000
    }

    fn default_head_poll_ms() -> u64 {
        250
    }

    /// [`head_poll_ms`](Self::head_poll_ms), at least 20 ms.
    pub fn head_poll(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.head_poll_ms.max(20))
    }
}

/// An ERC-20 token whose balance every account on the network shows.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenConfig {
    /// Checksummed or lowercase contract address.
    pub contract: String,
    pub name: String,
    pub symbol: String,
    pub decimals: u32,
    #[serde(default)]
    pub icon_url: String,
    #[serde(default)]
    pub ids: String,
    /// Incoming transfers below this many of the smallest unit are not kept in
    /// Activity (address poisoning sends such dust from look-alike addresses);
    /// unset: a millionth of a whole token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dust_below: Option<String>,
    /// The token's price feeds, as [`NetworkConfig::price_feeds`].
    #[serde(default, skip_serializing_if = "PriceFeeds::is_empty")]
    pub price_feeds: PriceFeeds,
}

/// Price feeds by quote currency (lowercase ISO 4217 code) to the feed's contract.
pub type PriceFeeds = std::collections::BTreeMap<String, String>;

/// Whether `code` is a currency code as feeds are named by: three lowercase letters.
pub fn is_currency_code(code: &str) -> bool {
    code.len() == 3 && code.bytes().all(|b| b.is_ascii_lowercase())
}

impl TokenConfig {
    /// [`TokenConfig::dust_below`] in the smallest unit.
    pub fn dust_below(&self) -> alloy::primitives::U256 {
        use alloy::primitives::U256;
        self.dust_below
            .as_deref()
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| U256::from(10u64).pow(U256::from(self.decimals.saturating_sub(6))))
    }
}

/// Bump when operation 1's rendering (`assets::views::accounts_list`) changes:
/// bodies kept by an older rendering are then rendered again.
const ACCOUNTS_BODY_FORMAT: u32 = 1;

/// What a kept `GET /v1/account` body depends on besides the wallet's rows:
/// this rendering and the networks' coin and token facts (not their nodes).
/// Instances set up alike share kept bodies; one set up otherwise renders its
/// own ([`crate::db::Db::keep_accounts_bodies`]).
pub fn accounts_rendered_by(networks: &[NetworkConfig]) -> String {
    use sha2::Digest;
    let mut facts: Vec<_> = networks
        .iter()
        .map(|n| {
            let tokens: Vec<_> = n
                .tokens
                .iter()
                .map(|t| {
                    (
                        &t.contract,
                        &t.name,
                        &t.symbol,
                        t.decimals,
                        &t.icon_url,
                        &t.ids,
                    )
                })
                .collect();
            let coin = (&n.name, n.coin_id, &n.coin_name, &n.symbol, n.decimals);
            (coin, &n.icon_url, &n.ids, tokens)
        })
        .collect();
    facts.sort_by(|a, b| a.0.0.cmp(b.0.0));
    let described = serde_json::to_vec(&(env!("CARGO_PKG_VERSION"), ACCOUNTS_BODY_FORMAT, facts))
        .unwrap_or_default();
    hex::encode(&sha2::Sha256::digest(&described)[..16])
}
