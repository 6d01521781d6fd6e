//! What a page may read before the person connected it. Dapps read the chain
//! first (the block number, a balance, a contract's state) and ask to connect
//! later; those reads go through the person's session with the service, so a
//! page they never connected gets a small allowance of its own: a burst of
//! [`READ_BURST`], then [`READS_PER_MINUTE`] a minute. A connected page reads
//! within the endpoint's other bounds only.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use crate::origin::Origin;
use crate::rpc::ProviderError;

/// Reads a page that is not connected may make at once.
pub const READ_BURST: u32 = 30;
/// Reads a minute it may make after the burst.
pub const READS_PER_MINUTE: u32 = 60;
/// Origins whose allowance is remembered; past it, the one that read least
/// lately is forgotten (a forgotten origin starts again from a full burst).
pub const MAX_ORIGINS: usize = 256;

struct Bucket {
    left: f64,
    at: Instant,
}

impl Bucket {
    fn refilled(&mut self, now: Instant) -> f64 {
        let per_second = f64::from(READS_PER_MINUTE) / 60.0;
        let gained = now.duration_since(self.at).as_secs_f64() * per_second;
        self.left = (self.left + gained).min(f64::from(READ_BURST));
        self.at = now;
        self.left
    }
}

/// The allowance of every page that reads before it is connected.
#[derive(Default)]
pub struct ReadAllowance {
    buckets: Mutex<HashMap<Origin, Bucket>>,
}

impl ReadAllowance {
    /// Takes one read of `origin`'s allowance, or says it is spent.
    pub fn take(&self, origin: &Origin) -> Result<(), ProviderError> {
        self.take_at(origin, Instant::now())
    }

    fn take_at(&self, origin: &Origin, now: Instant) -> Result<(), ProviderError> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if !buckets.contains_key(origin) && buckets.len() >= MAX_ORIGINS {
            let idle = buckets
                .iter()
                .min_by_key(|(_, bucket)| bucket.at)
                .map(|(origin, _)| origin.clone());
            if let Some(idle) = idle {
                buckets.remove(&idle);
            }
        }
        let bucket = buckets.entry(origin.clone()).or_insert(Bucket {
            left: f64::from(READ_BURST),
            at: now,
        });
        if bucket.refilled(now) < 1.0 {
            return Err(ProviderError::limit_exceeded(format!(
                "{origin} has read {READS_PER_MINUTE} times a minute without being connected: connect it (eth_requestAccounts) to read more"
            )));
        }
        bucket.left -= 1.0;
        Ok(())
    }

    /// Origins remembered (for the bound's test).
    pub fn len(&self) -> usize {
        self.buckets.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn site(n: usize) -> Origin {
        Origin::Web(format!("https://site{n}.example"))
    }

    #[test]
    fn a_burst_then_a_steady_allowance() {
        let allowance = ReadAllowance::default();
        let start = Instant::now();
        for _ in 0..READ_BURST {
            allowance
                .take_at(&site(1), start)
                .expect("within the burst");
        }
        let spent = allowance.take_at(&site(1), start).expect_err("spent");
        assert_eq!(spent.code, -32005);
        // Another page has its own.
        allowance
            .take_at(&site(2), start)
            .expect("its own allowance");
        // A second later, one more.
        let later = start + Duration::from_secs(1);
        allowance.take_at(&site(1), later).expect("refilled");
        assert!(allowance.take_at(&site(1), later).is_err());
    }

    #[test]
    fn origins_remembered_are_bounded() {
        let allowance = ReadAllowance::default();
        let start = Instant::now();
        for n in 0..MAX_ORIGINS + 10 {
            let at = start + Duration::from_millis(n as u64);
            allowance.take_at(&site(n), at).expect("a read");
        }
        assert_eq!(allowance.len(), MAX_ORIGINS);
    }
}
