//! The service's storage: one pool over SQLite or PostgreSQL, chosen by the URL.
//!
//! The queries are written once in the SQL both engines share (`$n` parameters,
//! `ON CONFLICT`, BIGINT and TEXT columns) and run through sqlx's `Any` driver, so
//! there is one implementation to read and test rather than two that drift apart.
//! Each table's queries live in the file named after it.

mod added_tokens;
mod approvals;
mod apps;
mod challenges;
mod external;
mod identities;
mod links;
mod nfts;
mod password_resets;
mod pin_unlocks;
mod rate_limits;
pub use rate_limits::SWEEP_EVERY as RATE_LIMIT_SWEEP_EVERY;
mod refresh_tokens;
mod seed;
mod sessions;
mod token_keys;
mod transactions;
mod users;
mod wallet_keys;
mod wallet_reads;
mod wallets;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor};

pub use added_tokens::{AddedTokenRow, TokenAdded};
pub use approvals::ApprovalRow;
pub use apps::{AppMatch, AppRow, is_loopback_host};
pub use challenges::{ChallengeRefusal, Signed, SignedChallenge};
pub use external::{ExternalIdentityRow, OAuthProviderRow, RegistrationTicket};
pub use identities::IdentityRow;
pub use nfts::{NftRow, StoredArrival, StoredCollection, StoredNft};
pub use password_resets::PasswordReset;
pub use pin_unlocks::Unlock;
pub use refresh_tokens::{RefreshPurpose, RefreshUse};
pub use token_keys::StoredTokenKey;
pub use transactions::{ACTIVITY_LIMIT, NewTransfer, TransactionRow};
pub use wallet_keys::{
    CountedAttempt, NewWalletKey, PinLimits, StoredKdf, StoredPin, WalletKeyRow,
};
pub use wallet_reads::{BodyKeeper, KeptBody, WalletFound, WalletRead};
pub use wallets::{AccountAdded, AccountRow, AccountTokens, NewAccount, TokenRow};

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("already exists")]
    Conflict,
    /// A value no column can hold (text with a NUL character, which PostgreSQL
    /// refuses): so nothing stored is named by it.
    #[error("a value no record can hold")]
    Unstorable,
    #[error(transparent)]
    Sqlx(sqlx::Error),
    #[error(transparent)]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

impl From<sqlx::Error> for DbError {
    fn from(e: sqlx::Error) -> Self {
        match &e {
            // PostgreSQL's "invalid byte sequence": text with a NUL character.
            sqlx::Error::Database(db) if db.code().as_deref() == Some("22021") => Self::Unstorable,
            _ => Self::Sqlx(e),
        }
    }
}

impl DbError {
    /// Unique-constraint violations become [`DbError::Conflict`].
    fn from_write(e: sqlx::Error) -> Self {
        match &e {
            sqlx::Error::Database(db) if db.is_unique_violation() => Self::Conflict,
            _ => e.into(),
        }
    }
}

pub type DbResult<T> = Result<T, DbError>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone, Debug)]
pub struct Db {
    pool: AnyPool,
    backend: Backend,
    /// Rate-limit turns this instance took, for the table's sweep.
    turns_taken: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl Db {
    /// Connects, creating a SQLite file and its folder when needed, and brings the
    /// schema up to date.
    pub async fn connect(url: &str) -> DbResult<Self> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        };
        let sqlite_folder = sqlite_path(url).and_then(|p| p.parent().map(|p| p.to_owned()));
        if let Some(folder) = sqlite_folder.filter(|f| !f.as_os_str().is_empty()) {
            std::fs::create_dir_all(&folder).map_err(|e| DbError::Sqlx(sqlx::Error::Io(e)))?;
        }
        let options: AnyConnectOptions = url.parse()?;
        // Connections by cores: each SQLite connection is a thread of its own,
        // and a PostgreSQL one a server process; more of them than the cores
        // can run only adds context switches (measured with the scale
        // benchmark: 4 SQLite connections on 2 cores answer 20% more than 8).
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get()) as u32;
        let pool = AnyPoolOptions::new()
            .max_connections(match backend {
                Backend::Sqlite => (2 * cores).clamp(4, 16),
                Backend::Postgres => (4 * cores).clamp(8, 32),
            })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL lets readers run beside the one writer; the busy
                        // timeout makes a writer wait for another instead of failing.
                        // Reads through a memory map (up to 256 MiB of the file)
                        // copy no page into each connection's own cache: cold
                        // reads of operation 1 answered 12% more (scale bench).
                        conn.execute(
                            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
                             PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON; \
                             PRAGMA mmap_size = 268435456;",
                        )
                        .await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        Ok(Self {
            pool,
            backend,
            turns_taken: Default::default(),
        })
    }

    pub(crate) fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Whether this is PostgreSQL, which several instances may share (SQLite
    /// is one instance's own file).
    pub fn is_shared(&self) -> bool {
        self.backend == Backend::Postgres
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// The file path of a `sqlite://path?opts` URL.
fn sqlite_path(url: &str) -> Option<std::path::PathBuf> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))?;
    let path = rest.split('?').next().unwrap_or_default();
    (!path.is_empty() && path != ":memory:").then(|| path.into())
}

/// A new id: a UUIDv7, so ids sort by creation and index well.
pub fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}
