//! `loginWithOauthProvider` on a desktop, as RFC 8252 has it: the system browser
//! (never an embedded webview), a loopback redirect to `127.0.0.1` on a random
//! port, PKCE (S256), a random `state` and `nonce`; the service exchanges the
//! code with the provider (it holds the client secret) and answers the identity
//! tokens, or `required/register_email` for an identity without an e-mail.
//!
//! Its errors are the spec's three: `Invalid provider`, `User canceled` (the
//! person refused, the wait timed out, or `cancel_oauth`), `Internal error`
//! (everything else, with the cause in the message). Tokens, codes, verifiers and
//! URLs with their query never reach a log line.

use std::net::Ipv4Addr;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore as _;
use reqwest::Method;
use satchel_api::{
    LoginLibraryError, LoginReply, LoginResult, OAuthCodeExchange, OAuthProviderInfo, Provider,
    is_oauth_provider,
};
use sha2::{Digest as _, Sha256};
use tokio::net::TcpListener;
use tokio::sync::Notify;
use url::Url;

use super::{Login, loopback};
use crate::client::Caller;
use crate::error::{ErrorCode, SdkError};

/// How long a login waits for the browser by default.
pub(super) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5 * 60);

/// Opens a URL in the person's own browser. The desktop shell plugs in the
/// operating system's; tests plug in a headless one.
pub trait OpenUrl: Send + Sync {
    /// Opens `url`; the error says why it could not (it is shown to the person).
    fn open_url(&self, url: &str) -> Result<(), String>;
}

/// The one OAuth login that may be waiting for its browser: a new one, or
/// `cancel_oauth`, ends the wait of the one before.
#[derive(Default)]
pub(super) struct OAuthSlot(parking_lot::Mutex<Option<Arc<Notify>>>);

impl OAuthSlot {
    /// Takes the slot for a new login, canceling the one waiting in it.
    fn start(&self) -> Waiting<'_> {
        let mine = Arc::new(Notify::new());
        if let Some(before) = self.0.lock().replace(mine.clone()) {
            before.notify_one();
        }
        Waiting { slot: self, mine }
    }

    fn cancel(&self) {
        if let Some(waiting) = self.0.lock().take() {
            // `notify_one` keeps the wake-up for a login not yet polling for it.
            waiting.notify_one();
        }
    }
}

/// A login's hold on the slot; given up when the login ends, however it ends.
struct Waiting<'a> {
    slot: &'a OAuthSlot,
    mine: Arc<Notify>,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        let mut slot = self.slot.0.lock();
        if slot.as_ref().is_some_and(|w| Arc::ptr_eq(w, &self.mine)) {
            *slot = None;
        }
    }
}

/// What one authorization request carries to bind its answer to it.
struct Pkce {
    state: String,
    verifier: String,
    nonce: String,
}

impl Pkce {
    fn new() -> Self {
        Self {
            state: random_token(),
            verifier: random_token(),
            nonce: random_token(),
        }
    }

    /// RFC 7636 S256: `BASE64URL(SHA256(verifier))`.
    fn challenge(&self) -> String {
        code_challenge(&self.verifier)
    }
}

/// 32 random bytes, base64url without padding (43 characters).
fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

pub(super) fn code_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

impl Login {
    /// The browser `login_with_oauth_provider` sends the person to.
    pub fn with_browser(mut self, browser: Arc<dyn OpenUrl>) -> Self {
        self.browser = Some(browser);
        self
    }

    /// How long `login_with_oauth_provider` waits for the browser to come back
    /// (5 minutes unless set).
    pub fn with_oauth_timeout(mut self, timeout: Duration) -> Self {
        self.oauth_timeout = timeout;
        self
    }

    /// Ends the wait of an OAuth login for its browser: that login fails with
    /// `User canceled`. Nothing happens when no login is waiting.
    pub fn cancel_oauth(&self) {
        self.oauth.cancel();
    }

    /// loginWithOauthProvider: sends the person to `provider`'s login page in the
    /// system browser and waits for it to come back to a loopback redirect, then
    /// has the service exchange the code. `with_logout: Some(true)` keeps a stored
    /// session; otherwise it is logged out first. One login waits at a time: a
    /// second call cancels the first.
    ///
    /// Answers the identity tokens for `login_service`, or the failure
    /// `required/register_email` (with the refused token) for an identity without
    /// an e-mail. Errors: `Invalid provider` (not an OAuth provider, or not one
    /// this app registered), `User canceled` (refused in the browser, timed out,
    /// `cancel_oauth`), `Internal error` (anything else; the message says what).
    pub async fn login_with_oauth_provider(
        &self,
        provider: &str,
        with_logout: Option<bool>,
    ) -> Result<LoginReply, SdkError> {
        let provider = Provider::parse(provider)
            .filter(|p| is_oauth_provider(*p))
            .ok_or_else(|| {
                SdkError::login(
                    LoginLibraryError::InvalidProvider,
                    format!(
                        "'{}' is not an OAuth provider (google, apple, naver, discord, line, \
                         facebook)",
                        provider.chars().take(40).collect::<String>()
                    ),
                )
            })?;
        self.oauth_login(provider, with_logout)
            .await
            .map_err(|e| match e.code {
                ErrorCode::Login(
                    LoginLibraryError::InvalidProvider
                    | LoginLibraryError::UserCanceled
                    | LoginLibraryError::InternalError,
                ) => e,
                _ => SdkError::login(LoginLibraryError::InternalError, e.message),
            })
    }

