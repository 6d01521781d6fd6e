//! A socket's subscriptions: `eth_subscribe` and `eth_unsubscribe` answered,
//! the blocks (or their matching logs) told to each `newHeads` and `logs`
//! subscriber while its origin is connected, and `accountsChanged` and
//! `chainChanged` told whenever what the origin sees changes.

use std::sync::Arc;

use serde_json::{Value, json};
use tokio::sync::broadcast;

use super::logs::{Follows, MAX_LOGS_PER_BLOCK, logs_filter};
use super::{
    Heads, MAX_SUBSCRIPTIONS, Outbox, Subscriptions, Topic, notification, subscription_id,
};
use crate::methods::{Methods, Via};
use crate::origin::Origin;
use crate::rpc::{ProviderError, Request};
use crate::wallet::Wallet;

/// Answers `eth_subscribe` and `eth_unsubscribe`; `None` for other methods.
pub(super) async fn subscribe<W: Wallet>(
    methods: &Arc<Methods<W>>,
    heads: &Arc<Heads>,
    (origin, via): (&Origin, Via),
    subscriptions: &Subscriptions,
    outbox: &Outbox,
    request: &Request,
    heads_tasks: &mut tokio::task::JoinSet<()>,
) -> Option<Result<Value, ProviderError>> {
    match request.method.as_str() {
        "eth_unsubscribe" => {
            let id = request
                .params
                .get(0)
                .and_then(Value::as_str)
                .unwrap_or_default();
            let removed = subscriptions
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(id);
            Some(Ok(json!(removed.is_some())))
        }
        "eth_subscribe" => Some(
            async {
                let topic = match request.params.get(0).and_then(Value::as_str) {
                    Some("newHeads") => Topic::NewHeads,
                    Some("logs") => Topic::Logs,
                    Some("accountsChanged") => Topic::AccountsChanged,
                    Some("chainChanged") => Topic::ChainChanged,
                    _ => {
                        return Err(ProviderError::invalid_params(
                            "Satchel's subscriptions: newHeads, logs, accountsChanged, chainChanged",
                        ));
                    }
                };
                let follows = match topic {
                    Topic::NewHeads => Some(Follows::Heads),
                    Topic::Logs => Some(Follows::Logs(logs_filter(request.params.get(1))?)),
                    _ => None,
                };
                let id = subscription_id();
                {
                    let mut all = subscriptions.lock().unwrap_or_else(|e| e.into_inner());
                    if all.len() >= MAX_SUBSCRIPTIONS {
                        return Err(ProviderError::invalid_request(format!(
                            "a connection holds at most {MAX_SUBSCRIPTIONS} subscriptions"
                        )));
                    }
                    if follows.is_some() {
                        // Blocks and logs are reads: only for a connected origin.
                        if !methods.is_connected_via(origin, via) {
                            return Err(ProviderError::unauthorized());
                        }
                    }
                    all.insert(id.clone(), topic);
                }
                if let Some(follows) = follows {
                    let (network, _) = methods.network_of(origin)?;
                    heads_tasks.spawn(follow_heads(
                        methods.clone(),
                        heads.clone(),
                        (origin.clone(), via),
                        Subscriber {
                            id: id.clone(),
                            subscriptions: subscriptions.clone(),
                            outbox: outbox.clone(),
                        },
                        network,
                        follows,
                    ));
                }
                Ok(json!(id))
            }
            .await,
        ),
        _ => None,
    }
}

/// One subscription of a socket: its id, the socket's subscriptions, and
/// where its notifications go.
struct Subscriber {
    id: String,
    subscriptions: Subscriptions,
    outbox: Outbox,
}

impl Subscriber {
    fn is_on(&self) -> bool {
        self.subscriptions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(&self.id)
    }

    fn end(&self) {
        self.subscriptions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.id);
    }
}

/// Tells a `newHeads` subscriber the blocks of its origin's network while the
/// origin is connected (a `logs` subscriber each block's logs that match its
/// filter, read by the block's hash): after a switch, the new network's (its
/// `chainChanged` subscribers are told of the switch); a disconnect ends the
/// subscription, and nothing is told to an origin no longer connected.
async fn follow_heads<W: Wallet>(
    methods: Arc<Methods<W>>,
    heads: Arc<Heads>,
    (origin, via): (Origin, Via),
    subscriber: Subscriber,
    mut network: String,
    follows: Follows,
) {
    let mut blocks = heads.subscribe(methods.wallet(), &network);
    let mut permissions = methods.permissions().watch();
    let mut wallet = methods.wallet().changes();
    loop {
        tokio::select! {
            block = blocks.recv() => match block {
                Ok(block) => {
                    if !subscriber.is_on() || !methods.is_connected_via(&origin, via) {
                        break;
                    }
                    match &follows {
                        Follows::Heads => subscriber.outbox.send(&notification(&subscriber.id, block)),
                        Follows::Logs(filter) => {
                            let Some(hash) = block.get("hash").cloned() else { continue };
                            let mut query = filter.clone();
                            query.insert("blockHash".into(), hash);
                            let logs = methods.wallet().read(&network, "eth_getLogs", json!([query])).await;
                            if let Ok(Value::Array(logs)) = logs {
                                for log in logs.into_iter().take(MAX_LOGS_PER_BLOCK) {
                                    subscriber.outbox.send(&notification(&subscriber.id, log));
                                }
                            }
                        }
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => break,
            },
            changed = permissions.changed() => if changed.is_err() { break },
            changed = wallet.changed() => if changed.is_err() { break },
        }
        if !methods.is_connected_via(&origin, via) {
            break;
        }
        match methods.network_of(&origin) {
            Ok((now, _)) if now != network => {
                network = now;
                blocks = heads.subscribe(methods.wallet(), &network);
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    subscriber.end();
}

/// Tells the socket's `accountsChanged` and `chainChanged` subscribers what
/// the origin sees, each time it changes.
pub(super) async fn watch_events<W: Wallet>(
    methods: Arc<Methods<W>>,
    origin: Origin,
    via: Via,
    subscriptions: Subscriptions,
    outbox: Outbox,
) {
    let mut permissions = methods.permissions().watch();
    let mut wallet = methods.wallet().changes();
    let mut last: Option<(Value, Value)> = None;
    loop {
        let accounts = if methods.speaks_for(&origin, via) {
            json!(methods.accounts_of(&origin).await)
        } else {
            json!([])
        };
        let chain = methods
            .network_of(&origin)
            .map_or(Value::Null, |(_, id)| json!(format!("{id:#x}")));
        let now = (accounts, chain);
        if let Some((accounts_before, chain_before)) = &last {
            let topics: Vec<(String, Topic)> = subscriptions
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .iter()
                .map(|(id, topic)| (id.clone(), *topic))
                .collect();
            for (id, topic) in topics {
                match topic {
                    Topic::AccountsChanged if *accounts_before != now.0 => {
                        outbox.send(&notification(&id, now.0.clone()));
                    }
                    Topic::ChainChanged if *chain_before != now.1 => {
                        outbox.send(&notification(&id, now.1.clone()));
                    }
                    _ => {}
                }
            }
        }
        last = Some(now);
        tokio::select! {
            changed = permissions.changed() => if changed.is_err() { break },
            changed = wallet.changed() => if changed.is_err() { break },
        }
    }
}
