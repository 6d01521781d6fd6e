//! What every request handler shares: the database, settings, signing keys, the
//! networks' nodes, and the short-lived caches in front of per-request lookups.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use satchel_chain::{Address, Chain, MetadataFetcher};
use sha2::{Digest, Sha256};

use crate::cache::TtlCache;
use crate::config::{NetworkConfig, Settings};
use crate::crypto::sealer::PinKeys;
use crate::db::{AccountTokens, AppMatch, Db, DbResult};
use crate::identity::login_failures::LoginFailures;
use crate::identity::tokens::{AccessClaims, SigningKeys, TokenError};
use crate::limits::{Limits, PerMinute};
use crate::mail::Mailer;

#[derive(Clone, Debug)]
pub struct AppState {
    pub db: Db,
    pub settings: Arc<Settings>,
    pub keys: Arc<SigningKeys>,
    /// The keys of the wallets' PIN material, from `pin_secret` (never the database).
    pub pin_keys: Arc<PinKeys>,
    pub networks: Arc<HashMap<String, Network>>,
    /// What operation 1's kept bodies are rendered by
    /// ([`crate::config::accounts_rendered_by`]).
    pub accounts_rendered_by: Arc<str>,
    /// Writes back the bodies operation 1 rendered, in batches.
    pub kept_bodies: crate::db::BodyKeeper,
    pub metadata: MetadataFetcher,
    /// Refreshes per account (operation 2, `GET /v1/accountbalance/{accountId}/balance`)
    /// or wallet (operation 4, `GET /v1/nft/refresh`), and verification e-mails
    /// sent again per address.
    pub limits: Arc<Limits>,
    /// Failed e-mail logins per e-mail address and per network address.
    pub login_failures: Arc<LoginFailures>,
    pub mailer: Mailer,
    /// Turns of the update packages served at once ([`MAX_DOWNLOADS`]).
    pub downloads: Arc<tokio::sync::Semaphore>,
    /// Calls to identity providers (code exchange, userinfo, key sets).
    pub providers: crate::identity::providers::Providers,
    caches: Arc<Caches>,
}

/// Update packages an instance serves at once: each is tens of megabytes,
/// streamed, and a slow client holds its turn until it has it all.
pub const MAX_DOWNLOADS: usize = 8;

/// How long what an account's last balance refresh read is kept, and how much
/// of it: weighed in rows (the account's and each token account's, a few
/// hundred bytes each), so about 16 MiB at most however many tokens accounts
/// track.
const LAST_REFRESHES_KEPT: Duration = Duration::from_secs(15 * 60);
const LAST_REFRESHES_ROWS: u64 = 65_536;

/// A configured network and the connection to its node.
#[derive(Clone, Debug)]
pub struct Network {
    pub config: NetworkConfig,
    pub chain: Chain,
    /// The tokens people added on this network, as far as this instance knows.
    pub added: Arc<AddedTokens>,
    /// The prices last read from this network's feeds, per currency.
    pub prices: Arc<PriceCache>,
    /// The newest block, read while clients wait for the next one.
    pub heads: Arc<crate::heads::Heads>,
}

/// A network's prices by currency, kept for `price_cache_secs` (the assets
/// module reads and fills it); one request at a time reads the feeds, the
/// others then find what it read.
#[derive(Debug)]
pub struct PriceCache {
    pub by_currency: TtlCache<String, Arc<Vec<satchel_api::AssetPrice>>>,
    pub reading: tokio::sync::Mutex<()>,
}

impl PriceCache {
    /// Currencies kept at once: only configured ones are ever read.
    const CURRENCIES: u64 = 64;

    pub fn new(ttl: Duration) -> Self {
        Self {
            by_currency: TtlCache::new(ttl, Self::CURRENCIES),
            reading: tokio::sync::Mutex::new(()),
        }
    }
}

/// Added tokens an instance keeps in memory per network. Their facts never
/// change once stored, so every instance may keep them as long as it likes;
/// one not kept is read from the database again.
const ADDED_KEPT: u64 = 65_536;

/// The added tokens this instance has read, by lowercase contract
/// (the assets module fills it and looks tokens up in it).
#[derive(Debug)]
pub struct AddedTokens(TtlCache<String, Arc<crate::config::TokenConfig>>);

impl Default for AddedTokens {
    fn default() -> Self {
        Self(TtlCache::new(Duration::from_secs(24 * 3600), ADDED_KEPT))
    }
}

impl AddedTokens {
    pub fn get(&self, contract: &str) -> Option<Arc<crate::config::TokenConfig>> {
        self.0.get(contract)
    }

    pub fn insert(&self, contract: String, token: Arc<crate::config::TokenConfig>) {
        self.0.insert(contract, token);
    }
}

/// A wallet's owner and the body of operation 1 (`GET /v1/account`), as last read
/// from the database.
#[derive(Debug)]
pub struct WalletView {
    pub owner: String,
    pub accounts_body: Bytes,
}

/// What a balance refresh reads from an account's node (operation 2; see
/// `assets::balances`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BalanceRead {
    pub holder: Address,
    /// The tracked tokens' contracts, in the account's order.
    pub contracts: Vec<Address>,
}

