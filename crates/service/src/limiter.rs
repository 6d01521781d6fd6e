//! A per-key sliding-window limit on refresh operations, so one runaway client
//! cannot turn the service into a load generator against a node.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const WINDOW: Duration = Duration::from_secs(60);

#[derive(Debug)]
pub struct RefreshLimiter {
    per_window: usize,
    hits: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl RefreshLimiter {
    pub fn per_minute(limit: u32) -> Self {
        Self {
            per_window: limit.max(1) as usize,
            hits: Mutex::new(HashMap::new()),
        }
    }

    /// Counts a hit on `key`; `Err` carries how long until the next one is allowed.
    pub fn check(&self, key: &str) -> Result<(), Duration> {
        self.check_at(key, Instant::now())
    }

    fn check_at(&self, key: &str, now: Instant) -> Result<(), Duration> {
        let mut hits = self
            .hits
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if hits.len() > 10_000 {
            hits.retain(|_, times| {
                times
                    .back()
                    .is_some_and(|t| now.duration_since(*t) < WINDOW)
            });
        }
        let times = hits.entry(key.to_owned()).or_default();
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) >= WINDOW)
        {
            times.pop_front();
        }
        if times.len() >= self.per_window {
            let oldest = times.front().copied().unwrap_or(now);
            return Err(WINDOW.saturating_sub(now.duration_since(oldest)));
        }
        times.push_back(now);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_holds_per_key_and_frees_up_after_the_window() {
        let limiter = RefreshLimiter::per_minute(2);
        let t0 = Instant::now();
        assert!(limiter.check_at("a", t0).is_ok());
        assert!(limiter.check_at("a", t0).is_ok());
        let wait = limiter
            .check_at("a", t0 + Duration::from_secs(10))
            .expect_err("third is refused");
        assert_eq!(wait, Duration::from_secs(50));
        assert!(limiter.check_at("b", t0).is_ok());
        assert!(limiter.check_at("a", t0 + WINDOW).is_ok());
    }
}
