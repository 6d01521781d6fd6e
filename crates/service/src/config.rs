//! Service settings: declared once here, read from a TOML file, with environment
//! overrides for what differs between deployments.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use url::Url;

/// Everything the service is configured with.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Address to listen on. Env: `SATCHEL_BIND`.
    #[serde(default = "default_bind")]
    pub bind: SocketAddr,
    /// `sqlite://path/to/file.db` or `postgres://...`. Env: `DATABASE_URL`.
    /// Default: a SQLite file in `data_dir`.
    #[serde(default)]
    pub database_url: Option<String>,
    /// Folder of the SQLite file and other local state. Env: `SATCHEL_DATA_DIR`.
    #[serde(default = "default_data_dir")]
    pub data_dir: PathBuf,
    /// The URL clients reach the service at; the issuer of its tokens.
    /// Env: `SATCHEL_PUBLIC_URL`.
    #[serde(default = "default_public_url")]
    pub public_url: Url,
    /// Prefix an `ipfs://CID/path` is appended to when reading NFT metadata.
    #[serde(default = "default_ipfs_gateway")]
    pub ipfs_gateway: Url,
    /// Seconds a node or metadata request may take before it counts as failed.
    #[serde(default = "default_upstream_timeout")]
    pub upstream_timeout_secs: u64,
    /// Lifetime of a service access token, in seconds.
    #[serde(default = "default_access_ttl")]
    pub access_token_ttl_secs: u64,
    /// How many balance or NFT refreshes one account or wallet may ask for in a
    /// minute before the service answers 429. Clients wait a minute between
    /// refreshes; this only stops a runaway client from hammering the node.
    #[serde(default = "default_refresh_per_minute")]
    pub refresh_per_minute: u32,
    /// How long, in milliseconds, an instance answers session checks and account
    /// lists from memory. A logout or balance refresh on this instance shows at
    /// once; one on another instance behind the same database shows within this
    /// time. 0 reads the database on every request.
    #[serde(default = "default_read_cache_ms")]
    pub read_cache_ms: u64,
    /// Lifetime of an identity token (e-mail users), in seconds.
    #[serde(default = "default_identity_ttl")]
    pub identity_token_ttl_secs: u64,
    /// Lifetime of identity and service refresh tokens, in seconds; using one moves
    /// its session's end this far out again.
    #[serde(default = "default_refresh_ttl")]
    pub refresh_token_ttl_secs: u64,
    /// Failed logins one e-mail address may have in 15 minutes before a 429.
    #[serde(default = "default_failures_per_account")]
    pub login_failures_per_account: u32,
    /// Failed logins one network address may have in 15 minutes before a 429.
    #[serde(default = "default_failures_per_address")]
    pub login_failures_per_address: u32,
    /// Outgoing e-mail.
    #[serde(default)]
    pub mail: MailSettings,
    /// The EVM networks wallets get accounts on.
    #[serde(default)]
    pub networks: Vec<NetworkConfig>,
}

/// Where verification e-mails go.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailSettings {
    /// Sender, e.g. `Satchel <no-reply@example.com>`.
    #[serde(default = "default_mail_from")]
    pub from: String,
    /// `smtps://user:pass@host:465` or `smtp://host:587?tls=required`. Without it,
    /// e-mails are written as `.eml` files to `outbox_dir`. Env: `SATCHEL_SMTP_URL`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smtp_url: Option<String>,
    /// Default: `outbox` in `data_dir`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outbox_dir: Option<PathBuf>,
}

impl Default for MailSettings {
    fn default() -> Self {
        Self {
            from: default_mail_from(),
            smtp_url: None,
            outbox_dir: None,
        }
    }
}

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
    #[serde(default = "default_decimals")]
    pub decimals: u32,
    #[serde(default)]
    pub icon_url: String,
    /// Identifier to look the coin up by (e.g. a price feed's id).
    #[serde(default)]
    pub ids: String,
    /// First block to look for NFT transfers in.
    #[serde(default)]
    pub nft_start_block: u64,
    /// Most blocks one `eth_getLogs` may span on this node.
    #[serde(default = "default_log_window")]
    pub log_window: u64,
    #[serde(default)]
    pub tokens: Vec<TokenConfig>,
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
}

