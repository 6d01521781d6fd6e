//! The login library: e-mail sign-up and login, service login, token refresh,
//! the current user and logout. Methods are the spec's, in snake_case.
//!
//! After `login_service` the session (identity and service tokens) is kept in the
//! [`TokenStore`], so it survives a restart: a new `Login` over the same store
//! finds the user again with `get_current_service_user`.

use std::sync::Arc;
use std::time::Duration;

use reqwest::Method;
use satchel_api::rules::{PASSWORD_RULES, is_email_form, is_password_form, normalize_email};
use satchel_api::{
    EmailCredentials, IdentityToken, IdentityTokens, LoginLibraryError, LoginResult, LoginSession,
    Provider, RefreshRequest, ServiceErrorCode, ServiceLoginRequest, ServiceToken, ServiceUser,
    SignUpResponse,
};
use tokio::sync::Mutex;

use crate::client::{Caller, RestClient, ServiceConfig, erased};
use crate::error::{SdkError, SdkErrorCode};
use crate::session::{StoredSession, jwt_expiry, now, session_key};
use crate::store::{StoreError, TokenStore};

/// An access token this close to its end is renewed before it is used.
const RENEW_BEFORE_SECS: i64 = 60;

/// How `sign_up_with_email_and_password(.., open_service_wallet: true)` waits for
/// the person to open the verification link.
#[derive(Debug, Clone, Copy)]
pub struct SignUpWait {
    pub poll: Duration,
    pub timeout: Duration,
}

impl Default for SignUpWait {
    fn default() -> Self {
        Self {
            poll: Duration::from_secs(3),
            timeout: Duration::from_secs(15 * 60),
        }
    }
}

pub struct Login {
    app_id: String,
    app_key: String,
    store: Arc<dyn TokenStore>,
    wait: SignUpWait,
    connection: Mutex<Option<Connection>>,
    /// Held while a refresh token is being exchanged: two renewals racing with the
    /// same refresh token would look like token theft to the service.
    renewing: Mutex<()>,
}

#[derive(Clone)]
struct Connection {
    client: RestClient,
    key: String,
    /// The stored session as last read or written; `None` until first read.
    session: Option<Option<StoredSession>>,
}

impl std::fmt::Debug for Login {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Login")
            .field("app_id", &self.app_id)
            .finish_non_exhaustive()
    }
}

fn keychain_error(e: StoreError) -> SdkError {
    SdkError::sdk(SdkErrorCode::KeychainUnavailable, e.to_string())
}

