//! The widget's e-mail and password logins: loginWithUI's e-mail path and the
//! sign-up, each ending in the widget's user.

use satchel_api::{LoginLibraryError, ServiceUser};

use super::Widget;
use crate::error::SdkError;

impl Widget {
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
        self.adopt_login(result).await
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
                    == crate::ErrorCode::Login(LoginLibraryError::EmailVerificationRequired) =>
            {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }
}
