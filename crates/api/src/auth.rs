//! Bodies of the identity and session endpoints, which the spec leaves to the
//! design ("not shown"): sign-up, e-mail login, password reset, token refresh,
//! service login.

use serde::{Deserialize, Serialize};

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

use crate::{IdentityTokens, LoginResult, Provider};

/// `POST /v1/auth/email/signup` and `POST /v1/auth/email/login`.
#[derive(Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct EmailCredentials {
    /// An e-mail address: one `@`, a domain with a dot, no spaces (compared
    /// without case and surrounding space).
    #[cfg_attr(feature = "openapi", schema(format = Email, max_length = 254))]
    pub email: String,
    /// 8 to 128 characters, with at least one letter and one digit (the
    /// `passwordRules` of `GET /v1/app`).
    #[cfg_attr(
        feature = "openapi",
        schema(
            min_length = 8,
            max_length = 128,
            pattern = r"\p{L}[\s\S]*[0-9]|[0-9][\s\S]*\p{L}"
        )
    )]
    pub password: String,
}

impl std::fmt::Debug for EmailCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmailCredentials")
            .field("email", &self.email)
            .field("password", &"<redacted>")
            .finish()
    }
}

/// The longest `deviceToken` a login carries (the service issues 75
/// characters); a longer one is no token.
pub const MAX_DEVICE_TOKEN_LENGTH: usize = 256;

/// `POST /v1/auth/email/login`: the credentials, and the device token this
/// device was given when it last logged in with them, if it was.
#[derive(Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct EmailLogin {
    #[serde(flatten)]
    pub credentials: EmailCredentials,
    /// What `deviceToken` of this address's last login on this device said: a
    /// login that carries it is counted on the device's own failures, not
    /// held back by its neighbours' or by a guesser's elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(max_length = 256))] // MAX_DEVICE_TOKEN_LENGTH
    pub device_token: Option<String>,
}

impl std::fmt::Debug for EmailLogin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmailLogin")
            .field("credentials", &self.credentials)
            .field(
                "device_token",
                &self.device_token.as_ref().map(|_| "<redacted>"),
            )
            .finish()
    }
}

/// `POST /v1/auth/email/login`'s answer: the login, and a device token for
/// the device to keep (its keychain) and send with its next login of this
/// address.
#[derive(Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct EmailLoginResult {
    #[serde(flatten)]
    pub login: LoginResult,
    pub device_token: String,
}

impl std::fmt::Debug for EmailLoginResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmailLoginResult")
            .field("login", &self.login.provider)
            .finish_non_exhaustive()
    }
}

/// What a sign-up did: sent a verification e-mail, or (for apps that do not ask
/// for verification) signed the person in at once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SignUpResponse {
    pub verification_sent: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub login: Option<crate::LoginResult>,
}

/// `POST /v1/auth/email/resend`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ResendRequest {
    #[cfg_attr(feature = "openapi", schema(format = Email, max_length = 254))]
    pub email: String,
}

/// `POST /v1/auth/email/password-reset`: e-mail a link that sets a new password.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PasswordResetRequest {
    #[cfg_attr(feature = "openapi", schema(format = Email, max_length = 254))]
    pub email: String,
}

/// `POST /v1/auth/email/password-reset/confirm` (as JSON): the token of the
/// e-mailed link and the new password.
#[derive(Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PasswordResetConfirm {
    pub token: String,
    /// 8 to 128 characters, with at least one letter and one digit (the
    /// `passwordRules` of `GET /v1/app`).
    #[cfg_attr(
        feature = "openapi",
        schema(
            min_length = 8,
            max_length = 128,
            pattern = r"\p{L}[\s\S]*[0-9]|[0-9][\s\S]*\p{L}"
        )
    )]
    pub password: String,
}

impl std::fmt::Debug for PasswordResetConfirm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PasswordResetConfirm")
            .field("token", &"<redacted>")
            .field("password", &"<redacted>")
            .finish()
    }
}

/// `POST /v1/auth/identity/refresh` and `POST /v1/auth/service/refresh`.
#[derive(Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RefreshRequest {
    pub refresh_token: String,
}

impl std::fmt::Debug for RefreshRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RefreshRequest { <redacted> }")
    }
}

/// `POST /v1/auth/service/login`: the result of a login-library login.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ServiceLoginRequest {
    /// The LoginResult's provider; the identity tokens must be of a login through
    /// it (400 `InvalidLoginProvider` otherwise, or when the app does not allow it).
    pub provider: Provider,
    pub token: IdentityTokens,
}

/// `GET /v1/app`: what the app key may use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct AppInfo {
    pub app_id: String,
    pub name: String,
    pub providers: Vec<Provider>,
    /// The OAuth providers of `providers` the app has registered with the
    /// service: where a device sends the person to log in.
    pub oauth: Vec<crate::OAuthProviderInfo>,
    pub networks: Vec<NetworkInfo>,
    /// Whether e-mail users must verify their address before they can log in.
    pub email_verification: bool,
    /// The e-mail domains sign-up is limited to; empty allows every domain.
    pub email_domains: Vec<String>,
    pub password_rules: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct NetworkInfo {
    pub name: String,
    pub chain_id: u64,
    pub symbol: String,
    pub decimals: u32,
    pub icon_url: String,
}

/// `POST /v1/wallets`: registers the wallet the device made. The address and its
/// derivation path, a signature proving the device holds the address's key, the
/// PIN material the service keeps (never the PIN), and optionally the encrypted
/// backup. The mnemonic, the PIN and the device key never leave the device.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RegisterRequest {
    /// The EVM address (20 bytes as hex, `0x` optional).
    #[cfg_attr(feature = "openapi", schema(pattern = "^(0[xX])?[0-9a-fA-F]{40}$"))]
    pub address: String,
    /// A BIP-44 path on Ethereum's coin type, like `m/44'/60'/0'/0/0`.
    #[cfg_attr(
        feature = "openapi",
        schema(pattern = "^m/44'/60'/[0-9]{1,10}'?(/[0-9]{1,10}'?)*$")
    )]
    pub address_path: String,
    /// The nonce of a `POST /v1/wallets/challenge` answer, used once.
    pub nonce: String,
    /// EIP-191 `personal_sign` of the challenge's `message` by `address`'s key,
    /// 65 bytes `r || s || v` as 0x-hex.
    #[cfg_attr(
        feature = "openapi",
        schema(
            pattern = r"^(0[xX])?[0-9a-fA-F]{128}(0[01]|1[bBcC]|2[3-9a-fA-F]|[3-9a-fA-F][0-9a-fA-F])$"
        )
    )]
    pub signature: String,
    pub pin: crate::PinSetup,
    /// The mnemonic sealed under the device key ([`crate::PinSetup`]), if the person
    /// opted into a backup the service keeps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "openapi",
        schema(
            max_length = 2048,
            pattern = r"^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{4}|[A-Za-z0-9+/][AQgw](==?)?|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=?)$"
        )
    )]
    pub backup: Option<String>,
}

impl std::fmt::Debug for RegisterRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegisterRequest")
            .field("address", &self.address)
            .field("address_path", &self.address_path)
            .finish_non_exhaustive()
    }
}
