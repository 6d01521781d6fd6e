//! What every request handler shares: the database, settings, signing keys, the
//! networks' nodes and the small caches in front of hot lookups.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use satchel_chain::{Chain, MetadataFetcher};

use crate::config::{NetworkConfig, Settings};
use crate::db::{AppMatch, Db, DbResult};
use crate::limiter::RefreshLimiter;
use crate::tokens::SigningKeys;

#[derive(Clone, Debug)]
pub struct AppState {
    pub db: Db,
    pub settings: Arc<Settings>,
    pub keys: Arc<SigningKeys>,
    pub networks: Arc<HashMap<String, Network>>,
    pub metadata: MetadataFetcher,
    pub limiter: Arc<RefreshLimiter>,
    pub apps: Arc<AppCache>,
}

/// A configured network and the connection to its node.
#[derive(Clone, Debug)]
pub struct Network {
    pub config: NetworkConfig,
    pub chain: Chain,
}

impl AppState {
    /// Connects the database (running migrations), loads the signing key and sets
    /// up a node connection per network. Nodes are not contacted here.
    pub async fn new(settings: Settings) -> anyhow::Result<Self> {
        let db = Db::connect(&settings.database_url()).await?;
        Self::with_db(settings, db).await
    }

    pub async fn with_db(settings: Settings, db: Db) -> anyhow::Result<Self> {
        let keys = SigningKeys::load_or_create(&db, settings.public_url.as_str()).await?;
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
                    },
                ))
            })
            .collect::<anyhow::Result<HashMap<_, _>>>()?;
        let metadata =
            MetadataFetcher::new(settings.ipfs_gateway.clone(), timeout, 2 * 1024 * 1024)?;
        Ok(Self {
            db,
            keys: Arc::new(keys),
            networks: Arc::new(networks),
            metadata,
            limiter: Arc::new(RefreshLimiter::per_minute(settings.refresh_per_minute)),
            apps: Arc::new(AppCache::default()),
            settings: Arc::new(settings),
        })
    }

    pub fn network(&self, name: &str) -> Option<&Network> {
        self.networks.get(name)
    }
}

/// Apps found by key and domain, remembered briefly: every request names its app,
/// and apps change rarely. Only matches are kept, so unknown keys cannot fill it.
#[derive(Debug, Default)]
pub struct AppCache {
    entries: Mutex<HashMap<(String, String), (AppMatch, Instant)>>,
}

const APP_CACHE_TTL: Duration = Duration::from_secs(30);
const APP_CACHE_MAX: usize = 4096;

impl AppCache {
    pub async fn lookup(
        &self,
        db: &Db,
        key_hash: &str,
        domain: &str,
    ) -> DbResult<Option<AppMatch>> {
        let cache_key = (key_hash.to_owned(), domain.to_owned());
        if let Some((found, at)) = self.lock().get(&cache_key) {
            if at.elapsed() < APP_CACHE_TTL {
                return Ok(Some(found.clone()));
            }
        }
        let found = db.app_for_key(key_hash, domain).await?;
        if let Some(app) = &found {
            let mut entries = self.lock();
            if entries.len() >= APP_CACHE_MAX {
                entries.retain(|_, (_, at)| at.elapsed() < APP_CACHE_TTL);
            }
            if entries.len() < APP_CACHE_MAX {
                entries.insert(cache_key, (app.clone(), Instant::now()));
            }
        }
        Ok(found)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String), (AppMatch, Instant)>> {
        self.entries
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
