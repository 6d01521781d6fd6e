//! The service's secrets at the bottom of everything: random secrets and the
//! SHA-256 they are stored by, base64, password hashes ([`passwords`]), the
//! sealer of PIN material, signing keys and client secrets ([`sealer`]) and
//! login device tokens ([`login_device`]).

pub mod login_device;
pub mod passwords;
pub mod sealer;

use base64::Engine as _;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// What can go wrong here: a fault of the service, never of the caller.
#[derive(Debug, thiserror::Error)]
pub enum CryptoError {
    #[error("password hashing: {0}")]
    Hashing(String),
}

/// A new secret for a link or a refresh token: 256 random bits, URL-safe.
pub fn random_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Secrets are stored as their SHA-256 and looked up by it, never compared raw.
pub fn secret_hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Apps are looked up by the SHA-256 of their key, so the key itself is never
/// stored and never compared byte by byte.
pub fn app_key_hash(key: &str) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))
}

/// Standard base64, with or without padding.
pub fn decode_base64(text: &str) -> Option<Vec<u8>> {
    const LENIENT: base64::engine::GeneralPurpose = base64::engine::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
    );
    LENIENT.decode(text).ok()
}

pub fn encode_base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_random_and_stored_as_their_hash() {
        let (a, b) = (random_secret(), random_secret());
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        assert_eq!(secret_hash(&a).len(), 64);
        assert_eq!(secret_hash(&a), secret_hash(&a));
    }

    #[test]
    fn app_keys_hash_to_64_hex_digits() {
        let hash = app_key_hash("sk_demo");
        assert_eq!(hash.len(), 64);
        assert_ne!(hash, app_key_hash("sk_demo2"));
    }
}
