//! Login-failure counting: failed e-mail logins per e-mail address and per network
//! address in a sliding window, so passwords cannot be guessed at speed. Past the
//! limit even the right password waits until the window frees up.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use parking_lot::Mutex;

/// How far back failures count.
const WINDOW: Duration = Duration::from_secs(15 * 60);

/// Past this many keys, keys without a failure in the window are forgotten.
const PRUNE_ABOVE: usize = 10_000;

/// Failed-login counts, per e-mail address and per network address.
#[derive(Debug)]
pub struct LoginFailures {
    pub by_account: FailureCounter,
    pub by_address: FailureCounter,
}

impl LoginFailures {
    /// Allows `per_account` failures per e-mail address and `per_address` per
    /// network address in 15 minutes.
    pub fn new(per_account: u32, per_address: u32) -> Self {
        Self {
            by_account: FailureCounter::new(per_account, WINDOW),
            by_address: FailureCounter::new(per_address, WINDOW),
        }
    }
}

/// Failures per key in a sliding window.
#[derive(Debug)]
pub struct FailureCounter {
    limit: usize,
    window: Duration,
    failures: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl FailureCounter {
    /// Allows `limit` failures per key in any `window`.
    pub fn new(limit: u32, window: Duration) -> Self {
        Self {
            limit: limit.max(1) as usize,
            window,
            failures: Mutex::new(HashMap::new()),
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
        if failures.len() > PRUNE_ABOVE {
            let window = self.window;
            failures.retain(|_, times| {
                times
                    .back()
                    .is_some_and(|t| now.saturating_duration_since(*t) < window)
            });
        }
        failures.entry(key.to_owned()).or_default().push_back(now);
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
    fn reset_forgets_a_key() {
        let counter = FailureCounter::new(1, MINUTE);
        counter.record("a");
        assert!(counter.blocked("a").is_some());
        counter.reset("a");
        assert_eq!(counter.blocked("a"), None);
    }
}
