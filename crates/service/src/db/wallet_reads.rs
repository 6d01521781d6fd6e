//! Operation 1's read of a wallet, and the rendered body it keeps with the
//! wallet (migration 0020): a wallet read again before anything in it changed
//! is its session's row and its own, both by key, with nothing to render.
//!
//! Every write to a wallet's accounts or token accounts calls
//! [`wallet_changed`] or [`account_changed`] in its own transaction: the kept
//! body is dropped and the wallet's `accounts_version` moves on, so a rendering
//! made from what was read before the change is never kept
//! ([`Db::keep_accounts_bodies`] keeps one only at the version it was read at).

use super::{AccountRow, Backend, Db, DbError, DbResult, TokenRow};
use crate::clock::now;

/// A wallet as operation 1 reads it when no body is kept for it.
#[derive(Debug)]
pub struct WalletRead {
    pub owner: String,
    pub accounts: Vec<AccountRow>,
    pub tokens: Vec<TokenRow>,
    /// The wallet's `accounts_version` these rows are of.
    pub version: i64,
}

/// What operation 1 found of a wallet.
#[derive(Debug)]
pub enum WalletFound {
    /// The body a read rendered with the same settings, kept since.
    Kept { owner: String, body: String },
    /// Its rows, to render a body from.
    Rows(WalletRead),
}

impl WalletFound {
    pub fn owner(&self) -> &str {
        match self {
            Self::Kept { owner, .. } => owner,
            Self::Rows(read) => &read.owner,
        }
    }
}

impl Db {
    /// Operation 1's read in one round trip and one row: whether the caller's
    /// session (`session_id` of `user_id`) is live, and the wallet (`None`: no
    /// such wallet): its body kept for `rendered_by` (see
    /// [`Db::keep_accounts_bodies`]) or, when there is none, its owner, accounts
    /// in their order and token accounts. The database builds the accounts as
    /// one JSON array, so a wallet of many accounts is still one row to carry
    /// and convert.
    pub async fn wallet_for_session(
        &self,
        wallet_id: &str,
        session_id: &str,
        user_id: &str,
        rendered_by: &str,
    ) -> DbResult<(bool, Option<WalletFound>)> {
        // [[id, network, address, path, label, balance, [[id, contract, balance], ...]], ...]
        let accounts = match self.backend {
            Backend::Sqlite => {
                "(SELECT json_group_array(json_array(a.id, a.network, a.address, \
                 a.address_path, a.label, a.balance, \
                 json((SELECT json_group_array(json_array(t.id, t.contract, t.balance) \
                 ORDER BY t.position) FROM token_accounts t WHERE t.account_id = a.id))) \
                 ORDER BY a.position) FROM accounts a WHERE a.wallet_id = w.id)"
            }
            Backend::Postgres => {
                "(SELECT COALESCE(json_agg(json_build_array(a.id, a.network, a.address, \
                 a.address_path, a.label, a.balance, \
                 (SELECT COALESCE(json_agg(json_build_array(t.id, t.contract, t.balance) \
                 ORDER BY t.position), '[]') FROM token_accounts t WHERE t.account_id = a.id)) \
                 ORDER BY a.position), '[]')::TEXT FROM accounts a WHERE a.wallet_id = w.id)"
            }
        };
        // The accounts are put together only when no body is kept (a CASE
        // evaluates the branch it takes, on both engines).
        type Found = (
            Option<i64>,
            Option<String>,
            Option<i64>,
            Option<String>,
            Option<String>,
        );
        let (expires, owner, version, kept, accounts): Found = sqlx::query_as(&format!(
            "SELECT (SELECT expires_at FROM sessions WHERE id = $2 AND user_id = $3 \
             AND revoked_at IS NULL), w.user_id, w.accounts_version, \
             CASE WHEN w.accounts_body_of = $4 THEN w.accounts_body END, \
             CASE WHEN w.accounts_body IS NULL OR w.accounts_body_of IS NULL \
             OR w.accounts_body_of <> $4 THEN {accounts} END \
             FROM (SELECT 1 AS one) q LEFT JOIN wallets w ON w.id = $1"
        ))
        .bind(wallet_id)
        .bind(session_id)
        .bind(user_id)
        .bind(rendered_by)
        .fetch_one(self.pool())
        .await?;
        let session_live = expires.is_some_and(|expires| expires > now());
        let Some(owner) = owner else {
            return Ok((session_live, None));
        };
        if let Some(body) = kept {
            return Ok((session_live, Some(WalletFound::Kept { owner, body })));
        }
        let mut read = parse_accounts(wallet_id, accounts.as_deref().unwrap_or("[]"))?;
        read.owner = owner;
        read.version = version.unwrap_or_default();
        Ok((session_live, Some(WalletFound::Rows(read))))
    }

