//! The SDK resources: what the login library and the widget hand to an application.

use serde::{Deserialize, Serialize};

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

/// Identity providers, as the spec spells them on the wire.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::EnumIter,
)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Provider {
    Google,
    Apple,
    Naver,
    Discord,
    Line,
    Facebook,
    Email,
    ExternalToken,
}

impl Provider {
    /// The provider's name on the wire (`google`, ..., `external_token`).
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(s: &str) -> Option<Self> {
        s.parse().ok()
    }
}

/// `status` of a [`ServiceUser`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Success,
    Fail,
}

/// `userStatus.loginStatus`: anything but `complete` means register must be called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum LoginStatus {
    Complete,
    PinRequired,
    RegisterRequired,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct UserInfo {
    pub user_id: String,
    pub email: String,
    pub provider: Provider,
    #[serde(rename = "use2FA")]
    pub use_2fa: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct UserStatus {
    pub login_status: LoginStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pin_required: Option<bool>,
}

/// The service's own session tokens.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ServiceToken {
    pub access_token: String,
    pub refresh_token: String,
}

/// Tokens issued by an identity provider (the service itself for e-mail users).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct IdentityTokens {
    pub id_token: String,
    pub refresh_token: String,
}

/// Tokens never print: a log line or a panic message must not carry one.
macro_rules! redacted_debug {
    ($ty:ident { $($field:ident),* }) => {
        impl std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($ty))
                    $(.field(stringify!($field), &"<redacted>"))*
                    .finish()
            }
        }
    };
}
redacted_debug!(ServiceToken {
    access_token,
    refresh_token
});
redacted_debug!(IdentityTokens {
    id_token,
    refresh_token
});

/// Result of loginWithUI, register, registerUserEmail and loginService.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct ServiceUser {
    pub status: Outcome,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_info: Option<UserInfo>,
    pub user_status: UserStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wallet_id: Option<String>,
    /// Never handed to the widget's page, so not in its types.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub token: Option<ServiceToken>,
}

/// Success of a login-library login method.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LoginResult {
    pub provider: Provider,
    pub token: IdentityTokens,
}

/// Failure of a login-library login method that the application can act on.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LoginErrorResult {
    pub error: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id_token: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access_token: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<Provider>,
}

impl std::fmt::Debug for LoginErrorResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoginErrorResult")
            .field("error", &self.error)
            .field("provider", &self.provider)
            .finish_non_exhaustive()
    }
}

/// An account as the widget SDK names it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct ServiceAccount {
    pub address: String,
    pub network: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contract: Option<String>,
    #[serde(default, rename = "isAA", skip_serializing_if = "Option::is_none")]
    pub is_aa: Option<bool>,
}

/// Element of getBalance's result. `balance` is a decimal string of whole coins.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct AccountBalanceInfo {
    pub network: String,
    pub address: String,
    pub symbol: String,
    pub balance: String,
    pub tokens: Vec<TokenBalanceInfo>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct TokenBalanceInfo {
    pub symbol: String,
    pub balance: String,
    pub contract: String,
}

/// `contentType` of a [`ServiceNft`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ServiceContentType {
    Image,
    Video,
}

/// `scheme` of a [`ServiceNftContract`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ServiceNftScheme {
    #[serde(rename = "ERC721")]
    Erc721,
    #[serde(rename = "ERC1155")]
    Erc1155,
}

/// Element of getNFTs' result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct ServiceNft {
    pub account: ServiceAccount,
    pub contract: ServiceNftContract,
    pub name: String,
    pub description: String,
    pub external_link: String,
    pub image_url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_url: Option<String>,
    pub quantity: i64,
    pub content_type: ServiceContentType,
    /// The spec leaves the values open; Satchel sends 1 for "held and described".
    pub state: i64,
    /// Beyond the spec: the token's id in its collection (decimal), which a
    /// send of the NFT names.
    pub token_id: String,
    /// Beyond the spec: who sent it to the account, checksummed, when the
    /// service saw it come; absent for a mint (and when it did not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub received_from: Option<String>,
    /// Beyond the spec: the app judges it likely spam (a stranger sent it, in a
    /// transaction none of the person's accounts sent, of a collection the app
    /// does not vouch for); the gallery hides it until the person shows its
    /// collection.
    #[serde(default)]
    pub likely_spam: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct ServiceNftContract {
    pub name: String,
    pub address: String,
    pub scheme: ServiceNftScheme,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub network: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_link: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
}

/// `identityToken` of a login session.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct IdentityToken {
    pub provider: Provider,
    pub id_token: String,
    pub refresh_token: String,
}
redacted_debug!(IdentityToken {
    id_token,
    refresh_token
});

/// getLoginSession's result and parameter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LoginSession {
    pub identity_token: IdentityToken,
    pub service_token: ServiceToken,
}

/// The widget SDK's life cycle, returned by getStatus.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ServiceLifeCycle {
    #[default]
    NotInitialized,
    Initializing,
    Initialized,
    BeforeLogin,
    Login,
    LoginBeforeRegister,
}
