//! The widget core: the `ServiceLifeCycle` state machine and the widget SDK's
//! methods, over the login library. Each method checks the state it needs and
//! refuses with the spec's code otherwise.
//!
//! Here: the life cycle, login and logout. The wallet's key (register, unlock) is
//! in `keys.rs`; accounts, balances and NFTs in `assets.rs`; refresh cooldowns and
//! the NFT allow-lists in their own files.

mod address_book;
mod allow_lists;
mod approvals;
mod assets;
mod balances_ahead;
mod connect;
mod cooldowns;
mod email_login;
mod external_login;
mod hidden;
mod keys;
mod mapping;
mod names;
mod nft_grid;
mod nft_listing;
mod own_tokens;
mod picture_urls;
mod pin;
mod receive;
mod send;
mod user_files;
mod values;
mod wallet_accounts;
mod window;

use std::sync::{Arc, OnceLock};

use parking_lot::Mutex;
use satchel_api::{LoginResult, LoginStatus, ServiceErrorCode, ServiceLifeCycle, ServiceUser};
use tokio::sync::watch;

use crate::client::ServiceConfig;
use crate::error::SdkError;
use satchel_chain::networks::NetworkTable;

use crate::keychain::KeyVault;
use crate::keychain::TokenStore;
use crate::login::Login;
use crate::thumbnail::Thumbnails;
use crate::timing::Step;
use crate::vault::KdfStrength;
pub use address_book::{ImportOutcome, RecipientWarning, SavedAddress};
use allow_lists::AllowLists;
pub use approvals::{ApprovalEntry, RevokeForm};
pub use assets::AccountRef;
pub use connect::RelayRefusal;
use cooldowns::Cooldowns;
pub use cooldowns::{REFRESH_COOLDOWN, Refresh};
pub use external_login::{
    ExternalLoginOutcome, LoginOptions, LoginProviderChoice, RegisterEmailPrompt,
};
pub use hidden::CollectionChoices;
pub use keys::{KeyState, KeyStatus};
pub use nft_grid::{MAX_TILES, NftFilter, NftGrid, NftTile, NftTiles};
pub use own_tokens::OwnToken;
pub use receive::{ReceiveInfo, payment_uri, qr_png};
pub use send::{
    ActivityEntry, ActivityKind, AddressCheck, CallQuote, ConfirmSend, ExpectedApproval,
    ExpectedChange, FeeOption, FeeSpeed, HighFee, NftSendForm, NftSent, ReplaceAction, Replacement,
    SendForm, SendQuote, SendRequest, SendResult, TxData, check_address,
};
pub use wallet_accounts::WalletAccount;
pub use window::{LANGUAGES, LanguageRequest};

