//! Secrets of e-mail logins: argon2id password hashes, random secrets for links
//! and refresh tokens, and the SHA-256 those secrets are stored and looked up by.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use base64::Engine as _;
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::error::{ApiError, ApiResult};

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

/// Hashes (about 19 MiB each) running at once; the others wait their turn, so a
/// flood of logins cannot take the machine's memory.
const HASHES_AT_ONCE: usize = 4;

static HASHING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(HASHES_AT_ONCE);

/// argon2id with its own salt; slow on purpose, so off the async runtime.
pub async fn hash_password(password: String) -> ApiResult<String> {
    let _turn = HASHING.acquire().await.map_err(ApiError::internal)?;
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut rand::rngs::OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|hash| hash.to_string())
            .map_err(|e| ApiError::internal(format_args!("password hashing: {e}")))
    })
    .await
    .map_err(ApiError::internal)?
}

/// Whether `password` is the one `hash` was made from; off the async runtime.
pub async fn password_matches(password: String, hash: String) -> bool {
    let Ok(_turn) = HASHING.acquire().await else {
        return false;
    };
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&hash).is_ok_and(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
    })
    .await
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hashed_password_matches_itself_only() {
        let hash = hash_password("correct1horse".into()).await.expect("hashed");
        assert!(hash.starts_with("$argon2id$"));
        assert!(password_matches("correct1horse".into(), hash.clone()).await);
        assert!(!password_matches("wrong1horse".into(), hash).await);
        assert!(!password_matches("correct1horse".into(), "not a hash".into()).await);
    }

    #[test]
    fn secrets_are_random_and_stored_as_their_hash() {
        let (a, b) = (random_secret(), random_secret());
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        assert_eq!(secret_hash(&a).len(), 64);
        assert_eq!(secret_hash(&a), secret_hash(&a));
    }
}
