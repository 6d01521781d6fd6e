//! The quotes the page may confirm, kept on the device: what is signed is
//! exactly what the page showed, and only for a while.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use alloy::primitives::{Address, Bytes, U256};
use tokio::sync::oneshot;

use super::{FeeSpeed, SendResult};
use crate::error::SdkError;

/// How long a quote may be confirmed: the fees and nonce go stale after that.
pub(super) const QUOTE_LIFETIME: Duration = Duration::from_secs(10 * 60);
/// Quotes kept at once (the newest); the page needs only its current one.
pub(super) const QUOTES_KEPT: usize = 8;

/// What is signed when a quote is confirmed.
#[derive(Debug, Clone)]
pub(super) struct StoredQuote {
    pub(super) id: String,
    pub(super) made: Instant,
    pub(super) account_id: String,
    pub(super) chain_id: u64,
    pub(super) from: Address,
    pub(super) nonce: u64,
    pub(super) gas_limit: u64,
    pub(super) to: alloy::primitives::TxKind,
    pub(super) value: U256,
    pub(super) input: Bytes,
    /// (speed, max fee per gas, max priority fee per gas), in wei.
    pub(super) fees: Vec<(FeeSpeed, u128, u128)>,
    /// The speeds whose fee is unusually high: confirmed only when accepted.
    pub(super) high_fees: Vec<FeeSpeed>,
}

/// The quotes the page may confirm and the application's `send` waiting on it.
#[derive(Debug, Default)]
pub(crate) struct Sends {
    pub(super) quotes: VecDeque<StoredQuote>,
    pub(super) waiting: Option<(u64, oneshot::Sender<Result<SendResult, SdkError>>)>,
    pub(super) next_request: u64,
}

impl Sends {
    pub(super) fn keep(&mut self, quote: StoredQuote) {
        self.quotes.retain(|q| q.made.elapsed() < QUOTE_LIFETIME);
        while self.quotes.len() >= QUOTES_KEPT {
            self.quotes.pop_front();
        }
        self.quotes.push_back(quote);
    }

    pub(super) fn take(&mut self, id: &str) -> Option<StoredQuote> {
        let at = self.quotes.iter().position(|q| q.id == id)?;
        self.quotes
            .remove(at)
            .filter(|q| q.made.elapsed() < QUOTE_LIFETIME)
    }
}