fn no_session() -> SdkError {
    SdkError::service(ServiceErrorCode::InvalidLoginSession, "no one is logged in")
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
            session: None,
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
            .ok_or_else(|| {
                SdkError::service(
                    ServiceErrorCode::NotInitialized,
                    "the login library is not initialised",
                )
            })
    }

    /// Signs up with an e-mail and password. When the app asks for verification the
    /// service e-mails a link: without `open_service_wallet` the result is the error
    /// `auth/email-verified` (the e-mail is on its way); with it, the call waits for
    /// the link to be opened and then logs in, or fails with `fail/email-verified`.
    pub async fn sign_up_with_email_and_password(
        &self,
        email: &str,
        password: &str,
        open_service_wallet: bool,
    ) -> Result<LoginResult, SdkError> {
        let credentials = check_credentials(email, password)?;
        let client = self.client().await?;
        let body = credentials.clone();
        let outcome: SignUpResponse = client
            .send(
                Caller::Login,
                Method::POST,
                "v1/auth/email/signup",
                Some(&body),
                None,
            )
            .await
            .map_err(|e| {
                if e.is(ServiceErrorCode::ExistedEmail) {
                    SdkError::login(LoginLibraryError::ExistedEmail, e.message)
                } else if e.is(ServiceErrorCode::FailedSendEmail) {
                    SdkError::login(LoginLibraryError::FailSendEmail, e.message)
                } else {
                    e
                }
            })?;
        if let Some(login) = outcome.login {
            return Ok(login);
        }
        if !open_service_wallet {
            return Err(SdkError::login(
                LoginLibraryError::EmailVerificationRequired,
                format!(
                    "we sent a verification link to {}; open it, then log in",
                    credentials.email
                ),
            ));
        }
        let deadline = tokio::time::Instant::now() + self.wait.timeout;
        loop {
            match self
                .login_with_email_and_password(&credentials.email, &credentials.password)
                .await
            {
                Err(e) if e.is(ServiceErrorCode::RequiredEmailVerified) => {}
                other => return other,
            }
            if tokio::time::Instant::now() + self.wait.poll > deadline {
                return Err(SdkError::login(
                    LoginLibraryError::FailEmailVerified,
                    "the e-mail address was not verified in time; open the link and log in",
                ));
            }
            tokio::time::sleep(self.wait.poll).await;
        }
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

    /// Logs in with an e-mail and password; gives identity tokens for `login_service`.
    pub async fn login_with_email_and_password(
        &self,
        email: &str,
        password: &str,
    ) -> Result<LoginResult, SdkError> {
        let credentials = check_credentials(email, password)?;
        self.client()
            .await?
            .send(
                Caller::Login,
                Method::POST,
                "v1/auth/email/login",
                Some(&credentials),
                None,
            )
            .await
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
        let mut session = self.session().await?.ok_or_else(no_session)?;
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
        let mut session = self.session().await?.ok_or_else(|| {
            SdkError::service(ServiceErrorCode::InvalidLoginSession, "no one is logged in")
        })?;
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
            Err(e)
                if e.is(ServiceErrorCode::InvalidLoginSession)
                    || e.is(ServiceErrorCode::InvalidToken) => {}
            // Offline: forget the tokens here anyway; the service ends the session
            // when it expires.
            Err(e) => tracing::warn!(code = ?e.code, "logout could not reach the service"),
        }
        self.save(None).await?;
        Ok(true)
    }

    /// Sends a request as the logged-in user. The access token is renewed first when
    /// it ends within a minute, and once more after a 401.
    pub async fn authed<T: serde::de::DeserializeOwned>(
        &self,
        caller: Caller,
        method: Method,
        path: &str,
        body: Option<&(dyn erased::Body + Sync)>,
    ) -> Result<T, SdkError> {
        let client = self.client().await?;
        let mut session = self.session().await?.ok_or_else(no_session)?;
        if jwt_expiry(&session.service.access_token)
            .is_none_or(|exp| exp - now() < RENEW_BEFORE_SECS)
        {
            session = self.renew(&session).await?;
        }
        match client
            .send(
                caller,
                method.clone(),
                path,
                body,
                Some(&session.service.access_token),
            )
            .await
        {
            Err(e) if e.is(ServiceErrorCode::InvalidToken) => {
                let session = self.renew(&session).await?;
                client
                    .send(
                        caller,
                        method,
                        path,
                        body,
                        Some(&session.service.access_token),
                    )
                    .await
            }
            other => other,
        }
    }

    /// Exchanges the service refresh token for new tokens and keeps them.
    async fn renew(&self, stale: &StoredSession) -> Result<StoredSession, SdkError> {
        let client = self.client().await?;
        let _renewing = self.renewing.lock().await;
        let mut current = self.session().await?.ok_or_else(no_session)?;
        if current.service.refresh_token != stale.service.refresh_token {
            return Ok(current); // another request renewed it meanwhile
        }
        let request = RefreshRequest {
            refresh_token: current.service.refresh_token.clone(),
        };
        match client
            .send::<ServiceToken>(
                Caller::Login,
                Method::POST,
                "v1/auth/service/refresh",
                Some(&request),
                None,
            )
            .await
        {
            Ok(token) => {
                current.service = token;
                self.save(Some(current.clone())).await?;
                Ok(current)
            }
            Err(e)
                if e.is(ServiceErrorCode::InvalidToken)
                    || e.is(ServiceErrorCode::InvalidLoginSession) =>
            {
                self.save(None).await?;
                Err(SdkError::service(
                    ServiceErrorCode::InvalidLoginSession,
                    "the login session has ended; log in again",
                ))
            }
            Err(e) => Err(e),
        }
    }

    /// The stored session, read from the keychain once and then remembered.
    pub async fn session(&self) -> Result<Option<StoredSession>, SdkError> {
        let key = {
            let connection = self.connection.lock().await;
            let connection = connection.as_ref().ok_or_else(|| {
                SdkError::service(
                    ServiceErrorCode::NotInitialized,
                    "the login library is not initialised",
                )
            })?;
            if let Some(session) = &connection.session {
                return Ok(session.clone());
            }
            connection.key.clone()
        };
        let store = self.store.clone();
        let text = tokio::task::spawn_blocking(move || store.load(&key))
            .await
            .map_err(|e| SdkError::service(ServiceErrorCode::UnknownError, e.to_string()))?
            .map_err(keychain_error)?;
        let session = match text {
            Some(text) => Some(
                serde_json::from_str::<StoredSession>(&text)
                    .map_err(|e| keychain_error(StoreError::Corrupt(e.to_string())))?,
            ),
            None => None,
        };
        if let Some(connection) = self.connection.lock().await.as_mut() {
            connection.session = Some(session.clone());
        }
        Ok(session)
    }

    /// Keeps (or, with `None`, forgets) the session in the store and in memory.
    async fn save(&self, session: Option<StoredSession>) -> Result<(), SdkError> {
        let key = self
            .connection
            .lock()
            .await
            .as_ref()
            .map(|c| c.key.clone())
            .ok_or_else(|| {
                SdkError::service(
                    ServiceErrorCode::NotInitialized,
                    "the login library is not initialised",
                )
            })?;
        let store = self.store.clone();
        let text = session
            .as_ref()
            .map(serde_json::to_string)
            .transpose()
            .map_err(|e| SdkError::service(ServiceErrorCode::UnknownError, e.to_string()))?;
        tokio::task::spawn_blocking(move || match text {
            Some(text) => store.save(&key, &text),
            None => store.delete(&key),
        })
        .await
        .map_err(|e| SdkError::service(ServiceErrorCode::UnknownError, e.to_string()))?
        .map_err(keychain_error)?;
        if let Some(connection) = self.connection.lock().await.as_mut() {
            connection.session = Some(session);
        }
        Ok(())
    }
}

