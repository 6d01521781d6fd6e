//! The login library: the spec's methods in snake_case (e-mail sign-up and login,
//! service login, token refresh, the current user, the login session, logout),
//! and the e-mails beside them (verification again, password reset).
//!
//! The logins through someone else's identity: `login_with_oauth_provider` (the
//! system browser, a loopback redirect and PKCE; `cancel_oauth` ends its wait;
//! `oauth.rs`, its redirect server in `loopback.rs`), `login_with_id_token` and
//! `login_with_access_token` (an external token and the app backend's `sign`, made
//! with [`get_sign_for_login`]), and for an identity without an e-mail
//! `send_verify_email` and then `resume_login` (`external.rs`). Those logins
//! answer a [`LoginReply`](satchel_api::LoginReply): the identity tokens, or the
//! `required/register_email` failure with the refused token.
//!
//! After `login_service` the session (identity and service tokens) is kept in the
//! [`TokenStore`], so it survives a restart: a new `Login` over the same store
//! finds the user again with `get_current_service_user`. The session cache lives
//! in `cache.rs`, token renewal in `renewal.rs`, sign-up and its wait in `signup.rs`.

mod cache;
mod external;
mod loopback;
mod oauth;
mod renewal;
mod signup;
#[cfg(test)]
mod test_service;

use std::sync::Arc;
use std::time::Duration;

use reqwest::Method;
use satchel_api::rules::normalize_email;
use satchel_api::{
    EmailCredentials, IdentityToken, IdentityTokens, LoginLibraryError, LoginResult, LoginSession,
    Provider, RefreshRequest, ServiceErrorCode, ServiceLoginRequest, ServiceUser,
};
use tokio::sync::Mutex;

use crate::client::{Caller, RestClient, ServiceConfig};
use crate::error::SdkError;
use crate::keychain::session::{StoredSession, login_device_key, session_key};
use crate::keychain::{TokenStore, load_json, save_json};
use cache::Cached;
pub use external::get_sign_for_login;
use oauth::OAuthSlot;
pub use oauth::OpenUrl;
pub use signup::SignUpWait;

/// The login library over one app key, keeping its session in a [`TokenStore`].
///
/// ```no_run
/// # async fn demo() -> Result<(), satchel_sdk::SdkError> {
/// use std::sync::Arc;
/// use satchel_sdk::{KeyringStore, Login, ServiceConfig};
///
/// let login = Login::new("app-id", "app-key", Arc::new(KeyringStore::new("dev.satchel.wallet")));
/// let url = "https://wallet.example.com/".parse().expect("a URL");
/// login.init(ServiceConfig::new(url, "app.example.com")).await?;
/// let result = login.login_with_email_and_password("ada@example.com", "correct1horse").await?;
/// let user = login.login_service(result.provider, result.token).await?; // kept in the keychain
/// // After a restart, the same user without a new login:
/// assert_eq!(login.get_current_service_user().await?.map(|u| u.wallet_id), Some(user.wallet_id));
/// # Ok(()) }
/// ```
pub struct Login {
    app_id: String,
    app_key: String,
    store: Arc<dyn TokenStore>,
    wait: SignUpWait,
    connection: Mutex<Option<Connection>>,
    /// Held while a refresh token is being exchanged: two renewals racing with the
    /// same refresh token would look like token theft to the service.
    renewing: Mutex<()>,
    /// Opens the system browser for `login_with_oauth_provider`.
    browser: Option<Arc<dyn OpenUrl>>,
    /// How long `login_with_oauth_provider` waits for the browser to come back.
    oauth_timeout: Duration,
    /// The OAuth login waiting for its browser, if any.
    oauth: OAuthSlot,
}

struct Connection {
    client: RestClient,
    /// The keychain entry of this app's session at this service.
    key: String,
    session: Cached,
}

impl std::fmt::Debug for Login {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Login")
            .field("app_id", &self.app_id)
            .finish_non_exhaustive()
    }
}

impl Login {
    pub fn new(
        app_id: impl Into<String>,
        app_key: impl Into<String>,
        store: Arc<dyn TokenStore>,
    ) -> Self {
        Self {
            app_id: app_id.into(),
            app_key: app_key.into(),
            store,
            wait: SignUpWait::default(),
            connection: Mutex::new(None),
            renewing: Mutex::new(()),
            browser: None,
            oauth_timeout: oauth::DEFAULT_TIMEOUT,
            oauth: OAuthSlot::default(),
        }
    }