    async fn oauth_login(
        &self,
        provider: Provider,
        with_logout: Option<bool>,
    ) -> Result<LoginReply, SdkError> {
        let client = self.client().await?;
        let app = self.app_info().await?;
        let info = app
            .oauth
            .into_iter()
            .find(|o| o.provider == provider)
            .ok_or_else(|| {
                SdkError::login(
                    LoginLibraryError::InvalidProvider,
                    format!(
                        "this app has not registered {} with the service",
                        provider.as_str()
                    ),
                )
            })?;
        let browser = self.browser.clone().ok_or_else(|| {
            SdkError::login(LoginLibraryError::InternalError, "no browser to open")
        })?;
        if with_logout != Some(true) {
            match self.logout().await {
                Ok(_) => {}
                Err(e) if e.code == ErrorCode::Login(LoginLibraryError::AlreadyLogout) => {}
                Err(e) => return Err(e),
            }
        }

        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .await
            .map_err(|e| internal(format!("cannot listen for the browser: {e}")))?;
        let port = listener
            .local_addr()
            .map_err(|e| internal(format!("cannot listen for the browser: {e}")))?
            .port();
        let redirect_uri = format!("http://127.0.0.1:{port}/callback");
        let pkce = Pkce::new();
        let url = authorize_url(&info, &redirect_uri, &pkce)?;

        let waiting = self.oauth.start();
        tracing::info!(
            provider = provider.as_str(),
            "OAuth login: opening the browser"
        );
        tokio::task::spawn_blocking(move || browser.open_url(url.as_str()))
            .await
            .map_err(|e| internal(format!("the browser could not be opened: {e}")))?
            .map_err(|e| {
                internal(format!(
                    "the browser could not be opened: {}",
                    e.chars().take(200).collect::<String>()
                ))
            })?;
        let code = tokio::select! {
            code = loopback::wait_for_callback(listener, pkce.state.clone()) => code?,
            () = tokio::time::sleep(self.oauth_timeout) => {
                return Err(SdkError::login(
                    LoginLibraryError::UserCanceled,
                    format!(
                        "the login timed out: the browser did not come back within {} s",
                        self.oauth_timeout.as_secs()
                    ),
                ));
            }
            () = waiting.mine.notified() => {
                return Err(SdkError::login(
                    LoginLibraryError::UserCanceled,
                    "the login was canceled",
                ));
            }
        };
        drop(waiting);

        tracing::info!(
            provider = provider.as_str(),
            "OAuth login: the browser came back; exchanging"
        );
        let exchange = OAuthCodeExchange {
            provider,
            code,
            code_verifier: pkce.verifier,
            redirect_uri,
            nonce: pkce.nonce,
        };
        let answer = client
            .send_or_register_email::<LoginResult>(
                Caller::Login,
                Method::POST,
                "v1/auth/oauth/token",
                Some(&exchange),
            )
            .await?;
        Ok(match answer {
            Ok(result) => LoginReply::Success(result),
            Err(required) => LoginReply::Failure(required.into()),
        })
    }
}

fn internal(message: impl Into<String>) -> SdkError {
    SdkError::login(LoginLibraryError::InternalError, message)
}

/// The provider's authorization endpoint with this request's parameters.
fn authorize_url(
    info: &OAuthProviderInfo,
    redirect_uri: &str,
    pkce: &Pkce,
) -> Result<Url, SdkError> {
    let mut url = Url::parse(&info.authorize_url)
        .map_err(|_| internal("the provider's login page address is not a URL"))?;
    let local = match url.host() {
        Some(url::Host::Domain(name)) => name == "localhost",
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    if !(url.scheme() == "https" || (url.scheme() == "http" && local)) {
        return Err(internal(
            "the provider's login page must be https:// (http:// only on this machine)",
        ));
    }
    url.query_pairs_mut()
        .append_pair("response_type", "code")
        .append_pair("client_id", &info.client_id)
        .append_pair("redirect_uri", redirect_uri)
        .append_pair("scope", &info.scopes)
        .append_pair("state", &pkce.state)
        .append_pair("code_challenge", &pkce.challenge())
        .append_pair("code_challenge_method", "S256")
        .append_pair("nonce", &pkce.nonce);
    Ok(url)
}

#[cfg(test)]
mod tests;
