//! Rate limits kept in the database, so that the instances on one PostgreSQL
//! database count one allowance together: the generic cell rate algorithm
//! (GCRA), one atomic statement per turn taken.

use std::time::Duration;

use super::{Db, DbResult};

/// Deletes the rows of keys back at their full allowance once per this many
/// turns an instance takes, so the table holds only the keys still counting
/// (about a minute's, and the login failures of the last 15 minutes), however
/// many keys a flood brings.
pub const SWEEP_EVERY: u64 = 1024;

/// One turn's share of the window, and how far ahead of now the full
/// allowance may be (the burst), in milliseconds.
fn pace(per_window: u32, window_ms: i64) -> (i64, i64) {
    let per_window = i64::from(per_window.max(1));
    let interval = (window_ms / per_window).max(1);
    (interval, interval * (per_window - 1))
}

impl Db {
    /// Takes one of `key`'s turns, `per_minute` of them a minute (a burst of
    /// that many, then one more each `60 s / per_minute`), as of `now_ms`: `Ok`
    /// when one was free, else how long until one is.
    pub async fn take_turn(
        &self,
        key: &str,
        per_minute: u32,
        now_ms: i64,
    ) -> DbResult<Result<(), Duration>> {
        self.take_turn_in(key, per_minute, 60_000, now_ms).await
    }

    /// Takes one of `key`'s turns, `per_window` of them in each `window_ms`
    /// (a burst of that many, then one more each `window_ms / per_window`).
    pub async fn take_turn_in(
        &self,
        key: &str,
        per_window: u32,
        window_ms: i64,
        now_ms: i64,
    ) -> DbResult<Result<(), Duration>> {
        let (interval, tolerance) = pace(per_window, window_ms);
        if let Err(e) = self.sweep_now_and_then(now_ms).await {
            tracing::warn!("rate limits not swept: {e}");
        }
        let taken: Option<(i64,)> = sqlx::query_as(
            "INSERT INTO rate_limits (key, tat_ms) VALUES ($1, $2 + $3) \
             ON CONFLICT (key) DO UPDATE SET tat_ms = \
               (CASE WHEN rate_limits.tat_ms > $2 THEN rate_limits.tat_ms ELSE $2 END) + $3 \
             WHERE (CASE WHEN rate_limits.tat_ms > $2 THEN rate_limits.tat_ms ELSE $2 END) - $2 <= $4 \
             RETURNING tat_ms",
        )
        .bind(key)
        .bind(now_ms)
        .bind(interval)
        .bind(tolerance)
        .fetch_optional(self.pool())
        .await?;
        if taken.is_some() {
            return Ok(Ok(()));
        }
        let full_at: Option<(i64,)> =
            sqlx::query_as("SELECT tat_ms FROM rate_limits WHERE key = $1")
                .bind(key)
                .fetch_optional(self.pool())
                .await?;
        let wait = full_at.map_or(1, |(tat,)| (tat - tolerance - now_ms).max(1));
        Ok(Err(Duration::from_millis(u64::try_from(wait).unwrap_or(1))))
    }

    /// Gives back the turn of `key` taken last (a login whose password was
    /// right does not count as a failure).
    pub async fn give_back_turn(&self, key: &str, per_window: u32, window_ms: i64) -> DbResult<()> {
        let (interval, _) = pace(per_window, window_ms);
        sqlx::query("UPDATE rate_limits SET tat_ms = tat_ms - $2 WHERE key = $1")
            .bind(key)
            .bind(interval)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Forgets `key`'s turns: its full allowance again.
    pub async fn forget_turns(&self, key: &str) -> DbResult<()> {
        sqlx::query("DELETE FROM rate_limits WHERE key = $1")
            .bind(key)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Deletes the keys back at their full allowance, once per
    /// [`SWEEP_EVERY`] turns taken.
    async fn sweep_now_and_then(&self, now_ms: i64) -> DbResult<()> {
        use std::sync::atomic::Ordering;
        let turns = self.turns_taken.fetch_add(1, Ordering::Relaxed) + 1;
        if turns.is_multiple_of(SWEEP_EVERY) {
            sqlx::query("DELETE FROM rate_limits WHERE tat_ms < $1")
                .bind(now_ms)
                .execute(self.pool())
                .await?;
        }
        Ok(())
    }
}
