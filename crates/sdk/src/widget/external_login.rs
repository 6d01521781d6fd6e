//! The widget's logins through someone else's identity: the OAuth buttons of
//! the login page (which providers `loginWithUI` allows), an OAuth or token
//! login that ends in the widget's user, and the e-mail registration of an
//! account whose provider gave none (`registerUserEmail`, or the login page's
//! own path after a refused login).
//!
//! The refused token stays here, in memory: the page only ever learns the
//! provider's name.

use satchel_api::{
    LoginErrorResult, LoginReply, Provider, ServiceErrorCode, ServiceUser, is_oauth_provider,
};
use serde::{Deserialize, Serialize};

use super::Widget;
use crate::error::SdkError;

/// One entry of loginWithUI's `providers`: a provider and the app's client id at
/// it (empty: whichever the app registered with the service).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LoginProviderChoice {
    pub provider: String,
    #[serde(default)]
    pub client_id: String,
}

/// What the login page offers: OAuth buttons (in this order) and whether the
/// e-mail form shows, with the e-mail to fill in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct LoginOptions {
    pub oauth: Vec<Provider>,
    pub email: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefill_email: Option<String>,
}

/// An account that needs an e-mail before it can log in, as the page sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RegisterEmailPrompt {
    pub provider: Provider,
}

/// An OAuth or token login in the widget: the user, or an account that needs an
/// e-mail first (its token kept here).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum ExternalLoginOutcome {
    User(ServiceUser),
    RegisterEmail(RegisterEmailPrompt),
}

/// What loginWithUI asked the login page to offer.
#[derive(Debug, Clone, Default)]
pub(super) struct LoginChoice {
    /// `None`: every provider the app registered.
    providers: Option<Vec<Provider>>,
    prefill_email: Option<String>,
}

/// A login refused for want of an e-mail: what `sendVerifyEmail` and the
/// resumed login need.
#[derive(Clone)]
pub(super) struct PendingRegistration {
    provider: Provider,
    id_token: String,
    access_token: String,
}

impl std::fmt::Debug for PendingRegistration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PendingRegistration")
            .field("provider", &self.provider)
            .finish_non_exhaustive()
    }
}

fn invalid_provider(message: impl Into<String>) -> SdkError {
    SdkError::service(ServiceErrorCode::InvalidLoginProvider, message)
}

impl Widget {
    /// loginWithUI's arguments: `providers` (an empty list: e-mail only; `None`:
    /// every provider the app registered) must be providers the app allows and
    /// registered, each with its registered client id when one is named
    /// (`InvalidLoginProvider` otherwise); `email` fills the e-mail field.
    pub async fn choose_login(
        &self,
        providers: Option<Vec<LoginProviderChoice>>,
        email: Option<String>,
    ) -> Result<(), SdkError> {
        self.require_initialized()?;
        let chosen = match providers {
            None => None,
            Some(choices) => {
                let app = self.login.app_info().await?;
                let mut chosen = Vec::new();
                for choice in choices {
                    let provider = Provider::parse(&choice.provider.to_ascii_lowercase())
                        .filter(|p| is_oauth_provider(*p))
                        .ok_or_else(|| {
                            invalid_provider(format!(
                                "'{}' is not an OAuth provider",
                                choice.provider.chars().take(40).collect::<String>()
                            ))
                        })?;
                    let registered = app
                        .oauth
                        .iter()
                        .find(|o| o.provider == provider)
                        .ok_or_else(|| {
                            invalid_provider(format!(
                                "this app does not allow {} logins",
                                provider.as_str()
                            ))
                        })?;
                    if !choice.client_id.is_empty() && choice.client_id != registered.client_id {
                        return Err(invalid_provider(format!(
                            "the client id given for {} is not the one the app registered",
                            provider.as_str()
                        )));
                    }
                    if !chosen.contains(&provider) {
                        chosen.push(provider);
                    }
                }
                Some(chosen)
            }
        };
        *self.login_choice.lock() = LoginChoice {
            providers: chosen,
            prefill_email: email
                .map(|e| satchel_api::rules::normalize_email(&e))
                .filter(|e| !e.is_empty()),
        };
        Ok(())
    }

    /// The login page's buttons and form: the app's OAuth providers (narrowed by
    /// loginWithUI's `providers`), and e-mail when the app allows it.
    pub async fn login_options(&self) -> Result<LoginOptions, SdkError> {
        self.require_initialized()?;
        let app = self.login.app_info().await?;
        let choice = self.login_choice.lock().clone();
        let registered: Vec<Provider> = app.oauth.iter().map(|o| o.provider).collect();
        let oauth = match choice.providers {
            Some(chosen) => chosen
                .into_iter()
                .filter(|p| registered.contains(p))
                .collect(),
            None => registered,
        };
        Ok(LoginOptions {
            oauth,
            email: app.providers.contains(&Provider::Email),
            prefill_email: choice.prefill_email,
        })
    }

