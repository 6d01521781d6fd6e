//! Service settings: declared once here (doc, default), read from a TOML file, with
//! environment overrides for what differs between deployments (`SATCHEL_BIND`,
//! `DATABASE_URL`, `SATCHEL_DATA_DIR`, `SATCHEL_PUBLIC_URL`, `SATCHEL_SMTP_URL`,
//! `SATCHEL_PIN_SECRET`; the file itself is `--config` or `SATCHEL_CONFIG`, read by
//! the command line).

use std::fmt;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use url::Url;

mod networks;
mod redact;

pub use networks::{
    NetworkConfig, PriceFeeds, TokenConfig, accounts_rendered_by, is_currency_code,
};
use redact::Redacted;

/// Everything the service is configured with. A setting missing from the file
/// takes its value from [`Settings::default`].
#[derive(Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Address to listen on. Env: `SATCHEL_BIND`.
    pub bind: SocketAddr,
    /// `sqlite://path/to/file.db` or `postgres://...`. Env: `DATABASE_URL`.
    /// Default: a SQLite file in `data_dir`. May hold a password: [`Debug`] masks it.
    pub database_url: Option<String>,
    /// Folder of the SQLite file and other local state. Env: `SATCHEL_DATA_DIR`.
    pub data_dir: PathBuf,
    /// The URL clients reach the service at; the issuer of its tokens.
    /// Env: `SATCHEL_PUBLIC_URL`.
    pub public_url: Url,
    /// Prefix an `ipfs://CID/path` is appended to when reading NFT metadata.
    pub ipfs_gateway: Url,
    /// Let NFT metadata be read from loopback, private and link-local addresses
    /// (a local stack's own metadata server). Off: a URI on chain cannot make the
    /// service request its own network.
    pub fetch_internal_hosts: bool,
    /// The ports NFT metadata is read from; empty allows every port.
    pub fetch_ports: Vec<u16>,
    /// Seconds a node or metadata request may take before it counts as failed.
    pub upstream_timeout_secs: u64,
    /// Lifetime of a service access token, in seconds.
    pub access_token_ttl_secs: u64,
    /// How many balance or NFT refreshes one account or wallet may ask for in a
    /// minute before the service answers 429. Clients wait a minute between
    /// refreshes; this only stops a runaway client from hammering the node.
    pub refresh_per_minute: u32,
    /// E-mails (verification links, PIN unlock links) the service sends in a
    /// minute, in all; past it, asking for one answers 429. A quarter of it is
    /// kept for password-reset and PIN-unlock mail, which sign-up floods cannot
    /// use up.
    pub emails_per_minute: u32,
    /// E-mails one app's people may be sent in a minute: one app's flood leaves
    /// the others their mail.
    pub emails_per_app_per_minute: u32,
    /// E-mails one address may be sent in a minute, of every kind.
    pub emails_per_recipient_per_minute: u32,
    /// Activity reads, transaction reads and send quotes one user may ask for in
    /// a minute (each may make the service ask a node).
    pub user_requests_per_minute: u32,
    /// JSON-RPC calls one user may relay to the nodes in a minute (`POST
    /// /v1/rpc/{network}`; a batch counts each call).
    pub rpc_calls_per_minute: u32,
    /// Pending transactions one account may have at once; past it a broadcast is
    /// refused until some are mined (the receipt follower's work stays bounded).
    pub max_pending_per_account: u32,
    /// The most NFTs kept per account: what it held before comes first, new
    /// finds fill the rest (spam airdrops cannot grow the list without bound).
    pub max_nfts_per_account: usize,
    /// The most tokens one account may add by contract address.
    pub max_added_tokens_per_account: usize,
    /// How long a network's prices, read from its feeds, are answered from
    /// memory before the feeds are read again.
    pub price_cache_secs: u64,
    /// A price whose feed was last updated longer ago than this is stale: the
    /// device shows it as such and no total with it (Chainlink's feeds update
    /// at least hourly or daily, by their heartbeat).
    pub price_stale_secs: u64,
    /// Sign-ups and verification e-mails one network address may ask for in a
    /// minute (a burst of that many, then one every 60/N seconds).
    pub email_requests_per_address: u32,
    /// How long, in milliseconds, an instance answers session checks and account
    /// lists from memory. A logout or balance refresh on this instance shows at
    /// once; one on another instance behind the same database shows within this
    /// time. 0 reads the database on every request.
    pub read_cache_ms: u64,
    /// How often pending transactions' receipts are read, in milliseconds.
    pub receipt_poll_ms: u64,
    /// How long a sent transaction may stay pending, in seconds, before one that
    /// the node no longer has (and whose nonce is still unused) is settled as
    /// dropped: nothing was spent, and the account's follow-up is not held up.
    pub pending_expiry_secs: u64,
    /// Lifetime of an identity token (e-mail users), in seconds.
    pub identity_token_ttl_secs: u64,
    /// Lifetime of identity and service refresh tokens, in seconds; using one moves
    /// its session's end this far out again.
    pub refresh_token_ttl_secs: u64,
    /// How long after its use a refresh token is still taken, as a retry whose
    /// answer was lost, in seconds; later, presenting it is theft and ends the
    /// login everywhere.
    pub refresh_reuse_grace_secs: u64,
    /// How long an e-mail sign-up that was never verified (in an app that asks
    /// for verification, with no user yet) holds its address, in seconds; after
    /// it the identity counts as absent and is deleted when next met. A new
    /// sign-up replaces an unverified one at any age. 0: they never expire.
    pub unverified_identity_ttl_secs: u64,
    /// Failed logins one e-mail address may have in 15 minutes before a 429.
    pub login_failures_per_account: u32,
    /// Failed logins one network address may have in 15 minutes before a 429.
    pub login_failures_per_address: u32,
    /// The secret the wallets' PIN material is keyed with (base64 of 32 bytes): the
    /// pepper of the proof hashes and the key the shares are encrypted under are
    /// derived from it. It is never stored in the database. Default: the 32 bytes
    /// of `pin.secret` in `data_dir`, made on first start. Instances sharing a
    /// database must share it. Env: `SATCHEL_PIN_SECRET`. [`Debug`] hides it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pin_secret: Option<String>,
    /// The first pause after 5 wrong PIN proofs in a row, in seconds; each further
    /// wrong proof doubles it, until the 10th locks the PIN until the e-mail link
    /// is opened.
    pub pin_pause_secs: u64,
    /// Outgoing e-mail.
    pub mail: MailSettings,
    /// Addresses of the reverse proxies in front of the service: only from these
    /// is `X-Forwarded-For` believed (its rightmost address that is not a proxy
    /// is the client's). Empty: the peer's address is the client's.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// The EVM networks wallets get accounts on.
    pub networks: Vec<NetworkConfig>,
    /// The desktop app's updates: Tauri's `latest.json` and the packages it names
    /// (`GET /v1/app/updates/{target}/{version}`, docs/packaging.md: Updates). Default:
    /// `updates` in `data_dir`; without a `latest.json` there is no update.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updates_dir: Option<PathBuf>,
}