/// The same e-mail and password rules as the service, checked before sending.
fn check_credentials(email: &str, password: &str) -> Result<EmailCredentials, SdkError> {
    let email = normalize_email(email);
    if !is_email_form(&email) {
        return Err(SdkError::service(
            ServiceErrorCode::IncorrectEmailForm,
            "the e-mail address is not valid",
        ));
    }
    if !is_password_form(password) {
        return Err(SdkError::service(
            ServiceErrorCode::IncorrectPasswordForm,
            format!("the password must have {PASSWORD_RULES}"),
        ));
    }
    Ok(EmailCredentials {
        email,
        password: password.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryStore;

    fn login() -> Login {
        Login::new("app", "key", Arc::new(MemoryStore::default()))
    }

    fn config() -> ServiceConfig {
        ServiceConfig::new("http://127.0.0.1:9/".parse().expect("url"), "localhost")
    }

    #[tokio::test]
    async fn methods_before_init_and_double_init_are_refused() {
        let login = login();
        let e = login
            .login_with_email_and_password("a@b.co", "password1")
            .await
            .expect_err("not initialised");
        assert!(e.is(ServiceErrorCode::NotInitialized));
        let e = login.logout().await.expect_err("not initialised");
        assert_eq!(
            e.code,
            crate::ErrorCode::Login(LoginLibraryError::NotInitialized)
        );
        login.init(config()).await.expect("init");
        let e = login.init(config()).await.expect_err("twice");
        assert!(e.is(ServiceErrorCode::AlreadyInitialized));
        login.finalize().await;
        assert!(!login.is_initialized().await);
    }

    #[tokio::test]
    async fn logout_without_a_session_is_already_logout() {
        let login = login();
        login.init(config()).await.expect("init");
        let e = login.logout().await.expect_err("nobody");
        assert_eq!(
            e.code,
            crate::ErrorCode::Login(LoginLibraryError::AlreadyLogout)
        );
        assert_eq!(
            login.get_current_service_user().await.expect("no error"),
            None
        );
    }

    #[tokio::test]
    async fn bad_credentials_are_refused_before_any_request() {
        let login = login();
        login.init(config()).await.expect("init");
        let e = login
            .sign_up_with_email_and_password("nope", "password1", false)
            .await
            .expect_err("form");
        assert!(e.is(ServiceErrorCode::IncorrectEmailForm));
        let e = login
            .sign_up_with_email_and_password("a@b.co", "short", false)
            .await
            .expect_err("form");
        assert!(e.is(ServiceErrorCode::IncorrectPasswordForm));
    }

    #[tokio::test]
    async fn an_unreachable_service_is_not_connected_not_a_panic() {
        let login = login();
        login.init(config()).await.expect("init");
        let e = login
            .login_with_email_and_password("a@b.co", "password1")
            .await
            .expect_err("nothing listens on port 9");
        assert!(e.is(ServiceErrorCode::NotConnectedInternet), "{e:?}");
    }
}
