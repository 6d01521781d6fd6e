//! The newest block of each network, for clients that wait for the next one
//! (`GET /v1/rpc/{network}/head`, the desktop's `newHeads`): one reader per
//! network and instance asks the node every `head_poll_ms` while anyone waits,
//! and every waiter is told at once; with nobody waiting, nothing is read.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use satchel_chain::Chain;
use serde_json::{Value, json};
use tokio::sync::watch;

/// How long the reader goes on after the last waiter left: the next wait of a
/// client that is told a block comes a moment later.
const LINGER: Duration = Duration::from_secs(5);

/// Clients waiting at once per network and instance; more are turned away.
pub const MAX_WAITERS: usize = 10_000;

/// A block as `newHeads` tells it: its header, without the transaction list.
#[derive(Debug, Clone)]
pub struct Head {
    pub number: u64,
    pub header: Arc<Value>,
}

/// One network's newest block, read while anyone waits for it.
#[derive(Debug)]
pub struct Heads {
    newest: watch::Sender<Option<Head>>,
    reading: AtomicBool,
}

impl Default for Heads {
    fn default() -> Self {
        Self {
            newest: watch::Sender::new(None),
            reading: AtomicBool::new(false),
        }
    }
}

impl Heads {
    /// The newest block once it is past `after` (at once when `after` is none,
    /// or ahead of the node, so that no caller can hold a wait with a number
    /// the chain has not reached), waiting at most `wait`; then the newest there
    /// is. None when the node has not told one.
    pub async fn next(
        self: &Arc<Self>,
        chain: &Chain,
        poll: Duration,
        after: Option<u64>,
        wait: Duration,
    ) -> Option<Head> {
        let mut newest = self.newest.subscribe();
        self.read_while_waited_for(chain, poll);
        let past = |head: &Option<Head>| {
            head.as_ref()
                .is_some_and(|h| after.is_none_or(|after| h.number > after || after > h.number + 1))
        };
        let _ = tokio::time::timeout(wait, newest.wait_for(past)).await;
        newest.borrow().clone()
    }

    /// Clients waiting now.
    pub fn waiters(&self) -> usize {
        self.newest.receiver_count()
    }

    /// Starts the network's reader unless it runs.
    fn read_while_waited_for(self: &Arc<Self>, chain: &Chain, poll: Duration) {
        if self.reading.swap(true, Ordering::SeqCst) {
            return;
        }
        let (heads, chain) = (self.clone(), chain.clone());
        tokio::spawn(async move {
            loop {
                heads.read(&chain, poll).await;
                heads.reading.store(false, Ordering::SeqCst);
                // A waiter that came as the reader stopped finds it stopped
                // and starts it; or it came before this store, and it is
                // started again here.
                if heads.newest.receiver_count() == 0 || heads.reading.swap(true, Ordering::SeqCst)
                {
                    break;
                }
            }
        });
    }

    /// Reads the newest block every `poll` until nobody has waited for
    /// [`LINGER`]; forgets it then (a later waiter is told a fresh one).
    async fn read(&self, chain: &Chain, poll: Duration) {
        let mut tick = tokio::time::interval(poll);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut unwatched_since: Option<Instant> = None;
        loop {
            tick.tick().await;
            if self.newest.receiver_count() > 0 {
                unwatched_since = None;
            } else if unwatched_since.get_or_insert_with(Instant::now).elapsed() >= LINGER {
                self.newest.send_replace(None);
                return;
            }
            let Ok(Value::Object(mut block)) = chain
                .relay("eth_getBlockByNumber", json!(["latest", false]))
                .await
            else {
                continue;
            };
            let Some(number) = block
                .get("number")
                .and_then(Value::as_str)
                .and_then(|n| u64::from_str_radix(n.trim_start_matches("0x"), 16).ok())
            else {
                continue;
            };
            block.remove("transactions");
            self.newest.send_if_modified(|newest| {
                if newest.as_ref().is_some_and(|h| h.number == number) {
                    return false;
                }
                *newest = Some(Head {
                    number,
                    header: Arc::new(Value::Object(block)),
                });
                true
            });
        }
    }
}