impl Default for Settings {
    #[allow(clippy::unwrap_used)] // the two URLs are constants that parse
    fn default() -> Self {
        Self {
            bind: SocketAddr::from(([127, 0, 0, 1], 8787)),
            database_url: None,
            data_dir: PathBuf::from("satchel-data"),
            public_url: Url::parse("http://127.0.0.1:8787/").unwrap(),
            ipfs_gateway: Url::parse("https://ipfs.io/ipfs/").unwrap(),
            fetch_internal_hosts: false,
            fetch_ports: vec![80, 443],
            upstream_timeout_secs: 10,
            access_token_ttl_secs: 15 * 60,
            refresh_per_minute: 6,
            emails_per_minute: 120,
            emails_per_app_per_minute: 60,
            emails_per_recipient_per_minute: 10,
            user_requests_per_minute: 300,
            rpc_calls_per_minute: 600,
            max_pending_per_account: 16,
            max_nfts_per_account: 10_000,
            max_added_tokens_per_account: 50,
            price_cache_secs: 10,
            price_stale_secs: 24 * 60 * 60,
            email_requests_per_address: 20,
            read_cache_ms: 2_000,
            receipt_poll_ms: 2_000,
            pending_expiry_secs: 3 * 60 * 60,
            identity_token_ttl_secs: 60 * 60,
            refresh_token_ttl_secs: 30 * 24 * 60 * 60,
            refresh_reuse_grace_secs: 10,
            unverified_identity_ttl_secs: 24 * 60 * 60,
            login_failures_per_account: 5,
            login_failures_per_address: 30,
            pin_secret: None,
            pin_pause_secs: 30,
            mail: MailSettings::default(),
            trusted_proxies: Vec::new(),
            networks: Vec::new(),
            updates_dir: None,
        }
    }
}

