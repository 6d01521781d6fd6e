//! How long each step of the start and of opening the key and signing took, as
//! debug events of the target `satchel::timing` (fields `step`, `micros` and
//! `ended_ms`, the wall clock in ms since 1970 when it ended): what the signing
//! and desktop benchmarks print, and what `RUST_LOG=satchel::timing=debug`
//! shows of a slow start or send. Nothing secret is in them.

use std::time::{Instant, SystemTime};

/// A step under way; its time is told when it is dropped.
pub struct Step {
    name: &'static str,
    started: Instant,
}

impl Step {
    /// Starts timing `name` (the app's own start steps are named `start: …` too).
    pub fn start(name: &'static str) -> Self {
        Self {
            name,
            started: Instant::now(),
        }
    }
}

impl Drop for Step {
    fn drop(&mut self) {
        let micros = u64::try_from(self.started.elapsed().as_micros()).unwrap_or(u64::MAX);
        let ended_ms = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        tracing::debug!(target: "satchel::timing", step = self.name, micros, ended_ms);
    }
}
