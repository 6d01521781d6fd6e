//! E-mail sign-up, and the wait for the verification link to be opened when the
//! caller asks to be logged in right after.

use std::time::Duration;

use reqwest::Method;
use satchel_api::{LoginLibraryError, LoginResult, ServiceErrorCode, SignUpResponse};

use super::{Login, check_credentials};
use crate::client::Caller;
use crate::error::SdkError;

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

impl Login {
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
        let outcome: SignUpResponse = self
            .client()
            .await?
            .send(
                Caller::Login,
                Method::POST,
                "v1/auth/email/signup",
                Some(&credentials),
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
        self.wait_for_verification(&credentials.email, &credentials.password)
            .await
    }

    /// Logs in every `poll` until the address is verified or `timeout` passes.
    async fn wait_for_verification(
        &self,
        email: &str,
        password: &str,
    ) -> Result<LoginResult, SdkError> {
        let deadline = tokio::time::Instant::now() + self.wait.timeout;
        loop {
            match self.login_with_email_and_password(email, password).await {
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
}