/// What the last balance refresh of an account read: its rows at its wallet's
/// version, and the node read they ask for.
#[derive(Debug)]
pub struct LastRefresh {
    pub found: Arc<AccountTokens>,
    pub read: BalanceRead,
}

/// What is remembered between requests. Apps and verified token signatures do not
/// change, so they are kept longer; sessions and account lists are kept for
/// `read_cache_ms` only, and are dropped at once when this instance changes them;
/// what a balance refresh read is kept longest, as it is checked on each use.
/// All of it is off when `read_cache_ms` is zero.
#[derive(Debug)]
struct Caches {
    apps: TtlCache<(String, String), AppMatch>,
    /// Whether a web page's host is a registered domain (`http/cors.rs`): the
    /// answer either way, as any page may send any origin.
    web_domains: TtlCache<String, bool>,
    tokens: TtlCache<[u8; 32], AccessClaims>,
    live_sessions: TtlCache<String, String>,
    wallets: TtlCache<String, Arc<WalletView>>,
    /// By account: what its last balance refresh read (checked by the next
    /// against the wallet's version; see `assets::balances`).
    last_refreshes: TtlCache<String, Arc<LastRefresh>>,
}

impl AppState {
    /// Connects the database (running migrations), loads the signing key and sets
    /// up a node connection per network. Nodes are not contacted here.
    pub async fn new(settings: Settings) -> anyhow::Result<Self> {
        let db = Db::connect(&settings.database_url()).await?;
        let pin_keys = PinKeys::load(&settings)?;
        let keys = SigningKeys::load_or_create(
            &db,
            &pin_keys,
            settings.public_url.as_str(),
            settings.token_lifetime_secs(),
        )
        .await?;
        let timeout = settings.upstream_timeout();
        let networks = settings
            .networks
            .iter()
            .map(|config| {
                let chain = Chain::http(config.rpc_url.clone(), timeout)?;
                Ok((
                    config.name.clone(),
                    Network {
                        config: config.clone(),
                        chain,
                        added: Default::default(),
                        prices: Arc::new(PriceCache::new(Duration::from_secs(
                            settings.price_cache_secs,
                        ))),
                        heads: Default::default(),
                    },
                ))
            })
            .collect::<anyhow::Result<HashMap<_, _>>>()?;
        let hosts = satchel_chain::safe_http::HostPolicy {
            allow_internal: settings.fetch_internal_hosts,
            ports: settings.fetch_ports.clone(),
        };
        let metadata = MetadataFetcher::new(
            settings.ipfs_gateway.clone(),
            timeout,
            2 * 1024 * 1024,
            hosts,
        )?;
        let read_ttl = Duration::from_millis(settings.read_cache_ms);
        let caches = Caches {
            apps: TtlCache::new(Duration::from_secs(30).min(read_ttl * 15), 4096),
            web_domains: TtlCache::new(Duration::from_secs(30).min(read_ttl * 15), 4096),
            tokens: TtlCache::new(Duration::from_secs(300).min(read_ttl * 150), 65_536),
            live_sessions: TtlCache::new(read_ttl, 65_536),
            wallets: TtlCache::new(read_ttl, 16_384),
            // Checked against the wallet's version on every use, so kept
            // longer than the other reads: refreshes minutes apart find it.
            last_refreshes: TtlCache::weighed(
                if read_ttl.is_zero() {
                    Duration::ZERO
                } else {
                    LAST_REFRESHES_KEPT
                },
                LAST_REFRESHES_ROWS,
                |last| u32::try_from(1 + last.found.tokens.len()).unwrap_or(u32::MAX),
            ),
        };
        let limits = Arc::new(Limits::new(PerMinute::from_settings(&settings)).shared_through(&db));
        let accounts_rendered_by: Arc<str> =
            crate::config::accounts_rendered_by(&settings.networks).into();
        let kept_bodies = crate::db::BodyKeeper::start(db.clone(), accounts_rendered_by.clone());
        let login_failures = Arc::new(
            LoginFailures::new(
                settings.login_failures_per_account,
                settings.login_failures_per_address,
            )
            .shared_through(&db),
        );
        Ok(Self {
            db,
            keys: Arc::new(keys),
            pin_keys: Arc::new(pin_keys),
            networks: Arc::new(networks),
            kept_bodies,
            accounts_rendered_by,
            metadata,
            limits,
            login_failures,
            mailer: Mailer::from_settings(&settings)?,
            providers: crate::identity::providers::Providers::new(),
            downloads: Arc::new(tokio::sync::Semaphore::new(MAX_DOWNLOADS)),
            caches: Arc::new(caches),
            settings: Arc::new(settings),
        })
    }

    pub fn network(&self, name: &str) -> Option<&Network> {
        self.networks.get(name)
    }

    /// Whether some app registered the web page host `host` (loopback under
    /// either name), kept a while either way.
    pub async fn web_domain_registered(&self, host: &str) -> DbResult<bool> {
        if let Some(known) = self.caches.web_domains.get(host) {
            return Ok(known);
        }
        let registered = self.db.domain_registered(host).await?;
        self.caches.web_domains.insert(host.to_owned(), registered);
        Ok(registered)
    }

