//! Login device tokens: what a device that logged in keeps, so the failures
//! of others behind its network address do not hold it back (OWASP's device
//! cookies). Random, dated and MAC'd under a key derived from `pin_secret`,
//! so every instance sharing the secret accepts them and nothing is stored.

use base64::Engine as _;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq as _;

/// How long a token lets its device past its network address's failures: a
/// device not used for this long counts as a stranger again.
pub const LIFETIME: std::time::Duration = std::time::Duration::from_secs(90 * 24 * 3600);

const NONCE_LEN: usize = 16;
const ISSUED_LEN: usize = 8;

/// Issues and checks login device tokens. Never printed.
pub struct LoginDevices {
    key: [u8; 32],
}

impl LoginDevices {
    pub(super) fn new(key: [u8; 32]) -> Self {
        Self { key }
    }

    /// A token for `account` (an app's id and a person's e-mail address),
    /// issued `now` (Unix seconds): 16 random bytes, the time and the MAC, in
    /// URL-safe base64.
    pub fn token(&self, account: &str, now: u64) -> String {
        let nonce: [u8; NONCE_LEN] = rand::random();
        let issued = now.to_be_bytes();
        let tag = self.tag(account, &nonce, &issued);
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode([&nonce[..], &issued, &tag].concat())
    }

    /// Whether `token` is one this service issued for `account` less than
    /// [`LIFETIME`] before `now` (compared in constant time).
    pub fn recognizes(&self, account: &str, token: &str, now: u64) -> bool {
        let Ok(bytes) = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(token) else {
            return false;
        };
        let (Some(nonce), Some(issued), Some(tag)) = (
            bytes.get(..NONCE_LEN),
            bytes.get(NONCE_LEN..NONCE_LEN + ISSUED_LEN),
            bytes.get(NONCE_LEN + ISSUED_LEN..),
        ) else {
            return false;
        };
        let expected = self.tag(account, nonce, issued);
        let issued_at = u64::from_be_bytes(issued.try_into().unwrap_or_default());
        let fresh = issued_at <= now && now - issued_at < LIFETIME.as_secs();
        bool::from(tag.ct_eq(expected.as_slice())) && fresh
    }

    fn tag(&self, account: &str, nonce: &[u8], issued: &[u8]) -> [u8; 32] {
        #[allow(clippy::expect_used)] // HMAC takes keys of any length
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.key).expect("any key length");
        mac.update(account.as_bytes());
        mac.update(b"\n");
        mac.update(nonce);
        mac.update(issued);
        mac.finalize().into_bytes().into()
    }
}

#[cfg(test)]
mod tests {
    use super::super::sealer::PinKeys;
    use super::*;

    #[test]
    fn a_token_holds_for_its_account_its_service_and_its_lifetime() {
        let keys = PinKeys::from_secret(&[7; 32]);
        let devices = keys.login_devices();
        let now = 1_800_000_000;
        let lifetime = LIFETIME.as_secs();
        let ada = "app:ada@example.com";
        let token = devices.token(ada, now);
        assert!(devices.recognizes(ada, &token, now + lifetime - 1));
        assert!(!devices.recognizes("app:bob@example.com", &token, now));
        assert!(!devices.recognizes("other:ada@example.com", &token, now));
        let another_service = PinKeys::from_secret(&[8; 32]);
        assert!(!another_service.login_devices().recognizes(ada, &token, now));
        assert!(!devices.recognizes(ada, &token, now + lifetime), "expired");
        assert!(!devices.recognizes(ada, &token, now - 1), "from the future");
        // Garbage and a token with its date moved are nobody's.
        for forged in ["", "!!", "AAAA", &token[..token.len() - 2]] {
            assert!(!devices.recognizes(ada, forged, now), "{forged}");
        }
        let mut bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(&token)
            .expect("b64");
        bytes[NONCE_LEN + ISSUED_LEN - 1] ^= 1;
        let moved = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
        assert!(!devices.recognizes(ada, &moved, now + 1));
    }
}