fn default_bind() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 8787))
}
fn default_data_dir() -> PathBuf {
    PathBuf::from("satchel-data")
}
fn default_public_url() -> Url {
    #[allow(clippy::unwrap_used)] // a constant that parses
    Url::parse("http://127.0.0.1:8787/").unwrap()
}
fn default_ipfs_gateway() -> Url {
    #[allow(clippy::unwrap_used)] // a constant that parses
    Url::parse("https://ipfs.io/ipfs/").unwrap()
}
fn default_upstream_timeout() -> u64 {
    10
}
fn default_access_ttl() -> u64 {
    15 * 60
}
fn default_refresh_per_minute() -> u32 {
    6
}
fn default_identity_ttl() -> u64 {
    60 * 60
}
fn default_refresh_ttl() -> u64 {
    30 * 24 * 60 * 60
}
fn default_failures_per_account() -> u32 {
    5
}
fn default_failures_per_address() -> u32 {
    30
}
fn default_mail_from() -> String {
    "Satchel <no-reply@satchel.invalid>".to_owned()
}
fn default_read_cache_ms() -> u64 {
    2_000
}
fn default_decimals() -> u32 {
    18
}
fn default_log_window() -> u64 {
    10_000
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            bind: default_bind(),
            database_url: None,
            data_dir: default_data_dir(),
            public_url: default_public_url(),
            ipfs_gateway: default_ipfs_gateway(),
            upstream_timeout_secs: default_upstream_timeout(),
            access_token_ttl_secs: default_access_ttl(),
            refresh_per_minute: default_refresh_per_minute(),
            read_cache_ms: default_read_cache_ms(),
            identity_token_ttl_secs: default_identity_ttl(),
            refresh_token_ttl_secs: default_refresh_ttl(),
            login_failures_per_account: default_failures_per_account(),
            login_failures_per_address: default_failures_per_address(),
            mail: MailSettings::default(),
            networks: Vec::new(),
        }
    }
}

impl Settings {
    /// Reads `path` (when given) and applies the environment overrides.
    pub fn load(path: Option<&Path>) -> anyhow::Result<Self> {
        let mut settings = match path {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
                Self::from_toml(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
            }
            None => Self::default(),
        };
        settings.apply_env(|name| std::env::var(name).ok())?;
        Ok(settings)
    }

    pub fn from_toml(text: &str) -> anyhow::Result<Self> {
        let settings: Self = toml::from_str(text)?;
        settings.validate()?;
        Ok(settings)
    }

    fn apply_env(&mut self, var: impl Fn(&str) -> Option<String>) -> anyhow::Result<()> {
        if let Some(bind) = var("SATCHEL_BIND") {
            self.bind = bind
                .parse()
                .map_err(|e| anyhow::anyhow!("SATCHEL_BIND: {e}"))?;
        }
        if let Some(url) = var("DATABASE_URL") {
            self.database_url = Some(url);
        }
        if let Some(dir) = var("SATCHEL_DATA_DIR") {
            self.data_dir = PathBuf::from(dir);
        }
        if let Some(url) = var("SATCHEL_SMTP_URL") {
            self.mail.smtp_url = Some(url);
        }
        if let Some(url) = var("SATCHEL_PUBLIC_URL") {
            self.public_url = url
                .parse()
                .map_err(|e| anyhow::anyhow!("SATCHEL_PUBLIC_URL: {e}"))?;
        }
        Ok(())
    }

    fn validate(&self) -> anyhow::Result<()> {
        let mut names = std::collections::HashSet::new();
        for network in &self.networks {
            anyhow::ensure!(!network.name.is_empty(), "a network has an empty name");
            anyhow::ensure!(
                names.insert(&network.name),
                "network {} is listed twice",
                network.name
            );
            for token in &network.tokens {
                anyhow::ensure!(
                    token.contract.parse::<satchel_chain::Address>().is_ok(),
                    "network {}: token {} has a malformed contract address",
                    network.name,
                    token.symbol
                );
            }
        }
        Ok(())
    }

    /// The database URL in force: the configured one, or SQLite in `data_dir`.
    pub fn database_url(&self) -> String {
        self.database_url.clone().unwrap_or_else(|| {
            format!(
                "sqlite://{}?mode=rwc",
                self.data_dir.join("satchel.db").display()
            )
        })
    }

    pub fn upstream_timeout(&self) -> Duration {
        Duration::from_secs(self.upstream_timeout_secs.max(1))
    }

    pub fn network(&self, name: &str) -> Option<&NetworkConfig> {
        self.networks.iter().find(|n| n.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_minimal_file_gets_the_defaults_and_env_overrides_win() {
        let mut s = Settings::from_toml(
            r#"
            [[networks]]
            name = "anvil"
            chain_id = 31337
            rpc_url = "http://127.0.0.1:8545"
            coin_id = 60
            coin_name = "Ether"
            symbol = "ETH"
            "#,
        )
        .expect("valid settings");
        assert_eq!(s.networks[0].decimals, 18);
        assert_eq!(s.refresh_per_minute, 6);
        s.apply_env(|name| (name == "DATABASE_URL").then(|| "postgres://x/y".to_owned()))
            .expect("env applies");
        assert_eq!(s.database_url(), "postgres://x/y");
    }

    #[test]
    fn a_duplicate_network_or_bad_token_address_is_refused() {
        let net = r#"
            [[networks]]
            name = "anvil"
            chain_id = 1
            rpc_url = "http://127.0.0.1:1"
            coin_id = 60
            coin_name = "Ether"
            symbol = "ETH"
        "#;
        assert!(Settings::from_toml(&format!("{net}{net}")).is_err());
        let bad_token = format!(
            "{net}[[networks.tokens]]\ncontract = \"0x12\"\nname = \"T\"\nsymbol = \"T\"\ndecimals = 6\n"
        );
        assert!(Settings::from_toml(&bad_token).is_err());
    }
}