    pub fn with_sign_up_wait(mut self, wait: SignUpWait) -> Self {
        self.wait = wait;
        self
    }

    pub fn app_id(&self) -> &str {
        &self.app_id
    }

    /// Connects the library to the service. Refused when already initialised.
    pub async fn init(&self, config: ServiceConfig) -> Result<(), SdkError> {
        let mut connection = self.connection.lock().await;
        if connection.is_some() {
            return Err(SdkError::service(
                ServiceErrorCode::AlreadyInitialized,
                "the login library is already initialised",
            ));
        }
        *connection = Some(Connection {
            client: RestClient::new(&config, &self.app_key)?,
            key: session_key(&self.app_id, &config.service_url),
            session: Cached::Unread,
        });
        Ok(())
    }

    pub async fn is_initialized(&self) -> bool {
        self.connection.lock().await.is_some()
    }

    /// Ends use of the library. The stored session stays for the next start.
    pub async fn finalize(&self) {
        *self.connection.lock().await = None;
    }

    async fn client(&self) -> Result<RestClient, SdkError> {
        self.connection
            .lock()
            .await
            .as_ref()
            .map(|c| c.client.clone())
            .ok_or_else(|| SdkError::not_initialized("login library"))
    }

    /// What the app key allows: providers, networks, e-mail rules.
    pub async fn app_info(&self) -> Result<satchel_api::AppInfo, SdkError> {
        self.client()
            .await?
            .send(Caller::Login, Method::GET, "v1/app", None, None)
            .await
    }

    /// Sends the verification e-mail again.
    pub async fn resend_verification(&self, email: &str) -> Result<(), SdkError> {
        let request = satchel_api::ResendRequest {
            email: normalize_email(email),
        };
        self.client()
            .await?
            .send(
                Caller::Login,
                Method::POST,
                "v1/auth/email/resend",
                Some(&request),
                None,
            )
            .await
    }

    /// Asks the service to e-mail a link that sets a new password (single use,
    /// for an hour). The answer is the same whether or not the address has a
    /// login; a malformed address is `IncorrectEmailForm` before anything is sent.
    pub async fn send_password_reset_email(&self, email: &str) -> Result<(), SdkError> {
        let email = normalize_email(email);
        if !satchel_api::rules::is_email_form(&email) {
            return Err(SdkError::service(
                ServiceErrorCode::IncorrectEmailForm,
                "the e-mail address is not valid",
            ));
        }
        let request = satchel_api::PasswordResetRequest { email };
        self.client()
            .await?
            .send(
                Caller::Login,
                Method::POST,
                "v1/auth/email/password-reset",
                Some(&request),
                None,
            )
            .await
    }

    /// Logs in with an e-mail and password; gives identity tokens for
    /// `login_service`. The device token the service gives a login is kept in
    /// the keychain and sent with the next login of the same address, so the
    /// failures of strangers behind the same network address do not hold this
    /// device back.
    pub async fn login_with_email_and_password(
        &self,
        email: &str,
        password: &str,
    ) -> Result<LoginResult, SdkError> {
        let credentials = check_credentials(email, password)?;
        let device_key = login_device_key(&self.session_key().await?, &credentials.email);
        // A keychain that cannot be read costs only the device's standing.
        let device_token: Option<String> = load_json(&self.store, &device_key)
            .await
            .unwrap_or_default();
        let request = satchel_api::EmailLogin {
            credentials,
            device_token,
        };
        let answer: satchel_api::EmailLoginResult = self
            .client()
            .await?
            .send(
                Caller::Login,
                Method::POST,
                "v1/auth/email/login",
                Some(&request),
                None,
            )
            .await?;
        if let Err(e) = save_json(&self.store, &device_key, Some(&answer.device_token)).await {
            tracing::warn!("the login's device token was not kept: {e}");
        }
        Ok(answer.login)
    }