/// The widget SDK over a login library: life cycle, register, accounts,
/// balances and NFTs.
///
/// ```no_run
/// # async fn demo() -> Result<(), satchel_sdk::SdkError> {
/// use std::sync::Arc;
/// use satchel_sdk::{KeyringStore, Login, ServiceConfig, Widget};
/// use satchel_sdk::api::ServiceLifeCycle;
///
/// let store = Arc::new(KeyringStore::new("dev.satchel.wallet"));
/// let login = Arc::new(Login::new("app-id", "app-key", store.clone()));
/// let widget = Widget::new(login, store);
/// let url = "https://wallet.example.com/".parse().expect("a URL");
/// if widget.init(ServiceConfig::new(url, "app.example.com")).await? == ServiceLifeCycle::Login {
///     for balance in widget.get_balance(None).await? {
///         println!("{} {} on {}", balance.balance, balance.symbol, balance.network);
///     }
/// }
/// # Ok(()) }
/// ```
pub struct Widget {
    login: Arc<Login>,
    vault: KeyVault,
    kdf: KdfStrength,
    /// The networks, coins and tokens this app was configured for: what the
    /// device signs for, whatever the service says.
    networks: NetworkTable,
    state: Mutex<WidgetState>,
    /// Every change of the life cycle, for whoever follows it (the shell's page).
    status_changes: watch::Sender<ServiceLifeCycle>,
    /// The newest application `send`, for the page to open its form with.
    send_requests: watch::Sender<Option<send::SendRequest>>,
    /// Counts the times the widget was closed: a `loginWithUI` waiting for a
    /// login ends with `UserCancelled` when it changes.
    closed: watch::Sender<u64>,
    /// The language an application asked the pages to speak (`changeLanguage`).
    language: watch::Sender<Option<window::LanguageRequest>>,
    thumbnails: OnceLock<Thumbnails>,
    /// The pictures of the person's NFTs listed so far, the only ones made
    /// into thumbnails (their own lock: a listing keeps them as it is read).
    pictures: picture_urls::PictureUrls,
    /// The key of the NFT grids' versions ([`NftGrid::version`]).
    grid_versions: std::collections::hash_map::RandomState,
    /// What loginWithUI asked the login page to offer.
    login_choice: Mutex<external_login::LoginChoice>,
    /// A login refused for want of an e-mail, with its token (never the page's).
    pending_registration: Mutex<Option<external_login::PendingRegistration>>,
    /// The newest registerUserEmail, for the page to open its form with.
    register_requests: watch::Sender<Option<RegisterEmailPrompt>>,
    /// The person's saved addresses (in memory unless the app gives a folder).
    address_books: address_book::AddressBooks,
    /// The NFT collections the person hid (likewise).
    hidden: hidden::HiddenCollections,
    /// The tokens the person added, as they accepted them (likewise).
    own_tokens: own_tokens::OwnTokens,
    /// Held while balances are read ahead: the first ask waits for that read
    /// instead of making its own.
    reading_ahead: tokio::sync::Mutex<()>,
    /// Held from choosing a confirmed quote's nonce until its broadcast is
    /// answered, so two confirmations never choose the same one.
    confirming: tokio::sync::Mutex<()>,
    /// Addresses' primary names as last checked ([`Widget::primary_name`]).
    primary_names: Mutex<names::PrimaryNames>,
}

/// What the widget knows of the person, changed together under one lock.
#[derive(Debug, Default)]
struct WidgetState {
    status: ServiceLifeCycle,
    /// The logged-in user, without tokens.
    user: Option<ServiceUser>,
    key: KeyStatus,
    cooldowns: Cooldowns,
    allowed: AllowLists,
    /// The listing the NFT tab's last grid was made of, for its tiles and
    /// the detail of its NFTs.
    nft_grid: nft_grid::KeptGrid,
    /// Quotes the send page may confirm, and an application's `send` waiting.
    sends: send::Sends,
    /// Addresses the service lists at the phrase's next indexes that the
    /// phrase, once opened, did not make: refused from then on, not waiting.
    disowned: Vec<String>,
    /// The balances read as the app started, for the wallet page's first ask.
    balances_ahead: balances_ahead::BalancesAhead,
}

impl std::fmt::Debug for Widget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Widget")
            .field("status", &self.get_status())
            .finish_non_exhaustive()
    }
}

impl Widget {
    /// A widget over a login library; its wallet key is kept in `store`.
    pub fn new(login: Arc<Login>, store: Arc<dyn TokenStore>) -> Self {
        let vault = KeyVault::new(store, login.app_id());
        Self {
            login,
            vault,
            kdf: KdfStrength::Interactive,
            networks: NetworkTable::default(),
            state: Mutex::new(WidgetState::default()),
            status_changes: watch::Sender::new(ServiceLifeCycle::NotInitialized),
            send_requests: watch::Sender::new(None),
            closed: watch::Sender::new(0),
            language: watch::Sender::new(None),
            thumbnails: OnceLock::new(),
            pictures: Default::default(),
            grid_versions: Default::default(),
            login_choice: Mutex::new(Default::default()),
            pending_registration: Mutex::new(None),
            register_requests: watch::Sender::new(None),
            address_books: Default::default(),
            hidden: Default::default(),
            own_tokens: Default::default(),
            reading_ahead: tokio::sync::Mutex::new(()),
            confirming: tokio::sync::Mutex::new(()),
            primary_names: Default::default(),
        }
    }

    /// Keeps what the person sets on this device that is not secret (the
    /// address book, the hidden collections) in files under `dir`, the app's
    /// data folder.
    pub fn with_data_dir(mut self, dir: std::path::PathBuf) -> Self {
        self.address_books = user_files::UserFiles::in_dir(dir.join("address-book"));
        self.hidden = user_files::UserFiles::in_dir(dir.join("hidden-collections"));
        self.own_tokens = user_files::UserFiles::in_dir(dir.join("added-tokens"));
        self
    }

