//! The one-minute wait between refreshes of balances, and of NFTs, that the
//! widget asks of a person (the service has its own, wider limit).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::error::{SdkError, SdkErrorCode};

/// How long after a refresh of balances or NFTs the next one is refused.
pub const REFRESH_COOLDOWN: Duration = Duration::from_secs(60);

/// What a refresh refreshes; each has its own cooldown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Refresh {
    Balances,
    Nfts,
}

/// When each kind was last refreshed.
#[derive(Debug, Default)]
pub(super) struct Cooldowns {
    last: HashMap<Refresh, Instant>,
}

impl Cooldowns {
    /// How long until `what` may be refreshed again; zero when it may now.
    pub(super) fn wait(&self, what: Refresh) -> Duration {
        self.last
            .get(&what)
            .map(|at| REFRESH_COOLDOWN.saturating_sub(at.elapsed()))
            .unwrap_or_default()
    }

    /// Starts a refresh of `what`, or refuses it within the cooldown. Checked and
    /// counted in one step, so two racing refreshes cannot both pass.
    pub(super) fn start(&mut self, what: Refresh) -> Result<(), SdkError> {
        let wait = self.wait(what);
        if !wait.is_zero() {
            return Err(SdkError::sdk(
                SdkErrorCode::TooManyRequests,
                format!(
                    "refreshed a moment ago; you can refresh again in {} s",
                    wait.as_secs().max(1)
                ),
            ));
        }
        self.last.insert(what, Instant::now());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refresh_within_the_cooldown_is_refused_per_kind() {
        let mut cooldowns = Cooldowns::default();
        cooldowns.start(Refresh::Balances).expect("first");
        let e = cooldowns.start(Refresh::Balances).expect_err("too soon");
        assert_eq!(e.code, crate::ErrorCode::Sdk(SdkErrorCode::TooManyRequests));
        assert!(cooldowns.wait(Refresh::Balances) > Duration::from_secs(55));
        cooldowns.start(Refresh::Nfts).expect("its own cooldown");
        assert!(cooldowns.wait(Refresh::Nfts) > Duration::ZERO);
    }
}
