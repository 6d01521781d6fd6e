//! The login session as the keychain keeps it: identity tokens, service tokens and
//! who the user is. One entry per app and service.

use base64::Engine as _;
use satchel_api::{IdentityTokens, Provider, ServiceToken};
use serde::{Deserialize, Serialize};

#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredSession {
    pub provider: Provider,
    pub identity: IdentityTokens,
    pub service: ServiceToken,
    pub user_id: String,
}

impl std::fmt::Debug for StoredSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredSession")
            .field("provider", &self.provider)
            .field("user_id", &self.user_id)
            .finish_non_exhaustive()
    }
}

/// The keychain entry of an app's session at a service.
pub fn session_key(app_id: &str, service_url: &url::Url) -> String {
    format!(
        "session:{app_id}@{}",
        service_url.origin().ascii_serialization()
    )
}

/// The keychain entry of the device token a login of `email` was given, for
/// the app and service of `session_key` (see [`session_key`]).
pub fn login_device_key(session_key: &str, email: &str) -> String {
    format!("login-device:{email}:{session_key}")
}

/// The `exp` of a JWT, read without checking the signature: the client only uses
/// it to renew in time; the service checks everything.
pub fn jwt_expiry(token: &str) -> Option<i64> {
    let payload = token.split('.').nth(1)?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload)
        .ok()?;
    #[derive(Deserialize)]
    struct Claims {
        exp: i64,
    }
    serde_json::from_slice::<Claims>(&bytes).ok().map(|c| c.exp)
}

/// Unix seconds now.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_expiry_of_a_jwt_is_read_and_garbage_is_none() {
        let payload = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(br#"{"sub":"u","exp":1700000000}"#);
        assert_eq!(jwt_expiry(&format!("h.{payload}.s")), Some(1_700_000_000));
        assert_eq!(jwt_expiry("not-a-jwt"), None);
        assert_eq!(jwt_expiry("a.!!!.c"), None);
    }

    #[test]
    fn sessions_never_print_their_tokens() {
        let session = StoredSession {
            provider: Provider::Email,
            identity: IdentityTokens {
                id_token: "secret-id".into(),
                refresh_token: "secret-r".into(),
            },
            service: ServiceToken {
                access_token: "secret-a".into(),
                refresh_token: "secret-s".into(),
            },
            user_id: "u1".into(),
        };
        assert!(!format!("{session:?}").contains("secret"));
    }
}
