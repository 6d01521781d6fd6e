//! The widget core: the `ServiceLifeCycle` state machine and the widget SDK's
//! methods, over the login library. Each method checks the state it needs and
//! refuses with the spec's code otherwise.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::{Mutex as SyncMutex, OnceLock};
use std::time::{Duration, Instant};

use reqwest::Method;
use satchel_api::{
    AccountBalanceInfo, AccountsResponse, LoginStatus, NftsResponse, RegisterRequest,
    ServiceAccount, ServiceErrorCode, ServiceLifeCycle, ServiceNft, ServiceUser,
};

use crate::client::{Caller, ServiceConfig};
use crate::error::{SdkError, SdkErrorCode};
use crate::login::Login;
use crate::mapping;
use crate::store::TokenStore;
use crate::thumbnail::{ThumbnailSize, Thumbnails};
use crate::vault::{FIRST_ACCOUNT_PATH, KdfStrength, NewWallet, SealedMnemonic, is_pin};

/// How long after a refresh of balances or NFTs the next one is refused.
pub const REFRESH_COOLDOWN: Duration = Duration::from_secs(60);

/// What a refresh refreshes; each has its own cooldown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Refresh {
    Balances,
    Nfts,
}

/// An account a caller names: network and address (and, in RN, a token contract).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountRef {
    pub network: String,
    pub address: String,
    #[serde(default, rename = "isAA")]
    pub is_aa: Option<bool>,
}

pub struct Widget {
    login: Arc<Login>,
    store: Arc<dyn TokenStore>,
    kdf: KdfStrength,
    status: SyncMutex<ServiceLifeCycle>,
    /// The logged-in user, without tokens.
    user: SyncMutex<Option<ServiceUser>>,
    refreshed: SyncMutex<HashMap<Refresh, Instant>>,
    thumbnails: OnceLock<Thumbnails>,
    /// The NFT pictures this widget has listed for the user: the only ones it
    /// makes thumbnails of, so a page cannot make the app fetch any URL.
    listed_pictures: SyncMutex<HashSet<String>>,
    /// Likewise the NFTs' external links: the only pages it opens.
    listed_links: SyncMutex<HashSet<String>>,
}

impl std::fmt::Debug for Widget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Widget")
            .field("status", &self.get_status())
            .finish_non_exhaustive()
    }
}