    /// Logs in to the service with a login result, and keeps the session.
    pub async fn login_service(
        &self,
        provider: Provider,
        token: IdentityTokens,
    ) -> Result<ServiceUser, SdkError> {
        let client = self.client().await?;
        let request = ServiceLoginRequest {
            provider,
            token: token.clone(),
        };
        let user: ServiceUser = client
            .send(
                Caller::Login,
                Method::POST,
                "v1/auth/service/login",
                Some(&request),
                None,
            )
            .await?;
        let (Some(service), Some(info)) = (user.token.clone(), user.user_info.as_ref()) else {
            return Err(SdkError::service(
                ServiceErrorCode::ApiRequestError,
                "the service sent no session",
            ));
        };
        self.save(Some(StoredSession {
            provider,
            identity: token,
            service,
            user_id: info.user_id.clone(),
        }))
        .await?;
        Ok(user)
    }

    /// Renews the identity tokens of the current session.
    pub async fn get_refresh_identity_token(&self) -> Result<LoginResult, SdkError> {
        let client = self.client().await?;
        let _renewing = self.renewing.lock().await;
        let mut session = self.require_session().await?;
        let request = RefreshRequest {
            refresh_token: session.identity.refresh_token.clone(),
        };
        let result: LoginResult = client
            .send(
                Caller::Login,
                Method::POST,
                "v1/auth/identity/refresh",
                Some(&request),
                None,
            )
            .await?;
        session.identity = result.token.clone();
        self.save(Some(session)).await?;
        Ok(result)
    }

    /// The logged-in user, found again from the stored session after a restart;
    /// `None` when no one is logged in (or the session has ended).
    pub async fn get_current_service_user(&self) -> Result<Option<ServiceUser>, SdkError> {
        self.client().await?;
        if self.session().await?.is_none() {
            return Ok(None);
        }
        match self
            .authed::<ServiceUser>(Caller::Login, Method::GET, "v1/auth/service/user", None)
            .await
        {
            Ok(mut user) => {
                user.token = self.session().await?.map(|s| s.service);
                Ok(Some(user))
            }
            Err(e) if e.is(ServiceErrorCode::InvalidLoginSession) => {
                self.save(None).await?;
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// getLoginSession: the stored identity and service tokens; with `replace`,
    /// first keeps those tokens as the session (same user and provider) and then
    /// returns them. For an application's own code: the desktop shell never hands
    /// tokens to its webview, so this is not one of its commands.
    pub async fn get_login_session(
        &self,
        replace: Option<LoginSession>,
    ) -> Result<LoginSession, SdkError> {
        self.client().await?;
        let mut session = self.require_session().await?;
        if let Some(replace) = replace {
            if replace.identity_token.provider != session.provider {
                return Err(SdkError::service(
                    ServiceErrorCode::InvalidParameters,
                    "the tokens are of another provider than the session's",
                ));
            }
            session.identity = IdentityTokens {
                id_token: replace.identity_token.id_token,
                refresh_token: replace.identity_token.refresh_token,
            };
            session.service = replace.service_token;
            self.save(Some(session.clone())).await?;
        }
        Ok(LoginSession {
            identity_token: IdentityToken {
                provider: session.provider,
                id_token: session.identity.id_token,
                refresh_token: session.identity.refresh_token,
            },
            service_token: session.service,
        })
    }

    /// Logs out: the service ends the session and this device forgets its tokens.
    pub async fn logout(&self) -> Result<bool, SdkError> {
        if self.client().await.is_err() {
            return Err(SdkError::login(
                LoginLibraryError::NotInitialized,
                "the login library is not initialised",
            ));
        }
        if self.session().await?.is_none() {
            return Err(SdkError::login(
                LoginLibraryError::AlreadyLogout,
                "no one is logged in",
            ));
        }
        match self
            .authed::<()>(Caller::Login, Method::POST, "v1/auth/logout", None)
            .await
        {
            Ok(()) => {}
            Err(e) if renewal::is_session_over(&e) => {}
            // Offline: forget the tokens here anyway; the service ends the session
            // when it expires.
            Err(e) => tracing::warn!(code = ?e.code, "logout could not reach the service"),
        }
        self.save(None).await?;
        Ok(true)
    }
}

/// The service's e-mail and password rules (`satchel_api::rules`), checked before
/// anything is sent.
fn check_credentials(email: &str, password: &str) -> Result<EmailCredentials, SdkError> {
    satchel_api::rules::check_credentials(email, password)
        .map_err(|violation| SdkError::service(violation.code, violation.message))
}

#[cfg(test)]
mod tests;
