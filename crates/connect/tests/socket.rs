//! The WebSocket transport over real loopback sockets: requests answered as
//! over HTTP (and not held by a waiting approval), the events a dapp listens
//! to (accountsChanged on disconnect and logout, chainChanged on a switch),
//! newHeads, and the bounds: the door's Host, sockets at once, subscriptions,
//! and a client that never reads.

mod common;

use std::sync::atomic::Ordering;
use std::time::Duration;

use common::socket::{PATIENCE, Socket, answer, next, open, open_when_free, send};
use common::{ADDRESS, DAPP, Running, code, start};
use futures::SinkExt as _;
use satchel_connect::socket::{MAX_SOCKETS, MAX_SOCKETS_PER_SITE, MAX_SUBSCRIPTIONS};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;

async fn subscribe(socket: &mut Socket, id: u64, topic: &str) -> String {
    send(socket, id, "eth_subscribe", json!([topic])).await;
    let (answer, _) = answer(socket, id).await;
    answer["result"]
        .as_str()
        .unwrap_or_else(|| panic!("a subscription id: {answer}"))
        .to_owned()
}

/// The next notification of subscription `id`.
async fn notified(socket: &mut Socket, id: &str) -> Value {
    loop {
        let message = next(socket).await;
        if message["method"] == "eth_subscription" && message["params"]["subscription"] == id {
            return message["params"]["result"].clone();
        }
    }
}

#[tokio::test]
async fn requests_are_answered_and_not_held_by_a_waiting_approval() {
    let running = start().await;
    let mut socket = open(&running, Some(DAPP)).await.expect("open");
    send(&mut socket, 1, "eth_chainId", json!([])).await;
    assert_eq!(answer(&mut socket, 1).await.0["result"], "0x7a69");
    // Not connected: no accounts, no signing, no blocks.
    send(&mut socket, 2, "eth_accounts", json!([])).await;
    assert_eq!(answer(&mut socket, 2).await.0["result"], json!([]));
    send(&mut socket, 3, "eth_subscribe", json!(["newHeads"])).await;
    assert_eq!(code(&answer(&mut socket, 3).await.0), 4100);
    // A connect waits for the person; the socket goes on answering meanwhile.
    send(&mut socket, 4, "eth_requestAccounts", json!([])).await;
    send(&mut socket, 5, "net_version", json!([])).await;
    assert_eq!(answer(&mut socket, 5).await.0["result"], "31337");
    let mut running = running;
    let (_, _, yes) = running.pages.recv().await.expect("a page");
    yes.send(true).expect("the page waits");
    assert_eq!(answer(&mut socket, 4).await.0["result"], json!([ADDRESS]));
    // Malformed JSON: -32700, and the socket stays.
    socket
        .send(Message::Text("{not json".into()))
        .await
        .expect("sent");
    assert_eq!(code(&next(&mut socket).await), -32700);
    send(&mut socket, 6, "eth_chainId", json!([])).await;
    assert_eq!(answer(&mut socket, 6).await.0["result"], "0x7a69");
}

#[tokio::test]
async fn a_dapp_is_told_when_its_accounts_and_chain_change() {
    let mut running = start().await;
    running.connect(DAPP).await;
    let mut socket = open(&running, Some(DAPP)).await.expect("open");
    let accounts = subscribe(&mut socket, 1, "accountsChanged").await;
    let chain = subscribe(&mut socket, 2, "chainChanged").await;

    send(
        &mut socket,
        3,
        "wallet_switchEthereumChain",
        json!([{"chainId": "0x1"}]),
    )
    .await;
    let (switched, _) = answer(&mut socket, 3).await;
    assert_eq!(switched["result"], Value::Null, "{switched}");
    assert_eq!(notified(&mut socket, &chain).await, "0x1");
    // The window is told of the switch, once: switching to where the site
    // already is tells nothing.
    send(
        &mut socket,
        6,
        "wallet_switchEthereumChain",
        json!([{"chainId": "0x1"}]),
    )
    .await;
    assert_eq!(answer(&mut socket, 6).await.0["result"], Value::Null);
    assert_eq!(
        *running.person.switches.lock().expect("lock"),
        [(DAPP.to_owned(), "ethereum".to_owned(), 1)]
    );

    // Logged out: the dapp sees no accounts; logged in again: they are back.
    running.person.logged_in.store(false, Ordering::SeqCst);
    running.person.logins.send_modify(|n| *n += 1);
    assert_eq!(notified(&mut socket, &accounts).await, json!([]));
    running.person.logged_in.store(true, Ordering::SeqCst);
    running.person.logins.send_modify(|n| *n += 1);
    assert_eq!(notified(&mut socket, &accounts).await, json!([ADDRESS]));

    // Disconnected (as Settings does): accountsChanged [].
    running
        .provider_permissions()
        .disconnect(&satchel_connect::Origin::Web(DAPP.into()))
        .expect("forgotten");
    assert_eq!(notified(&mut socket, &accounts).await, json!([]));
    // Unsubscribed: true once.
    send(&mut socket, 4, "eth_unsubscribe", json!([accounts])).await;
    assert_eq!(answer(&mut socket, 4).await.0["result"], true);
    send(&mut socket, 5, "eth_unsubscribe", json!([accounts])).await;
    assert_eq!(answer(&mut socket, 5).await.0["result"], false);
}

