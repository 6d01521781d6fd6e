//! The quotes the page may confirm, kept on the device: what is signed is
//! exactly what the page showed, and only for a while.

use std::collections::{HashMap, VecDeque};
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
    /// A speed-up or cancel: signed at its nonce, whatever was signed since.
    pub(super) replaces: bool,
}

/// The quotes the page may confirm and the application's `send` waiting on it.
#[derive(Debug, Default)]
pub(crate) struct Sends {
    pub(super) quotes: VecDeque<StoredQuote>,
    pub(super) waiting: Option<(u64, oneshot::Sender<Result<SendResult, SdkError>>)>,
    pub(super) next_request: u64,
    /// Per chain and account, the highest nonce this device had broadcast and
    /// when (at most [`SIGNERS_KEPT`], none older than a quote may be).
    last_sent: HashMap<(u64, Address), (u64, Instant)>,
}

/// Accounts whose last nonce is kept: far more than a person sends from within
/// a quote's lifetime.
pub(super) const SIGNERS_KEPT: usize = 64;

impl Sends {
    pub(super) fn keep(&mut self, quote: StoredQuote) {
        self.quotes.retain(|q| q.made.elapsed() < QUOTE_LIFETIME);
        while self.quotes.len() >= QUOTES_KEPT {
            self.quotes.pop_front();
        }
        self.quotes.push_back(quote);
    }

    /// The nonce `quote` is signed at. The service quotes the account's next
    /// nonce when a page is made, so two pages made before either was
    /// confirmed (a dapp's two requests in the queue) carry the same one, and
    /// the second would replace the first. As MetaMask's nonce tracker does,
    /// a quote made before this device broadcast that nonce takes the next
    /// one; a replacement keeps its own.
    pub(super) fn nonce_for(&self, quote: &StoredQuote) -> u64 {
        match self.last_sent.get(&(quote.chain_id, quote.from)) {
            Some(&(sent, at)) if !quote.replaces && at > quote.made && sent >= quote.nonce => {
                sent + 1
            }
            _ => quote.nonce,
        }
    }

    /// Notes that `nonce` of `from` on `chain_id` was broadcast.
    pub(super) fn sent(&mut self, chain_id: u64, from: Address, nonce: u64) {
        self.last_sent
            .retain(|_, (_, at)| at.elapsed() < QUOTE_LIFETIME);
        if self.last_sent.len() >= SIGNERS_KEPT {
            self.last_sent.clear();
        }
        let key = (chain_id, from);
        let highest = self
            .last_sent
            .get(&key)
            .map_or(nonce, |&(sent, _)| sent.max(nonce));
        self.last_sent.insert(key, (highest, Instant::now()));
    }

    #[cfg(test)]
    pub(super) fn last_sent_len(&self) -> usize {
        self.last_sent.len()
    }

    pub(super) fn take(&mut self, id: &str) -> Option<StoredQuote> {
        let at = self.quotes.iter().position(|q| q.id == id)?;
        self.quotes
            .remove(at)
            .filter(|q| q.made.elapsed() < QUOTE_LIFETIME)
    }
}