    /// Where NFT thumbnails are made and cached; set once, when the app knows
    /// its cache folder. Until then no thumbnail is made.
    pub fn set_thumbnails(&self, thumbnails: Thumbnails) {
        // The pictures' URLs are kept beside their thumbnails, on disk.
        self.pictures.set_dir(thumbnails.dir().to_owned());
        let _ = self.thumbnails.set(thumbnails);
    }

    /// The app's own network table (its configuration's, never the service's).
    /// Without one, no account the service lists is believed.
    pub fn with_networks(mut self, networks: NetworkTable) -> Self {
        self.networks = networks;
        self
    }

    /// A cheaper PIN key derivation, for tests only.
    pub fn with_kdf(mut self, kdf: KdfStrength) -> Self {
        self.kdf = kdf;
        self
    }

    pub fn login(&self) -> &Login {
        &self.login
    }

    pub fn get_status(&self) -> ServiceLifeCycle {
        self.state.lock().status
    }

    /// Follows the life cycle: the receiver sees the current status and every
    /// change after it.
    pub fn watch_status(&self) -> watch::Receiver<ServiceLifeCycle> {
        self.status_changes.subscribe()
    }

    /// Moves to `status` with `user` and its key state (all at once) and tells
    /// the followers.
    fn enter(&self, status: ServiceLifeCycle, user: Option<ServiceUser>, key: KeyStatus) {
        let mut state = self.state.lock();
        state.status = status;
        state.user = user;
        state.key = key;
        self.status_changes.send_replace(status);
    }

    /// The logged-in user, without tokens.
    pub fn current_user(&self) -> Option<ServiceUser> {
        self.state.lock().user.clone()
    }

    /// Initialises the widget and finds a user still logged in from before.
    pub async fn init(&self, config: ServiceConfig) -> Result<ServiceLifeCycle, SdkError> {
        {
            let mut state = self.state.lock();
            if state.status != ServiceLifeCycle::NotInitialized {
                return Err(SdkError::service(
                    ServiceErrorCode::AlreadyInitialized,
                    "the widget is already initialised",
                ));
            }
            state.status = ServiceLifeCycle::Initializing;
            self.status_changes.send_replace(state.status);
        }
        let login = Step::start("start: login library");
        if let Err(e) = self.login.init(config).await {
            self.enter(ServiceLifeCycle::NotInitialized, None, KeyStatus::default());
            return Err(e);
        }
        drop(login);
        self.enter(ServiceLifeCycle::Initialized, None, KeyStatus::default());
        let user = {
            let _user = Step::start("start: session and user");
            self.login.get_current_service_user().await?
        };
        let _adopt = Step::start("start: key check");
        self.adopt(user).await
    }

    /// Takes a login's identity tokens to the service and adopts its user (any
    /// login: e-mail, OAuth, an external token); a registration a refused login
    /// left waiting is dropped.
    async fn adopt_login(&self, result: LoginResult) -> Result<ServiceUser, SdkError> {
        let user = self
            .login
            .login_service(result.provider, result.token)
            .await?;
        *self.pending_registration.lock() = None;
        self.adopt(Some(user)).await?;
        self.current_user().ok_or_else(SdkError::not_logged_in)
    }

    /// Takes the user a login produced (or `None`) and moves to its state. A
    /// wallet whose key is not on this device, or whose key here is another
    /// one, is `pinRequired`: never shown as the wallet.
    async fn adopt(&self, user: Option<ServiceUser>) -> Result<ServiceLifeCycle, SdkError> {
        let Some(mut user) = user else {
            self.enter(ServiceLifeCycle::BeforeLogin, None, KeyStatus::default());
            return Ok(ServiceLifeCycle::BeforeLogin);
        };
        user.token = None;
        let key = self.check_key(&user).await?;
        if matches!(
            key.state,
            KeyState::Missing | KeyState::Mismatch | KeyState::Stale
        ) {
            user.user_status.login_status = LoginStatus::PinRequired;
            user.user_status.pin_required = Some(true);
        }
        let status = if user.user_status.login_status == LoginStatus::Complete {
            ServiceLifeCycle::Login
        } else {
            ServiceLifeCycle::LoginBeforeRegister
        };
        self.enter(status, Some(user), key);
        Ok(status)
    }