    /// Keeps each body, rendered by `rendered_by` from its wallet's rows at
    /// its version, unless the wallet changed since (then the next read
    /// renders it again), in one transaction. `rendered_by` names what else
    /// the bodies depend on (the service's version and networks), so a service
    /// set up otherwise never serves another's rendering.
    pub async fn keep_accounts_bodies(
        &self,
        rendered_by: &str,
        bodies: &[KeptBody],
    ) -> DbResult<()> {
        let mut tx = self.pool().begin().await?;
        for kept in bodies {
            sqlx::query(
                "UPDATE wallets SET accounts_body = $3, accounts_body_of = $4 \
                 WHERE id = $1 AND accounts_version = $2",
            )
            .bind(&kept.wallet_id)
            .bind(kept.version)
            .bind(&kept.body)
            .bind(rendered_by)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

/// A body operation 1 rendered from a wallet's rows at `version`.
#[derive(Debug)]
pub struct KeptBody {
    pub wallet_id: String,
    pub version: i64,
    pub body: String,
}

/// Bodies waiting to be kept at most; a read that finds the queue full leaves
/// its body unkept (the wallet's next read renders it again).
const KEEP_QUEUE: usize = 1024;
/// Bodies kept in one transaction at most.
const KEEP_BATCH: usize = 64;

enum ToKeep {
    Body(KeptBody),
    /// Answered once everything queued before it was written.
    Flush(tokio::sync::oneshot::Sender<()>),
}

/// Writes the bodies operation 1 rendered back to the database, off the
/// request's way and many to a transaction: a read since a change answers as
/// soon as it has rendered, and the writes cost one commit a batch, not one a
/// read (on SQLite, one writer at a time, a commit a read took three quarters
/// of the first reads' throughput; measured with the scale benchmark).
#[derive(Clone, Debug)]
pub struct BodyKeeper {
    queue: tokio::sync::mpsc::Sender<ToKeep>,
}

impl BodyKeeper {
    /// Starts the writer; it ends when the last clone of the keeper is gone.
    pub fn start(db: Db, rendered_by: std::sync::Arc<str>) -> Self {
        Self::start_with_queue(db, rendered_by, KEEP_QUEUE)
    }

    fn start_with_queue(db: Db, rendered_by: std::sync::Arc<str>, queue: usize) -> Self {
        let (queue, mut bodies) = tokio::sync::mpsc::channel(queue);
        tokio::spawn(async move {
            let mut batch = Vec::with_capacity(KEEP_BATCH);
            while bodies.recv_many(&mut batch, KEEP_BATCH).await > 0 {
                let mut flushed = Vec::new();
                let mut kept = Vec::with_capacity(batch.len());
                for item in batch.drain(..) {
                    match item {
                        ToKeep::Body(body) => kept.push(body),
                        ToKeep::Flush(done) => flushed.push(done),
                    }
                }
                if !kept.is_empty()
                    && let Err(e) = db.keep_accounts_bodies(&rendered_by, &kept).await
                {
                    tracing::warn!(error = %e, bodies = kept.len(), "rendered account lists not kept");
                }
                for done in flushed {
                    let _ = done.send(());
                }
            }
        });
        Self { queue }
    }

    /// Queues `body` to be kept; dropped when the queue is full.
    pub fn keep(&self, body: KeptBody) {
        if self.queue.try_send(ToKeep::Body(body)).is_err() {
            tracing::debug!("the queue of account lists to keep is full; one is left unkept");
        }
    }

    /// Waits until every body queued before this call has been written (or
    /// failed to be).
    pub async fn flush(&self) {
        let (done, written) = tokio::sync::oneshot::channel();
        if self.queue.send(ToKeep::Flush(done)).await.is_ok() {
            let _ = written.await;
        }
    }
}

/// The accounts JSON [`Db::wallet_for_session`] has the database build.
fn parse_accounts(wallet_id: &str, json: &str) -> DbResult<WalletRead> {
    type TokenJson = (String, String, String);
    type AccountJson = (
        String,
        String,
        String,
        String,
        String,
        String,
        Vec<TokenJson>,
    );
    let listed: Vec<AccountJson> =
        serde_json::from_str(json).map_err(|e| DbError::Sqlx(sqlx::Error::Decode(e.into())))?;
    let mut read = WalletRead {
        owner: String::new(),
        accounts: Vec::with_capacity(listed.len()),
        tokens: Vec::new(),
        version: 0,
    };
    for (id, network, address, address_path, label, balance, tokens) in listed {
        read.tokens.extend(
            tokens
                .into_iter()
                .map(|(token, contract, balance)| TokenRow {
                    id: token,
                    account_id: id.clone(),
                    contract,
                    balance,
                }),
        );
        read.accounts.push(AccountRow {
            id,
            wallet_id: wallet_id.to_owned(),
            network,
            address,
            address_path,
            label,
            balance,
        });
    }
    Ok(read)
}

/// Marks a wallet changed, in the transaction that changes it: its kept body
/// is dropped and a rendering read before this is not kept. Also takes the
/// wallet's row lock (PostgreSQL) until that transaction ends.
pub(super) async fn wallet_changed(
    conn: &mut sqlx::AnyConnection,
    wallet_id: &str,
) -> DbResult<()> {
    mark_changed(conn, "$1", wallet_id).await
}

/// [`wallet_changed`] for the wallet that holds `account_id`.
pub(super) async fn account_changed(
    conn: &mut sqlx::AnyConnection,
    account_id: &str,
) -> DbResult<()> {
    mark_changed(
        conn,
        "(SELECT wallet_id FROM accounts WHERE id = $1)",
        account_id,
    )
    .await
}

/// Moves on the version of the wallet `wallet` names (SQL of the one
/// parameter, `id`) and drops its kept body.
async fn mark_changed(conn: &mut sqlx::AnyConnection, wallet: &str, id: &str) -> DbResult<()> {
    sqlx::query(&format!(
        "UPDATE wallets SET accounts_version = accounts_version + 1, accounts_body = NULL \
         WHERE id = {wallet}"
    ))
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::NewAccount;

    #[tokio::test]
    async fn a_full_queue_leaves_bodies_unkept_and_never_waits() {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("kept.db").display());
        let db = Db::connect(&url).await.expect("database");
        let app = db.create_app("Kept", "key hash", &[]).await.expect("app");
        let mut wallets = Vec::new();
        for n in 0..5 {
            let user = db
                .find_or_create_user(&app, "email", &format!("kept{n}"), "")
                .await
                .expect("user");
            let account = NewAccount {
                network: "anvil".into(),
                address: format!("0x{n:040x}"),
                address_path: "m/44'/60'/0'/0/0".into(),
                label: "Account 1".into(),
                tokens: Vec::new(),
            };
            wallets.push(db.create_wallet(&user, &[account]).await.expect("wallet"));
        }
        let keeper = BodyKeeper::start_with_queue(db.clone(), "by".into(), 2);
        // On this test's one thread the writer does not run until the test
        // waits: the first two queue, the other three find the queue full.
        for wallet in &wallets {
            keeper.keep(KeptBody {
                wallet_id: wallet.clone(),
                version: 0,
                body: format!("body of {wallet}"),
            });
        }
        keeper.flush().await;
        let mut kept = Vec::new();
        for wallet in &wallets {
            let (_, found) = db
                .wallet_for_session(wallet, "no session", "nobody", "by")
                .await
                .expect("read");
            kept.push(matches!(found, Some(WalletFound::Kept { .. })));
        }
        assert_eq!(kept, [true, true, false, false, false]);
    }
}
