//! Password hashes of e-mail logins: argon2id, each with its own salt, off the
//! async runtime and a few at a time.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};

use super::CryptoError;

/// Hashes (about 19 MiB each) running at once; the others wait their turn, so a
/// flood of logins cannot take the machine's memory.
const HASHES_AT_ONCE: usize = 4;

static HASHING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(HASHES_AT_ONCE);

/// argon2id with its own salt; slow on purpose, so off the async runtime.
pub async fn hash_password(password: String) -> Result<String, CryptoError> {
    let _turn = HASHING
        .acquire()
        .await
        .map_err(|e| CryptoError::Hashing(e.to_string()))?;
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut rand::rngs::OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|hash| hash.to_string())
            .map_err(|e| CryptoError::Hashing(e.to_string()))
    })
    .await
    .map_err(|e| CryptoError::Hashing(e.to_string()))?
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
}