/// Prints every setting, with the passwords in `database_url` and
/// `mail.smtp_url` masked and `pin_secret` hidden.
impl fmt::Debug for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Destructured, so a new setting cannot be left out (or printed unmasked)
        // without this failing to compile.
        let Self {
            bind,
            database_url,
            data_dir,
            public_url,
            ipfs_gateway,
            fetch_internal_hosts,
            fetch_ports,
            upstream_timeout_secs,
            access_token_ttl_secs,
            refresh_per_minute,
            emails_per_minute,
            emails_per_app_per_minute,
            emails_per_recipient_per_minute,
            user_requests_per_minute,
            rpc_calls_per_minute,
            max_pending_per_account,
            max_nfts_per_account,
            max_added_tokens_per_account,
            price_cache_secs,
            price_stale_secs,
            email_requests_per_address,
            read_cache_ms,
            receipt_poll_ms,
            pending_expiry_secs,
            identity_token_ttl_secs,
            refresh_token_ttl_secs,
            refresh_reuse_grace_secs,
            unverified_identity_ttl_secs,
            login_failures_per_account,
            login_failures_per_address,
            pin_secret,
            pin_pause_secs,
            mail,
            trusted_proxies,
            networks,
            updates_dir,
        } = self;
        f.debug_struct("Settings")
            .field("bind", bind)
            .field("database_url", &database_url.as_deref().map(Redacted))
            .field("data_dir", data_dir)
            .field("public_url", &public_url.as_str())
            .field("ipfs_gateway", &ipfs_gateway.as_str())
            .field("fetch_internal_hosts", fetch_internal_hosts)
            .field("fetch_ports", fetch_ports)
            .field("upstream_timeout_secs", upstream_timeout_secs)
            .field("access_token_ttl_secs", access_token_ttl_secs)
            .field("refresh_per_minute", refresh_per_minute)
            .field("emails_per_minute", emails_per_minute)
            .field("emails_per_app_per_minute", emails_per_app_per_minute)
            .field(
                "emails_per_recipient_per_minute",
                emails_per_recipient_per_minute,
            )
            .field("user_requests_per_minute", user_requests_per_minute)
            .field("rpc_calls_per_minute", rpc_calls_per_minute)
            .field("max_pending_per_account", max_pending_per_account)
            .field("max_nfts_per_account", max_nfts_per_account)
            .field("max_added_tokens_per_account", max_added_tokens_per_account)
            .field("price_cache_secs", price_cache_secs)
            .field("price_stale_secs", price_stale_secs)
            .field("email_requests_per_address", email_requests_per_address)
            .field("read_cache_ms", read_cache_ms)
            .field("receipt_poll_ms", receipt_poll_ms)
            .field("pending_expiry_secs", pending_expiry_secs)
            .field("identity_token_ttl_secs", identity_token_ttl_secs)
            .field("refresh_token_ttl_secs", refresh_token_ttl_secs)
            .field("refresh_reuse_grace_secs", refresh_reuse_grace_secs)
            .field("unverified_identity_ttl_secs", unverified_identity_ttl_secs)
            .field("login_failures_per_account", login_failures_per_account)
            .field("login_failures_per_address", login_failures_per_address)
            .field("pin_secret", &pin_secret.as_ref().map(|_| "<redacted>"))
            .field("pin_pause_secs", pin_pause_secs)
            .field("mail", mail)
            .field("trusted_proxies", trusted_proxies)
            .field("networks", networks)
            .field("updates_dir", updates_dir)
            .finish()
    }
}

/// Where verification e-mails go.
#[derive(Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MailSettings {
    /// Sender, e.g. `Satchel <no-reply@example.com>`.
    pub from: String,
    /// `smtps://user:pass@host:465` or `smtp://host:587?tls=required`. Without it,
    /// e-mails are written as `.eml` files to `outbox_dir`. Env: `SATCHEL_SMTP_URL`.
    /// May hold a password: [`Debug`] masks it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub smtp_url: Option<String>,
    /// Default: `outbox` in `data_dir`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outbox_dir: Option<PathBuf>,
}

impl Default for MailSettings {
    fn default() -> Self {
        Self {
            from: "Satchel <no-reply@satchel.invalid>".to_owned(),
            smtp_url: None,
            outbox_dir: None,
        }
    }
}

impl fmt::Debug for MailSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self {
            from,
            smtp_url,
            outbox_dir,
        } = self;
        f.debug_struct("MailSettings")
            .field("from", from)
            .field("smtp_url", &smtp_url.as_deref().map(Redacted))
            .field("outbox_dir", outbox_dir)
            .finish()
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
        if let Some(secret) = var("SATCHEL_PIN_SECRET") {
            self.pin_secret = Some(secret);
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
            network.validate()?;
        }
        Ok(())
    }

    /// The longest a token the service signs lives: how long a retired signing
    /// key must keep verifying.
    pub fn token_lifetime_secs(&self) -> i64 {
        self.access_token_ttl_secs.max(self.identity_token_ttl_secs) as i64
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

    /// The folder of the desktop app's updates in force.
    pub fn updates_dir(&self) -> PathBuf {
        self.updates_dir
            .clone()
            .unwrap_or_else(|| self.data_dir.join("updates"))
    }

    pub fn upstream_timeout(&self) -> Duration {
        Duration::from_secs(self.upstream_timeout_secs.max(1))
    }

    pub fn network(&self, name: &str) -> Option<&NetworkConfig> {
        self.networks.iter().find(|n| n.name == name)
    }
}

#[cfg(test)]
mod tests;