    /// The app with this key hash, and whether `domain` is one of its own.
    pub async fn app_for_key(&self, key_hash: &str, domain: &str) -> DbResult<Option<AppMatch>> {
        let key = (key_hash.to_owned(), domain.to_owned());
        if let Some(found) = self.caches.apps.get(&key) {
            return Ok(Some(found));
        }
        let found = self.db.app_for_key(key_hash, domain).await?;
        // Only what lets a request in is kept: refused domains are a caller's
        // choice, and would fill the cache with whatever it sends.
        if let Some(app) = found.as_ref().filter(|app| app.domain_allowed) {
            self.caches.apps.insert(key, app.clone());
        }
        Ok(found)
    }

    /// Checks an access token's signature and claims; a token seen before is not
    /// verified again until it expires.
    pub fn verify_access(&self, token: &str) -> Result<AccessClaims, TokenError> {
        let digest: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        if let Some(claims) = self.caches.tokens.get(&digest) {
            return if claims.exp > crate::clock::now() {
                Ok(claims)
            } else {
                Err(TokenError::Expired)
            };
        }
        let claims = self.keys.verify_access(token)?;
        self.caches.tokens.insert(digest, claims.clone());
        Ok(claims)
    }

    /// Whether the session is live for this user.
    pub async fn session_active(&self, session_id: &str, user_id: &str) -> DbResult<bool> {
        if self.caches.live_sessions.get(session_id).as_deref() == Some(user_id) {
            return Ok(true);
        }
        let active = self.db.session_active(session_id, user_id).await?;
        if active {
            self.remember_live_session(session_id, user_id);
        }
        Ok(active)
    }

    /// Keeps for `read_cache_ms` that a read found the session live.
    pub fn remember_live_session(&self, session_id: &str, user_id: &str) {
        self.caches
            .live_sessions
            .insert(session_id.to_owned(), user_id.to_owned());
    }

    /// Ends a session: its tokens stop working here at once, and on other
    /// instances within `read_cache_ms`.
    pub async fn revoke_session(&self, session_id: &str) -> DbResult<()> {
        self.db.revoke_session(session_id).await?;
        self.caches.live_sessions.remove(session_id);
        Ok(())
    }

    /// Ends an identity session and every service session made from it: their
    /// tokens stop working here at once, and on other instances within
    /// `read_cache_ms`.
    pub async fn revoke_identity_family(&self, identity_session: &str) -> DbResult<()> {
        for session in self.db.revoke_identity_family(identity_session).await? {
            self.caches.live_sessions.remove(&session);
        }
        Ok(())
    }

    /// The wallet's owner and the body of operation 1 (`GET /v1/account`), when
    /// this instance read it within `read_cache_ms`.
    pub fn cached_wallet_view(&self, wallet_id: &str) -> Option<Arc<WalletView>> {
        self.caches.wallets.get(wallet_id)
    }

    /// Keeps what operation 1 read of a wallet for `read_cache_ms`.
    pub fn remember_wallet_view(&self, wallet_id: &str, view: WalletView) -> Arc<WalletView> {
        let view = Arc::new(view);
        self.caches
            .wallets
            .insert(wallet_id.to_owned(), view.clone());
        view
    }

    /// What the last balance refresh of `account_id` here read.
    pub fn last_refresh(&self, account_id: &str) -> Option<Arc<LastRefresh>> {
        self.caches.last_refreshes.get(account_id)
    }

    pub fn keep_last_refresh(&self, account_id: &str, last: LastRefresh) {
        self.caches
            .last_refreshes
            .insert(account_id.to_owned(), Arc::new(last));
    }

    /// Drops what the last balance refresh of an account read, after this
    /// instance changed its tokens (other instances see the wallet's version
    /// move).
    pub fn forget_last_refresh(&self, account_id: &str) {
        self.caches.last_refreshes.remove(account_id);
    }

    /// Drops what is remembered of a wallet after this instance changed it.
    pub fn forget_wallet(&self, wallet_id: &str) {
        self.caches.wallets.remove(wallet_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn only_an_accepted_domain_is_remembered() {
        let data = tempfile::tempdir().expect("temp dir");
        let state = AppState::new(Settings {
            data_dir: data.path().to_owned(),
            ..Settings::default()
        })
        .await
        .expect("a service on SQLite");
        let app = crate::admin::create_app(&state.db, "Demo", &["example.com".into()])
            .await
            .expect("an app");
        let key_hash = crate::crypto::app_key_hash(&app.app_key);
        for n in 0..100 {
            let refused = format!("attacker-{n}.example.net");
            let found = state.app_for_key(&key_hash, &refused).await.expect("read");
            assert!(found.is_some_and(|app| !app.domain_allowed));
        }
        let accepted = state.app_for_key(&key_hash, "example.com").await;
        assert!(
            accepted
                .expect("read")
                .is_some_and(|app| app.domain_allowed)
        );
        assert_eq!(state.caches.apps.len(), 1, "refused domains take no room");
    }
}
