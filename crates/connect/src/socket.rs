//! The WebSocket transport: JSON-RPC 2.0 on `ws://127.0.0.1:<port>/`, each
//! request answered as over HTTP (requests run at once, so a waiting approval
//! does not hold the others), plus subscriptions (`eth_subscribe`):
//! `newHeads`, and Frame's `accountsChanged` and `chainChanged`, told as
//! `eth_subscription` notifications whenever what the origin sees changes
//! (a connect or disconnect, a network switch, a login or logout).
//!
//! Everything is bounded: sockets at once, subscriptions and requests in
//! flight per socket, a message's size, and what waits to be written: a
//! client that does not read is disconnected, and nobody else waits for it.
//! The subscriptions are in `socket/subscriptions.rs`, a `logs` filter in
//! `socket/logs.rs`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use futures::{SinkExt as _, StreamExt as _};
use serde_json::{Value, json};
use tokio::sync::{Notify, Semaphore, broadcast, mpsc};

use crate::methods::{Methods, Via};
use crate::origin::Origin;
use crate::rpc::{self, Call, ProviderError};
use crate::wallet::Wallet;

/// WebSocket connections at once; more are refused (503). Room for a browser
/// full of dapp tabs and the programs beside it; each is bounded below.
pub const MAX_SOCKETS: usize = 128;

/// WebSockets one web page origin may hold of them.
pub const MAX_SOCKETS_PER_SITE: usize = 16;
/// Subscriptions one socket may hold.
pub const MAX_SUBSCRIPTIONS: usize = 16;
/// Requests one socket may have in flight; reading waits past it.
const IN_FLIGHT: usize = 8;
/// Messages waiting to be written to one socket; past it the client is not
/// reading, and is disconnected.
const OUTBOX: usize = 64;
/// How long the provider waits before asking the service for blocks again
/// after it failed, or told a block older than one already told (an instance
/// behind another).
pub const HEADS_RETRY: Duration = Duration::from_secs(1);

/// What a subscription is to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Topic {
    NewHeads,
    /// The logs of each new block that match the subscription's filter.
    Logs,
    AccountsChanged,
    ChainChanged,
}

mod logs;
mod subscriptions;

pub use logs::MAX_LOGS_PER_BLOCK;
use subscriptions::{subscribe, watch_events};

/// The latest blocks of each network, read once for every subscriber.
#[derive(Default)]
pub struct Heads {
    feeds: Mutex<HashMap<String, broadcast::Sender<Value>>>,
}

impl Heads {
    /// New blocks of `network`, asked for while anyone listens: the service
    /// answers each ask when the next block is there (one reader of the node
    /// for every client), so a subscriber is told as soon as it is.
    fn subscribe<W: Wallet>(&self, wallet: &Arc<W>, network: &str) -> broadcast::Receiver<Value> {
        let mut feeds = self.feeds.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(feed) = feeds.get(network)
            && feed.receiver_count() > 0
        {
            return feed.subscribe();
        }
        let (feed, receiver) = broadcast::channel(16);
        feeds.insert(network.to_owned(), feed.clone());
        let (wallet, network) = (wallet.clone(), network.to_owned());
        tokio::spawn(async move {
            let mut last: Option<u64> = None;
            while feed.receiver_count() > 0 {
                let head = wallet.next_head(&network, last).await;
                let Ok(Value::Object(mut block)) = head else {
                    tokio::time::sleep(HEADS_RETRY).await;
                    continue;
                };
                let number = block
                    .get("number")
                    .and_then(Value::as_str)
                    .and_then(|n| u64::from_str_radix(n.trim_start_matches("0x"), 16).ok());
                match (number, last) {
                    // The block there was at the start is not news.
                    (Some(number), None) => last = Some(number),
                    (Some(number), Some(told)) if number > told => {
                        last = Some(number);
                        // A header: the block without its transaction list.
                        block.remove("transactions");
                        let _ = feed.send(Value::Object(block));
                    }
                    // The wait ran out with no new block: ask again.
                    (Some(number), Some(told)) if number == told => {}
                    _ => tokio::time::sleep(HEADS_RETRY).await,
                }
            }
        });
        receiver
    }
}

