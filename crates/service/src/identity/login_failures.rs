//! Login-failure counting: failed e-mail logins per e-mail address and per network
//! address in a sliding window, so passwords cannot be guessed at speed. Past the
//! limit even the right password waits until the window frees up.
//!
//! On PostgreSQL, which several instances may share, the counts are kept in the
//! database ([`crate::db::Db::take_turn_in`]), one allowance for all instances
//! (a guesser alternating between them gets no more tries); a database that
//! cannot be asked leaves the count to this instance. On SQLite there is one
//! instance, and the counts are this one's memory.
//!
//! An attempt takes its slot *before* the password is checked ([`FailureCounter::attempt`])
//! and gives it back when the password was right, so parallel guesses cannot all
//! pass a limit they would each see as unreached. Keys are bounded: past
//! [`MAX_KEYS`] the keys whose newest failure is oldest are forgotten first.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use parking_lot::Mutex;

/// How far back failures count.
const WINDOW: Duration = Duration::from_secs(15 * 60);

/// Past this many keys, keys without a failure in the window are forgotten.
const PRUNE_ABOVE: usize = 10_000;
/// The most keys kept, failures in the window or not.
pub const MAX_KEYS: usize = 100_000;

/// Failed-login counts, per e-mail address, per network address and per
/// known device.
#[derive(Debug)]
pub struct LoginFailures {
    by_account: FailureCounter,
    by_address: FailureCounter,
    by_device: FailureCounter,
    /// The database the counts are kept in, when instances share one.
    shared: Option<crate::db::Db>,
}

