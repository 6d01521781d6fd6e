//! Bulk data for benchmarks: users with a wallet of `accounts_per_user`
//! accounts each, made by the database itself (one statement per table and
//! batch, `generate_series` on PostgreSQL, a recursive CTE on SQLite) so a
//! million users take minutes, not hours. Seeded rows have ids of their own
//! (`seed-u-<n>`, `seed-w-<n>`, `seed-a-<n>-<k>`), and a session per sampled user
//! (`seed-s-<n>`) makes tokens for them.

use super::{Backend, Db, DbResult};
use crate::now;

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
        let mut start = first;
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
            for k in 0..accounts_per_user {
                let network = &networks[(k as usize) % networks.len().max(1)];
                // A distinct address per user and account: the user's number in
                // the last 32 hex digits, the account's before it.
                let address = match self.backend {
                    Backend::Postgres => {
                        format!("'0x' || lpad(to_hex({k}), 8, '0') || lpad(to_hex(n), 32, '0')")
                    }
                    Backend::Sqlite => format!("'0x' || printf('%08x%032x', {k}, n)"),
                };
                sqlx::query(&format!(
                    "{series} INSERT INTO accounts \
                     (id, wallet_id, network, address, address_path, label, position) \
                     SELECT 'seed-a-' || n || '-{k}', 'seed-w-' || n, $1, {address}, \
                     'm/44''/60''/0''/0/{k}', 'Account {label}', {k} FROM s WHERE true ON CONFLICT DO NOTHING",
                    label = k + 1
                ))
                .bind(network)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            start = end + 1;
        }
        Ok(())
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
                 ON CONFLICT DO NOTHING",
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