fn lock<T>(m: &SyncMutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn not_initialized() -> SdkError {
    SdkError::service(
        ServiceErrorCode::NotInitialized,
        "the widget is not initialised",
    )
}

fn not_logged_in() -> SdkError {
    SdkError::service(ServiceErrorCode::InvalidLoginSession, "log in first")
}

impl Widget {
    /// A widget over a login library; its wallet key is kept in `store`.
    pub fn new(login: Arc<Login>, store: Arc<dyn TokenStore>) -> Self {
        Self {
            login,
            store,
            kdf: KdfStrength::Interactive,
            status: SyncMutex::new(ServiceLifeCycle::NotInitialized),
            user: SyncMutex::new(None),
            refreshed: SyncMutex::new(HashMap::new()),
            thumbnails: OnceLock::new(),
            listed_pictures: SyncMutex::new(HashSet::new()),
            listed_links: SyncMutex::new(HashSet::new()),
        }
    }

    /// Where NFT thumbnails are made and cached; set once, when the app knows
    /// its cache folder. Until then no thumbnail is made.
    pub fn set_thumbnails(&self, thumbnails: Thumbnails) {
        let _ = self.thumbnails.set(thumbnails);
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
        *lock(&self.status)
    }

    fn set_status(&self, status: ServiceLifeCycle) {
        *lock(&self.status) = status;
    }

    /// Initialises the widget and finds a user still logged in from before.
    pub async fn init(&self, config: ServiceConfig) -> Result<ServiceLifeCycle, SdkError> {
        {
            let mut status = lock(&self.status);
            if *status != ServiceLifeCycle::NotInitialized {
                return Err(SdkError::service(
                    ServiceErrorCode::AlreadyInitialized,
                    "the widget is already initialised",
                ));
            }
            *status = ServiceLifeCycle::Initializing;
        }
        if let Err(e) = self.login.init(config).await {
            self.set_status(ServiceLifeCycle::NotInitialized);
            return Err(e);
        }
        self.set_status(ServiceLifeCycle::Initialized);
        let user = self.login.get_current_service_user().await?;
        self.adopt(user).await
    }

    /// Takes the user a login produced (or `None`) and moves to its state.
    async fn adopt(&self, user: Option<ServiceUser>) -> Result<ServiceLifeCycle, SdkError> {
        let Some(mut user) = user else {
            *lock(&self.user) = None;
            self.set_status(ServiceLifeCycle::BeforeLogin);
            return Ok(ServiceLifeCycle::BeforeLogin);
        };
        user.token = None;
        if user.user_status.login_status == LoginStatus::Complete
            && self.sealed_key(&user).await?.is_none()
        {
            // The wallet exists but its key is not on this device.
            user.user_status.login_status = LoginStatus::PinRequired;
            user.user_status.pin_required = Some(true);
        }
        let status = if user.user_status.login_status == LoginStatus::Complete {
            ServiceLifeCycle::Login
        } else {
            ServiceLifeCycle::LoginBeforeRegister
        };
        *lock(&self.user) = Some(user);
        self.set_status(status);
        Ok(status)
    }

    /// The logged-in user, without tokens.
    pub fn current_user(&self) -> Option<ServiceUser> {
        lock(&self.user).clone()
    }

    fn require_initialized(&self) -> Result<(), SdkError> {
        match self.get_status() {
            ServiceLifeCycle::NotInitialized | ServiceLifeCycle::Initializing => {
                Err(not_initialized())
            }
            _ => Ok(()),
        }
    }

    /// The user and wallet of a logged-in, registered user.
    fn require_login(&self) -> Result<(String, String), SdkError> {
        self.require_initialized()?;
        if self.get_status() != ServiceLifeCycle::Login {
            return Err(not_logged_in());
        }
        let user = lock(&self.user).clone().ok_or_else(not_logged_in)?;
        match (user.user_info, user.wallet_id) {
            (Some(info), Some(wallet)) => Ok((info.user_id, wallet)),
            _ => Err(not_logged_in()),
        }
    }

    /// loginWithUI's e-mail path: logs in (or, when someone is logged in already,
    /// returns them) and moves to `login` or `login_before_register`.
    pub async fn login_with_email(
        &self,
        email: &str,
        password: &str,
    ) -> Result<ServiceUser, SdkError> {
        self.require_initialized()?;
        if let Some(user) = self.current_user() {
            return Ok(user);
        }
        let result = self
            .login
            .login_with_email_and_password(email, password)
            .await?;
        let user = self
            .login
            .login_service(result.provider, result.token)
            .await?;
        self.adopt(Some(user)).await?;
        self.current_user().ok_or_else(not_logged_in)
    }

    /// Signs up with an e-mail and password. `None`: a verification e-mail is on
    /// its way; `Some(user)`: the app asks for no verification and the user is in.
    pub async fn sign_up_with_email(
        &self,
        email: &str,
        password: &str,
    ) -> Result<Option<ServiceUser>, SdkError> {
        self.require_initialized()?;
        match self
            .login
            .sign_up_with_email_and_password(email, password, false)
            .await
        {
            Ok(result) => {
                let user = self
                    .login
                    .login_service(result.provider, result.token)
                    .await?;
                self.adopt(Some(user)).await?;
                Ok(self.current_user())
            }
            Err(e)
                if e.code
                    == crate::ErrorCode::Login(
                        satchel_api::LoginLibraryError::EmailVerificationRequired,
                    ) =>
            {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    fn vault_key(&self, user: &ServiceUser) -> Option<String> {
        let user_id = &user.user_info.as_ref()?.user_id;
        Some(format!("wallet:{}:{user_id}", self.login.app_id()))
    }

    async fn sealed_key(&self, user: &ServiceUser) -> Result<Option<SealedMnemonic>, SdkError> {
        let Some(key) = self.vault_key(user) else {
            return Ok(None);
        };
        let store = self.store.clone();
        let text = tokio::task::spawn_blocking(move || store.load(&key))
            .await
            .map_err(|e| SdkError::service(ServiceErrorCode::UnknownError, e.to_string()))?
            .map_err(|e| SdkError::sdk(SdkErrorCode::KeychainUnavailable, e.to_string()))?;
        Ok(text.and_then(|t| serde_json::from_str(&t).ok()))
    }

    /// Creates the wallet: a mnemonic made here, sealed under `pin` and kept in the
    /// keychain; the service gets only the address and its path. Only in
    /// `login_before_register`.
    pub async fn register(&self, pin: &str) -> Result<ServiceUser, SdkError> {
        self.require_initialized()?;
        if self.get_status() != ServiceLifeCycle::LoginBeforeRegister {
            return Err(SdkError::service(
                ServiceErrorCode::InvalidLoginSession,
                "register is available only after a login that asks for it",
            ));
        }
        if !is_pin(pin) {
            return Err(SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "the PIN must be 6 digits",
            ));
        }
        let user = self.current_user().ok_or_else(not_logged_in)?;
        if user.user_status.login_status == LoginStatus::PinRequired {
            return Err(SdkError::service(
                ServiceErrorCode::InvalidLoginSession,
                "this wallet's key is on another device; restoring it here is not available yet",
            ));
        }
        let key = self.vault_key(&user).ok_or_else(not_logged_in)?;
        let (pin, kdf) = (pin.to_owned(), self.kdf);
        let (address, sealed) = tokio::task::spawn_blocking(move || {
            let wallet = NewWallet::generate()?;
            let sealed = wallet.seal(&pin, kdf)?;
            Ok::<_, SdkError>((wallet.address, sealed))
        })
        .await
        .map_err(|e| SdkError::service(ServiceErrorCode::UnknownError, e.to_string()))??;
        // The key is kept before the service hears of the address, so a wallet the
        // service knows always has its key on this device.
        let store = self.store.clone();
        let text = serde_json::to_string(&sealed)
            .map_err(|e| SdkError::service(ServiceErrorCode::UnknownError, e.to_string()))?;
        tokio::task::spawn_blocking(move || store.save(&key, &text))
            .await
            .map_err(|e| SdkError::service(ServiceErrorCode::UnknownError, e.to_string()))?
            .map_err(|e| SdkError::sdk(SdkErrorCode::KeychainUnavailable, e.to_string()))?;
        let request = RegisterRequest {
            address: address.to_checksum(None),
            address_path: FIRST_ACCOUNT_PATH.to_owned(),
        };
        let registered: ServiceUser = self
            .login
            .authed(Caller::Rest, Method::POST, "v1/wallets", Some(&request))
            .await?;
        self.adopt(Some(registered)).await?;
        self.current_user().ok_or_else(not_logged_in)
    }

    /// Whether the widget may open: only for a logged-in, registered user. The
    /// shell shows or hides the window.
    pub fn open_widget(&self) -> bool {
        self.get_status() == ServiceLifeCycle::Login
    }

    /// Closing the widget never logs the user out.
    pub fn close_widget(&self) -> bool {
        true
    }

    /// Logs out; the widget stays initialised.
    pub async fn logout(&self) -> Result<(), SdkError> {
        self.require_initialized()?;
        let result = self.login.logout().await;
        self.forget_user();
        self.set_status(ServiceLifeCycle::BeforeLogin);
        result.map(|_| ())
    }

    /// Ends use of the widget.
    pub async fn finalize(&self) {
        self.login.finalize().await;
        self.forget_user();
        self.set_status(ServiceLifeCycle::NotInitialized);
    }

    fn forget_user(&self) {
        *lock(&self.user) = None;
        lock(&self.refreshed).clear();
        lock(&self.listed_pictures).clear();
        lock(&self.listed_links).clear();
    }

    async fn accounts(&self) -> Result<AccountsResponse, SdkError> {
        let (user_id, wallet_id) = self.require_login()?;
        self.login
            .authed(
                Caller::Rest,
                Method::GET,
                &format!("v1/account?userId={user_id}&walletId={wallet_id}"),
                None,
            )
            .await
    }

    /// The user's accounts (getAccounts), optionally only on some networks.
    /// Satchel makes no AA accounts, so `with_eoa` changes nothing.
    pub async fn get_accounts(
        &self,
        networks: Option<&[String]>,
        _with_eoa: bool,
    ) -> Result<Vec<ServiceAccount>, SdkError> {
        let accounts = self.accounts().await?;
        Ok(accounts
            .accounts
            .iter()
            .filter(|a| mapping::network_selected(networks, &a.network))
            .map(mapping::service_account)
            .collect())
    }

    /// Balances as last read (getBalance), scaled to decimal strings; all
    /// accounts, or only those named.
    pub async fn get_balance(
        &self,
        accounts: Option<&[AccountRef]>,
    ) -> Result<Vec<AccountBalanceInfo>, SdkError> {
        let list = self.accounts().await?;
        let balances = mapping::balances(&list.accounts)?;
        Ok(match accounts {
            None => balances,
            Some(wanted) => balances
                .into_iter()
                .filter(|b| {
                    wanted.iter().any(|w| {
                        w.network.eq_ignore_ascii_case(&b.network)
                            && w.address.eq_ignore_ascii_case(&b.address)
                    })
                })
                .collect(),
        })
    }

    /// How long until `what` may be refreshed again; zero when it may now.
    pub fn refresh_wait(&self, what: Refresh) -> Duration {
        lock(&self.refreshed)
            .get(&what)
            .map(|at| REFRESH_COOLDOWN.saturating_sub(at.elapsed()))
            .unwrap_or_default()
    }

    fn start_refresh(&self, what: Refresh) -> Result<(), SdkError> {
        let mut refreshed = lock(&self.refreshed);
        if let Some(at) = refreshed.get(&what) {
            let wait = REFRESH_COOLDOWN.saturating_sub(at.elapsed());
            if !wait.is_zero() {
                return Err(SdkError::sdk(
                    SdkErrorCode::TooManyRequests,
                    format!(
                        "refreshed a moment ago; you can refresh again in {} s",
                        wait.as_secs().max(1)
                    ),
                ));
            }
        }
        refreshed.insert(what, Instant::now());
        Ok(())
    }

    /// Reads every account's balances from the chain now (operation 2 per account)
    /// and returns them all; refused within a minute of the last refresh.
    pub async fn refresh_balances(&self) -> Result<Vec<AccountBalanceInfo>, SdkError> {
        self.require_login()?;
        self.start_refresh(Refresh::Balances)?;
        let list = self.accounts().await?;
        for account in list.accounts.iter().filter(|a| a.contract.is_none()) {
            let path = format!("v1/accountbalance/{}/balance", account.account_id);
            self.login
                .authed::<serde_json::Value>(Caller::Rest, Method::GET, &path, None)
                .await?;
        }
        self.get_balance(None).await
    }

    /// The user's NFTs (getNFTs); `refresh` re-reads them from the chain, refused
    /// within a minute of the last refresh.
    pub async fn get_nfts(
        &self,
        refresh: bool,
        networks: Option<&[String]>,
    ) -> Result<Vec<ServiceNft>, SdkError> {
        let (user_id, wallet_id) = self.require_login()?;
        if refresh {
            self.start_refresh(Refresh::Nfts)?;
        }
        let path = if refresh { "v1/nft/refresh" } else { "v1/nft" };
        let nfts: NftsResponse = self
            .login
            .authed(
                Caller::Rest,
                Method::GET,
                &format!("{path}?userId={user_id}&walletId={wallet_id}"),
                None,
            )
            .await?;
        let accounts = self.accounts().await?.accounts;
        let listed: Vec<ServiceNft> = nfts
            .nfts
            .iter()
            .filter(|n| mapping::network_selected(networks, &n.contract.network))
            .filter_map(|n| mapping::service_nft(n, &accounts))
            .collect();
        let urls = |of: fn(&ServiceNft) -> &String| {
            listed
                .iter()
                .map(of)
                .filter(|url| !url.is_empty())
                .cloned()
                .collect::<Vec<_>>()
        };
        lock(&self.listed_pictures).extend(urls(|n| &n.image_url));
        lock(&self.listed_links).extend(urls(|n| &n.external_link));
        Ok(listed)
    }

    /// The external link of one of the user's NFTs, as listed by
    /// [`get_nfts`](Self::get_nfts), checked to be an http(s) address the system
    /// browser may open; any other is refused.
    pub fn nft_link(&self, link: &str) -> Result<url::Url, SdkError> {
        self.require_login()?;
        let refused = || {
            SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "not the link of one of your NFTs",
            )
        };
        if !lock(&self.listed_links).contains(link) {
            return Err(refused());
        }
        let url: url::Url = link.parse().map_err(|_| refused())?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(refused());
        }
        Ok(url)
    }

    /// A PNG thumbnail of the picture of one of the user's NFTs, as listed by
    /// [`get_nfts`](Self::get_nfts); any other URL is refused.
    pub async fn nft_thumbnail(
        &self,
        image_url: &str,
        size: ThumbnailSize,
    ) -> Result<Vec<u8>, SdkError> {
        self.require_login()?;
        if !lock(&self.listed_pictures).contains(image_url) {
            return Err(SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "not the picture of one of your NFTs",
            ));
        }
        let thumbnails = self.thumbnails.get().ok_or_else(|| {
            SdkError::service(ServiceErrorCode::NotInitialized, "no thumbnail folder")
        })?;
        thumbnails
            .png(image_url, size)
            .await
            .map_err(|e| SdkError::service(ServiceErrorCode::ApiRequestError, e.to_string()))
    }

    /// Unlocks the wallet key with the PIN, to sign on this device.
    pub async fn unlock(
        &self,
        pin: &str,
    ) -> Result<alloy::signers::local::PrivateKeySigner, SdkError> {
        self.require_login()?;
        let user = self.current_user().ok_or_else(not_logged_in)?;
        let sealed = self.sealed_key(&user).await?.ok_or_else(|| {
            SdkError::service(
                ServiceErrorCode::InvalidLoginSession,
                "this wallet's key is not on this device",
            )
        })?;
        let pin = pin.to_owned();
        tokio::task::spawn_blocking(move || sealed.unseal(&pin))
            .await
            .map_err(|e| SdkError::service(ServiceErrorCode::UnknownError, e.to_string()))?
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryStore;

    fn widget() -> Widget {
        let store: Arc<dyn TokenStore> = Arc::new(MemoryStore::default());
        Widget::new(Arc::new(Login::new("app", "key", store.clone())), store)
    }

    #[tokio::test]
    async fn every_method_is_refused_before_init() {
        let w = widget();
        assert_eq!(w.get_status(), ServiceLifeCycle::NotInitialized);
        assert!(
            w.get_accounts(None, false)
                .await
                .expect_err("no")
                .is(ServiceErrorCode::NotInitialized)
        );
        assert!(
            w.get_balance(None)
                .await
                .expect_err("no")
                .is(ServiceErrorCode::NotInitialized)
        );
        assert!(
            w.get_nfts(false, None)
                .await
                .expect_err("no")
                .is(ServiceErrorCode::NotInitialized)
        );
        assert!(
            w.register("123456")
                .await
                .expect_err("no")
                .is(ServiceErrorCode::NotInitialized)
        );
        assert!(
            w.logout()
                .await
                .expect_err("no")
                .is(ServiceErrorCode::NotInitialized)
        );
        assert!(!w.open_widget(), "the widget does not open for no one");
        assert!(w.close_widget());
    }

    #[tokio::test]
    async fn init_with_no_stored_session_is_before_login_and_finalize_resets() {
        let w = widget();
        let config = ServiceConfig::new("http://127.0.0.1:9/".parse().expect("url"), "localhost");
        assert_eq!(
            w.init(config.clone()).await.expect("init"),
            ServiceLifeCycle::BeforeLogin
        );
        assert!(
            w.init(config)
                .await
                .expect_err("twice")
                .is(ServiceErrorCode::AlreadyInitialized)
        );
        assert!(
            w.get_accounts(None, false)
                .await
                .expect_err("no user")
                .is(ServiceErrorCode::InvalidLoginSession)
        );
        assert!(
            w.register("123456")
                .await
                .expect_err("no user")
                .is(ServiceErrorCode::InvalidLoginSession)
        );
        assert!(!w.open_widget());
        w.finalize().await;
        assert_eq!(w.get_status(), ServiceLifeCycle::NotInitialized);
    }

    #[test]
    fn a_refresh_within_the_cooldown_is_refused_per_kind() {
        let w = widget();
        w.start_refresh(Refresh::Balances).expect("first");
        let e = w.start_refresh(Refresh::Balances).expect_err("too soon");
        assert_eq!(e.code, crate::ErrorCode::Sdk(SdkErrorCode::TooManyRequests));
        assert!(w.refresh_wait(Refresh::Balances) > Duration::from_secs(55));
        w.start_refresh(Refresh::Nfts).expect("its own cooldown");
        assert!(w.refresh_wait(Refresh::Nfts) > Duration::ZERO);
    }
}