    fn require_initialized(&self) -> Result<(), SdkError> {
        match self.get_status() {
            ServiceLifeCycle::NotInitialized | ServiceLifeCycle::Initializing => {
                Err(SdkError::not_initialized("widget"))
            }
            _ => Ok(()),
        }
    }

    /// The user and wallet of a logged-in, registered user.
    fn require_login(&self) -> Result<(String, String), SdkError> {
        self.require_initialized()?;
        let state = self.state.lock();
        if state.status != ServiceLifeCycle::Login {
            return Err(SdkError::not_logged_in());
        }
        match state.user.as_ref().map(|u| (&u.user_info, &u.wallet_id)) {
            Some((Some(info), Some(wallet))) => Ok((info.user_id.clone(), wallet.clone())),
            _ => Err(SdkError::not_logged_in()),
        }
    }

    /// Logs out; the widget stays initialised.
    pub async fn logout(&self) -> Result<(), SdkError> {
        self.require_initialized()?;
        let result = self.login.logout().await;
        self.forget_user(ServiceLifeCycle::BeforeLogin);
        result.map(|_| ())
    }

    /// Ends use of the widget.
    pub async fn finalize(&self) {
        self.login.finalize().await;
        self.forget_user(ServiceLifeCycle::NotInitialized);
    }

    /// Forgets everything about the person and moves to `status`.
    fn forget_user(&self, status: ServiceLifeCycle) {
        if let Some(thumbnails) = self.thumbnails.get()
            && let Err(e) = thumbnails.clear()
        {
            tracing::warn!(error = %e, "thumbnails not removed");
        }
        self.pictures.clear();
        *self.pending_registration.lock() = None;
        let mut state = self.state.lock();
        *state = WidgetState {
            status,
            ..WidgetState::default()
        };
        self.status_changes.send_replace(status);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keychain::MemoryStore;

    fn widget() -> Widget {
        let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
        Widget::new(Arc::new(Login::new("app", "key", store.clone())), store)
    }

    #[tokio::test]
    async fn every_method_is_refused_before_init() {
        let w = widget();
        assert_eq!(w.get_status(), ServiceLifeCycle::NotInitialized);
        let refused = |e: SdkError| e.is(ServiceErrorCode::NotInitialized);
        assert!(refused(w.get_accounts(None, false).await.expect_err("no")));
        assert!(refused(w.get_balance(None).await.expect_err("no")));
        assert!(refused(w.get_nfts(false, None).await.expect_err("no")));
        assert!(refused(w.register("246813", false).await.expect_err("no")));
        assert!(refused(w.logout().await.expect_err("no")));
        assert!(!w.open_widget(), "the widget does not open for no one");
        assert!(w.close_widget());
    }

    #[tokio::test]
    async fn init_with_no_stored_session_is_before_login_and_finalize_resets() {
        let w = widget();
        let mut changes = w.watch_status();
        let config = ServiceConfig::new("http://127.0.0.1:9/".parse().expect("url"), "localhost");
        assert_eq!(
            w.init(config.clone()).await.expect("init"),
            ServiceLifeCycle::BeforeLogin
        );
        assert_eq!(*changes.borrow_and_update(), ServiceLifeCycle::BeforeLogin);
        assert!(
            w.init(config)
                .await
                .expect_err("twice")
                .is(ServiceErrorCode::AlreadyInitialized)
        );
        let no_user = |e: SdkError| e.is(ServiceErrorCode::InvalidLoginSession);
        assert!(no_user(
            w.get_accounts(None, false).await.expect_err("no user")
        ));
        assert!(no_user(
            w.register("246813", false).await.expect_err("no user")
        ));
        assert!(!w.open_widget());
        w.finalize().await;
        assert_eq!(w.get_status(), ServiceLifeCycle::NotInitialized);
        assert!(
            changes.has_changed().expect("open"),
            "finalize is announced"
        );
        assert_eq!(*changes.borrow(), ServiceLifeCycle::NotInitialized);
    }
}
