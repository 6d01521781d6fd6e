//! Where the signing keys live: sealed in the database, made on a new one,
//! rotated, and read again by every instance.

use p256::SecretKey;
use p256::pkcs8::{EncodePrivateKey, LineEnding};

use super::{KeyPair, KeySet, SigningKeys};
use crate::clock::now;
use crate::crypto::sealer::PinKeys;
use crate::db::{Db, new_id};

/// How long before it signs a rotated key is published, so every instance
/// (which reload their keys every [`RELOAD_EVERY`]) knows it first.
pub const PUBLISH_BEFORE_SIGNING: std::time::Duration = std::time::Duration::from_secs(10 * 60);
/// How often an instance reads the keys again.
pub const RELOAD_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

fn new_pem() -> anyhow::Result<String> {
    let secret = SecretKey::random(&mut rand::rngs::OsRng);
    Ok(secret.to_pkcs8_pem(LineEnding::LF)?.to_string())
}

impl SigningKeys {
    /// Loads the keys, first sealing and moving any clear-text key of an earlier
    /// version, and making the first key on a new database. Keys whose tokens
    /// may still be live (retired less than `verify_for_secs` ago) verify.
    pub async fn load_or_create(
        db: &Db,
        sealer: &PinKeys,
        issuer: &str,
        verify_for_secs: i64,
    ) -> anyhow::Result<Self> {
        for (kid, pem, created_at) in db.legacy_signing_keys().await? {
            db.move_legacy_key(&kid, &sealer.seal_signing_key(&kid, &pem), created_at)
                .await?;
        }
        if db.token_keys(now(), verify_for_secs).await?.is_empty() {
            let kid = new_id();
            let at = now();
            db.add_token_key(&kid, &sealer.seal_signing_key(&kid, &new_pem()?), at, at)
                .await?;
        }
        let keys = read_keys(db, sealer, verify_for_secs).await?;
        Ok(Self::with_keys(issuer, keys))
    }

    /// Reads the keys again (a rotation on any instance shows here).
    pub async fn reload(
        &self,
        db: &Db,
        sealer: &PinKeys,
        verify_for_secs: i64,
    ) -> anyhow::Result<()> {
        let keys = read_keys(db, sealer, verify_for_secs).await?;
        *self.keys.write() = keys;
        Ok(())
    }

    /// Adds a new key that is published now and signs after
    /// [`PUBLISH_BEFORE_SIGNING`]; the current one then retires, and verifies
    /// until its last tokens expire. Returns the new kid.
    pub async fn rotate(db: &Db, sealer: &PinKeys) -> anyhow::Result<String> {
        let kid = new_id();
        let at = now();
        let activates = at + PUBLISH_BEFORE_SIGNING.as_secs() as i64;
        db.add_token_key(
            &kid,
            &sealer.seal_signing_key(&kid, &new_pem()?),
            at,
            activates,
        )
        .await?;
        Ok(kid)
    }
}

/// The keys in the database, opened: the newest active one signs, all verify.
async fn read_keys(db: &Db, sealer: &PinKeys, verify_for_secs: i64) -> anyhow::Result<KeySet> {
    let at = now();
    let mut verifying = Vec::new();
    let mut signing = None;
    for stored in db.token_keys(at, verify_for_secs).await? {
        let pem = sealer
            .open_signing_key(&stored.kid, &stored.sealed)
            .map_err(|_| {
                anyhow::anyhow!(
                    "token signing key {} does not open: is pin_secret the one it was sealed with?",
                    stored.kid
                )
            })?;
        let pair = std::sync::Arc::new(KeyPair::from_pem(stored.kid.clone(), &pem)?);
        if signing.is_none()
            && stored.activated_at <= at
            && stored.retired_at.is_none_or(|r| r > at)
        {
            signing = Some(pair.clone());
        }
        verifying.push(pair);
    }
    // Between a rotation's publication and its activation the previous key
    // still signs; it is retired from the activation time on.
    let signing = signing
        .or_else(|| verifying.last().cloned())
        .ok_or_else(|| anyhow::anyhow!("no token signing key"))?;
    Ok(KeySet { signing, verifying })
}

/// Reads the keys again every [`RELOAD_EVERY`] until the service stops, so a
/// rotation on another instance is seen here. Keys that may have signed a token
/// still live (`verify_for` seconds) keep verifying.
pub async fn reload_forever(
    keys: std::sync::Arc<SigningKeys>,
    db: Db,
    sealer: std::sync::Arc<PinKeys>,
    verify_for: i64,
) {
    let mut ticks = tokio::time::interval(RELOAD_EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ticks.tick().await;
    loop {
        ticks.tick().await;
        if let Err(e) = keys.reload(&db, &sealer, verify_for).await {
            tracing::warn!(error = %e, "token signing keys not reloaded");
        }
    }
}
