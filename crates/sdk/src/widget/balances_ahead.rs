//! Balances read as the app starts, for the wallet page's first ask
//! ([`Widget::read_balances_ahead`](super::Widget::read_balances_ahead)), and
//! the changes of accounts, tokens and balances that make them stale.
//!
//! A read ahead is kept only when no change started or ended while it was
//! under way and none is under way when it ends; a change drops what was kept
//! as it starts and again as it ends (so a read that overlapped it from either
//! side is never answered).

use std::time::{Duration, Instant};

use satchel_api::AccountBalanceInfo;

/// How long balances read ahead stand in for a read: the window's load, not
/// more.
pub const BALANCES_AHEAD_FOR: Duration = Duration::from_secs(5);

#[derive(Debug, Default)]
pub(super) struct BalancesAhead {
    kept: Option<Kept>,
    /// Changes started or ended so far (each counts twice).
    changes: u64,
    /// Changes under way.
    changing: u32,
}

#[derive(Debug)]
struct Kept {
    user_id: String,
    read: Instant,
    balances: Vec<AccountBalanceInfo>,
}

/// Where a read ahead started, among the changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ReadStart {
    changes: u64,
}

impl BalancesAhead {
    /// A read ahead starts now.
    pub fn start_read(&self) -> ReadStart {
        ReadStart {
            changes: self.changes,
        }
    }

    /// Keeps what a read ahead found, unless a change overlapped it.
    pub fn keep(&mut self, start: ReadStart, user_id: String, balances: Vec<AccountBalanceInfo>) {
        if self.changing == 0 && self.changes == start.changes {
            self.kept = Some(Kept {
                user_id,
                read: Instant::now(),
                balances,
            });
        }
    }

    /// What was read ahead for `user_id` within [`BALANCES_AHEAD_FOR`], once.
    pub fn take(&mut self, user_id: &str) -> Option<Vec<AccountBalanceInfo>> {
        self.kept
            .take()
            .filter(|kept| kept.user_id == user_id && kept.read.elapsed() < BALANCES_AHEAD_FOR)
            .map(|kept| kept.balances)
    }

    pub fn change_started(&mut self) {
        self.kept = None;
        self.changing += 1;
        self.changes += 1;
    }

    pub fn change_ended(&mut self) {
        self.kept = None;
        self.changing = self.changing.saturating_sub(1);
        self.changes += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn balances(wei: &str) -> Vec<AccountBalanceInfo> {
        vec![AccountBalanceInfo {
            network: "ethereum".into(),
            address: "0x0000000000000000000000000000000000000001".into(),
            symbol: "ETH".into(),
            balance: wei.into(),
            tokens: Vec::new(),
        }]
    }

    #[test]
    fn a_read_ahead_is_taken_once_by_its_user() {
        let mut ahead = BalancesAhead::default();
        let start = ahead.start_read();
        ahead.keep(start, "ada".into(), balances("1"));
        assert_eq!(ahead.take("bob"), None, "another user's");
        let start = ahead.start_read();
        ahead.keep(start, "ada".into(), balances("1"));
        assert_eq!(ahead.take("ada"), Some(balances("1")));
        assert_eq!(ahead.take("ada"), None, "once");
    }

    #[test]
    fn a_change_overlapping_the_read_from_either_side_drops_it() {
        // A change that starts during the read.
        let mut ahead = BalancesAhead::default();
        let start = ahead.start_read();
        ahead.change_started();
        ahead.keep(start, "ada".into(), balances("1"));
        ahead.change_ended();
        assert_eq!(ahead.take("ada"), None);

        // One under way when the read starts, ending during it.
        let mut ahead = BalancesAhead::default();
        ahead.change_started();
        let start = ahead.start_read();
        ahead.change_ended();
        ahead.keep(start, "ada".into(), balances("1"));
        assert_eq!(ahead.take("ada"), None);

        // One under way for the whole read.
        let mut ahead = BalancesAhead::default();
        ahead.change_started();
        let start = ahead.start_read();
        ahead.keep(start, "ada".into(), balances("1"));
        assert_eq!(ahead.take("ada"), None);
        ahead.change_ended();

        // One after the read drops what was kept.
        let start = ahead.start_read();
        ahead.keep(start, "ada".into(), balances("1"));
        ahead.change_started();
        ahead.change_ended();
        assert_eq!(ahead.take("ada"), None);

        // And a read after every change has ended is kept.
        let start = ahead.start_read();
        ahead.keep(start, "ada".into(), balances("2"));
        assert_eq!(ahead.take("ada"), Some(balances("2")));
    }
}