/// What a failure is counted against.
#[derive(Debug, Clone, Copy)]
pub enum Counted<'a> {
    /// One app's e-mail address ([`account_key`]).
    Account(&'a str),
    /// One network address.
    Address(&'a str),
    /// A device that logged in to the account before (its login device
    /// token): counted on its own, so neither its neighbours' failures nor a
    /// guesser's elsewhere lock it out (OWASP's device cookies).
    Device(&'a str),
}

/// The account failures are counted for and login device tokens are bound
/// to: one app's e-mail address.
pub fn account_key(app_id: &str, email: &str) -> String {
    format!("{app_id}:{email}")
}

/// Where a try was taken, so it is given back in the same place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub struct Taken {
    shared: bool,
}

impl LoginFailures {
    /// Allows `per_account` failures per e-mail address and `per_address` per
    /// network address in 15 minutes.
    pub fn new(per_account: u32, per_address: u32) -> Self {
        Self {
            by_account: FailureCounter::new(per_account, WINDOW),
            by_address: FailureCounter::new(per_address, WINDOW),
            by_device: FailureCounter::new(per_account, WINDOW),
            shared: None,
        }
    }

    /// Counts in `db` when it is one several instances may share (PostgreSQL).
    pub fn shared_through(mut self, db: &crate::db::Db) -> Self {
        self.shared = db.is_shared().then(|| db.clone());
        self
    }

    /// The counter of what is `counted`, and its key in the database: a
    /// digest, so the table holds no e-mail address, network address or token.
    fn counter_and_key(&self, counted: Counted<'_>) -> (&FailureCounter, String) {
        let (counter, kind) = match counted {
            Counted::Account(_) => (&self.by_account, "account"),
            Counted::Address(_) => (&self.by_address, "address"),
            Counted::Device(_) => (&self.by_device, "device"),
        };
        let digest = crate::crypto::secret_hash(local_key(counted));
        (counter, format!("login-failures:{kind}:{digest}"))
    }

    fn window_ms(&self) -> i64 {
        i64::try_from(WINDOW.as_millis()).unwrap_or(i64::MAX)
    }

    /// Takes one of the tries of what is `counted`, counted as a failure until
    /// [`Self::succeeded`] gives it back; refused with the wait when none is left.
    pub async fn attempt(&self, counted: Counted<'_>) -> Result<Taken, Duration> {
        let (counter, shared_key) = self.counter_and_key(counted);
        if let Some(db) = &self.shared {
            let limit = u32::try_from(counter.limit).unwrap_or(u32::MAX);
            match db
                .take_turn_in(&shared_key, limit, self.window_ms(), crate::clock::now_ms())
                .await
            {
                Ok(taken) => return taken.map(|()| Taken { shared: true }),
                Err(e) => {
                    tracing::warn!("login failures not counted in the database, counted here: {e}")
                }
            }
        }
        counter
            .attempt(local_key(counted))
            .map(|()| Taken { shared: false })
    }

    /// The try `taken` last succeeded: it does not count.
    pub async fn succeeded(&self, counted: Counted<'_>, taken: Taken) {
        let (counter, shared_key) = self.counter_and_key(counted);
        match (&self.shared, taken.shared) {
            (Some(db), true) => {
                let limit = u32::try_from(counter.limit).unwrap_or(u32::MAX);
                if let Err(e) = db
                    .give_back_turn(&shared_key, limit, self.window_ms())
                    .await
                {
                    tracing::warn!("a login try not given back: {e}");
                }
            }
            _ => counter.succeeded(local_key(counted)),
        }
    }

    /// Forgets the failures of what is `counted` (a right password, a reset).
    pub async fn reset(&self, counted: Counted<'_>) {
        let (counter, shared_key) = self.counter_and_key(counted);
        if let Some(db) = &self.shared
            && let Err(e) = db.forget_turns(&shared_key).await
        {
            tracing::warn!("login failures not forgotten: {e}");
        }
        counter.reset(local_key(counted));
    }
}

fn local_key(counted: Counted<'_>) -> &str {
    match counted {
        Counted::Account(key) | Counted::Address(key) | Counted::Device(key) => key,
    }
}

/// Failures per key in a sliding window.
#[derive(Debug)]
pub struct FailureCounter {
    limit: usize,
    window: Duration,
    failures: Mutex<HashMap<String, VecDeque<Instant>>>,
    /// The size at which the map is pruned next: after a prune, twice what was
    /// left (at least `PRUNE_ABOVE`), so pruning costs O(1) per insert.
    prune_at: std::sync::atomic::AtomicUsize,
}

impl FailureCounter {
    /// Allows `limit` failures per key in any `window`.
    pub fn new(limit: u32, window: Duration) -> Self {
        Self {
            limit: limit.max(1) as usize,
            window,
            failures: Mutex::new(HashMap::new()),
            prune_at: std::sync::atomic::AtomicUsize::new(PRUNE_ABOVE),
        }
    }

    /// How long `key` must wait, if it has used up its failures; counts nothing.
    pub fn blocked(&self, key: &str) -> Option<Duration> {
        self.blocked_at(key, Instant::now())
    }

    /// Counts a failure of `key`.
    pub fn record(&self, key: &str) {
        self.record_at(key, Instant::now());
    }

    /// Forgets `key`'s failures.
    pub fn reset(&self, key: &str) {
        self.failures.lock().remove(key);
    }

    /// Takes one of `key`'s tries, counted as a failure until [`Self::succeeded`]
    /// gives it back; refused with the wait when none is left.
    pub fn attempt(&self, key: &str) -> Result<(), Duration> {
        self.attempt_at(key, Instant::now())
    }

    /// The try taken last for `key` succeeded: it does not count.
    pub fn succeeded(&self, key: &str) {
        let mut failures = self.failures.lock();
        if let Some(times) = failures.get_mut(key) {
            times.pop_back();
            if times.is_empty() {
                failures.remove(key);
            }
        }
    }

    /// How many keys are kept.
    pub fn len(&self) -> usize {
        self.failures.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn attempt_at(&self, key: &str, now: Instant) -> Result<(), Duration> {
        let mut failures = self.failures.lock();
        if let Some(times) = failures.get_mut(key)
            && let Some(wait) = self.wait(times, now)
        {
            return Err(wait);
        }
        self.insert(&mut failures, key, now);
        Ok(())
    }

    fn insert(&self, failures: &mut HashMap<String, VecDeque<Instant>>, key: &str, now: Instant) {
        use std::sync::atomic::Ordering::Relaxed;
        if failures.len() >= self.prune_at.load(Relaxed) && !failures.contains_key(key) {
            let window = self.window;
            failures.retain(|_, times| {
                times
                    .back()
                    .is_some_and(|t| now.saturating_duration_since(*t) < window)
            });
            if failures.len() >= MAX_KEYS * 9 / 10 {
                // Still nearly full of live keys: drop the fifth whose newest
                // failure is oldest.
                let mut newest: Vec<Instant> = failures
                    .values()
                    .filter_map(|t| t.back().copied())
                    .collect();
                let cut = newest.len() / 5;
                newest.select_nth_unstable(cut);
                let before = newest[cut];
                failures.retain(|_, times| times.back().is_some_and(|t| *t > before));
            }
            self.prune_at
                .store((failures.len() * 2).clamp(PRUNE_ABOVE, MAX_KEYS), Relaxed);
        }
        let times = failures.entry(key.to_owned()).or_default();
        times.push_back(now);
        while times.len() > self.limit {
            times.pop_front();
        }
    }

    fn blocked_at(&self, key: &str, now: Instant) -> Option<Duration> {
        let mut failures = self.failures.lock();
        self.wait(failures.get_mut(key)?, now)
    }

    /// Drops failures older than the window; how long until the next is allowed.
    fn wait(&self, times: &mut VecDeque<Instant>, now: Instant) -> Option<Duration> {
        while times
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) >= self.window)
        {
            times.pop_front();
        }
        (times.len() >= self.limit).then(|| {
            let oldest = times.front().copied().unwrap_or(now);
            self.window
                .saturating_sub(now.saturating_duration_since(oldest))
        })
    }

    fn record_at(&self, key: &str, now: Instant) {
        let mut failures = self.failures.lock();
        self.insert(&mut failures, key, now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE: Duration = Duration::from_secs(60);

    #[test]
    fn the_limit_holds_per_key_and_frees_up_after_the_window() {
        let counter = FailureCounter::new(2, MINUTE);
        let t0 = Instant::now();
        for _ in 0..2 {
            assert_eq!(counter.blocked_at("a", t0), None);
            counter.record_at("a", t0);
        }
        let wait = counter.blocked_at("a", t0 + Duration::from_secs(10));
        assert_eq!(wait, Some(Duration::from_secs(50)));
        assert_eq!(counter.blocked_at("b", t0), None);
        assert_eq!(counter.blocked_at("a", t0 + MINUTE), None);
    }

    #[test]
    fn parallel_attempts_cannot_pass_the_limit_together() {
        let counter = std::sync::Arc::new(FailureCounter::new(5, MINUTE));
        let passed: usize = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..64)
                .map(|_| {
                    let counter = counter.clone();
                    scope.spawn(move || counter.attempt("ada").is_ok() as usize)
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("joined")).sum()
        });
        assert_eq!(passed, 5, "only the limit's tries are taken");
        counter.succeeded("ada");
        assert!(
            counter.attempt("ada").is_ok(),
            "a right password gave its try back"
        );
    }

    #[test]
    fn a_flood_of_distinct_keys_stays_bounded() {
        let counter = FailureCounter::new(5, MINUTE);
        for n in 0..(MAX_KEYS + 50_000) {
            let _ = counter.attempt(&format!("user{n}@example.com"));
        }
        assert!(counter.len() <= MAX_KEYS, "{} keys", counter.len());
        assert!(counter.attempt("newest@example.com").is_ok());
    }

    #[test]
    fn reset_forgets_a_key() {
        let counter = FailureCounter::new(1, MINUTE);
        counter.record("a");
        assert!(counter.blocked("a").is_some());
        counter.reset("a");
        assert_eq!(counter.blocked("a"), None);
    }
}
