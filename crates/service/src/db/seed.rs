//! Bulk data for benchmarks: users with a wallet of `accounts_per_user`
//! accounts each, made by the database itself (one statement per table and
//! batch, `generate_series` on PostgreSQL, a recursive CTE on SQLite) so a
//! million users take minutes, not hours. Seeded rows have ids of their own
//! (`seed-u-<n>`, `seed-w-<n>`, `seed-a-<n>-<k>`), and a session per sampled user
//! (`seed-s-<n>`) makes tokens for them.

use super::{Backend, Db, DbResult};
use crate::clock::now;

/// Users per statement: big enough to be quick, small enough for one transaction.
const BATCH: u64 = 100_000;

impl Db {
    /// Users `first..=last` of `app_id`, each with a wallet whose accounts cycle
    /// through `networks`. Rows that exist already are left as they are, but
    /// seeded users of another app (an earlier run's) move to this one.
    pub async fn seed_users(
        &self,
        app_id: &str,
        first: u64,
        last: u64,
        accounts_per_user: u64,
        networks: &[String],
    ) -> DbResult<()> {
        let at = now();
        sqlx::query("UPDATE users SET app_id = $1 WHERE id LIKE 'seed-u-%' AND app_id <> $1")
            .bind(app_id)
            .execute(self.pool())
            .await?;
        // Batches commit in order: when the last user's last account is there,
        // every batch is.
        let complete: Option<String> = sqlx::query_scalar("SELECT id FROM accounts WHERE id = $1")
            .bind(format!(
                "seed-a-{last}-{}",
                accounts_per_user.saturating_sub(1)
            ))
            .fetch_optional(self.pool())
            .await?;
        let mut start = if complete.is_some() { last + 1 } else { first };
        while start <= last {
            let end = last.min(start + BATCH - 1);
            let mut tx = self.pool().begin().await?;
            let series = self.series("n", start, end);
            sqlx::query(&format!(
                "{series} INSERT INTO users (id, app_id, provider, subject, email, created_at) \
                 SELECT 'seed-u-' || n, $1, 'email', 'seed-' || n, 'seed' || n || '@example.com', $2 \
                 FROM s WHERE true ON CONFLICT DO NOTHING"
            ))
            .bind(app_id)
            .bind(at)
            .execute(&mut *tx)
            .await?;
            sqlx::query(&format!(
                "{series} INSERT INTO wallets (id, user_id, use_2fa, created_at) \
                 SELECT 'seed-w-' || n, 'seed-u-' || n, 0, $1 FROM s WHERE true ON CONFLICT DO NOTHING"
            ))
            .bind(at)
            .execute(&mut *tx)
            .await?;
            // A user's accounts side by side, as registration makes them (so a
            // wallet's read touches a page or two, not one per account): one
            // statement over users x accounts in that order. A distinct address
            // per user and account: the user's number in the last 32 hex
            // digits, the account's before it.
            let address = match self.backend {
                Backend::Postgres => "'0x' || lpad(to_hex(k), 8, '0') || lpad(to_hex(n), 32, '0')",
                Backend::Sqlite => "'0x' || printf('%08x%032x', k, n)",
            };
            let ks: Vec<String> = (0..accounts_per_user)
                .map(|k| format!("({k}, ${})", k + 1))
                .collect();
            let sql = format!(
                "{series}, ks(k, network) AS (VALUES {}) INSERT INTO accounts \
                 (id, wallet_id, network, address, address_path, label, position) \
                 SELECT 'seed-a-' || n || '-' || k, 'seed-w-' || n, network, {address}, \
                 'm/44''/60''/0''/0/' || k, 'Account ' || (k + 1), k FROM s, ks \
                 WHERE true ORDER BY n, k ON CONFLICT DO NOTHING",
                ks.join(", ")
            );
            let mut insert = sqlx::query(&sql);
            for k in 0..accounts_per_user {
                insert = insert.bind(&networks[(k as usize) % networks.len().max(1)]);
            }
            insert.execute(&mut *tx).await?;
            tx.commit().await?;
            start = end + 1;
        }
        if self.backend == Backend::Postgres {
            // What a database in service looks like once autovacuum has been by:
            // no dead rows from the move above, fresh statistics for the planner.
            for table in ["users", "wallets", "accounts", "sessions"] {
                sqlx::query(&format!("VACUUM (ANALYZE) {table}"))
                    .execute(self.pool())
                    .await?;
            }
        }
        Ok(())
    }

    /// Drops the account bodies kept for seeded users `users`' wallets, as a
    /// change to each would: their next read renders it again.
    pub async fn seed_drop_kept_bodies(&self, users: &[u64]) -> DbResult<()> {
        for chunk in users.chunks(1000) {
            sqlx::query(&format!(
                "UPDATE wallets SET accounts_version = accounts_version + 1, \
                 accounts_body = NULL WHERE id IN ({}) AND accounts_body IS NOT NULL",
                seeded_wallets(chunk)
            ))
            .execute(self.pool())
            .await?;
        }
        Ok(())
    }

    /// How many of seeded users `users`' wallets have a body kept.
    pub async fn seed_count_kept_bodies(&self, users: &[u64]) -> DbResult<u64> {
        let mut kept = 0;
        for chunk in users.chunks(1000) {
            let count: i64 = sqlx::query_scalar(&format!(
                "SELECT COUNT(*) FROM wallets WHERE id IN ({}) AND accounts_body IS NOT NULL",
                seeded_wallets(chunk)
            ))
            .fetch_one(self.pool())
            .await?;
            kept += count as u64;
        }
        Ok(kept)
    }

    /// A session (`seed-s-<n>`) for each seeded user `n` in `users`, live for
    /// `lifetime_secs`.
    pub async fn seed_sessions(&self, users: &[u64], lifetime_secs: i64) -> DbResult<()> {
        let at = now();
        let mut tx = self.pool().begin().await?;
        for chunk in users.chunks(1000) {
            let values: Vec<String> = chunk
                .iter()
                .map(|n| format!("('seed-s-{n}', 'seed-u-{n}', {at}, {})", at + lifetime_secs))
                .collect();
            sqlx::query(&format!(
                "INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES {} \
                 ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, \
                 created_at = excluded.created_at, expires_at = excluded.expires_at, \
                 revoked_at = NULL",
                values.join(", ")
            ))
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// `WITH s(n) AS (...)`: the numbers `first..=last`.
    fn series(&self, column: &str, first: u64, last: u64) -> String {
        match self.backend {
            Backend::Postgres => format!(
                "WITH s({column}) AS (SELECT generate_series({first}::BIGINT, {last}::BIGINT))"
            ),
            Backend::Sqlite => format!(
                "WITH RECURSIVE s({column}) AS (SELECT {first} UNION ALL \
                 SELECT {column} + 1 FROM s WHERE {column} < {last})"
            ),
        }
    }
}

/// The ids of seeded users `users`' wallets as an SQL list (numbers only, so
/// nothing to escape).
fn seeded_wallets(users: &[u64]) -> String {
    let ids: Vec<String> = users.iter().map(|n| format!("'seed-w-{n}'")).collect();
    ids.join(", ")
}
