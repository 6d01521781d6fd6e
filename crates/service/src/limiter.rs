//! Per-key sliding-window limits: on refresh operations, so one runaway client
//! cannot turn the service into a load generator against a node, and on failed
//! logins, so passwords cannot be guessed at speed.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Debug)]
pub struct RateLimiter {
    limit: usize,
    window: Duration,
    hits: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl RateLimiter {
    /// Allows `limit` hits per key in any `window`.
    pub fn new(limit: u32, window: Duration) -> Self {
        Self {
            limit: limit.max(1) as usize,
            window,
            hits: Mutex::new(HashMap::new()),
        }
    }

    /// Counts a hit on `key` if it is allowed; `Err` carries how long until the
    /// next one is.
    pub fn check(&self, key: &str) -> Result<(), Duration> {
        self.check_at(key, Instant::now())
    }

    fn check_at(&self, key: &str, now: Instant) -> Result<(), Duration> {
        let mut hits = self.lock();
        let times = hits.entry(key.to_owned()).or_default();
        if let Some(wait) = self.wait(times, now) {
            return Err(wait);
        }
        times.push_back(now);
        Ok(())
    }

    /// How long `key` must wait, if it has used up its hits; counts nothing.
    pub fn blocked(&self, key: &str) -> Option<Duration> {
        self.blocked_at(key, Instant::now())
    }

    /// Counts a hit on `key`.
    pub fn record(&self, key: &str) {
        self.record_at(key, Instant::now());
    }

    /// Forgets `key`'s hits.
    pub fn reset(&self, key: &str) {
        self.lock().remove(key);
    }

    fn blocked_at(&self, key: &str, now: Instant) -> Option<Duration> {
        let mut hits = self.lock();
        self.wait(hits.get_mut(key)?, now)
    }

    /// Drops hits older than the window; how long until the next is allowed.
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
        let mut hits = self.lock();
        if hits.len() > 10_000 {
            let window = self.window;
            hits.retain(|_, times| {
                times
                    .back()
                    .is_some_and(|t| now.saturating_duration_since(*t) < window)
            });
        }
        hits.entry(key.to_owned()).or_default().push_back(now);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, VecDeque<Instant>>> {
        self.hits
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE: Duration = Duration::from_secs(60);

    #[test]
    fn the_limit_holds_per_key_and_frees_up_after_the_window() {
        let limiter = RateLimiter::new(2, MINUTE);
        let t0 = Instant::now();
        for _ in 0..2 {
            assert_eq!(limiter.blocked_at("a", t0), None);
            limiter.record_at("a", t0);
        }
        let wait = limiter.blocked_at("a", t0 + Duration::from_secs(10));
        assert_eq!(wait, Some(Duration::from_secs(50)));
        assert_eq!(limiter.blocked_at("b", t0), None);
        assert_eq!(limiter.blocked_at("a", t0 + MINUTE), None);
    }

    #[test]
    fn reset_forgets_a_key() {
        let limiter = RateLimiter::new(1, MINUTE);
        limiter.record("a");
        assert!(limiter.blocked("a").is_some());
        limiter.reset("a");
        assert!(limiter.check("a").is_ok());
        assert!(limiter.check("a").is_err());
    }
}