    /// Logs in to the service with a login's identity tokens and moves to its
    /// state, or keeps the refused token for the e-mail registration.
    async fn finish_external(&self, reply: LoginReply) -> Result<ExternalLoginOutcome, SdkError> {
        match reply {
            LoginReply::Success(result) => {
                Ok(ExternalLoginOutcome::User(self.adopt_login(result).await?))
            }
            LoginReply::Failure(refusal) => {
                let prompt = self.keep_refusal(refusal)?;
                Ok(ExternalLoginOutcome::RegisterEmail(prompt))
            }
        }
    }

    fn keep_refusal(&self, refusal: LoginErrorResult) -> Result<RegisterEmailPrompt, SdkError> {
        let provider = refusal.provider.ok_or_else(|| {
            SdkError::service(
                ServiceErrorCode::ApiRequestError,
                "the service refused the login without naming its provider",
            )
        })?;
        *self.pending_registration.lock() = Some(PendingRegistration {
            provider,
            id_token: refusal.id_token.unwrap_or_default(),
            access_token: refusal.access_token.unwrap_or_default(),
        });
        Ok(RegisterEmailPrompt { provider })
    }

    /// The login page's OAuth button: the system browser, then the user (or the
    /// e-mail registration). Someone logged in already is logged out first unless
    /// `with_logout` is `Some(true)` (the spec's meaning).
    pub async fn login_with_oauth(
        &self,
        provider: &str,
        with_logout: Option<bool>,
    ) -> Result<ExternalLoginOutcome, SdkError> {
        self.require_initialized()?;
        if with_logout != Some(true) && self.current_user().is_some() {
            self.logout().await?;
        }
        // The logout, when one was due, is done: the library need not try again.
        let reply = self
            .login
            .login_with_oauth_provider(provider, Some(true))
            .await?;
        self.finish_external(reply).await
    }

    /// Ends an OAuth login waiting for the browser (`User canceled`).
    pub fn cancel_oauth(&self) {
        self.login.cancel_oauth();
    }

    /// loginWithIdToken, ending in the widget's user.
    pub async fn login_with_id_token(
        &self,
        token: &str,
        sign: &str,
    ) -> Result<ExternalLoginOutcome, SdkError> {
        self.require_initialized()?;
        let reply = self.login.login_with_id_token(token, sign).await?;
        self.finish_external(reply).await
    }

    /// loginWithAccessToken, ending in the widget's user.
    pub async fn login_with_access_token(
        &self,
        provider: &str,
        token: &str,
        sign: &str,
    ) -> Result<ExternalLoginOutcome, SdkError> {
        self.require_initialized()?;
        let reply = self
            .login
            .login_with_access_token(provider, token, sign)
            .await?;
        self.finish_external(reply).await
    }

    fn pending(&self) -> Result<PendingRegistration, SdkError> {
        self.pending_registration.lock().clone().ok_or_else(|| {
            SdkError::service(
                ServiceErrorCode::InvalidToken,
                "no login is waiting for an e-mail address; log in again",
            )
        })
    }

    /// sendVerifyEmail for the refused login kept here.
    pub async fn send_verify_email(&self, email: &str) -> Result<bool, SdkError> {
        self.require_initialized()?;
        let pending = self.pending()?;
        self.login
            .send_verify_email(
                email,
                pending.provider.as_str(),
                &pending.id_token,
                &pending.access_token,
            )
            .await
    }

    /// The refused login again, once its e-mail is verified: the user
    /// (`RequiredEmailVerified` before).
    pub async fn resume_login(&self) -> Result<ServiceUser, SdkError> {
        self.require_initialized()?;
        let pending = self.pending()?;
        let result = self
            .login
            .resume_login(pending.provider, &pending.id_token, &pending.access_token)
            .await?;
        self.adopt_login(result).await
    }

    /// registerUserEmail: shows the widget's e-mail registration for the account
    /// of these tokens (`idToken` or `accessToken`, as a refused login gave
    /// them) and resolves with the user once the address is verified and the
    /// login resumed, or `UserCancelled` when the widget is closed.
    pub async fn register_user_email(
        &self,
        provider: &str,
        id_token: &str,
        access_token: &str,
    ) -> Result<ServiceUser, SdkError> {
        self.require_initialized()?;
        let provider = Provider::parse(&provider.to_ascii_lowercase())
            .filter(|p| *p != Provider::Email)
            .ok_or_else(|| invalid_provider("registerUserEmail takes an OAuth provider"))?;
        if id_token.is_empty() && access_token.is_empty() {
            return Err(SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "registerUserEmail needs the idToken or accessToken of the refused login",
            ));
        }
        *self.pending_registration.lock() = Some(PendingRegistration {
            provider,
            id_token: id_token.to_owned(),
            access_token: access_token.to_owned(),
        });
        self.register_requests
            .send_replace(Some(RegisterEmailPrompt { provider }));
        self.login_with_ui().await
    }

    /// The newest registerUserEmail, for the page to open its form with.
    pub fn watch_register_email_requests(
        &self,
    ) -> tokio::sync::watch::Receiver<Option<RegisterEmailPrompt>> {
        self.register_requests.subscribe()
    }
}
