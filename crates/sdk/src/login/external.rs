//! The logins with a token from elsewhere: an external id token (a JWT of the
//! app's own issuer) or a provider's access token, each with `sign`, the app
//! backend's signature of it ([`get_sign_for_login`]); and, for an identity the
//! service knows no e-mail of, `send_verify_email` and then `resume_login` once
//! the person has opened the link.

use reqwest::Method;
use satchel_api::{
    AccessTokenLogin, IdTokenLogin, LoginReply, LoginResult, Provider, RegisterEmailRequest,
    ServiceErrorCode,
};

use super::Login;
use crate::client::Caller;
use crate::error::SdkError;

/// getSignForLogin: the `sign` of `message` (an external token) by the app's
/// 32-byte hex private key: secp256k1 ECDSA over SHA-256, 64 bytes `r || s` as
/// lowercase hex. Meant for the app's backend, which keeps the key. A key that is
/// not 32 bytes of hex, or not a valid key, is `InvalidParameters`.
pub fn get_sign_for_login(priv_key: &str, message: &str) -> Result<String, SdkError> {
    satchel_api::login_sign::sign_for_login(priv_key, message)
        .map_err(|e| SdkError::service(ServiceErrorCode::InvalidParameters, e.to_string()))
}

/// The providers whose access token the service checks at their userinfo
/// endpoint.
const ACCESS_TOKEN_PROVIDERS: [Provider; 3] =
    [Provider::Naver, Provider::Discord, Provider::Facebook];

impl Login {
    /// loginWithIdToken: logs in with a JWT of the app's own issuer and `sign`,
    /// its signature by the app's key. Answers the identity tokens (provider
    /// `external_token`) or the failure `required/register_email` with the token.
    /// Errors: `InvalidParameters` (empty token, `sign` not 64 bytes of hex),
    /// `InvalidToken` (bad sign, other issuer, expired: the message says which),
    /// and the service's other codes.
    pub async fn login_with_id_token(
        &self,
        token: &str,
        sign: &str,
    ) -> Result<LoginReply, SdkError> {
        check_token(token, sign)?;
        let request = IdTokenLogin {
            token: token.to_owned(),
            sign: sign.to_owned(),
        };
        self.token_login("v1/auth/external/id-token", &request)
            .await
    }

    /// loginWithAccessToken: logs in with a naver, discord or facebook access
    /// token and `sign`, its signature by the app's key. Answers as
    /// [`login_with_id_token`](Self::login_with_id_token) does; any other provider
    /// is `InvalidLoginProvider`.
    pub async fn login_with_access_token(
        &self,
        provider: &str,
        token: &str,
        sign: &str,
    ) -> Result<LoginReply, SdkError> {
        let provider = Provider::parse(provider)
            .filter(|p| ACCESS_TOKEN_PROVIDERS.contains(p))
            .ok_or_else(|| {
                SdkError::service(
                    ServiceErrorCode::InvalidLoginProvider,
                    "an access token login is for naver, discord or facebook",
                )
            })?;
        check_token(token, sign)?;
        let request = AccessTokenLogin {
            provider,
            token: token.to_owned(),
            sign: sign.to_owned(),
        };
        self.token_login("v1/auth/external/access-token", &request)
            .await
    }

    /// sendVerifyEmail: registers `email` for an identity a login was refused for
    /// (`required/register_email`, within the hour): `provider` and the refused
    /// `id_token` or `access_token` (the other may be empty) as the failure gave
    /// them. The service e-mails a verification link; `true` once it is sent.
    /// Errors: `IncorrectEmailForm` (checked before sending), `InvalidLoginProvider`,
    /// `InvalidEmailDomain`, `InvalidToken` (no refused login of this token),
    /// `FailedSendEmail`, `TooManyRequests`.
    pub async fn send_verify_email(
        &self,
        email: &str,
        provider: &str,
        id_token: &str,
        access_token: &str,
    ) -> Result<bool, SdkError> {
        let email = satchel_api::rules::normalize_email(email);
        if !satchel_api::rules::is_email_form(&email) {
            return Err(SdkError::service(
                ServiceErrorCode::IncorrectEmailForm,
                "the e-mail address is not valid",
            ));
        }
        let provider = Provider::parse(provider)
            .filter(|p| *p != Provider::Email)
            .ok_or_else(|| {
                SdkError::service(
                    ServiceErrorCode::InvalidLoginProvider,
                    "the provider must be the one the refused login named",
                )
            })?;
        let request = register_email(Some(email), provider, id_token, access_token)?;
        self.client()
            .await?
            .send::<()>(
                Caller::Login,
                Method::POST,
                "v1/auth/external/email",
                Some(&request),
                None,
            )
            .await?;
        Ok(true)
    }

    /// After `send_verify_email` and the person's opening of the link: the login
    /// that was refused, with the same provider and token. Errors:
    /// `RequiredEmailVerified` (the link has not been opened yet), `InvalidToken`
    /// (no refused login of this token within the hour).
    pub async fn resume_login(
        &self,
        provider: Provider,
        id_token: &str,
        access_token: &str,
    ) -> Result<LoginResult, SdkError> {
        if provider == Provider::Email {
            return Err(SdkError::service(
                ServiceErrorCode::InvalidLoginProvider,
                "the provider must be the one the refused login named",
            ));
        }
        let request = register_email(None, provider, id_token, access_token)?;
        self.client()
            .await?
            .send(
                Caller::Login,
                Method::POST,
                "v1/auth/external/resume",
                Some(&request),
                None,
            )
            .await
    }

    /// A token login: the identity tokens, or `required/register_email`.
    async fn token_login(
        &self,
        path: &str,
        request: &(dyn crate::client::erased::Body + Sync),
    ) -> Result<LoginReply, SdkError> {
        let answer = self
            .client()
            .await?
            .send_or_register_email::<LoginResult>(Caller::Login, Method::POST, path, Some(request))
            .await?;
        Ok(match answer {
            Ok(result) => LoginReply::Success(result),
            Err(required) => LoginReply::Failure(required.into()),
        })
    }
}

/// A token and its `sign` as the service takes them.
fn check_token(token: &str, sign: &str) -> Result<(), SdkError> {
    if token.is_empty() || token.len() > 8192 {
        return Err(SdkError::service(
            ServiceErrorCode::InvalidParameters,
            "the token must be 1 to 8192 characters",
        ));
    }
    let hex = sign
        .strip_prefix("0x")
        .or_else(|| sign.strip_prefix("0X"))
        .unwrap_or(sign);
    if hex.len() != 128 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(SdkError::service(
            ServiceErrorCode::InvalidParameters,
            "the sign must be 64 bytes of hex (see get_sign_for_login)",
        ));
    }
    Ok(())
}

fn register_email(
    email: Option<String>,
    provider: Provider,
    id_token: &str,
    access_token: &str,
) -> Result<RegisterEmailRequest, SdkError> {
    if id_token.is_empty() && access_token.is_empty() {
        return Err(SdkError::service(
            ServiceErrorCode::InvalidParameters,
            "the refused login's id token or access token is needed",
        ));
    }
    Ok(RegisterEmailRequest {
        email,
        provider,
        id_token: id_token.to_owned(),
        access_token: access_token.to_owned(),
    })
}

#[cfg(test)]
mod tests;