#[tokio::test]
async fn new_blocks_reach_every_subscriber() {
    let mut running = start().await;
    running.connect(DAPP).await;
    let mut first = open(&running, Some(DAPP)).await.expect("open");
    let mut second = open(&running, Some(DAPP)).await.expect("open");
    let a = subscribe(&mut first, 1, "newHeads").await;
    let b = subscribe(&mut second, 1, "newHeads").await;
    // Once the provider has been told the block there was and asks for the
    // next, a new one is news.
    heads_read(&running, "anvil", 2).await;
    running.person.block.store(2, Ordering::SeqCst);
    assert_eq!(notified(&mut first, &a).await["number"], "0x2");
    assert_eq!(notified(&mut second, &b).await["number"], "0x2");
    let head = notified(&mut first, &a);
    running.person.block.store(3, Ordering::SeqCst);
    let head = head.await;
    assert_eq!(head["number"], "0x3");
    assert!(head.get("transactions").is_none(), "a header: {head}");
}

/// Waits until the provider has asked `network`'s newest block `times` times.
async fn heads_read(running: &Running, network: &str, times: usize) {
    tokio::time::timeout(PATIENCE, async {
        loop {
            let read = running
                .person
                .reads
                .lock()
                .await
                .iter()
                .filter(|(n, m)| n == network && m == "head")
                .count();
            if read >= times {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("{network}'s newest block was asked for {times} times"));
}

/// A `logs` subscription is told the logs of each new block that match its
/// filter (read by the block's hash); a range, or an unconnected site, is refused.
#[tokio::test]
async fn a_logs_subscription_is_told_each_new_blocks_matching_logs() {
    const TOKEN: &str = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    let mut running = start().await;
    let mut socket = open(&running, Some(DAPP)).await.expect("open");
    send(
        &mut socket,
        1,
        "eth_subscribe",
        json!(["logs", {"address": TOKEN}]),
    )
    .await;
    assert_eq!(code(&answer(&mut socket, 1).await.0), 4100, "not connected");
    running.connect(DAPP).await;
    send(
        &mut socket,
        2,
        "eth_subscribe",
        json!(["logs", {"fromBlock": "0x0"}]),
    )
    .await;
    assert_eq!(code(&answer(&mut socket, 2).await.0), -32602, "a range");
    send(
        &mut socket,
        3,
        "eth_subscribe",
        json!(["logs", {"address": TOKEN, "topics": [null]}]),
    )
    .await;
    let (answered, _) = answer(&mut socket, 3).await;
    let logs = answered["result"].as_str().expect("an id").to_owned();
    heads_read(&running, "anvil", 1).await;
    running.person.block.store(2, Ordering::SeqCst);
    let log = notified(&mut socket, &logs).await;
    assert_eq!(log["address"], TOKEN);
    assert_eq!(log["blockHash"], format!("{:#066x}", 2));
}

/// A `newHeads` subscription follows its site (issue 45, item 6): after
/// `wallet_switchEthereumChain` it streams the new network's blocks, and once
/// the site is disconnected in Settings it is told no block.
#[tokio::test]
async fn a_new_heads_subscription_follows_a_switch_and_ends_on_disconnect() {
    const WITNESS: &str = "https://witness.example";
    let mut running = start().await;
    running.connect(DAPP).await;
    running.connect(WITNESS).await;
    let mut socket = open(&running, Some(DAPP)).await.expect("open");
    let heads = subscribe(&mut socket, 1, "newHeads").await;
    heads_read(&running, "anvil", 1).await;
    assert_eq!(
        running
            .person
            .reads
            .lock()
            .await
            .iter()
            .filter(|(n, _)| n == "ethereum")
            .count(),
        0
    );

    send(
        &mut socket,
        2,
        "wallet_switchEthereumChain",
        json!([{"chainId": "0x1"}]),
    )
    .await;
    assert_eq!(answer(&mut socket, 2).await.0["result"], Value::Null);
    // The subscription now reads the new network's blocks, and is told them.
    heads_read(&running, "ethereum", 2).await;
    running.person.block.store(2, Ordering::SeqCst);
    assert_eq!(notified(&mut socket, &heads).await["number"], "0x2");

    // A witness on the same network; then the site is disconnected.
    let mut witness = open(&running, Some(WITNESS)).await.expect("open");
    send(
        &mut witness,
        1,
        "wallet_switchEthereumChain",
        json!([{"chainId": "0x1"}]),
    )
    .await;
    assert_eq!(answer(&mut witness, 1).await.0["result"], Value::Null);
    let seen = subscribe(&mut witness, 2, "newHeads").await;
    running
        .provider_permissions()
        .disconnect(&satchel_connect::Origin::Web(DAPP.into()))
        .expect("forgotten");
    running.person.block.store(3, Ordering::SeqCst);
    assert_eq!(notified(&mut witness, &seen).await["number"], "0x3");
    send(&mut socket, 3, "eth_chainId", json!([])).await;
    let (_, notes) = answer(&mut socket, 3).await;
    assert!(
        notes
            .iter()
            .all(|n| n["params"]["subscription"] != json!(heads)),
        "a disconnected site was told a block: {notes:?}"
    );
    send(&mut socket, 4, "eth_subscribe", json!(["newHeads"])).await;
    assert_eq!(code(&answer(&mut socket, 4).await.0), 4100);
}

#[tokio::test]
async fn sockets_and_subscriptions_are_bounded_and_a_client_that_never_reads_is_let_go() {
    let running = start().await;
    // A rebinding page's Host: refused before the upgrade.
    let mut request = format!("ws://127.0.0.1:{}/", running.provider.port)
        .into_client_request()
        .expect("request");
    request.headers_mut().insert(
        "host",
        format!("evil.example:{}", running.provider.port)
            .parse()
            .expect("host"),
    );
    let refused = tokio_tungstenite::connect_async(request).await;
    assert!(refused.is_err(), "a rebinding Host is refused");

    // Subscriptions per socket.
    let mut socket = open(&running, Some(DAPP)).await.expect("open");
    for i in 0..MAX_SUBSCRIPTIONS as u64 {
        subscribe(&mut socket, i, "chainChanged").await;
    }
    send(&mut socket, 99, "eth_subscribe", json!(["chainChanged"])).await;
    assert_eq!(code(&answer(&mut socket, 99).await.0), -32600);

    // One site holds at most a few sockets; another site still gets in.
    let mut site = vec![socket];
    for _ in 1..MAX_SOCKETS_PER_SITE {
        site.push(open(&running, Some(DAPP)).await.expect("open"));
    }
    assert!(
        open(&running, Some(DAPP)).await.is_err(),
        "past {MAX_SOCKETS_PER_SITE} for one site"
    );
    let other = open(&running, Some("https://other.example")).await;
    assert!(other.is_ok(), "another site gets in");
    let socket = site.pop().expect("one");
    site.clear();
    drop(other);

    // Sockets at once: past the bound, refused; the app still answers HTTP.
    let mut held = vec![socket];
    for _ in 1..MAX_SOCKETS {
        // The site's sockets just closed free their places as Satchel sees them go.
        held.push(open_when_free(&running).await);
    }
    assert!(open(&running, None).await.is_err(), "past {MAX_SOCKETS}");
    let chain = running.call(None, "eth_chainId", json!([])).await;
    assert_eq!(chain["result"], "0x7a69");
    held.clear();

    // A client that sends and never reads: let go once its answers pile up;
    // the others are served all along.
    let mut greedy = open(&running, None).await.expect("a socket again");
    // Batches of 20: each message is 20 answers the client leaves unread, far
    // past what the kernel's buffers hold before the server's queue fills.
    let batch: Vec<Value> = (0..20)
        .map(|i| json!({"jsonrpc": "2.0", "id": i, "method": "eth_chainId"}))
        .collect();
    let batch = Value::Array(batch).to_string();
    let sending = tokio::spawn(async move {
        for _ in 0..200_000 {
            if greedy
                .send(Message::Text(batch.clone().into()))
                .await
                .is_err()
            {
                return true;
            }
        }
        false
    });
    let chain = running.call(None, "eth_chainId", json!([])).await;
    assert_eq!(chain["result"], "0x7a69");
    assert!(
        sending.await.expect("joined"),
        "the greedy socket was let go"
    );
    let mut after = open(&running, Some(DAPP)).await.expect("open after");
    send(&mut after, 1, "eth_chainId", json!([])).await;
    assert_eq!(answer(&mut after, 1).await.0["result"], "0x7a69");
}
