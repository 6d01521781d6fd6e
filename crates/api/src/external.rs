//! Bodies of the logins through someone else's identity: an OAuth provider
//! (code exchange after a loopback redirect), an external id token or access
//! token signed by the app's backend (`sign`), and the e-mail registration of
//! such an identity when its provider gave no e-mail (`sendVerifyEmail`).

use serde::{Deserialize, Serialize};

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

use crate::{LoginErrorResult, LoginResult, Provider};

/// Whether a provider identifies people by an OpenID Connect id token (google,
/// apple, line) or only by an access token its userinfo endpoint answers for
/// (naver, discord, facebook).
pub fn is_oidc_provider(provider: Provider) -> bool {
    matches!(
        provider,
        Provider::Google | Provider::Apple | Provider::Line
    )
}

/// The OAuth providers (every provider but `email` and `external_token`).
pub fn is_oauth_provider(provider: Provider) -> bool {
    !matches!(provider, Provider::Email | Provider::ExternalToken)
}

/// An OAuth provider the app has registered with the service: what a device
/// needs to send the person to its login page. The client secret stays with the
/// service, which exchanges the code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OAuthProviderInfo {
    pub provider: Provider,
    pub client_id: String,
    /// The provider's authorization endpoint.
    pub authorize_url: String,
    /// Space-separated scopes to ask for.
    pub scopes: String,
}

/// `POST /v1/auth/oauth/token`: the authorization code a loopback redirect
/// brought back (RFC 8252), for the service to exchange with the provider.
#[derive(Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OAuthCodeExchange {
    pub provider: Provider,
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 2048))]
    pub code: String,
    /// The PKCE verifier of the `code_challenge` sent with the authorization
    /// request (RFC 7636: 43 to 128 characters).
    #[cfg_attr(feature = "openapi", schema(pattern = "^[A-Za-z0-9._~-]{43,128}$"))]
    pub code_verifier: String,
    /// The loopback redirect the code was sent to: `http://127.0.0.1:<port>/...`.
    #[cfg_attr(feature = "openapi", schema(max_length = 256))]
    pub redirect_uri: String,
    /// The `nonce` of the authorization request; an OpenID provider's id token
    /// must carry it.
    #[cfg_attr(feature = "openapi", schema(max_length = 128))]
    pub nonce: String,
}

impl std::fmt::Debug for OAuthCodeExchange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuthCodeExchange")
            .field("provider", &self.provider)
            .field("redirect_uri", &self.redirect_uri)
            .finish_non_exhaustive()
    }
}

/// `POST /v1/auth/external/id-token` (loginWithIdToken): a JWT from the app's
/// own issuer and `sign`, the app backend's signature of it
/// ([`crate::login_sign`]).
#[derive(Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IdTokenLogin {
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 8192))]
    pub token: String,
    /// 64 bytes `r || s` as hex.
    #[cfg_attr(feature = "openapi", schema(pattern = "^(0[xX])?[0-9a-fA-F]{128}$"))]
    pub sign: String,
}

/// `POST /v1/auth/external/access-token` (loginWithAccessToken): a provider's
/// access token, which the service checks at the provider's userinfo endpoint,
/// and `sign`.
#[derive(Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AccessTokenLogin {
    /// naver, discord or facebook.
    pub provider: Provider,
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 8192))]
    pub token: String,
    /// 64 bytes `r || s` as hex.
    #[cfg_attr(feature = "openapi", schema(pattern = "^(0[xX])?[0-9a-fA-F]{128}$"))]
    pub sign: String,
}

macro_rules! token_debug {
    ($ty:ident) => {
        impl std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(concat!(stringify!($ty), " { <redacted> }"))
            }
        }
    };
}
token_debug!(IdTokenLogin);
token_debug!(AccessTokenLogin);

/// `POST /v1/auth/external/email` (sendVerifyEmail) and, without `email`,
/// `POST /v1/auth/external/resume`: a token a login was refused for (428
/// `RequiredSignupEmail`, within the hour), with the provider the refusal named.
/// `idToken` or `accessToken` is the refused token, as the refusal gave it; the
/// other may be empty.
#[derive(Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RegisterEmailRequest {
    /// The address to register (sendVerifyEmail only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(format = Email, max_length = 254))]
    pub email: Option<String>,
    pub provider: Provider,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(max_length = 8192))]
    pub id_token: String,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(max_length = 8192))]
    pub access_token: String,
}

impl std::fmt::Debug for RegisterEmailRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegisterEmailRequest")
            .field("email", &self.email)
            .field("provider", &self.provider)
            .finish_non_exhaustive()
    }
}

/// The 428 body of a login whose identity has no e-mail yet: the REST error
/// (`code` `RequiredSignupEmail`) and what `sendVerifyEmail` needs back — the
/// provider and the token the login was refused for.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RegisterEmailRequired {
    pub status_code: u16,
    pub code: crate::ErrorCode,
    pub message: String,
    pub provider: Provider,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id_token: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access_token: Option<String>,
}

impl std::fmt::Debug for RegisterEmailRequired {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegisterEmailRequired")
            .field("provider", &self.provider)
            .field("message", &self.message)
            .finish_non_exhaustive()
    }
}

impl From<RegisterEmailRequired> for LoginErrorResult {
    fn from(r: RegisterEmailRequired) -> Self {
        LoginErrorResult {
            error: crate::LoginLibraryError::RequiredRegisterEmail
                .as_str()
                .to_owned(),
            id_token: r.id_token,
            access_token: r.access_token,
            provider: Some(r.provider),
        }
    }
}

/// What the login library's token logins answer: the identity tokens, or the
/// spec's `LoginErrorResult` (`required/register_email`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LoginReply {
    Success(LoginResult),
    Failure(LoginErrorResult),
}