/// The answers and notifications waiting for one socket, and its closing.
#[derive(Clone)]
struct Outbox {
    messages: mpsc::Sender<Message>,
    closing: Arc<Notify>,
}

impl Outbox {
    /// Queues `value`; a full queue closes the socket.
    fn send(&self, value: &Value) {
        let text = value.to_string();
        if self.messages.try_send(Message::Text(text.into())).is_err() {
            self.closing.notify_one();
        }
    }
}

/// One socket's subscriptions: id → topic (and the network of `newHeads`).
type Subscriptions = Arc<Mutex<HashMap<String, Topic>>>;

fn subscription_id() -> String {
    format!("0x{:032x}", rand::random::<u128>())
}

fn notification(id: &str, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": "eth_subscription", "params": {"subscription": id, "result": result}})
}

/// Serves one socket of `origin` (which came `via` the endpoint or the
/// browser extension) until it closes or `ended` resolves (the extension that
/// opened it was unlinked).
pub(crate) async fn serve<W: Wallet>(
    methods: Arc<Methods<W>>,
    heads: Arc<Heads>,
    (origin, via): (Origin, Via),
    socket: WebSocket,
    ended: impl std::future::Future<Output = ()>,
) {
    let mut ended = std::pin::pin!(ended);
    let (mut sink, mut stream) = socket.split();
    let (messages, mut queued) = mpsc::channel::<Message>(OUTBOX);
    let outbox = Outbox {
        messages,
        closing: Arc::new(Notify::new()),
    };
    let writer = tokio::spawn(async move {
        while let Some(message) = queued.recv().await {
            if sink.send(message).await.is_err() {
                break;
            }
        }
    });
    let subscriptions: Subscriptions = Arc::default();
    let watcher = tokio::spawn(watch_events(
        methods.clone(),
        origin.clone(),
        via,
        subscriptions.clone(),
        outbox.clone(),
    ));
    let mut heads_tasks = tokio::task::JoinSet::new();
    // The requests being answered: ended with the socket, so a request of a
    // socket that closed (an extension unlinked, a page gone) leaves no page
    // waiting for the person.
    let mut requests_tasks = tokio::task::JoinSet::new();
    let in_flight = Arc::new(Semaphore::new(IN_FLIGHT));
    'reading: loop {
        let message = tokio::select! {
            message = stream.next() => message,
            () = outbox.closing.notified() => break 'reading,
            () = &mut ended => break 'reading,
        };
        let text = match message {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Binary(_))) => {
                outbox.send(&rpc::answer(
                    Value::Null,
                    Err(ProviderError::invalid_request("a request is JSON text")),
                ));
                continue;
            }
            Some(Ok(_)) => continue,
            None | Some(Err(_)) => break 'reading,
        };
        let requests = match rpc::parse(text.as_bytes()) {
            Err(error) => {
                outbox.send(&rpc::answer(Value::Null, Err(error)));
                continue;
            }
            Ok(Call::Single(request)) => vec![request],
            // A batch over a socket is answered one by one (in order); each
            // answer carries its id.
            Ok(Call::Batch(requests)) => requests,
        };
        for request in requests {
            let request = match request {
                Ok(request) => request,
                Err((id, error)) => {
                    outbox.send(&rpc::answer(id, Err(error)));
                    continue;
                }
            };
            if let Some(answer) = subscribe(
                &methods,
                &heads,
                (&origin, via),
                &subscriptions,
                &outbox,
                &request,
                &mut heads_tasks,
            )
            .await
            {
                outbox.send(&rpc::answer(request.id, answer));
                continue;
            }
            // Waiting for a place ends when the socket does.
            let slot = tokio::select! {
                slot = in_flight.clone().acquire_owned() => slot,
                () = outbox.closing.notified() => break 'reading,
                () = &mut ended => break 'reading,
            };
            let Ok(slot) = slot else {
                break 'reading;
            };
            while requests_tasks.try_join_next().is_some() {}
            let (methods, origin, outbox) = (methods.clone(), origin.clone(), outbox.clone());
            requests_tasks.spawn(async move {
                let answer = methods.call_via(&origin, via, &request).await;
                outbox.send(&rpc::answer(request.id, answer));
                drop(slot);
            });
        }
    }
    watcher.abort();
    writer.abort();
    heads_tasks.abort_all();
    requests_tasks.abort_all();
}
