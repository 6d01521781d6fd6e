//! How long each step of opening the key and signing took, as debug events of
//! the target `satchel::timing` (fields `step` and `micros`): what the signing
//! benchmark prints, and what `RUST_LOG=satchel::timing=debug` shows of a slow
//! send. Nothing secret is in them.

use std::time::Instant;

/// A step under way; its time is told when it is dropped.
pub(crate) struct Step {
    name: &'static str,
    started: Instant,
}

impl Step {
    pub(crate) fn start(name: &'static str) -> Self {
        Self {
            name,
            started: Instant::now(),
        }
    }
}

impl Drop for Step {
    fn drop(&mut self) {
        let micros = u64::try_from(self.started.elapsed().as_micros()).unwrap_or(u64::MAX);
        tracing::debug!(target: "satchel::timing", step = self.name, micros);
    }
}
