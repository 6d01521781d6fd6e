//! The e-mail links that lift a PIN lock (`pin_unlocks`): single use, stored as
//! hashes.

use super::links::{self, LinkKind};
use super::{Db, DbResult};
use crate::clock::now;

impl Db {
    /// Stores an unlock link's token hash; the wallet's used and expired links go.
    pub async fn create_pin_unlock(
        &self,
        wallet_id: &str,
        token_hash: &str,
        lifetime_secs: i64,
    ) -> DbResult<()> {
        let mut conn = self.pool().acquire().await?;
        let (kind, at) = (LinkKind::PinUnlock, now());
        links::issue(
            &mut conn,
            kind,
            wallet_id,
            token_hash,
            None,
            at,
            lifetime_secs,
        )
        .await
    }

    /// Uses an unlock link when it is unused and unexpired (the wallet's other
    /// links stop working): clears its wallet's wrong proofs, pause and lock,
    /// unless `recovery_at` wrong proofs were made since the last right one, when
    /// only the recovery phrase may. What it did, and to which wallet.
    pub async fn use_pin_unlock(&self, token_hash: &str, recovery_at: i64) -> DbResult<Unlock> {
        let at = now();
        let mut tx = self.pool().begin().await?;
        let claimed: Option<(String,)> =
            links::claim(&mut tx, LinkKind::PinUnlock, token_hash, at).await?;
        let Some((wallet,)) = claimed else {
            return Ok(Unlock::LinkDoesNotWork);
        };
        let lifted = sqlx::query(
            "UPDATE wallet_keys SET failures = 0, locked_until = 0, email_locked = 0, \
             updated_at = $2 WHERE wallet_id = $1 AND wrong_total < $3",
        )
        .bind(&wallet)
        .bind(at)
        .bind(recovery_at)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        links::drop_others(&mut tx, LinkKind::PinUnlock, &wallet, token_hash).await?;
        tx.commit().await?;
        Ok(if lifted {
            Unlock::Lifted { wallet_id: wallet }
        } else {
            Unlock::RecoveryRequired
        })
    }
}

/// What opening an unlock link did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unlock {
    Lifted {
        wallet_id: String,
    },
    /// Too many wrong PINs since the last right one: only the recovery phrase.
    RecoveryRequired,
    LinkDoesNotWork,
}
